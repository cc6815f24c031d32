import CrawlJobs
import Crawling
import Foundation
import Verification

/// What a crawl shows at the terminal: the progress line, warnings on stderr, and (unless
/// `--quiet`) the files written, the findings page by page, the baseline and index lines.
struct CrawlConsole: Sendable {
    let quiet: Bool
    let progress: ProgressLine
    /// One buffered writer for every line, so their order holds when stdout is a pipe.
    let output = StandardOutput()

    func show(_ event: CrawlEvent) {
        switch event {
        case .crawlStarted: break
        case .progress(let tally): progress.show(tally)
        case .crawlFinished: progress.finish()
        case .warning(let message):
            var standardError = StandardError()
            print("spotcheck: warning: \(message)", to: &standardError)
        case .notice(let notice):
            progress.interrupt()
            var standardError = StandardError()
            print("spotcheck: \(Self.text(notice))", to: &standardError)
        case .pageFindings(let url, let findings):
            guard !quiet else { return }
            output.write(FindingsListing.text(page: url, findings: findings))
        case .siteFindings(let findings):
            guard !quiet else { return }
            output.write(FindingsListing.text(siteFindings: findings))
            output.flush()
        case .baselineCompared(let diff, let path):
            guard !quiet else { return }
            output.write(
                "since the baseline: \(diff.findingsFixed.count) findings fixed, \(diff.findingsNew.count) new, "
                    + "\(diff.candidatesGained.count) candidates gained, \(diff.candidatesLost.count) lost (\(path))\n")
        case .baselineWritten(let path, let findings):
            guard !quiet else { return }
            output.write("wrote \(path) (baseline of \(findings) findings)\n")
        case .indexFed(let index, let domain, let indexed, let removed):
            guard !quiet else { return }
            output.write("index \(index): \(indexed) candidates indexed (domain \(domain)), \(removed) removed\n")
        case .wrote(let path):
            guard !quiet else { return }
            output.write("wrote \(path)\n")
        }
    }

    /// A notice as one line, times in local time.
    static func text(_ notice: CrawlNotice) -> String {
        switch notice {
        case .robotsUnreachable(let origin, let reason, let retryAt):
            let wait = max(0, retryAt - Date().timeIntervalSince1970)
            let time = DateFormatter.localizedString(
                from: Date(timeIntervalSince1970: retryAt), dateStyle: .none, timeStyle: .medium)
            return "\(origin): \(reason); its pages wait and robots.txt is asked again at \(time) "
                + "(in \(Int(wait.rounded())) s; --robots-retry SECONDS sets the wait, 0 does not wait)"
        case .robotsGaveUp(let origin, let reason, let attempts):
            let tries = attempts == 1 ? "1 attempt" : "\(attempts) attempts"
            return "\(origin): \(reason) after \(tries): its pages are not fetched "
                + "(report.json coverage lists them as robots-unreachable)"
        }
    }

    /// The closing lines: pages, speed, statuses, findings, where the report and store are.
    func summarise(_ outcome: CrawlOutcome) {
        let summary = outcome.summary
        let statuses = outcome.totals.byStatus.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
        let rate = summary.elapsed > 0 ? Double(summary.fetched) / summary.elapsed : 0
        let findings = ["error", "warning", "info"].map { "\(outcome.totals.findingsBySeverity[$0] ?? 0) \($0)" }
        let baseline = outcome.baselineMatch.map { BaselineOptions.line($0) + "\n" } ?? ""
        output.write(
            """
            crawled \(summary.fetched) pages in \(String(format: "%.2f", summary.elapsed)) s \
            (\(String(format: "%.1f", rate)) pages/s), \(summary.errors) with errors; by status: \
            \(statuses.joined(separator: ", "))
            findings: \(findings.joined(separator: ", "))
            \(baseline)report: \(outcome.reportPath)
            store:  \(outcome.storePath)

            """)
        output.flush()
    }
}
