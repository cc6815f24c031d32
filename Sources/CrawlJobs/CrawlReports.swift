import CrawlStore
import Crawling
import Foundation
import LenientJSON
import Reports
import SpotlightIndex
import SpotlightModel
import Verification

/// The reports of a stored crawl: report.json and candidates.jsonl, the baseline comparison, the
/// files of `--format`, and the findings for the console. Used after a crawl and by
/// `spotcheck report`.
struct CrawlReports: Sendable {
    let store: any CrawlRecordSource
    let mapping: OriginMapping?
    let siteVerifier: SiteVerifier
    let localEntries: [LocalEntry]?
    let reportFiles: ReportFiles
    /// `--include-markup`: every page's full markup dump in report.json.
    var includesMarkup = false
    /// The name of the JUnit suite.
    let suite: String

    /// What a report run gives back besides the files: the writer's totals and site findings,
    /// and the candidates as searchable items when asked for (the index feed).
    struct Result {
        var written: CrawlReportWriter.Written
        var candidates: [SearchableItem]
    }

    /// Writes every report into `folder` from one pass over the store; `baseline` (a report.json or
    /// its folder) is compared with the new report.json. Each page's findings go to `events` as
    /// the pass reaches it, the site's after it.
    func write(
        into folder: String, baseline: String?, collectingCandidates: Bool = false,
        events: (CrawlEvent) -> Void
    ) throws(CrawlJobError) -> Result {
        var writer = CrawlReportWriter(
            store: store, mapping: mapping, siteVerifier: siteVerifier, localEntries: localEntries)
        writer.includesMarkup = includesMarkup
        var candidates: [SearchableItem] = []
        var html: HTMLReportStream?
        var comparablePages: [JSONValue] = []
        let written: CrawlReportWriter.Written
        do {
            if reportFiles.formats.contains(.html) { html = try HTMLReportStream(folder: folder) }
            written = try writer.write(into: folder, collectingFindings: reportFiles.wantsMore) { page in
                if html != nil || baseline != nil {
                    let json = page.json  // parsed only for the outputs that read the page's members
                    html?.add(page: .object(json))
                    if baseline != nil { comparablePages.append(ReportDiff.comparablePage(json)) }
                }
                if !page.findings.isEmpty { events(.pageFindings(url: page.url, findings: page.findings)) }
                if collectingCandidates, let item = page.candidateItem, let searchable = try? SearchableItem(json: item)
                {
                    candidates.append(searchable)
                }
            }
        } catch {
            throw CrawlJobError(.outputNotWritable, "\(folder): report.json not written: \(error)")
        }
        events(.siteFindings(written.siteFindings))
        var baselineDiff: ReportDiff?
        if let baseline {
            let new: JSONObject = [
                "pages": .array(comparablePages), "siteFindings": written.reportWithoutPages["siteFindings"] ?? [],
            ]
            let diff = try compare(baseline: baseline, with: .object(new), in: folder)
            baselineDiff = diff
            events(.baselineCompared(diff, path: (folder as NSString).appendingPathComponent("baseline-diff.json")))
        }
        guard reportFiles.wantsMore else { return Result(written: written, candidates: candidates) }
        do {
            // index.html from the pass (its pages were rendered as they came), the others from findings.
            var others = reportFiles
            others.formats.remove(.html)
            for path in try others.write(
                pages: written.pageFindings, siteFindings: written.siteFindings, suite: suite, into: folder)
            {
                events(.wrote(path: path))
            }
            if var html {
                events(.wrote(path: try html.finish(report: written.reportWithoutPages, baseline: baselineDiff)))
            }
        } catch {
            throw CrawlJobError(.outputNotWritable, "\(folder): \(error)")
        }
        return Result(written: written, candidates: candidates)
    }

    /// Compares the baseline report with what the pass kept of the new one (never re-reading the
    /// report.json just written), and writes baseline-diff.json.
    private func compare(baseline: String, with newReport: JSONValue, in folder: String) throws(CrawlJobError)
        -> ReportDiff
    {
        let old = ReportDiff.loadReport(baseline)
        guard let oldReport = old.report else {
            throw CrawlJobError(.baselineUnreadable, "\(old.file): not a readable report.json")
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
}
