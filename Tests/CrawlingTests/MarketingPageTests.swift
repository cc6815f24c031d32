import CrawlJobs
import Crawling
import Foundation
import LenientJSON
import PageFetching
import Reports
import SpotCheckTestSupport
import Testing
import Verification

/// IX011 (issue 13): the app's marketing and support URLs in App Store Connect must lead Applebot
/// to the site: answer 200 and be a page of the crawled site or link to one.
@Suite("IX011: the app's marketing and support URLs")
struct MarketingPageTests {
    static let site = InMemorySite([
        "https://apps.example.org/support": [
            InMemorySite.html("Support", links: ["https://www.example.com/movies/up"])
        ],
        "https://apps.example.org/relative": [InMemorySite.html("Relative", links: ["/help", "mailto:a@example.org"])],
        "https://apps.example.org/old": [.init(status: 301, headers: [HTTPHeader("Location", "/support")])],
        "https://apps.example.org/loop": [.init(status: 302, headers: [HTTPHeader("Location", "/loop")])],
        "https://www.example.com/": [InMemorySite.html("Home")],
    ])

    static func check(_ url: String) async -> MarketingPageCheck.Outcome {
        let scope = CrawlScope(hosts: ["www.example.com"])
        return await MarketingPageCheck(fetcher: site, scope: scope, verifier: PageVerifier(), maximumRedirects: 10)
            .check(url)
    }

    @Test(
        "a page of the site, or one that links into it (after redirects), is fine",
        arguments: ["https://www.example.com/", "https://apps.example.org/support", "https://apps.example.org/old"])
    func leadsToTheSite(url: String) async {
        let outcome = await Self.check(url)
        #expect(outcome.findings.isEmpty, "\(outcome.findings.map(\.message))")
    }

    @Test(
        "IX011 when the page does not lead to the site, says why",
        arguments: [
            ("https://apps.example.org/relative", "none of its 2 links leads to it"),
            ("https://apps.example.org/gone", "answers HTTP 404"),
            ("https://apps.example.org/loop", "redirects in a loop"),
            ("itms-apps://apps.apple.com/app/id1", "not an http(s) URL"),
        ])
    func doesNotLeadToTheSite(url: String, reason: String) async {
        let outcome = await Self.check(url)
        #expect(outcome.findings.map(\.rule) == [.ix011])
        #expect(outcome.findings.first?.message.contains(reason) == true, "\(outcome.findings.map(\.message))")
        #expect(outcome.findings.first?.url == url)
    }

    /// Through the whole crawl: `--marketing-url` reaches the site file, and report.json's site
    /// findings carry IX011 for a URL the served folder answers 404 (and none for a page of it).
    @Test func aCrawlReportsIX011ForAMarketingURLThatIsGone() async throws {
        let output = Scratch.path("marketing")
        var settings = CrawlSettings(seed: "", timeout: 5)
        settings.marketingURLs = ["https://www.example.com/about.html", "https://www.example.com/no-such-app.html"]
        let request = CrawlRequest(
            seed: TestSite.fixtureRoot, settings: settings, output: output,
            reportFiles: ReportFiles(formats: [.json], toolVersion: "test"))
        _ = try await CrawlJob(request).run()
        let text = try String(contentsOfFile: output + "/report.json", encoding: .utf8)
        let site = JSONParser.parse(text, lenient: false).value?["siteFindings"]?.arrayValue ?? []
        let ix011 = site.filter { $0["rule"]?.stringValue == "IX011" }
        #expect(ix011.map { $0["url"]?.stringValue } == ["https://www.example.com/no-such-app.html"])
    }
}
