import CrawlJobs
import CrawlStore
import Crawling
import Foundation
import LenientJSON
import ReportModel
import Reports
import Synchronization
import Testing
import URLNormalization

/// A report run reads each stored page once: every output (report.json, candidates.jsonl, totals,
/// site rules, linking, page findings) takes it from one pass.
@Suite("one report stream", .serialized)
struct ReportPassTests {
    /// A crawl store that counts what the reports read of it; `storedAs` rewrites each page as
    /// an older SpotCheck would have stored it.
    final class CountingSource: CrawlRecordSource {
        let store: CrawlStore
        let passes = Mutex(0)
        let pagesRead = Mutex(0)
        let storedAs: (@Sendable (PageRecord) -> PageRecord)?

        init(_ store: CrawlStore, storedAs: (@Sendable (PageRecord) -> PageRecord)? = nil) {
            self.store = store
            self.storedAs = storedAs
        }

        func forEachPage(batchSize: Int, includingMarkupDump: Bool, _ body: ([PageRecord]) throws -> Void) throws {
            passes.withLock { $0 += 1 }
            let dump = includingMarkupDump || storedAs != nil
            try store.forEachPage(batchSize: batchSize, includingMarkupDump: dump) { batch in
                pagesRead.withLock { $0 += batch.count }
                try body(storedAs.map { batch.map($0) } ?? batch)
            }
        }
        func currentRun() throws(CrawlStoreError) -> CrawlRun? { try store.currentRun() }
        func skippedURLs(first limit: Int) throws(CrawlStoreError) -> [SkippedURL] {
            try store.skippedURLs(first: limit)
        }
        func skippedCountsByReason() throws(CrawlStoreError) -> [String: Int] { try store.skippedCountsByReason() }
        func forEachSkippedURL(reason: String?, _ body: (SkippedURL) throws -> Void) throws {
            try store.forEachSkippedURL(reason: reason, body)
        }
        func skippedURL(_ url: String) throws(CrawlStoreError) -> SkippedURL? { try store.skippedURL(url) }
        func robots(origin: String) throws(CrawlStoreError) -> CrawlStore.RobotsRecord? {
            try store.robots(origin: origin)
        }
        func sitemapEntriesForSiteChecks() throws(CrawlStoreError) -> [CrawlStore.SitemapEntryRecord] {
            try store.sitemapEntriesForSiteChecks()
        }
        func sitemapLine(of key: String, in sitemapURL: String) throws(CrawlStoreError) -> Int? {
            try store.sitemapLine(of: key, in: sitemapURL)
        }
        func sitemapLocationsNotCrawled(first limit: Int) throws(CrawlStoreError)
            -> ListSample<CrawlStore.SitemapEntryRecord>
        {
            try store.sitemapLocationsNotCrawled(first: limit)
        }
        func pagesNotInSitemaps(first limit: Int) throws(CrawlStoreError) -> ListSample<String> {
            try store.pagesNotInSitemaps(first: limit)
        }
        func stalePageURLs(first limit: Int) throws(CrawlStoreError) -> ListSample<String> {
            try store.stalePageURLs(first: limit)
        }
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

    @Test("report.json's page is the stored payload, decoded: the fetch facts, findings and analysis")
    func reportShowsTheStoredPayload() async throws {
        let folder = try temporaryFolder("report-payload")
        let (store, _) = try await CrawlTests.crawl(seedPath: "", folder: folder)
        var analysed: [PageRecord] = []
        try store.forEachPage { analysed += $0.filter { $0.storedAnalysis != nil } }
        #expect(analysed.count > 10)
        let path = try CrawlReportWriter(store: store, mapping: nil).write(into: folder).path
        let report = try #require(
            JSONParser.parse(try String(contentsOfFile: path, encoding: .utf8), lenient: false).value)
        let shown = Dictionary(
            (report["pages"]?.arrayValue ?? []).map { ($0["url"]?.stringValue ?? "", $0) },
            uniquingKeysWith: { a, _ in a })
        for page in analysed {
            #expect(page.payloadVersion == PagePayload.version)
            let json = try #require(shown[page.requestedURL], "\(page.requestedURL)")
            #expect(json["markup"]?.objectValue == page.shownMarkup(), "\(page.finalURL)")
            #expect(json["findings"]?.arrayValue?.count == page.storedFindings.count)
            #expect(json["headers"]?.arrayValue?.count == page.storedPayload?.headers.count)
            // The raw markup is in its own column, and not in the analysis.
            #expect(page.storedMarkup?.url == page.storedAnalysis?.summary.url)
        }
    }

    @Test(
        "a page stored by an earlier SpotCheck (JSON text, payload version 4) is refused, naming the page and what to do"
    )
    func earlierPayloadsAreRefused() async throws {
        let folder = try temporaryFolder("report-payload-four")
        let (store, _) = try await CrawlTests.crawl(seedPath: "", folder: folder)
        let older = CountingSource(store) { page in
            var page = page
            page.payload = nil
            page.payloadVersion = 4
            return page
        }
        let error = #expect(throws: (any Error).self) {
            try CrawlReportWriter(store: older, mapping: nil).write(into: folder)
        }
        let message = "\(error.map { "\($0)" } ?? "")"
        #expect(message.contains("payload version 4"), "\(message)")
        #expect(message.contains("crawl again into a new --output folder"), "\(message)")
        #expect(message.hasPrefix("http://"), "names the page: \(message)")
    }

    /// Version 5 differs from 6 only in how `--render` and `--consumers` results are kept: a version
    /// 5 page without them reads; one whose payload does not decode is refused as an earlier one.
    @Test("a payload version 5 page is read, or refused as stored by an earlier SpotCheck when it does not decode")
    func versionFivePayloads() async throws {
        let folder = try temporaryFolder("report-payload-five")
        let (store, _) = try await CrawlTests.crawl(seedPath: "", folder: folder)
        let five = CountingSource(store) { page in
            var page = page
            page.payloadVersion = 5
            return page
        }
        _ = try CrawlReportWriter(store: five, mapping: nil).write(into: folder)
        let undecodable = CountingSource(store) { page in
            var page = page
            page.payloadVersion = 5
            page.payload = page.payload.map { _ in [0xFF] }
            return page
        }
        let error = #expect(throws: (any Error).self) {
            try CrawlReportWriter(store: undecodable, mapping: nil).write(into: folder)
        }
        let message = "\(error.map { "\($0)" } ?? "")"
        #expect(message.contains("payload version 5"), "\(message)")
        #expect(message.contains("crawl again into a new --output folder"), "\(message)")
    }

    @Test("index.html streamed from the pass is the document rendered from the typed pages and report of that pass")
    func streamedHTMLMatchesTheRenderedReport() async throws {
        let folder = try temporaryFolder("report-html")
        let (store, _) = try await CrawlTests.crawl(seedPath: "", folder: folder)
        let writer = CrawlReportWriter(store: store, mapping: nil, localEntries: [])
        var stream = try HTMLReportStream(folder: folder)
        var pages: [PageReport] = []
        let written = try writer.write(into: folder) { page in
            stream.add(page: page.report)
            pages.append(page.report)
        }
        let streamed = try String(contentsOfFile: try stream.finish(report: written.report), encoding: .utf8)
        let rendered = HTMLReport(crawl: written.report, pages: pages).html
        #expect(streamed == rendered)
        #expect(streamed.contains("<details class=\"page\""))
        #expect(streamed.contains("Local items ("), "the linking section is filled in after the pass")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".partial") }
        #expect(leftovers.isEmpty)
    }
}

/// Issue 17 §2.10: a big value is kept once by the analysis: the store holds a 2 MB description in
/// the raw JSON-LD and in the attribute set only (not in the analysis, the provenance or the typed
/// column), and report.json shows it once.
@Suite("a big description is stored and reported once")
struct BigValueTests {
    @Test func aTwoMegabyteDescriptionIsStoredTwiceAndShownOnce() async throws {
        let origin = "http://big.test"
        let description = "Big " + String(repeating: "ab", count: 1 << 20)
        let page = """
            <!doctype html><html><head><title>Big</title>
            <script type="application/ld+json">{"@context": "https://schema.org", "@type": "Article",
            "headline": "Big", "description": "\(description)"}</script></head><body></body></html>
            """
        let site = SlowImageSite(pages: [origin + "/": page])
        let folder = try temporaryFolder("big-value")
        let store = try CrawlStore(path: folder + "/crawl.sqlite")
        let settings = CrawlSettings(seed: origin + "/", delay: 0, useSitemaps: false)
        _ = try await Crawler(settings: settings, store: store, fetcher: site).run(resume: false)
        let record = try #require(try store.pagesByURL()[origin + "/"])
        let marker = String(description.prefix(4_096))

        func occurrences(_ bytes: [UInt8]?) -> Int {
            String(decoding: bytes ?? [], as: UTF8.self).components(separatedBy: marker).count - 1
        }
        #expect(occurrences(record.payload) == 1, "in the attribute set, not in its provenance")
        #expect(occurrences(record.markup) == 1, "in the raw JSON-LD")
        #expect(record.storedAnalysis?.attributes.attributeSet.contentDescription == description)
        let typed = try #require(record.verdict?.contentDescription)
        #expect(typed.utf8.count < 1_200)
        #expect(typed.contains("(\(description.utf8.count) bytes in all) sha256:"), "\(typed.suffix(120))")

        let written = try CrawlReportWriter(store: store, mapping: nil).write(into: folder)
        let report = try String(contentsOfFile: written.path, encoding: .utf8)
        #expect(report.components(separatedBy: marker).count - 1 == 1)
        let shown = JSONParser.parse(report, lenient: false).value?["pages"]?[0]?["markup"]?["attributeSet"]
        #expect(shown?["contentDescription"]?.stringValue == description)
    }
}
