import CrawlStore
import Crawling
import LenientJSON
import PageFetching
import Testing

/// A site held in memory: each URL answers from its list of responses in turn (the last one
/// repeats), anything else is a 404. No socket is opened; the requests are counted.
actor InMemorySite: PageFetcher {
    struct Answer: Sendable {
        var status: Int
        var headers: [HTTPHeader] = []
        var body: String = ""
    }

    private let routes: [String: [Answer]]
    private(set) var requests: [String: Int] = [:]

    init(_ routes: [String: [Answer]]) {
        self.routes = routes
    }

    func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResponse {
        let count = requests[request.url, default: 0]
        requests[request.url] = count + 1
        let answers = routes[request.url] ?? [Answer(status: 404, headers: [HTTPHeader("Content-Type", "text/plain")])]
        let answer = answers[min(count, answers.count - 1)]
        let body = Array(answer.body.utf8)
        return FetchResponse(
            url: request.url, status: answer.status, httpVersion: "1.1", headers: answer.headers, body: body,
            wireBytes: body.count, timings: FetchTimings(), remoteAddress: nil)
    }

    func requestCount(_ url: String) -> Int { requests[url, default: 0] }

    static func html(_ title: String, links: [String] = []) -> Answer {
        let anchors = links.map { "<a href=\"\($0)\">\($0)</a>" }.joined()
        return Answer(
            status: 200, headers: [HTTPHeader("Content-Type", "text/html; charset=utf-8")],
            body: "<!doctype html><html><head><title>\(title)</title></head><body>\(anchors)</body></html>")
    }
}

@Suite("A crawl over an in-memory fetcher (no sockets)")
struct InMemoryCrawlTests {
    static let origin = "http://site.test"

    /// Three pages linked from the home page: one plain, one behind a 301, one that answers 503
    /// (Retry-After: 0) before its 200.
    static func site() -> InMemorySite {
        InMemorySite([
            origin + "/": [InMemorySite.html("Home", links: ["/a.html", "/old.html", "/flaky.html"])],
            origin + "/a.html": [InMemorySite.html("A")],
            origin + "/old.html": [.init(status: 301, headers: [HTTPHeader("Location", "/b.html")])],
            origin + "/b.html": [InMemorySite.html("B", links: ["/"])],
            origin + "/flaky.html": [
                .init(status: 503, headers: [HTTPHeader("Retry-After", "0")], body: "busy"),
                InMemorySite.html("Flaky"),
            ],
        ])
    }

    @Test func aThreePageSiteWithARedirectAndARetryEndsInTheStore() async throws {
        let site = Self.site()
        let folder = try temporaryFolder("in-memory")
        let store = try CrawlStore(path: folder + "/crawl.sqlite")
        let settings = CrawlSettings(seed: Self.origin + "/", delay: 0, useSitemaps: false)
        let summary = try await Crawler(settings: settings, store: store, fetcher: site).run(resume: false)

        let pages = try store.pagesByURL()
        #expect(Set(pages.keys) == Set(["/", "/a.html", "/old.html", "/flaky.html"].map { Self.origin + $0 }))
        #expect(summary.fetched == 4)
        #expect(summary.errors == 0)
        #expect(pages.values.allSatisfy { $0.status == 200 && $0.errorKind == nil && $0.storedAnalysis != nil })

        // The redirect was followed by hand, and its target is known by its own key.
        let moved = try #require(pages[Self.origin + "/old.html"])
        #expect(moved.finalURL == Self.origin + "/b.html")
        #expect(moved.storedAnalysis?.summary.title != nil)
        let hops = try #require(moved.storedPayload?.redirects)
        #expect(hops.count == 1)
        #expect(hops.first?.status == 301)
        #expect(hops.first?.location == "/b.html")
        #expect(await site.requestCount(Self.origin + "/b.html") == 1)

        // 503 then 200: asked twice, stored once with the 200.
        #expect(await site.requestCount(Self.origin + "/flaky.html") == 2)
        #expect(pages[Self.origin + "/flaky.html"]?.status == 200)

        // robots.txt (a 404: allow all) was asked for once and kept.
        #expect(await site.requestCount(Self.origin + "/robots.txt") == 1)
        #expect(try store.robots(origin: Self.origin)?.status == 404)
        #expect(try store.counts().queued == 0)
    }

    /// Issue 17 §2.6: a robots.txt `Sitemap:` line (or a sitemap index) naming another host is
    /// recorded, never fetched: a crawled site cannot make the crawler request from anywhere.
    @Test func sitemapsOnOtherHostsAreRecordedNotFetched() async throws {
        let sitemap = """
            <?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
            <sitemap><loc>http://internal.test/admin-sitemap.xml</loc></sitemap>
            <sitemap><loc>http://site.test/pages.xml</loc></sitemap></sitemapindex>
            """
        let pages = """
            <?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
            <url><loc>http://site.test/a.html</loc></url></urlset>
            """
        let xml = [HTTPHeader("Content-Type", "application/xml")]
        let site = InMemorySite([
            Self.origin + "/robots.txt": [
                .init(
                    status: 200, headers: [HTTPHeader("Content-Type", "text/plain")],
                    body:
                        "User-agent: *\nAllow: /\nSitemap: http://metadata.test/latest\nSitemap: http://site.test/index.xml\n"
                )
            ],
            Self.origin + "/": [InMemorySite.html("Home")],
            Self.origin + "/a.html": [InMemorySite.html("A")],
            Self.origin + "/index.xml": [.init(status: 200, headers: xml, body: sitemap)],
            Self.origin + "/pages.xml": [.init(status: 200, headers: xml, body: pages)],
        ])
        let folder = try temporaryFolder("in-memory-sitemap-scope")
        let store = try CrawlStore(path: folder + "/crawl.sqlite")
        let settings = CrawlSettings(seed: Self.origin + "/", delay: 0)
        _ = try await Crawler(settings: settings, store: store, fetcher: site).run(resume: false)
        #expect(await site.requestCount("http://metadata.test/latest") == 0)
        #expect(await site.requestCount("http://internal.test/admin-sitemap.xml") == 0)
        #expect(await site.requestCount(Self.origin + "/pages.xml") == 1)
        #expect(try store.pagesByURL()[Self.origin + "/a.html"]?.status == 200, "the in-scope sitemap is read")
        let skipped = try store.skippedURLs()
        let named = try #require(skipped.first { $0.url == "http://metadata.test/latest" })
        #expect(named.reason == "sitemap" && named.detail.contains("--allow-host"), "\(named)")
        // The index's entry on another host breaks the sitemaps.org location rule: recorded too.
        #expect(skipped.contains { $0.url == "http://internal.test/admin-sitemap.xml" })
    }

    @Test func attemptsRunOutOnAServerThatNeverRecovers() async throws {
        let site = InMemorySite([
            Self.origin + "/": [.init(status: 503, headers: [HTTPHeader("Retry-After", "0")], body: "down")]
        ])
        let folder = try temporaryFolder("in-memory-down")
        let store = try CrawlStore(path: folder + "/crawl.sqlite")
        let settings = CrawlSettings(seed: Self.origin + "/", delay: 0, maximumAttempts: 3, useSitemaps: false)
        let summary = try await Crawler(settings: settings, store: store, fetcher: site).run(resume: false)
        let page = try #require(try store.pagesByURL()[Self.origin + "/"])
        #expect(page.status == 503)
        #expect(page.errorKind == "http-503")
        #expect(page.errorMessage == "gave up after 3 attempts")
        #expect(summary.fetched == 1)
        #expect(summary.errors == 1)
        #expect(await site.requestCount(Self.origin + "/") == 3)
    }

    /// One redirect follower for pages, images and the association file: an image caught in a
    /// loop is reported unreachable (each URL asked once), and the association file's redirect is
    /// not followed (Apple follows none) but reported.
    @Test func imageLoopsAndAssociationFileRedirectsGoThroughTheRedirectFollower() async throws {
        let page = InMemorySite.Answer(
            status: 200, headers: [HTTPHeader("Content-Type", "text/html")],
            body: """
                <!doctype html><html><head><title>Home</title>
                <meta property="og:image" content="http://site.test/img/a.png"></head><body></body></html>
                """)
        let site = InMemorySite([
            Self.origin + "/": [page],
            Self.origin + "/img/a.png": [.init(status: 302, headers: [HTTPHeader("Location", "/img/b.png")])],
            Self.origin + "/img/b.png": [.init(status: 307, headers: [HTTPHeader("Location", "a.png")])],
            Self.origin + "/.well-known/apple-app-site-association": [
                .init(status: 301, headers: [HTTPHeader("Location", "/aasa.json")])
            ],
            Self.origin + "/aasa.json": [
                .init(status: 200, headers: [HTTPHeader("Content-Type", "application/json")], body: "{}")
            ],
        ])
        let folder = try temporaryFolder("in-memory-redirects")
        let store = try CrawlStore(path: folder + "/crawl.sqlite")
        let settings = CrawlSettings(seed: Self.origin + "/", delay: 0, useSitemaps: false)
        _ = try await Crawler(settings: settings, store: store, fetcher: site).run(resume: false)

        let home = try #require(try store.pagesByURL()[Self.origin + "/"])
        let image = home.storedFindings.first { $0.rule == .ct010 }
        #expect(image?.message.contains("redirect loop: http://site.test/img/a.png") == true)
        #expect(await site.requestCount(Self.origin + "/img/a.png") == 1)
        #expect(await site.requestCount(Self.origin + "/img/b.png") == 1)

        #expect(await site.requestCount(Self.origin + "/aasa.json") == 0)
        let file = try #require(try store.siteFiles().first { $0.kind == "aasa" })
        #expect(file.findingsJSON.contains("\"UL003\""))
    }

    /// Issue 13 §1: the crawl decodes with the HTTP charset (it wins over `<meta charset>`), once,
    /// never dropping text: a server saying gb2312 for a UTF-8 page (whose `<meta>` says utf-8)
    /// gets a garbled but whole title and description, CT016 naming the header, and no CT002.
    @Test func theHTTPCharsetWinsOverMetaAndAMismatchIsReported() async throws {
        let page = """
            <!doctype html><html><head><meta charset="utf-8">
            <title>DeepMind新电脑已可利用记忆自学 人工智能迈上新台阶</title>
            <meta name="description" content="DeepMind新电脑已可利用记忆自学 人工智能迈上新台阶">
            </head><body><p>腾讯科技讯</p></body></html>
            """
        let site = InMemorySite([
            Self.origin + "/": [
                .init(status: 200, headers: [HTTPHeader("Content-Type", "text/html; charset=gb2312")], body: page)
            ]
        ])
        let folder = try temporaryFolder("in-memory-charset")
        let store = try CrawlStore(path: folder + "/crawl.sqlite")
        let settings = CrawlSettings(seed: Self.origin + "/", delay: 0, useSitemaps: false)
        _ = try await Crawler(settings: settings, store: store, fetcher: site).run(resume: false)

        let home = try #require(try store.pagesByURL()[Self.origin + "/"])
        // libxml2 used to stop at the first sequence gb2312 could not decode: "DeepMind".
        let title = try #require(home.verdict?.title)
        #expect(title.hasPrefix("DeepMind") && title.count > 20)
        #expect(home.verdict?.contentDescription?.hasPrefix("DeepMind") == true)
        #expect(home.storedAnalysis?.summary.encoding == "GBK")
        #expect(home.storedAnalysis?.summary.diagnostics.contains { $0.code == .charsetConflict } == true)
        let findings = home.storedFindings
        #expect(!findings.contains { $0.rule == .ct002 })
        let mismatch = findings.first { $0.rule == .ct016 }?.message
        #expect(mismatch?.contains("the charset gb2312 given for the page (HTTP Content-Type") == true)
        #expect(mismatch?.contains("its bytes are UTF-8") == true)
    }
}
