import CrawlStore
import Crawling
import Foundation
import LenientJSON
import PageFetching
import Synchronization
import Testing

/// A site whose pages name images that answer slowly: it counts the image requests and the most
/// that were in flight at once (no socket; the slowness is a sleep in the fetcher).
actor SlowImageSite: PageFetcher {
    private let pages: [String: String]
    private let imageDelay: Duration
    /// robots.txt of every host, when set (else 404).
    private let robots: String?
    private(set) var imageRequests = 0
    private(set) var imageStarts: [ContinuousClock.Instant] = []
    private(set) var imagesInFlight = 0
    private(set) var mostImagesInFlight = 0

    init(pages: [String: String], imageDelay: Duration = .milliseconds(50), robots: String? = nil) {
        self.pages = pages
        self.imageDelay = imageDelay
        self.robots = robots
    }

    func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResponse {
        if let html = pages[request.url] {
            return Self.response(request.url, "text/html", Array(html.utf8))
        }
        if let robots, request.url.hasSuffix("/robots.txt") {
            return Self.response(request.url, "text/plain", Array(robots.utf8))
        }
        guard request.url.hasSuffix(".png") else { return Self.response(request.url, "text/plain", [], status: 404) }
        imageRequests += 1
        imageStarts.append(.now)
        imagesInFlight += 1
        mostImagesInFlight = max(mostImagesInFlight, imagesInFlight)
        try? await Task.sleep(for: imageDelay)
        imagesInFlight -= 1
        return Self.response(request.url, "image/png", Self.png)
    }

    private static func response(_ url: String, _ type: String, _ body: [UInt8], status: Int = 200) -> FetchResponse {
        FetchResponse(
            url: url, status: status, httpVersion: "1.1", headers: [HTTPHeader("Content-Type", type)], body: body,
            wireBytes: body.count, timings: FetchTimings(), remoteAddress: nil)
    }

    /// A PNG signature and IHDR of 1200 × 630 pixels: enough for the header sniffer.
    static let png: [UInt8] =
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]
        + [0, 0, 0x04, 0xB0, 0, 0, 0x02, 0x76, 8, 6, 0, 0, 0]

    static func page(_ title: String, images: [String], links: [String] = []) -> String {
        let metas = images.map { #"<meta property="og:image" content="\#($0)">"# }.joined(separator: "\n")
        let anchors = links.map { #"<a href="\#($0)">\#($0)</a>"# }.joined()
        return "<!doctype html><html><head><title>\(title)</title>\n\(metas)</head><body>\(anchors)</body></html>"
    }
}

/// Issue 17 §2.4: 50,000 `og:image` tags on one page made 50,000 requests, one after another.
@Suite("Images checked per page and per run are bounded, and fetched concurrently within --per-host")
struct ImageBoundsTests {
    static let origin = "http://site.test"

    func analysis(_ page: PageRecord?) -> JSONObject? {
        page?.shownMarkup()
    }

    @Test func aPageNamingAThousandImagesHasTheFirstTenChecked() async throws {
        let images = (0..<1_000).map { "\(Self.origin)/img/\($0).png" }
        let site = SlowImageSite(pages: [Self.origin + "/": SlowImageSite.page("Home", images: images)])
        let folder = try temporaryFolder("image-bounds")
        let store = try CrawlStore(path: folder + "/crawl.sqlite")
        let settings = CrawlSettings(seed: Self.origin + "/", perHost: 2, delay: 0, useSitemaps: false)
        _ = try await Crawler(settings: settings, store: store, fetcher: site).run(resume: false)

        #expect(await site.imageRequests == CrawlSettings.imagesCheckedPerPage)
        // Concurrently, but never more than --per-host at once to the host.
        #expect(await site.mostImagesInFlight == 2)
        let home = analysis(try store.pagesByURL()[Self.origin + "/"])
        #expect(home?["imagesNotChecked"]?.intValue == 1_000 - CrawlSettings.imagesCheckedPerPage)
    }

    /// Issue 17: side requests keep the image host's robots.txt `Crawl-delay`, as pages do.
    @Test func imagesOnAHostKeepItsCrawlDelay() async throws {
        let images = (0..<3).map { "http://cdn.test/img/\($0).png" }
        let site = SlowImageSite(
            pages: [Self.origin + "/": SlowImageSite.page("Home", images: images)], imageDelay: .zero,
            robots: "User-agent: *\nCrawl-delay: 0.25\n")
        let folder = try temporaryFolder("image-crawl-delay")
        let store = try CrawlStore(path: folder + "/crawl.sqlite")
        var settings = CrawlSettings(seed: Self.origin + "/", perHost: 4, delay: 0, useSitemaps: false)
        settings.allowedHosts = ["cdn.test"]
        _ = try await Crawler(settings: settings, store: store, fetcher: site).run(resume: false)
        let starts = await site.imageStarts.sorted()
        #expect(starts.count == 3)
        for (earlier, later) in zip(starts, starts.dropFirst()) { #expect(later - earlier >= .milliseconds(249)) }
    }

    @Test func theRunsImageBudgetIsSpentOnceAndSaidOnce() async throws {
        let pages = (0..<4).map { "/p\($0).html" }
        var routes = [
            Self.origin + "/": SlowImageSite.page("Home", images: [], links: pages)
        ]
        for (index, path) in pages.enumerated() {
            routes[Self.origin + path] = SlowImageSite.page(
                "P\(index)", images: ["\(Self.origin)/img/\(index)a.png", "\(Self.origin)/img/\(index)b.png"])
        }
        let site = SlowImageSite(pages: routes, imageDelay: .zero)
        let folder = try temporaryFolder("image-budget")
        let store = try CrawlStore(path: folder + "/crawl.sqlite")
        var settings = CrawlSettings(seed: Self.origin + "/", delay: 0, useSitemaps: false)
        settings.maximumImages = 3
        let notices = Mutex<[CrawlNotice]>([])
        _ = try await Crawler(settings: settings, store: store, fetcher: site).run(resume: false) { _ in
        } notices: { notice in
            notices.withLock { $0.append(notice) }
        }

        #expect(await site.imageRequests == 3)
        #expect(notices.withLock { $0 } == [.imageBudgetReached(limit: 3)])
        let stored = try store.pagesByURL()
        let notChecked = pages.reduce(0) {
            $0 + (analysis(stored[Self.origin + $1])?["imagesNotChecked"]?.intValue ?? 0)
        }
        #expect(notChecked == 5)
    }
}
