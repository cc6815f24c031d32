import ArgumentParser
import Crawling
import Foundation
import Reports
import Rulebook
import URLNormalization
import UniversalLinks
import Verification

@main
struct SpotCheck: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "spotcheck",
        abstract: "Checks the web markup Apple's app search reads: Smart App Banner, Open Graph, schema.org.",
        discussion: "Exit codes (the same for every subcommand): \(ExitStatus.table).",
        version: CrawlSettings.toolVersion,
        subcommands: [
            Crawl.self, Report.self, Diff.self, Extract.self, Validate.self, Robots.self, AASA.self, Index.self,
            Rules.self, Serve.self, Worker.self, Crawls.self,
        ]
    )

    /// ArgumentParser's entry point, with the one exit-code table: a command throws an
    /// `ExitStatus` and the process exits with its code. The project configuration file's options
    /// come before the command line's (`ProjectFile`).
    static func main() async {
        Console.bootstrap()
        do {
            if let help = HelpLayout.text(for: Array(CommandLine.arguments.dropFirst())) {
                FileHandle.standardOutput.write(Data((help + "\n").utf8))
                return
            }
            try CommandName.check(Array(CommandLine.arguments.dropFirst()))
            let project = try ProjectFile.resolve(FoldedPaths.fold(Array(CommandLine.arguments.dropFirst())))
            var command = try project.parse()
            project.announce()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let status as ExitStatus {
            Foundation.exit(status.rawValue)
        } catch {
            exit(withError: error)
        }
    }

    /// `spotcheck` with no subcommand: the help goes to stderr and the exit status is 64, so a CI
    /// step that lost its subcommand fails instead of passing (issue 31).
    func run() async throws {
        FileHandle.standardError.write(Data((Self.helpMessage() + "\n").utf8))
        throw ExitStatus.usage
    }
}

/// `--microdata-whatwg` and `--microdata-content-anywhere` (extract, validate, crawl).
enum MicrodataReading {
    static let whatwgHelp =
        "Drop an itemscope with an itemprop that no item claims, as WHATWG's Microdata does (default: extracted as a top-level item marked orphan)."
    static let contentAnywhereHelp =
        "Read a `content` attribute on any Microdata element in place of its text, as schema.org's examples, Google and extruct do (default: on <meta> only, as WHATWG's Microdata says)."

    /// The two options contradict each other.
    static func validate(whatwg: Bool, contentAnywhere: Bool) throws {
        if whatwg && contentAnywhere {
            throw ValidationError("--microdata-whatwg and --microdata-content-anywhere contradict each other: give one")
        }
    }
}

/// Options shared by `extract` and `validate`.
struct ExtractionOptions: ParsableArguments {
    @Option(
        name: .shortAndLong, parsing: .unconditional,
        help: "Number of pages processed in parallel (default: all cores).")
    var jobs: Int?

    @Option(parsing: .unconditional, help: "Largest page read, in bytes; larger files are refused.")
    var maxPageBytes: Int = 16 << 20

    @Flag(help: ArgumentHelp(MicrodataReading.whatwgHelp))
    var microdataWhatwg = false

    @Flag(help: ArgumentHelp(MicrodataReading.contentAnywhereHelp))
    var microdataContentAnywhere = false

    @Flag(help: "Skip RDFa processing.")
    var noRdfa = false

    @Option(help: "Character encoding to decode pages with, overriding <meta charset>.")
    var encoding: String?

    var resolvedJobs: Int { max(1, jobs ?? ProcessInfo.processInfo.activeProcessorCount) }

    /// `--base-url` must be an absolute URL: without a scheme, `www.example.com` would make pages
    /// `www.example.com/about.html`. The message says what to write instead.
    static func checkBaseURL(_ value: String?) throws(ValidationError) {
        guard let value else { return }
        if let url = URLParser.parse(value), url.opaquePath == nil, url.host != nil || url.scheme == "file" { return }
        let suggestion = URLParser.parse("https://" + value).flatMap { $0.host?.contains(".") == true ? $0 : nil }
        throw ValidationError(
            "--base-url \(value): not an absolute URL (it needs a scheme and a host), so pages would get URLs like "
                + "\(value.hasSuffix("/") ? value : value + "/")about.html; write "
                + (suggestion.map { "--base-url \($0.serialized(includingFragment: true))" }
                    ?? "a URL such as --base-url https://www.example.com/"))
    }

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        if maxPageBytes < 1 { throw ValidationError("--max-page-bytes must be positive") }
        try MicrodataReading.validate(whatwg: microdataWhatwg, contentAnywhere: microdataContentAnywhere)
    }
}

/// Options of the commands that check pages against the rule catalogue (`validate`, `crawl`).
struct VerificationOptions: ParsableArguments {
    @Option(
        name: .customLong("app-id"), help: "The app's App Store ID (digits), for the app-specific rules (SAB020 …).")
    var appStoreID: String?

    @Option(
        name: .customLong("app"), parsing: .singleValue,
        help: "The app's ID, TEAMID.bundle.id, for the universal-link rules (UL019, UL020 …; repeatable).")
    var appIDs: [String] = []

    @Option(
        parsing: .singleValue,
        help: "Override a rule or group (SAB*): ID=off|error|warning|info (repeatable; wins over .spotcheck.json).")
    var rule: [String] = []

    @OptionGroup var project: ConfigOption

    @Option(
        parsing: .singleValue,
        help: "Neither fetch nor check pages matching this URL or path pattern (repeatable; docs/config.md).")
    var ignore: [String] = []

    @Option(help: "Exit 1 when a finding is at least this severe: error, warning, info or never.")
    var failOn: FailOn = .never

    enum FailOn: String, ExpressibleByArgument, CaseIterable {
        case error, warning, info, never

        /// When findings reach the threshold: says on stderr which threshold was crossed and by
        /// how many findings, then throws `ExitStatus.verdictNegative`. With a baseline, `counts`
        /// are the new findings and the line says so.
        func check(_ counts: [Severity: Int], report: String, baseline: BaselineMatch? = nil) throws(ExitStatus) {
            guard let line = verdict(counts, report: report, baseline: baseline) else { return }
            Console.log.notice("\(line)")
            throw .verdictNegative
        }

        /// The line that explains exit 1, e.g. `--fail-on warning: 3 findings at or above warning
        /// (1 error, 2 warning), so the exit status is 1; they are listed in reports/x/report.json`;
        /// nil when no finding reaches the threshold. With a baseline: "new findings", and how many
        /// known ones it suppressed.
        func verdict(_ counts: [Severity: Int], report: String, baseline: BaselineMatch? = nil) -> String? {
            guard let threshold = Severity(rawValue: rawValue) else { return nil }
            let crossing = Severity.allCases.reversed().filter { $0 >= threshold && counts[$0, default: 0] > 0 }
            guard !crossing.isEmpty else { return nil }
            let total = crossing.reduce(0) { $0 + counts[$1, default: 0] }
            let bySeverity = crossing.map { "\(counts[$0, default: 0]) \($0.rawValue)" }.joined(separator: ", ")
            let new = baseline == nil ? "" : "new "
            let suppressed = baseline.map { match in
                " (the baseline \(match.baseline.file ?? "") suppressed \(match.suppressed) known "
                    + "finding\(match.suppressed == 1 ? "" : "s"))"
            }
            return
                "--fail-on \(rawValue): \(total) \(new)finding\(total == 1 ? "" : "s") at or above \(threshold.rawValue) "
                + "(\(bySeverity)), so the exit status is 1; they are listed in \(report)\(suppressed ?? "")"
        }
    }

    func validate() throws {
        if let appStoreID, appStoreID.isEmpty || !appStoreID.allSatisfy({ $0.isASCII && $0.isNumber }) {
            throw ValidationError("--app-id takes the numeric App Store ID, e.g. 1234567890")
        }
        for app in appIDs {
            if let problem = AppIDFormat.problem(app) {
                throw ValidationError("--app takes an app ID, TEAMID.bundle.id: \(app) \(problem)")
            }
        }
    }

    /// The verifier: the project configuration file's rules, then `--rule`, then `--app-id`.
    func makeVerifier() throws -> PageVerifier {
        PageVerifier(
            configuration: try Rules.loadConfiguration(file: project.config, overrides: rule), appStoreID: appStoreID,
            appIDs: appIDs)
    }
}
