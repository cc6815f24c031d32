import ArgumentParser
import Foundation
import UniversalLinks
import Verification

@main
struct SpotCheck: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "spotcheck",
        abstract: "Checks the web markup Apple's app search reads: Smart App Banner, Open Graph, schema.org.",
        discussion: """
            Exit codes: 0 success; 3 some input could not be read (named on stderr, every other \
            input still processed); 4 no HTML input at all; 64 bad command line.
            """,
        version: "0.1.0",
        subcommands: [
            Crawl.self, Report.self, Diff.self, Extract.self, Validate.self, Robots.self, AASA.self, Index.self,
            Rules.self, Serve.self,
        ]
    )
}

/// Exit codes shared by the subcommands (docs/cli.md).
enum SpotCheckExit {
    static let someInputsFailed = ExitCode(3)
    static let noInput = ExitCode(4)
    static let reportNotWritable = ExitCode(5)
    static let crawlFailed = ExitCode(6)
    static let badConfiguration = ExitCode(7)
    /// `--items` or `--index` cannot be read (the file, or the index database).
    static let badLocalItems = ExitCode(8)
    /// Findings at or above `--fail-on` (the report is written first).
    static let findingsFailed = ExitCode(1)
}

/// Options shared by `extract` and `validate`.
struct ExtractionOptions: ParsableArguments {
    @Option(help: "Number of pages processed in parallel (default: all cores).")
    var jobs: Int?

    @Option(help: "Largest page read, in bytes; larger files are refused.")
    var maxPageBytes: Int = 16 << 20

    @Flag(help: "Value Microdata elements by WHATWG rules only (a `content` attribute counts on <meta> alone).")
    var microdataWhatwg = false

    @Flag(help: "Skip RDFa processing.")
    var noRdfa = false

    @Option(help: "Character encoding to decode pages with, overriding <meta charset>.")
    var encoding: String?

    var resolvedJobs: Int { max(1, jobs ?? ProcessInfo.processInfo.activeProcessorCount) }

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        if maxPageBytes < 1 { throw ValidationError("--max-page-bytes must be positive") }
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
        help: "Override a rule: ID=off|error|warning|info (repeatable; wins over .spotcheck.json).")
    var rule: [String] = []

    @Option(help: "Exit 1 when a finding is at least this severe: error, warning, info or never.")
    var failOn: FailOn = .never

    enum FailOn: String, ExpressibleByArgument, CaseIterable {
        case error, warning, info, never

        /// Whether findings of these severities fail the run.
        func fails(_ severities: some Sequence<Severity>) -> Bool {
            guard let threshold = Severity(rawValue: rawValue) else { return false }
            return severities.contains { $0 >= threshold }
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

    /// The verifier: `.spotcheck.json` in the working directory, then `--rule`, then `--app-id`.
    func makeVerifier() throws(RuleConfigurationError) -> PageVerifier {
        PageVerifier(
            configuration: try Rules.loadConfiguration(overrides: rule), appStoreID: appStoreID, appIDs: appIDs)
    }
}
