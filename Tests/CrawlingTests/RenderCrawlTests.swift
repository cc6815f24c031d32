import CrawlStore
import Crawling
import Foundation
import LenientJSON
import SpotCheckTestSupport
import Testing
import TortureServer

/// `crawl --render` on the fixture site in real headless Chromium (issue 14 §1, §2, §4): DL005,
/// IX015 and IX016 exactly on the pages made for them; no Chromium process outlives the crawl,
/// whether it ends, is interrupted or is killed.
@Suite(
    "crawl --render: the served page against the rendered one",
    .enabled(if: ChromiumForTests.runsTests, Comment(rawValue: ChromiumForTests.skipped)))
struct RenderCrawlTests {
    static let renderRules: Set<String> = ["DL005", "IX015", "IX016"]

    @Test func theRenderRulesFireExactlyOnThePagesMadeForThem() async throws {
        let folder = try temporaryFolder("render")
        let (store, summary) = try await CrawlTests.crawl(seedPath: "", folder: folder) { settings in
            settings.render = RenderSettings(concurrency: 4, timeout: 15)
        }
        #expect(summary.fetched > 30)
        var found: [String: [String]] = [:]
        var analysed = 0
        for (_, page) in try store.pagesByURL() {
            if let rendered = page.storedAnalysis?.rendered {
                analysed += 1
                #expect(rendered.failure == nil, "\(page.finalURL): \(rendered)")
                #expect(rendered.attributeSet != nil, "\(page.finalURL)")
                #expect(!rendered.timedOut, "\(page.finalURL)")
            }
            for finding in page.storedFindings where Self.renderRules.contains(finding.ruleID) {
                found[page.finalURL, default: []].append(finding.ruleID)
            }
        }
        #expect(analysed == (try store.pagesByURL().values.filter { $0.storedAnalysis != nil }.count))
        let base = try await TestSite.baseURL()
        #expect(
            found.mapValues { $0.sorted() } == [
                base + "rendered/injected.html": ["DL005", "IX015", "IX015", "IX015"],
                base + "rendered/blocked-script.html": ["IX016"],
            ])
        let injected = try #require(
            try store.pagesByURL()[base + "rendered/injected.html"]?.shownMarkup())
        #expect(
            injected["rendered"]?["onlyAfterJavaScript"]?.arrayValue?.compactMap(\.stringValue)
                == ["meta description", "og:image", "JSON-LD types", "apple-itunes-app"])
        #expect(injected["rendered"]?["attributeSet"]?["contentDescription"]?.stringValue?.hasPrefix("Robyn") == true)
        #expect(injected["attributeSet"]?["contentDescription"] == nil, "the served attribute set has none")
    }

    @Test func withoutRenderNoPageIsRendered() async throws {
        let folder = try temporaryFolder("no-render")
        let (store, _) = try await CrawlTests.crawl(seedPath: "rendered/injected.html", folder: folder) { settings in
            settings.maximumPages = 1
        }
        let page = try #require(try store.pagesByURL().values.first)
        #expect(page.storedAnalysis != nil && page.storedAnalysis?.rendered == nil)
    }

    /// The crawl's Chromium processes: their command lines name the crawl's own temporary folder.
    static func chromium(of marker: String) -> [Int32] { ChromiumForTests.processes(containing: marker) }

    static func waitUntil(_ condition: () -> Bool, seconds: Double) async throws -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while !condition() {
            if ContinuousClock.now > deadline { return false }
            try await Task.sleep(for: .milliseconds(50))
        }
        return true
    }

    @Test(
        "no Chromium process outlives a crawl that is killed (SIGKILL) or interrupted (SIGINT)",
        arguments: [SIGKILL, SIGINT])
    func noChromiumOutlivesTheCrawler(signal: Int32) async throws {
        let server = try await TestSite.server.value
        let scratch = try temporaryFolder("render-kill")
        let child = try startProcess(
            try spotcheckExecutable(),
            [
                "crawl", server.baseURL + "slow/0.html", "--render", "--output", scratch + "/out", "--no-sitemaps",
                "--quiet", "--no-progress",
            ],
            environment: ["TMPDIR": scratch + "/"])
        let started = try await Self.waitUntil({ !Self.chromium(of: scratch).isEmpty }, seconds: 30)
        #expect(started, "Chromium never started")
        // Rendering has begun: a page has been loaded in it.
        _ = try await Self.waitUntil({ Self.chromium(of: scratch).count > 2 }, seconds: 10)
        kill(child.process.processIdentifier, signal)
        _ = await waitForExit(child.process)
        let gone = try await Self.waitUntil({ Self.chromium(of: scratch).isEmpty }, seconds: 15)
        #expect(gone, "still running: \(Self.chromium(of: scratch))")
        for pid in Self.chromium(of: scratch) { kill(pid, SIGKILL) }
    }
}

/// `crawl --render` without Chromium: refused before any work, naming the package (issue 14 §1).
@Suite("crawl --render without Chromium")
struct MissingChromiumTests {
    @Test func theCrawlStopsBeforeAnyWorkNamingThePackage() async throws {
        let folder = try temporaryFolder("render-missing")
        let child = try startProcess(
            try spotcheckExecutable(),
            ["crawl", TestSite.fixtureRoot, "--render", "--output", folder + "/out", "--quiet", "--no-progress"],
            environment: ["SPOTCHECK_CHROMIUM": "/nonexistent/chromium"])
        let status = await waitForExit(child.process)
        let output = try String(contentsOfFile: child.outputPath, encoding: .utf8)
        #expect(status == 6, "\(output)")
        #expect(output.contains("/nonexistent/chromium"), "\(output)")
        #expect(output.contains("apt-get install chromium"), "\(output)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/out"), "no output folder before the check")
    }
}
