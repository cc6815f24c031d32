import CrawlJobs
import CrawlStore
import Crawling
import LenientJSON
import PageFetching
import Reports
import Testing

/// Issue 35 §2: what the page budget refuses is recorded for the first 1,000 URLs of each page or
/// sitemap, the last of them saying how many more there were (a page of 620,000 links held 1.2 GB
/// while the report was written).
@Suite("URLs skipped over the budget, recorded bounded")
struct SkipRecordingTests {
    static let origin = "http://site.test"

    /// The home page with `links` and, given `sitemapURLs`, a sitemap listing that many pages.
    static func site(links: [String] = [], sitemapURLs: Int? = nil) -> InMemorySite {
        var answers = [origin + "/": [InMemorySite.html("Home", links: links)]]
        if let sitemapURLs {
            let locations = (0..<sitemapURLs).map { "<url><loc>\(origin)/s\($0).html</loc></url>" }.joined()
            answers[origin + "/sitemap.xml"] = [
                .init(
                    status: 200, headers: [HTTPHeader("Content-Type", "application/xml")],
                    body: #"<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">"#
                        + locations + "</urlset>")
            ]
        }
        return InMemorySite(answers)
    }

    /// `site` crawled with `settings` into a new store, in a new folder named after `name`.
    static func crawl(_ site: InMemorySite, _ settings: CrawlSettings, folder name: String) async throws
        -> (folder: String, store: CrawlStore)
    {
        let folder = try temporaryFolder(name)
        let store = try CrawlStore(path: folder + "/crawl.sqlite")
        _ = try await Crawler(settings: settings, store: store, fetcher: site).run(resume: false)
        return (folder, store)
    }

    @Test("a page of 2,500 links and a sitemap of 1,500 URLs over --max-pages 3: 1,000 recorded each")
    func boundedPerSource() async throws {
        let (_, store) = try await Self.crawl(
            Self.site(links: (0..<2_500).map { "/p\($0).html" }, sitemapURLs: 1_500),
            CrawlSettings(seed: Self.origin + "/", delay: 0, maximumPages: 3), folder: "skip-recording")
        let budget = try store.skippedURLs().filter { $0.reason == "budget" }
        let fromPage = budget.filter { $0.foundOn == Self.origin + "/" }
        let fromSitemap = budget.filter { $0.foundOn == Self.origin + "/sitemap.xml" }
        #expect(fromPage.count == 1_000)
        #expect(fromSitemap.count == 1_000)
        #expect(budget.count == 2_000)
        let pageNote = try #require(fromPage.last?.detail)
        #expect(pageNote.contains("more URLs on \(Self.origin)/ over the budget are not recorded (the first 1000 are)"))
        #expect(fromSitemap.last?.detail.contains("more URLs on \(Self.origin)/sitemap.xml over the budget") == true)
    }

    @Test("a page's links past twice --max-pages and 1,000 more are counted, not resolved or stored")
    func linksPastWhatCouldBeAdmittedAreCounted() async throws {
        let (_, store) = try await Self.crawl(
            Self.site(links: (0..<2_500).map { "/p\($0).html" }),
            CrawlSettings(seed: Self.origin + "/", delay: 0, maximumPages: 3, useSitemaps: false),
            folder: "links-examined")
        // 2 × 3 + 1,000 = 1,006 links examined: 2 admitted, 1,004 refused; 1,494 only counted.
        var pages: [PageRecord] = []
        try store.forEachPage(batchSize: 10, includingMarkupDump: true) { pages += $0 }
        let home = try #require(pages.first { $0.requestedURL == Self.origin + "/" })
        #expect(home.storedMarkup?.links.count == 1_006)
        #expect(home.storedAnalysis?.linksNotStored == 1_494)
        let budget = try store.skippedURLs().filter { $0.reason == "budget" }
        #expect(budget.count == 1_000)
        #expect(budget.last?.detail.contains("; 1498 more URLs on \(Self.origin)/ over the budget") == true)
    }

    @Test("the note names the page by its public URL when the crawl reads the site as another origin")
    func noteNamesThePublicURL() async throws {
        let (_, store) = try await Self.crawl(
            Self.site(links: (0..<1_200).map { "/p\($0).html" }),
            CrawlSettings(
                seed: Self.origin + "/", publicOrigin: "https://www.example.com", delay: 0, maximumPages: 3,
                useSitemaps: false),
            folder: "skip-note-public")
        let note = try #require(try store.skippedURLs().filter { $0.reason == "budget" }.last?.detail)
        #expect(note.contains("; 198 more URLs on https://www.example.com/ over the budget are not recorded"))
    }

    @Test("a page's off-site links: the first 1,000 recorded, the last saying how many more")
    func offSiteLinksAreRecordedBounded() async throws {
        let (_, store) = try await Self.crawl(
            Self.site(links: (0..<1_500).map { "http://elsewhere.test/\($0)" }),
            CrawlSettings(seed: Self.origin + "/", delay: 0, useSitemaps: false), folder: "off-site-links")
        let scope = try store.skippedURLs().filter { $0.reason == "scope" }
        #expect(scope.count == 1_000)
        #expect(scope.first?.url == "http://elsewhere.test/0")
        #expect(
            scope.last?.detail.hasSuffix(
                "; 500 more links on this page skipped as scope are not recorded (the first 1000 are)") == true)
    }

    @Test("report.json lists the first 1,000 of each coverage list; the summary and the HTML count them all")
    func coverageListsAreBounded() async throws {
        let (folder, store) = try await Self.crawl(
            Self.site(sitemapURLs: 1_500), CrawlSettings(seed: Self.origin + "/", delay: 0, maximumPages: 3),
            folder: "coverage-bounded")
        let written = try CrawlReportWriter(store: store, mapping: nil).write(into: folder)
        let report = try #require(
            JSONParser.parse(try String(contentsOfFile: written.path, encoding: .utf8), lenient: false).value)
        // The seed and 2 sitemap URLs crawled: 1,498 locations not crawled, 1,000 listed.
        #expect(report["summary"]?["sitemapLocationsNotCrawled"]?.intValue == 1_498)
        #expect(report["coverage"]?["sitemapLocationsNotCrawled"]?.arrayValue?.count == 1_000)
        #expect(
            report["coverage"]?["sitemapLocationsNotCrawled"]?[999]?["location"]?.stringValue
                == Self.origin + "/s1001.html")
        #expect(report["summary"]?["pagesNotInSitemaps"]?.intValue == 1)
        let html = HTMLReport(crawl: written.report).html
        #expect(html.contains("Sitemap locations not crawled (1498)"))
        #expect(html.contains("and 1298 more (report.json lists the first 1000; the crawl's store has them all)"))
    }

    @Test("other reasons are kept whole; the budget's are counted per source")
    func boundedPureFunction() {
        let skipped =
            (0..<5).map { SkippedURL(url: "a\($0)", reason: "budget", detail: "limit", foundOn: "A") }
            + (0..<3).map { SkippedURL(url: "r\($0)", reason: "robots", foundOn: "A") }
            + (0..<2).map { SkippedURL(url: "b\($0)", reason: "budget", detail: "limit", foundOn: "B") }
        let kept = SkipRecording.bounded(skipped, examplesPerSource: 2)
        #expect(kept.map(\.url) == ["a0", "a1", "r0", "r1", "r2", "b0", "b1"])
        #expect(kept[1].detail == "limit; 3 more URLs on A over the budget are not recorded (the first 2 are)")
        #expect(kept[6].detail == "limit")
    }
}
