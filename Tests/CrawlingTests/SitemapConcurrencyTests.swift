import CrawlStore
import Crawling
import PageFetching
import Testing

/// A site whose sitemap index names `children` sitemaps that answer slowly (the first slowest),
/// each listing one page. It counts the sitemap requests in flight at once (no socket).
actor SlowSitemapSite: PageFetcher {
    static let origin = "http://site.test"
    let children: Int
    private(set) var sitemapsInFlight = 0
    private(set) var mostSitemapsInFlight = 0

    init(children: Int) {
        self.children = children
    }

    func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResponse {
        let path = String(request.url.dropFirst(Self.origin.count))
        if path == "/sitemap.xml" {
            let entries = (0..<children).map { "<sitemap><loc>\(Self.origin)/sitemap-\($0).xml</loc></sitemap>" }
            return Self.answer(
                request.url, "application/xml",
                #"<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">"#
                    + entries.joined() + "</sitemapindex>")
        }
        if path.hasPrefix("/sitemap-"), let number = Int(path.dropFirst("/sitemap-".count).dropLast(4)) {
            sitemapsInFlight += 1
            mostSitemapsInFlight = max(mostSitemapsInFlight, sitemapsInFlight)
            try? await Task.sleep(for: .milliseconds(20 * (children - number)))
            sitemapsInFlight -= 1
            return Self.answer(
                request.url, "application/xml",
                #"<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">"#
                    + "<url><loc>\(Self.origin)/p\(number).html</loc></url></urlset>")
        }
        if path == "/" || path.hasPrefix("/p") {
            return Self.answer(request.url, "text/html", "<!doctype html><title>\(path)</title>")
        }
        return Self.answer(request.url, "text/plain", "", status: 404)
    }

    private static func answer(_ url: String, _ type: String, _ body: String, status: Int = 200) -> FetchResponse {
        FetchResponse(
            url: url, status: status, httpVersion: "1.1", headers: [HTTPHeader("Content-Type", type)],
            body: Array(body.utf8), wireBytes: body.utf8.count, timings: FetchTimings(), remoteAddress: nil)
    }
}

/// Issue 17 §2.7: the children of a sitemap index were fetched one after another (49 hanging
/// children: 147 s at `--timeout 3` for a two-page site).
@Suite("Sitemaps are fetched concurrently within --per-host, and harvested in their order")
struct SitemapConcurrencyTests {
    @Test func theChildrenOfAnIndexAreFetchedConcurrentlyAndHarvestedInOrder() async throws {
        let site = SlowSitemapSite(children: 8)
        let folder = try temporaryFolder("sitemap-concurrency")
        let store = try CrawlStore(path: folder + "/crawl.sqlite")
        let settings = CrawlSettings(seed: SlowSitemapSite.origin + "/", perHost: 3, delay: 0)
        _ = try await Crawler(settings: settings, store: store, fetcher: site).run(resume: false)

        #expect(await site.mostSitemapsInFlight == 3)
        // The first child answers last, yet its entry comes first: the harvest keeps the index's order.
        #expect(try store.sitemapEntries().map(\.location) == (0..<8).map { "\(SlowSitemapSite.origin)/p\($0).html" })
        let pages = try store.pagesByURL()
        #expect((0..<8).allSatisfy { pages["\(SlowSitemapSite.origin)/p\($0).html"]?.status == 200 })
    }
}
