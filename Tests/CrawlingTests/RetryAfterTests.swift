import CrawlStore
import PageFetching
import Testing

@testable import Crawling

/// Issue 35 §1: `Retry-After` values that used to trap the crawl (and every `--resume` of it).
@Suite("Retry-After from a hostile server")
struct RetryAfterTests {
    static let origin = "http://site.test"

    @Test(
        "delta-seconds are digits only; other numbers are no Retry-After",
        arguments: [
            ("120", 120.0), (" 7 ", 7), ("0", 0), ("1e20", nil), ("inf", nil), ("nan", nil), ("0x1p70", nil),
            ("1.5", nil), ("-3", nil), ("", nil), (String(repeating: "9", count: 400), 1e12),
            ("99999999999999999999999", 1e12),
        ] as [(String, Double?)])
    func parsing(value: String, seconds: Double?) {
        #expect(PageProcessor.retryAfterSeconds(value) == seconds)
    }

    /// A 429 whose Retry-After would be read as a number past `Int.max` (or as infinity) ends
    /// the page with a message, and the crawl runs to its end.
    @Test(
        "a 429 with a huge or non-numeric Retry-After ends the page, not the crawl",
        arguments: [
            (
                "99999999999999999999999",
                "Retry-After too long: 1000000000000 s (at most 3600 s are waited); not retried"
            ),
            ("inf", "gave up after 1 attempts"), ("1e20", "gave up after 1 attempts"),
            ("0x1p70", "gave up after 1 attempts"),
        ])
    func hugeRetryAfter(value: String, message: String) async throws {
        let site = InMemorySite([
            Self.origin + "/": [.init(status: 429, headers: [HTTPHeader("Retry-After", value)], body: "slow down")]
        ])
        let folder = try temporaryFolder("retry-after")
        let store = try CrawlStore(path: folder + "/crawl.sqlite")
        let settings = CrawlSettings(seed: Self.origin + "/", delay: 0, maximumAttempts: 1, useSitemaps: false)
        let summary = try await Crawler(settings: settings, store: store, fetcher: site).run(resume: false)
        let page = try #require(try store.pagesByURL()[Self.origin + "/"])
        #expect(page.status == 429)
        #expect(page.errorMessage == message)
        #expect(summary.fetched == 1)
    }
}
