import CrawlJobs
import CrawlStore
import Crawling
import Foundation
import LenientJSON
import Synchronization
import Testing
import TortureServer
import URLNormalization

@Suite("Crawls of a loopback site", .serialized)
struct CrawlTests {
    static func crawl(
        seedPath: String, folder: String, publicOrigin: String? = "https://www.example.com",
        configure: (inout CrawlSettings) -> Void = { _ in }
    ) async throws -> (CrawlStore, CrawlSummary) {
        let base = try await TestSite.baseURL()
        var settings = CrawlSettings(seed: base + seedPath, publicOrigin: publicOrigin, concurrency: 8, timeout: 3)
        settings.maximumBodyBytes = 1 << 20
        settings.maximumAttempts = 2
        configure(&settings)
        let store = try CrawlStore(path: folder + "/crawl.sqlite")
        let summary = try await Crawler(settings: settings, store: store).run(resume: false)
        return (store, summary)
    }

    @Test func crawlsTheFixtureSiteWithRobotsSitemapsAndMarkup() async throws {
        let folder = try temporaryFolder("fixture")
        let (store, summary) = try await Self.crawl(seedPath: "", folder: folder)
        let base = try await TestSite.baseURL()
        let pages = try store.pagesByURL()
        #expect(summary.fetched == pages.count)

        let home = try #require(pages[base])
        #expect(home.status == 200)
        #expect(home.applebotAllowed == true)
        #expect(home.bodySHA256?.count == 64)
        let analysis = try #require(home.storedAnalysis)
        // Extraction saw the public URL, not the loopback one.
        #expect(analysis.summary.url == "https://www.example.com/")

        let movie = try #require(pages[base + "movies/the-incredibles.html"])
        #expect(movie.status == 200)
        #expect(movie.storedAnalysis?.attributes.attributeSet.title?.contains("The Incredibles") == true)

        // robots.txt disallows /private/ for every agent: recorded, not fetched.
        let skipped = try store.skippedURLs()
        #expect(!pages.keys.contains { $0.contains("/private/") })
        #expect(skipped.contains { $0.reason == "robots" && $0.url.contains("/private/") })
        // The sitemap was read from robots.txt's Sitemap: line (a public URL, fetched on loopback).
        let entries = try store.sitemapEntries()
        #expect(entries.contains { $0.location == "https://www.example.com/movies/the-incredibles.html" })
        // Every sitemap location was crawled.
        #expect(try store.sitemapLocationsNotCrawled().isEmpty)

        // report.json is written and parses, with every page in it.
        let reportPath = try CrawlReportWriter(
            store: store, mapping: OriginMapping(fetchOrigin: base, publicOrigin: "https://www.example.com")
        ).write(into: folder).path
        let report = try #require(
            JSONParser.parse(try String(contentsOfFile: reportPath, encoding: .utf8), lenient: false).value)
        #expect(report["pages"]?.arrayValue?.count == pages.count)
        #expect(report["summary"]?["pages"]?.intValue == pages.count)
        #expect(report["pages"]?[0]?["url"]?.stringValue?.hasPrefix("https://www.example.com/") == true)
    }

    @Test func aRecrawlSendsValidatorsAndKeepsUnchangedPages() async throws {
        let folder = try temporaryFolder("recrawl")
        let (store, first) = try await Self.crawl(seedPath: "movies/", folder: folder) { $0.useSitemaps = false }
        #expect(first.generation == 1)
        let base = try await TestSite.baseURL()
        let settings = CrawlSettings(
            seed: base + "movies/", publicOrigin: "https://www.example.com", concurrency: 8, useSitemaps: false)
        let second = try await Crawler(settings: settings, store: store).run(resume: false)
        #expect(second.generation == 2)
        let pages = try store.pagesByURL()
        let html = pages.values.filter { $0.storedAnalysis != nil }
        #expect(!html.isEmpty)
        #expect(html.allSatisfy { $0.notModified })
        // The pages a 304 kept still lead to the pages they link (from the kept markup).
        #expect(html.allSatisfy { $0.storedMarkup?.links.isEmpty == false })
        #expect(pages.count == first.fetched)
        #expect(try store.stalePages().isEmpty)
    }

    @Test func everyTortureRouteEndsClassified() async throws {
        let folder = try temporaryFolder("torture")
        let started = Date()
        let (store, _) = try await Self.crawl(seedPath: "torture/", folder: folder, publicOrigin: nil) {
            $0.timeout = 2
            // Without --as, the fixture robots.txt's Sitemap: line is https://www.example.com/…:
            // the network, which tests stay off.
            $0.useSitemaps = false
        }
        #expect(Date().timeIntervalSince(started) < 60)
        let base = try await TestSite.baseURL()
        let pages = try store.pagesByURL()
        func page(_ path: String) -> PageRecord? { pages[base + path] }

        #expect(page("torture/redirect-loop/a")?.errorKind == "redirect-loop")
        #expect(page("torture/chain/15")?.errorKind == "too-many-redirects")
        #expect(page("torture/offsite")?.errorKind == "redirect-out-of-scope")
        #expect(try store.skippedURLs().contains { $0.url.contains("other-host.invalid") && $0.reason == "scope" })
        // 429 with Retry-After: 1, then a 200 on the second attempt.
        #expect(page("torture/too-many-requests")?.status == 200)
        #expect(page("torture/drip")?.errorKind == "timeout")
        #expect(page("torture/gzip-bomb")?.errorKind == "too-large")
        #expect(page("torture/huge-headers")?.errorKind == "headers-too-large")
        #expect(page("torture/wrong-type")?.errorKind == "not-html")
        #expect(page("torture/soft-404")?.errorKind == "soft-404")
        #expect(page("torture/drop")?.errorKind == "connection-dropped")
        let charset = try #require(page("torture/charset")?.storedAnalysis)
        #expect(charset.summary.diagnostics.contains { $0.code == .charsetConflict })
        // The redirect chain is kept hop by hop.
        let chain = try #require(page("torture/chain/15")?.storedPayload?.redirects)
        #expect(chain.count == 11)
    }

    /// `--per-host 1 --concurrency 8 --delay 0` against a host that is not loopback to the
    /// scheduler (the IPv4-mapped IPv6 form of 127.0.0.1): one request at a time, as the server sees it.
    @Test func aZeroDelayDoesNotLiftThePerHostLimit() async throws {
        let gauge = ConcurrencyGauge()
        let server = try await TortureServer(
            root: TestSite.fixtureRoot, slowPageCount: 60, slowDelay: .milliseconds(30), slowGauge: gauge,
            slowPath: "/paced"
        ).start()
        let base = try #require(URLParser.parse(server.baseURL))
        // Not /slow/: ResumeTests counts the requests for that path, process-wide.
        let seed = "http://[::ffff:127.0.0.1]:\(base.port ?? 80)/paced/0.html"
        let host = try #require(URLParser.parse(seed)?.host)
        // Only 127.0.0.0/8, [::1] and localhost are loopback to the scheduler.
        #expect(host == "[::ffff:7f00:1]")
        let folder = try temporaryFolder("per-host")
        let store = try CrawlStore(path: folder + "/crawl.sqlite")
        var settings = CrawlSettings(
            seed: seed, concurrency: 8, perHost: 1, delay: 0, maximumPages: 20, timeout: 5, useSitemaps: false)
        settings.maximumAttempts = 2
        let summary = try await Crawler(settings: settings, store: store).run(resume: false)
        await server.stop()
        let pages = try store.pagesByURL()
        #expect(pages.count == 20)
        #expect(pages.values.allSatisfy { $0.status == 200 }, "\(pages.values.map { $0.errorMessage ?? "" })")
        #expect(summary.fetched == 20)
        #expect(gauge.peak == 1)
    }

    @Test func includePatternsOnPublicURLsNarrowAServedFolder() async throws {
        let folder = try temporaryFolder("include")
        let (store, _) = try await Self.crawl(seedPath: "movies/", folder: folder) {
            $0.include = ["https://www.example.com/movies/*"]
            $0.exclude = ["https://www.example.com/movies/up.html"]
        }
        let base = try await TestSite.baseURL()
        let pages = try store.pagesByURL()
        // The seed and the other movie pages; nothing outside /movies/, and not the excluded one.
        #expect(pages.count > 1)
        #expect(pages[base + "movies/the-incredibles.html"]?.status == 200)
        #expect(pages.keys.allSatisfy { $0.hasPrefix(base + "movies/") })
        #expect(pages[base + "movies/up.html"] == nil)
        let skipped = try store.skippedURLs()
        #expect(skipped.contains { $0.reason == "scope" && $0.detail == "matches no --include pattern" })
        #expect(skipped.contains { $0.url == base + "movies/up.html" && $0.reason == "scope" })
    }

    @Test("a 2 MiB robots.txt under --max-body 1 MiB: the first 500 KiB are obeyed, the rest ignored")
    func aLargeRobotsTxtIsTruncatedNotFatal() async throws {
        let server = try await TortureServer(root: TestSite.fixtureRoot, largeRobotsBytes: 2 << 20).start()
        let folder = try temporaryFolder("robots-large")
        let store = try CrawlStore(path: folder + "/crawl.sqlite")
        var settings = CrawlSettings(seed: server.baseURL, useSitemaps: false)
        settings.maximumBodyBytes = 1 << 20
        let summary = try await Crawler(settings: settings, store: store).run(resume: false)
        await server.stop()
        let pages = try store.pagesByURL()
        #expect(summary.fetched > 1)
        #expect(pages[server.baseURL]?.status == 200)
        // `Disallow: /movies/` sits past 600 KiB: ignored.
        #expect(pages[server.baseURL + "movies/the-incredibles.html"]?.status == 200)
        let skipped = try store.skippedURLs().filter { $0.reason == "robots" }
        #expect(!skipped.isEmpty)
        #expect(skipped.allSatisfy { $0.url.contains("/private/") })
        let robots = try #require(try store.robots(origin: String(server.baseURL.dropLast())))
        #expect(robots.status == 200)
        #expect(robots.body.count == 500 << 10)
    }

    /// Issue 17 §2: zstd and brotli decompression bombs as robots.txt and sitemap.xml (32 KiB or a
    /// few hundred bytes that decode to 1 GiB): robots.txt is cut at RFC 9309's 500 KiB and its
    /// rules obeyed, the sitemap stops at the 50 MiB sitemap limit and is reported, and the crawl
    /// goes on.
    @Test(
        "decompression bombs as robots.txt and sitemap.xml stop at their limits; the crawl goes on",
        arguments: BombEncoding.allCases)
    func decompressionBombsStopAtTheirLimits(encoding: BombEncoding) async throws {
        let server = try await TortureServer(root: TestSite.fixtureRoot, bombs: encoding).start()
        let folder = try temporaryFolder("\(encoding)-bombs")
        let store = try CrawlStore(path: folder + "/crawl.sqlite")
        var settings = CrawlSettings(seed: server.baseURL, delay: 0)
        settings.maximumPages = 20
        let summary = try await Crawler(settings: settings, store: store).run(resume: false)
        await server.stop()
        #expect(summary.fetched > 1)
        let robots = try #require(try store.robots(origin: String(server.baseURL.dropLast())))
        #expect(robots.status == 200)
        #expect(robots.body.count == 500 << 10)
        let skipped = try store.skippedURLs()
        #expect(skipped.contains { $0.reason == "robots" && $0.url.contains("/movies/") })
        let sitemap = try #require(skipped.first { $0.reason == "sitemap" }, "\(skipped.map(\.reason))")
        #expect(sitemap.url == server.baseURL + "sitemap.xml")
        #expect(sitemap.detail.contains("too-large") || sitemap.detail.contains("50 MiB"), "\(sitemap)")
    }

    /// What `--resume` starts the page budget from (`admittedCount`) is what the budget counted:
    /// after a crawl that spent its budget, exactly `--max-pages`, though some of those entries
    /// were skipped for robots.txt at fetch time and the store holds redirect targets besides.
    @Test func theStoreCountsTheBudgetAsTheCrawlDid() async throws {
        let folder = try temporaryFolder("budget")
        // The seed page's own 12 new links (its last one to /private/, robots-disallowed) are
        // admitted first, then 2 more from the pages after it.
        let (store, _) = try await Self.crawl(seedPath: "colleagues/", folder: folder) {
            $0.maximumPages = 15
            $0.useSitemaps = false
        }
        #expect(try store.admittedCount() == 15)
        let skipped = try store.skippedURLs()
        #expect(skipped.contains { $0.reason == "budget" })
        #expect(skipped.contains { $0.reason == "robots" && $0.url.hasSuffix("/private/secret.html") })
        // What --resume used to count (queued + in flight + done) leaves the robots-skipped out.
        let counts = try store.counts()
        #expect(counts.skipped == 1)
        #expect(counts.queued + counts.inFlight + counts.done != 15)
    }

    /// A clock 1,000 times faster than the wall clock: a wait of 3,000 s takes 3 s.
    static let fastClock: @Sendable () -> Double = { Crawler.wallClock() * 1000 }

    @Test("a Retry-After over an hour ends the page instead of retrying early")
    func aRetryAfterOverAnHourIsNotRetried() async throws {
        let folder = try temporaryFolder("retry-after-long")
        let path = "torture/retry-after/503/7200"
        let before = TortureServer.requestCount(pathPrefix: "/" + path)
        let (store, summary) = try await Self.crawl(seedPath: path, folder: folder, publicOrigin: nil) {
            $0.useSitemaps = false
            $0.maximumAttempts = 3
        }
        let base = try await TestSite.baseURL()
        let page = try #require(try store.pagesByURL()[base + path])
        #expect(page.status == 503)
        #expect(page.errorKind == "http-503")
        #expect(page.errorMessage?.contains("Retry-After too long") == true)
        #expect(summary.errors == 1)
        #expect(TortureServer.requestCount(pathPrefix: "/" + path) - before == 1)
    }

    @Test("a Retry-After under an hour is waited in full (not cut to 120 s)")
    func aLongRetryAfterIsHonoured() async throws {
        let folder = try temporaryFolder("retry-after-honoured")
        let path = "torture/retry-after/429/3000"
        let before = TortureServer.requestCount(pathPrefix: "/" + path)
        let base = try await TestSite.baseURL()
        var settings = CrawlSettings(seed: base + path, concurrency: 8, timeout: 3, useSitemaps: false)
        settings.maximumAttempts = 2
        let store = try CrawlStore(path: folder + "/crawl.sqlite")
        _ = try await Crawler(settings: settings, store: store, clock: Self.fastClock).run(resume: false)
        let run = try #require(try store.currentRun())
        let page = try #require(try store.pagesByURL()[base + path])
        #expect(page.errorKind == "http-429")
        #expect(page.errorMessage?.contains("gave up after 2 attempts") == true)
        #expect(TortureServer.requestCount(pathPrefix: "/" + path) - before == 2)
        // The second attempt started no earlier than Retry-After allowed (crawl-clock seconds).
        #expect(page.fetchedAt - run.startedAt >= 3000)
    }

    /// robots.txt answers 503 every time: disallow all, asked for again every `--robots-retry`
    /// seconds (10 minutes unless set; crawl clock, 1,000 times the wall clock) while the seed
    /// waits, until the attempts run out. Each wait is announced with its time, the end too; the
    /// seed is skipped as robots-unreachable, and no "disallows for Applebot" (IX001) is drawn
    /// from a file that was never read.
    @Test(arguments: [nil, 60, 0] as [Double?])
    func anUnreachableRobotsTxtBlocksTheHostAndIsAskedAgain(retryWait: Double?) async throws {
        let server = try await TortureServer(root: TestSite.fixtureRoot, robotsStatus: 503).start()
        let folder = try temporaryFolder("robots503")
        let store = try CrawlStore(path: folder + "/crawl.sqlite")
        var settings = CrawlSettings(seed: server.baseURL, maximumAttempts: 3, useSitemaps: false)
        settings.robotsRetryWait = retryWait
        let notices = Mutex<[CrawlNotice]>([])
        let summary = try await Crawler(settings: settings, store: store, clock: Self.fastClock).run(
            resume: false, notices: { notice in notices.withLock { $0.append(notice) } })
        await server.stop()
        #expect(summary.fetched == 0)
        let skipped = try store.skippedURLs()
        #expect(skipped.count == 1)
        #expect(skipped.first?.reason == "robots-unreachable")
        #expect(skipped.first?.detail.contains("unreachable (HTTP 503)") == true)
        // Fetched at the start, then once per further attempt, `wait` apart.
        let wait = retryWait ?? 600
        let run = try #require(try store.currentRun())
        let origin = String(server.baseURL.dropLast())
        let robots = try #require(try store.robots(origin: origin))
        #expect(robots.status == 503)
        #expect(robots.fetchedAt - run.startedAt >= 2 * wait)
        let said = notices.withLock { $0 }
        let waits = said.compactMap { notice -> Double? in
            if case .robotsUnreachable(origin, "robots.txt unreachable (HTTP 503)", let retryAt) = notice {
                return retryAt
            }
            return nil
        }
        #expect(waits.count == (wait == 0 ? 0 : 2))
        // The first fetch is at the start: its retry is announced for `wait` later (crawl clock).
        if let first = waits.first {
            #expect(first - run.startedAt >= wait && first - run.startedAt < wait + 300)
        }
        if waits.count == 2 { #expect(waits[1] - waits[0] >= wait) }
        #expect(
            said.last
                == .robotsGaveUp(
                    origin: origin, reason: "robots.txt unreachable (HTTP 503)", attempts: wait == 0 ? 1 : 3))
        let findings = try CrawlReportWriter(store: store, mapping: nil).write(into: folder).siteFindings
        #expect(!findings.contains { $0.ruleID == "IX001" })
    }

    /// robots.txt answers 503 once, then the folder's file: after the 10-minute retry the crawl
    /// goes on as if it had been there all along.
    @Test func aRobotsTxtThatComesBackIsObeyedAndTheCrawlGoesOn() async throws {
        let server = try await TortureServer(root: TestSite.fixtureRoot, robotsStatus: 503, robotsFailures: 1).start()
        let folder = try temporaryFolder("robots503-once")
        let store = try CrawlStore(path: folder + "/crawl.sqlite")
        let settings = CrawlSettings(
            seed: server.baseURL + "movies/", maximumDepth: 1, maximumAttempts: 3, useSitemaps: false)
        let summary = try await Crawler(settings: settings, store: store, clock: Self.fastClock).run(resume: false)
        await server.stop()
        let pages = try store.pagesByURL()
        #expect(summary.fetched == pages.count)
        #expect(pages[server.baseURL + "movies/"]?.status == 200)
        #expect(pages[server.baseURL + "movies/up.html"]?.status == 200)
        let robots = try #require(try store.robots(origin: String(server.baseURL.dropLast())))
        #expect(robots.status == 200)
        // Only what the fixture robots.txt disallows is skipped for robots.
        #expect(try store.skippedURLs().filter { $0.reason == "robots" }.allSatisfy { $0.url.contains("/private/") })
    }
}
