import CrawlStore
import Crawling
import Foundation
import LenientJSON
import Reports
import Verification

/// The reports of a stored crawl: report.json and candidates.jsonl, the baseline comparison, the
/// files of `--format`, and the findings for the console. Used after a crawl and by
/// `spotcheck report`.
struct CrawlReports: Sendable {
    let store: CrawlStore
    let mapping: OriginMapping?
    let siteVerifier: SiteVerifier
    let localEntries: [LocalEntry]?
    let reportFiles: ReportFiles
    /// The name of the JUnit suite.
    let suite: String

    private var writer: CrawlReportWriter {
        CrawlReportWriter(store: store, mapping: mapping, siteVerifier: siteVerifier, localEntries: localEntries)
    }

    /// Writes every report into `folder`; `baseline` (a report.json or its folder) is compared
    /// with the new report.json.
    func write(into folder: String, baseline: String?, events: (CrawlEvent) -> Void) throws(CrawlJobError)
        -> CrawlReportWriter.Written
    {
        let writer = self.writer
        let written: CrawlReportWriter.Written
        do {
            written = try writer.write(into: folder)
        } catch {
            throw CrawlJobError(.outputNotWritable, "\(folder): report.json not written: \(error)")
        }
        var baselineDiff: ReportDiff?
        if let baseline {
            baselineDiff = try compare(baseline: baseline, with: written.path, in: folder)
            if let baselineDiff {
                events(
                    .baselineCompared(
                        baselineDiff, path: (folder as NSString).appendingPathComponent("baseline-diff.json")))
            }
        }
        guard reportFiles.wantsMore else { return written }
        do {
            let pages = try writer.pageFindings()
            for path in try reportFiles.write(
                pages: pages, siteFindings: written.siteFindings, suite: suite, into: folder, baseline: baselineDiff)
            {
                events(.wrote(path: path))
            }
        } catch {
            throw CrawlJobError(.outputNotWritable, "\(folder): \(error)")
        }
        return written
    }

    private func compare(baseline: String, with reportPath: String, in folder: String) throws(CrawlJobError)
        -> ReportDiff
    {
        let old = ReportDiff.loadReport(baseline)
        guard let oldReport = old.report else {
            throw CrawlJobError(.baselineUnreadable, "\(old.file): not a readable report.json")
        }
        guard let newReport = ReportDiff.loadReport(reportPath).report else {
            throw CrawlJobError(.outputNotWritable, "\(reportPath): not readable after writing")
        }
        let diff = ReportDiff(old: oldReport, new: newReport)
        let path = (folder as NSString).appendingPathComponent("baseline-diff.json")
        do {
            try Data((diff.json.serialized(pretty: true) + "\n").utf8).write(to: URL(fileURLWithPath: path))
        } catch {
            throw CrawlJobError(.outputNotWritable, "\(path): \(error)")
        }
        return diff
    }

    /// Each page's findings (in report order), then the site's, as events; a large crawl's
    /// findings are never held at once.
    func announceFindings(events: (CrawlEvent) -> Void, siteFindings: [Finding]) throws(CrawlJobError) {
        do {
            try store.forEachPage { pages in
                for page in pages {
                    guard let stored = page.findingsJSON, stored != "[]" else { continue }
                    let findings = (JSONParser.parse(stored, lenient: false).value?.arrayValue ?? []).compactMap(
                        Finding.init(json:))
                    guard !findings.isEmpty else { continue }
                    events(.pageFindings(url: mapping?.publicURL(page.finalURL) ?? page.finalURL, findings: findings))
                }
            }
        } catch {
            throw CrawlJobError(.storeUnusable, "\(error)")
        }
        events(.siteFindings(siteFindings))
    }
}
