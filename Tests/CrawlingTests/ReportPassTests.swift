import CrawlStore
import Crawling
import Foundation
import LenientJSON
import Reports
import Synchronization
import Testing
import URLNormalization

/// A report run reads each stored page once: every output (report.json, candidates.jsonl, totals,
/// site rules, linking, page findings) takes it from one pass.
@Suite("one report stream", .serialized)
struct ReportPassTests {
    /// A crawl store that counts what the reports read of it.
    final class CountingSource: CrawlRecordSource {
        let store: CrawlStore
        let passes = Mutex(0)
        let pagesRead = Mutex(0)

        init(_ store: CrawlStore) { self.store = store }

        func forEachPage(batchSize: Int, _ body: ([PageRecord]) throws -> Void) throws {
            passes.withLock { $0 += 1 }
            try store.forEachPage(batchSize: batchSize) { batch in
                pagesRead.withLock { $0 += batch.count }
                try body(batch)
            }
        }
        func currentRun() throws(CrawlStoreError) -> CrawlRun? { try store.currentRun() }
        func skippedURLs() throws(CrawlStoreError) -> [SkippedURL] { try store.skippedURLs() }
        func robots(origin: String) throws(CrawlStoreError) -> CrawlStore.RobotsRecord? {
            try store.robots(origin: origin)
        }
        func sitemapEntries() throws(CrawlStoreError) -> [CrawlStore.SitemapEntryRecord] {
            try store.sitemapEntries()
        }
        func sitemapLocationsNotCrawled() throws(CrawlStoreError) -> [CrawlStore.SitemapEntryRecord] {
            try store.sitemapLocationsNotCrawled()
        }
        func pagesNotInSitemaps() throws(CrawlStoreError) -> [String] { try store.pagesNotInSitemaps() }
        func stalePages() throws(CrawlStoreError) -> [PageRecord] { try store.stalePages() }
        func siteFiles() throws(CrawlStoreError) -> [CrawlStore.SiteFileRecord] { try store.siteFiles() }
    }

    @Test("every page is read once for report.json, candidates, totals, site rules, linking and findings")
    func eachPageIsReadOnce() async throws {
        let folder = try temporaryFolder("report-pass")
        let (store, _) = try await CrawlTests.crawl(seedPath: "", folder: folder)
        let stored = try store.pageCount()
        let source = CountingSource(store)
        let base = try await TestSite.baseURL()
        let writer = CrawlReportWriter(
            store: source,
            mapping: OriginMapping(
                fetchOrigin: OriginMapping.origin(of: try #require(URLParser.parse(base))),
                publicOrigin: "https://www.example.com"),
            localEntries: [])
        var streamed = 0
        let written = try writer.write(into: folder, collectingFindings: true) { _ in streamed += 1 }
        #expect(source.passes.withLock { $0 } == 1)
        #expect(source.pagesRead.withLock { $0 } == stored)
        #expect(streamed == stored)
        #expect(written.pageFindings.count == stored)
        #expect(written.totals.pages == stored)
        let report = try #require(
            JSONParser.parse(try String(contentsOfFile: written.path, encoding: .utf8), lenient: false).value)
        #expect(report["pages"]?.arrayValue?.count == stored)
        #expect(report["summary"]?["candidates"]?.intValue == written.totals.candidates)
        let candidates = try String(contentsOfFile: folder + "/candidates.jsonl", encoding: .utf8)
        #expect(candidates.split(separator: "\n").count == written.totals.candidates)
        #expect(written.totals.candidates > 0)
    }

    @Test("report.json leaves the raw markup out unless asked, and keeps the page's analysis")
    func markupDumpOnlyWhenAsked() async throws {
        let folder = try temporaryFolder("report-markup")
        let (store, _) = try await CrawlTests.crawl(seedPath: "", folder: folder)
        var writer = CrawlReportWriter(store: store, mapping: nil)
        for name in ["lean", "full"] {
            try FileManager.default.createDirectory(atPath: folder + "/" + name, withIntermediateDirectories: true)
        }
        let lean = try writer.write(into: folder + "/lean")
        writer.includesMarkup = true
        let full = try writer.write(into: folder + "/full")
        func firstMarkup(_ path: String) throws -> JSONValue? {
            let report = JSONParser.parse(try String(contentsOfFile: path, encoding: .utf8), lenient: false).value
            return report?["pages"]?.arrayValue?.first { $0["markup"] != nil }?["markup"]
        }
        let leanMarkup = try #require(try firstMarkup(lean.path))
        let fullMarkup = try #require(try firstMarkup(full.path))
        for key in ["attributeSet", "provenance", "deepLinks", "candidate", "smartAppBanner"] {
            #expect(leanMarkup[key] != nil, "\(key)")
        }
        for key in ["jsonLD", "openGraph", "links", "rdfa", "summary"] { #expect(leanMarkup[key] == nil, "\(key)") }
        for key in ["jsonLD", "openGraph", "links", "rdfa"] { #expect(fullMarkup[key] != nil, "\(key)") }
        let leanSize = try FileManager.default.attributesOfItem(atPath: lean.path)[.size] as? Int ?? 0
        let fullSize = try FileManager.default.attributesOfItem(atPath: full.path)[.size] as? Int ?? 0
        #expect(leanSize < fullSize)
    }

    @Test("index.html streamed from the pass is the document rendered from the report.json it wrote")
    func streamedHTMLMatchesTheRenderedReport() async throws {
        let folder = try temporaryFolder("report-html")
        let (store, _) = try await CrawlTests.crawl(seedPath: "", folder: folder)
        let writer = CrawlReportWriter(store: store, mapping: nil, localEntries: [])
        var stream = try HTMLReportStream(folder: folder)
        let written = try writer.write(into: folder) { stream.add(page: .object($0.json)) }
        let streamed = try String(
            contentsOfFile: try stream.finish(report: written.reportWithoutPages), encoding: .utf8)
        let report = try #require(
            JSONParser.parse(try String(contentsOfFile: written.path, encoding: .utf8), lenient: false).value)
        let rendered = HTMLReport(report: report).html
        #expect(streamed == rendered)
        #expect(streamed.contains("<details class=\"page\""))
        #expect(streamed.contains("Local items ("), "the linking section is filled in after the pass")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".partial") }
        #expect(leftovers.isEmpty)
    }
}
