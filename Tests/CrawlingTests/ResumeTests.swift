import CrawlStore
import Crawling
import Foundation
import ReportModel
import SpotCheckTestSupport
import Testing
import TortureServer
import URLNormalization

@Suite("kill -9 and --resume", .serialized)
struct ResumeTests {
    /// A crawl interrupted before its sitemaps were harvested (the run begun, the seed queued,
    /// nothing else committed) harvests them on `--resume`: it ends with the pages and sitemap
    /// entries of an uninterrupted crawl, sitemap-only URLs included.
    @Test func aResumedCrawlHarvestsTheSitemapsTheInterruptedOneDidNot() async throws {
        let base = try await TestSite.baseURL()
        var settings = CrawlSettings(
            seed: base + "movies/up.html", publicOrigin: "https://www.example.com", concurrency: 8, maximumDepth: 1,
            timeout: 3)
        settings.maximumAttempts = 2

        let referenceFolder = try temporaryFolder("sitemap-reference")
        let reference = try CrawlStore(path: referenceFolder + "/crawl.sqlite")
        _ = try await Crawler(settings: settings, store: reference).run(resume: false)
        let expected = Set(try reference.pagesByURL().keys)
        let expectedEntries = try reference.sitemapEntries().map(\.location)
        #expect(!expectedEntries.isEmpty)

        let folder = try temporaryFolder("sitemap-resume")
        let store = try CrawlStore(path: folder + "/crawl.sqlite")
        _ = try store.beginRun(seed: settings.seed, settingsJSON: "{}", at: Crawler.wallClock())
        let seed = try #require(URLParser.parse(settings.seed))
        _ = try store.enqueue([
            FrontierEntry(
                url: settings.seed, key: try #require(seed.deduplicationKey),
                host: "\(seed.host ?? ""):\(seed.port ?? 80)", depth: 0, discovery: .seed, foundOn: nil)
        ])
        _ = try await Crawler(settings: settings, store: store).run(resume: true)
        let pages = try store.pagesByURL()
        #expect(Set(pages.keys) == expected)
        #expect(try store.sitemapEntries().map(\.location) == expectedEntries)
        #expect(
            try store.sitemapLocationsNotCrawled().map(\.location)
                == reference.sitemapLocationsNotCrawled().map(\.location))
        // Sitemap-only pages: listed by the sitemap, two links away from the seed.
        #expect(pages[base + "family/anna-lindqvist.html"]?.status == 200)
    }

    /// A crawl of `colleagues/` with `--max-pages 15` interrupted after its seed page: the seed
    /// done, its 12 new links queued, the one to /private/ already skipped for robots.txt. The
    /// resumed crawl admits exactly what the uninterrupted one does (15), the skipped entry
    /// counted as admitted.
    @Test func aResumedCrawlCountsItsBudgetAsTheUninterruptedOne() async throws {
        let base = try await TestSite.baseURL()
        var settings = CrawlSettings(
            seed: base + "colleagues/", publicOrigin: "https://www.example.com", concurrency: 8, maximumPages: 15,
            timeout: 3, useSitemaps: false)
        settings.maximumAttempts = 2
        let seedURL = try #require(URLParser.parse(settings.seed))
        let host = "\(seedURL.host ?? ""):\(seedURL.port ?? 80)"
        func entry(_ url: String, depth: Int, discovery: Discovery) throws -> FrontierEntry {
            let parsed = try #require(URLParser.parse(url))
            return FrontierEntry(
                url: url, key: try #require(parsed.deduplicationKey), host: host, depth: depth, discovery: discovery,
                foundOn: depth == 0 ? nil : settings.seed)
        }

        let folder = try temporaryFolder("budget-resume")
        let store = try CrawlStore(path: folder + "/crawl.sqlite")
        _ = try store.beginRun(seed: settings.seed, settingsJSON: "{}", at: Crawler.wallClock())
        _ = try store.enqueue([try entry(settings.seed, depth: 0, discovery: .seed)])
        let seed = try #require(try store.claim(host: host, limit: 1, now: Crawler.wallClock()).first)
        let links = try [
            "images/favicon.png", "images/apple-touch-icon.png", "css/site.css", "", "movies/", "family/",
            "about.html", "colleagues/office.html", "colleagues/priya-raman.html", "colleagues/tomas-herrera.html",
            "colleagues/grace-mensah.html", "private/secret.html",
        ].map { try entry(base + $0, depth: 1, discovery: .link) }
        let record = PageRecord(
            frontierID: try #require(seed.id), requestedURL: seed.url, finalURL: seed.url, key: seed.key,
            finalKey: seed.key, depth: 0, status: 200, contentType: "text/html", bodyBytes: 1,
            payload: try PagePayload().stored(), applebotAllowed: true, fetchedAt: Crawler.wallClock())
        #expect(try store.complete(record, discovered: links, skipped: []).count == 12)
        let claimed = try store.claim(host: host, limit: 20, now: Crawler.wallClock())
        let secret = try #require(claimed.last)
        #expect(secret.url.hasSuffix("/private/secret.html"))
        try store.skip(
            id: try #require(secret.id),
            SkippedURL(url: secret.url, key: nil, reason: "robots", detail: "disallowed", foundOn: settings.seed))

        _ = try await Crawler(settings: settings, store: store).run(resume: true)
        #expect(try store.admittedCount() == 15)
        #expect(try store.pagesByURL().count == 14)
        #expect(try store.skippedURLs().contains { $0.reason == "budget" })
    }

    /// The pages an uninterrupted `spotcheck crawl seed` (with `arguments`) stores.
    static func uninterruptedPages(_ executable: String, seed: String, arguments: [String]) async throws -> Set<String>
    {
        let folder = try temporaryFolder("reference")
        let reference = try await runProcess(executable, ["crawl", seed, "--output", folder] + arguments)
        #expect(reference.status == 0, "\(reference.output)")
        return Set(try CrawlStore(path: folder + "/crawl.sqlite").pagesByURL().keys)
    }

    /// Starts `spotcheck` with `arguments`, kills it with SIGKILL once the store at `storePath`
    /// has `pages` pages done (or after 60 s), and returns the pages done when it was killed.
    static func killed(_ executable: String, _ arguments: [String], storePath: String, whenDone pages: Int)
        async throws -> Int
    {
        let child = try startProcess(executable, arguments)
        let deadline = Date().addingTimeInterval(60)
        var done = 0
        while Date() < deadline, done < pages {
            try await Task.sleep(nanoseconds: 10_000_000)
            if FileManager.default.fileExists(atPath: storePath),
                let counts = try? CrawlStore(path: storePath).counts()
            {
                done = counts.done
            }
        }
        kill(child.process.processIdentifier, SIGKILL)
        _ = await waitForExit(child.process)
        return done
    }

    /// A child `spotcheck crawl` is killed with SIGKILL mid-crawl, then `--resume` finishes it: the
    /// resumed crawl ends with exactly the pages an uninterrupted crawl gets, and the server saw
    /// again only the requests that were in flight at the kill.
    @Test func aKilledCrawlResumesWithoutLosingOrRefetchingPages() async throws {
        let executable = try spotcheckExecutable()
        let server = try await TestSite.server.value
        let seed = server.baseURL + "slow/0.html"
        let arguments = ["--concurrency", "4", "--no-sitemaps", "--quiet"]

        // The reference: the same crawl, uninterrupted.
        let expected = try await Self.uninterruptedPages(executable, seed: seed, arguments: arguments)
        #expect(expected.count > 200)

        // The crawl to kill.
        let folder = try temporaryFolder("killed")
        let requestsBefore = TortureServer.requestCount(pathPrefix: "/slow/")
        let storePath = folder + "/crawl.sqlite"
        let doneAtKill = try await Self.killed(
            executable, ["crawl", seed, "--output", folder] + arguments, storePath: storePath, whenDone: 60)
        #expect(doneAtKill >= 60)
        let interrupted = try CrawlStore(path: storePath)
        #expect(try interrupted.currentRun()?.finishedAt == nil)
        let countsAtKill = try interrupted.counts()
        #expect(countsAtKill.done < expected.count, "the crawl finished before it could be killed")

        let resumed = try await runProcess(executable, ["crawl", "--resume", "--output", folder])
        #expect(resumed.status == 0, "\(resumed.output)")
        // Issue 31: this run's count and the crawl's total, each named.
        #expect(resumed.output.contains(" more pages in "), "\(resumed.output)")
        #expect(resumed.output.contains(" pages in all: HTTP 200 ×"), "\(resumed.output)")
        let store = try CrawlStore(path: storePath)
        let pages = try store.pagesByURL()
        let missing = expected.subtracting(pages.keys)
        let extra = Set(pages.keys).subtracting(expected)
        #expect(missing.isEmpty, "lost: \(missing.sorted().prefix(5))")
        #expect(extra.isEmpty, "not in the uninterrupted crawl: \(extra.sorted().prefix(5))")
        #expect(pages.count == expected.count)
        #expect(try store.currentRun()?.finishedAt != nil)
        #expect(pages.values.allSatisfy { $0.status == 200 })

        // Requests beyond one per page: only those in flight at the kill (at most --concurrency),
        // plus nothing else.
        let requests = TortureServer.requestCount(pathPrefix: "/slow/") - requestsBefore
        #expect(requests >= pages.count)
        #expect(requests - pages.count <= 4)
    }

    /// Issue 17 §3: three `kill -9` at three moments of one crawl, each followed by `--resume`,
    /// end with exactly the pages of an uninterrupted crawl, the file sound, and the server asked
    /// again only for what was in flight at each kill.
    @Test func threeKillsInARowLoseNothing() async throws {
        let executable = try spotcheckExecutable()
        let server = try await TestSite.server.value
        let seed = server.baseURL + "slow/0.html"
        let arguments = ["--concurrency", "4", "--no-sitemaps", "--quiet"]
        let expected = try await Self.uninterruptedPages(executable, seed: seed, arguments: arguments)

        let folder = try temporaryFolder("killed-3")
        let storePath = folder + "/crawl.sqlite"
        let requestsBefore = TortureServer.requestCount(pathPrefix: "/slow/")
        var command = ["crawl", seed, "--output", folder] + arguments
        for killAt in [40, 90, 140] {
            let done = try await Self.killed(executable, command, storePath: storePath, whenDone: killAt)
            #expect(done >= killAt && done < expected.count, "killed at \(done) of \(expected.count) pages")
            #expect(try CrawlStore(path: storePath).integrityProblems() == [])
            command = ["crawl", "--resume", "--output", folder, "--quiet"]
        }
        let resumed = try await runProcess(executable, command)
        #expect(resumed.status == 0, "\(resumed.output)")
        let store = try CrawlStore(path: storePath)
        let pages = try store.pagesByURL()
        #expect(Set(pages.keys) == expected)
        #expect(try store.integrityProblems() == [])
        #expect(try store.currentRun()?.finishedAt != nil)
        let requests = TortureServer.requestCount(pathPrefix: "/slow/") - requestsBefore
        #expect(requests >= pages.count)
        #expect(requests - pages.count <= 3 * 4)
    }

    /// Issue 15 §1: Ctrl-C (SIGINT) in the middle of a crawl prints the command that continues it
    /// and exits 130; that command finishes the crawl; resuming it again says in words that it
    /// has finished. The signal is sent when the crawl asks for a page it can only have found in
    /// the committed seed page (a request the server sees), not after a sleep.
    @Test(.timeLimit(.minutes(2)))
    func ctrlCSaysHowToResumeAndAFinishedCrawlSaysSo() async throws {
        let executable = try spotcheckExecutable()
        let server = try await TestSite.server.value
        let folder = try temporaryFolder("interrupted") + "/out"
        // /slow/0.html links to /slow/1.html … /slow/5.html.
        let linkedPage = "/slow/5.html"
        let requestsBefore = TortureServer.requestCount(pathPrefix: linkedPage)
        let child = try startProcess(
            executable,
            [
                "crawl", server.baseURL + "slow/0.html", "--output", folder, "--concurrency", "2", "--no-sitemaps",
                "--quiet",
            ])
        await TortureServer.requestArrived(path: linkedPage, count: requestsBefore + 1)
        kill(child.process.processIdentifier, SIGINT)
        let status = await waitForExit(child.process)
        let output = (try? String(contentsOfFile: child.outputPath, encoding: .utf8)) ?? ""
        #expect(child.process.terminationReason == .exit, "ended by the signal, not by spotcheck: \(output)")
        #expect(status == 130, "\(output)")
        // Issue 31: the command as it was run (here by its path), not always `spotcheck`.
        let command = "\(executable) crawl --resume --output \(folder)"
        #expect(output.contains("spotcheck: continue the crawl with: \(command)\n"), "\(output)")
        let interrupted = try CrawlStore(path: folder + "/crawl.sqlite")
        #expect(try interrupted.currentRun()?.finishedAt == nil)
        #expect(try interrupted.counts().done < 400, "the crawl finished before it was interrupted")

        let resumed = try await runProcess(executable, ["crawl", "--resume", "--output", folder])
        #expect(resumed.status == 0, "\(resumed.output)")
        // Issue 31: this run's count and the crawl's total, each named.
        #expect(resumed.output.contains(" more pages in "), "\(resumed.output)")
        #expect(resumed.output.contains(" pages in all: HTTP 200 ×"), "\(resumed.output)")
        #expect(try CrawlStore(path: folder + "/crawl.sqlite").currentRun()?.finishedAt != nil)

        let again = try await runProcess(executable, ["crawl", "--resume", "--output", folder, "--quiet"])
        #expect(again.status == 6, "\(again.output)")
        #expect(again.output.contains("\(folder): the crawl there finished ("), "\(again.output)")
        #expect(again.output.contains("so there is nothing to resume"), "\(again.output)")
        #expect(again.output.contains("`spotcheck report \(folder)`"), "\(again.output)")
        #expect(!again.output.contains("resumeRun"), "\(again.output)")
    }
}
