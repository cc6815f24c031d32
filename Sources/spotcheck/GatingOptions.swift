import ArgumentParser
import Crawling
import Foundation
import Reports
import Rulebook
import Verification

/// `--baseline FILE` and `--write-baseline FILE` (`validate`, `crawl`): known findings are
/// suppressed and `--fail-on` counts only new ones (docs/cli.md, "Baselines").
struct BaselineOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            """
            Known findings: a baseline file (--write-baseline) or an earlier report.json or crawl folder (a crawl \
            also compares the two reports: baseline-diff.json). They are left out of the listing, GitHub, GitLab, \
            JUnit and --fail-on, and marked in SARIF and report.json.
            """, valueName: "file"))
    var baseline: String?

    @Option(
        help: ArgumentHelp(
            "Write every finding of this run to a baseline file (for a later --baseline).", valueName: "file"))
    var writeBaseline: String?

    /// `validate`'s baseline, read before any page: file pages are named relative to the working
    /// directory. An unreadable baseline exits 3, a `--write-baseline` that cannot be written 5.
    func read(sourceRoot: String) throws -> FindingBaseline? {
        if let writeBaseline {
            do {
                try FindingBaseline.checkWritable(writeBaseline)
            } catch {
                Console.log.error("--write-baseline \(error)")
                throw ExitStatus.outputNotWritable
            }
        }
        guard let baseline else { return nil }
        do {
            return try FindingBaseline.load(baseline, sourceRoot: sourceRoot)
        } catch {
            Console.log.error("--baseline \(error)")
            throw ExitStatus.inputUnreadable
        }
    }

    /// Writes `--write-baseline` from every finding (exit 5 when it cannot be written).
    func write(_ findings: [Finding], sourceRoot: String?) throws {
        guard let writeBaseline else { return }
        do {
            try FindingBaseline(findings: findings, sourceRoot: sourceRoot).write(to: writeBaseline)
        } catch {
            Console.log.error("--write-baseline \(error)")
            throw ExitStatus.outputNotWritable
        }
        print("wrote \(writeBaseline) (\(findings.count) findings)")
    }

    /// The summary line of a baseline match, e.g. `baseline reports/x/report.json: 41 known findings
    /// suppressed, 1 new (1 error, 0 warning, 0 info)`.
    static func line(_ match: BaselineMatch) -> String {
        let known = match.suppressed
        let new = Severity.allCases.reversed().map { "\(match.newBySeverity[$0, default: 0]) \($0.rawValue)" }
        var line =
            "baseline \(match.baseline.file ?? "(findings)"): \(known) known finding\(known == 1 ? "" : "s") "
            + "suppressed, \(match.new) new (\(new.joined(separator: ", ")))"
        let gone = match.baseline.findingCount - known
        if gone > 0 { line += "; \(gone) of its findings were not found" }
        return line
    }
}

/// `--header` and `--basic-auth` (`crawl`): request headers for a staging site, sent to the
/// seeds' origins only and never written into a report or the crawl store.
struct SiteAccessOptions: ParsableArguments {
    @Option(
        parsing: .singleValue,
        help: ArgumentHelp(
            """
            A request header (repeatable; cookies: "Cookie: a=b"), sent only to the seeds' origins (not to other \
            hosts, ports or redirect targets elsewhere); never stored or reported.
            """, valueName: "name: value"))
    var header: [String] = []

    @Option(
        help: ArgumentHelp(
            "HTTP basic auth (an Authorization header, sent as --header is).", valueName: "user:password"))
    var basicAuth: String?

    func validate() throws {
        _ = try credentials()
    }

    /// The credentials, their origins left for the crawl to fill in.
    func credentials() throws(ValidationError) -> SiteCredentials? {
        do {
            return try SiteCredentials.parse(headers: header, basicAuth: basicAuth)
        } catch {
            throw ValidationError(error.message)
        }
    }

    /// What `--resume` needs given again (the values are never stored), for the Ctrl-C message.
    var resumeHint: String? {
        var options: [String] = header.compactMap { $0.split(separator: ":").first.map { "--header '\($0): …'" } }
        if basicAuth != nil { options.append("--basic-auth USER:PASSWORD") }
        return options.isEmpty ? nil : "add the options the crawl was started with: " + options.joined(separator: " ")
    }
}
