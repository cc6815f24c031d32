import CrawlStore
import Crawling
import Foundation
import ItemLinking
import LenientJSON
import LoopbackServer
import ReportModel
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
    /// For a served folder: the folder, so that every output names each page's file.
    var servedFolder: String?
    /// For a served folder crawled with `--items`: where each entry is in the items file, so that
    /// the outputs point at it.
    var localEntryPlaces: LocalEntryPlaces?

    /// What a report run gives back besides the files: the writer's totals and site findings,
    /// how the findings matched the baseline, and the candidates as searchable items when asked
    /// for (the index feed).
    struct Result {
        var written: CrawlReportWriter.Written
        var candidates: [SearchableItem]
    }

    /// Writes every report into `folder` from one pass over the store. `baseline` (read before
    /// the crawl) suppresses the findings it knows in the console, SARIF and JUnit and is counted
    /// in report.json; an earlier report given as the baseline is also compared with the new one
    /// (baseline-diff.json). `writeBaseline` is written from every finding. Each page's new
    /// findings go to `events` as the pass reaches it, the site's after it.
    func write(
        into folder: String, baseline: FindingBaseline?, writeBaseline: String? = nil,
        collectingCandidates: Bool = false, events: (CrawlEvent) -> Void
    ) throws(CrawlJobError) -> Result {
        var writer = CrawlReportWriter(
            store: store, mapping: mapping, siteVerifier: siteVerifier, localEntries: localEntries)
        writer.includesMarkup = includesMarkup
        writer.baseline = baseline
        var sourceFiles = servedFolder.map { _ in SourceFiles.root() }
        if let servedFolder, let names = sourceFiles {
            let entrySource = localEntryPlaces.map { places in
                let file = names.path(ofFile: places.file)
                return { @Sendable (name: String) -> PageLocation? in
                    places.byName[name].map { .linkedFrom(file: file, line: $0.line, column: $0.column) }
                }
            }
            let sources = ServedFolderSources(
                folder: servedFolder, names: names, store: store, entrySource: entrySource)
            writer.pageSource = { sources.source(of: $0) }
            writer.localEntrySource = entrySource
        }
        let comparing = baseline?.earlierReport != nil
        var candidates: [SearchableItem] = []
        var html: HTMLReportStream?
        var comparablePages: [JSONValue] = []
        var accepted = writeBaseline.map { _ in FindingBaseline() }
        let written: CrawlReportWriter.Written
        do {
            if reportFiles.formats.contains(.html) { html = try HTMLReportStream(folder: folder) }
            written = try writer.write(into: folder, collectingFindings: reportFiles.wantsMore) { page in
                html?.add(page: page.report)
                if comparing { comparablePages.append(ReportDiff.comparablePage(page.json)) }
                accepted?.add(page.findings)
                if !page.newFindings.isEmpty || !page.failingConditions.isEmpty {
                    events(
                        .page(
                            ReportedPage(
                                url: page.url, file: page.file, findings: page.newFindings,
                                failingConditions: page.failingConditions)))
                }
                if collectingCandidates, let item = page.candidateItem, let searchable = try? SearchableItem(json: item)
                {
                    candidates.append(searchable)
                }
            }
        } catch let error as CrawlStoreError {
            throw CrawlJobError(.storeUnusable, "report.json not written: \(error)")
        } catch let error as StoredPageUnreadable {
            throw CrawlJobError(.storeUnusable, "report.json not written: \(error)")
        } catch {
            throw CrawlJobError(.outputNotWritable, "\(folder): report.json not written: \(error)")
        }
        events(.siteFindings(written.newSiteFindings, files: written.sourcePaths))
        var baselineDiff: ReportDiff?
        if let earlier = baseline?.earlierReport {
            let new: JSONObject = [
                "pages": .array(comparablePages), "siteFindings": written.reportWithoutPages["siteFindings"] ?? [],
            ]
            let diff = try compare(earlier, with: .object(new), in: folder)
            baselineDiff = diff
            events(.baselineCompared(diff, path: (folder as NSString).appendingPathComponent("baseline-diff.json")))
        }
        if let writeBaseline, var accepted {
            accepted.add(written.siteFindings)
            do {
                try accepted.write(to: writeBaseline)
            } catch {
                throw CrawlJobError(.outputNotWritable, "\(error)")
            }
            events(.baselineWritten(path: writeBaseline, findings: accepted.findingCount))
        }
        guard reportFiles.wantsMore else { return Result(written: written, candidates: candidates) }
        do {
            // index.html from the pass (its pages were rendered as they came), the others from findings.
            var others = reportFiles
            others.formats.remove(.html)
            others.knownFindings = baseline
            if sourceFiles != nil {
                for (url, path) in written.sourcePaths { sourceFiles?.add(url: url, path: path) }
                others.sourceFiles = sourceFiles
            }
            for path in try others.write(
                pages: written.pageFindings, siteFindings: written.siteFindings, suite: suite, into: folder)
            {
                events(.wrote(path: path))
            }
            if var html {
                events(.wrote(path: try html.finish(report: written.report, baseline: baselineDiff)))
            }
        } catch {
            throw CrawlJobError(.outputNotWritable, "\(folder): \(error)")
        }
        return Result(written: written, candidates: candidates)
    }

    /// Compares the earlier report (as the baseline kept it, read before the crawl: a folder
    /// crawled into again is compared with its previous report) with what the pass kept of the
    /// new one (never re-reading the report.json just written), and writes baseline-diff.json.
    private func compare(_ earlier: JSONValue, with newReport: JSONValue, in folder: String) throws(CrawlJobError)
        -> ReportDiff
    {
        let diff = ReportDiff(old: earlier, new: newReport)
        let path = (folder as NSString).appendingPathComponent("baseline-diff.json")
        do {
            try Data((diff.json.serialized(pretty: true) + "\n").utf8).write(to: URL(fileURLWithPath: path))
        } catch {
            throw CrawlJobError(.outputNotWritable, "\(path): \(error)")
        }
        return diff
    }
}
