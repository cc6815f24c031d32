import Foundation
import LenientJSON
import SpotCheckTestSupport
import Testing
import TortureServer

/// The PostgreSQL server the shared-crawl tests use: `make test` (Scripts/with-postgres.sh)
/// starts a throwaway cluster and sets both variables; `.ci/run` always does, so CI never skips.
enum TestDatabase {
    static let url = ProcessInfo.processInfo.environment["SPOTCHECK_TEST_POSTGRES"]
    /// The cluster's folder (Scripts/postgres-cluster.sh), for the restart test.
    static let folder = ProcessInfo.processInfo.environment["SPOTCHECK_TEST_POSTGRES_DIR"]
    static let isAvailable = url != nil
    static let skipped: Comment =
        "SPOTCHECK_TEST_POSTGRES is unset: `make test` starts a throwaway PostgreSQL and sets it (.ci/run always does)"
}

/// Crawls shared by several processes through PostgreSQL (issue 12), end to end: the `crawl`
/// that registers the crawl and `worker` processes that join it, against a site spread over
/// several loopback hosts whose server logs every request.
@Suite("Shared crawls on PostgreSQL", .serialized, .enabled(if: TestDatabase.isAvailable, TestDatabase.skipped))
struct SharedCrawlTests {
    /// A crawl started in the background, once it said its id.
    struct StartedCrawl {
        var process: Process
        var outputPath: String
        var folder: String
        var id: String
    }

    /// The politeness options of a cluster test: one request per host at a time, `delay` between
    /// two starts, applied to the loopback hosts too.
    static func arguments(for site: ClusterSite, delay: Double) -> [String] {
        [
            site.seed, "--no-sitemaps", "--per-host", "1", "--concurrency", "2", "--delay", "\(delay)",
            "--throttle-loopback", "--max-pages", "100000", "--depth", "1000",
        ] + site.hosts.flatMap { ["--allow-host", $0] }
    }

    /// Starts `spotcheck crawl … --store` and waits for the line that names the crawl's id.
    static func startCrawl(_ arguments: [String], extra: [String] = []) async throws -> StartedCrawl {
        let folder = try temporaryFolder("shared-crawl")
        let started = try startProcess(
            try spotcheckExecutable(),
            ["crawl"] + arguments + ["--store", try #require(TestDatabase.url), "--output", folder, "--quiet"] + extra)
        for _ in 0..<1500 {
            let output = (try? String(contentsOfFile: started.outputPath, encoding: .utf8)) ?? ""
            if let range = output.range(of: #"crawl (\d+) registered"#, options: .regularExpression) {
                let id = output[range].split(separator: " ")[1]
                return StartedCrawl(
                    process: started.process, outputPath: started.outputPath, folder: folder, id: String(id))
            }
            if !started.process.isRunning { throw TestFailure("the crawl ended without registering: \(output)") }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw TestFailure("the crawl said no id within 30 s")
    }

    static func startWorker(_ crawl: StartedCrawl, extra: [String] = []) throws -> (
        process: Process, outputPath: String
    ) {
        try startProcess(
            try spotcheckExecutable(),
            ["worker", "--store", try #require(TestDatabase.url), "--crawl", crawl.id] + extra)
    }

    static func output(_ path: String) -> String {
        (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }

    /// The report's pages by URL, with their status.
    static func reportPages(_ folder: String) throws -> [String: Int] {
        let text = try String(contentsOfFile: folder + "/report.json", encoding: .utf8)
        let report = try #require(JSONParser.parse(text, lenient: false).value)
        var pages: [String: Int] = [:]
        for page in report["pages"]?.arrayValue ?? [] {
            pages[page["url"]?.stringValue ?? "?"] = page["status"]?.intValue ?? 0
        }
        return pages
    }

    /// The report in `folder` has every page of `site`, each answered 200.
    static func expectEveryPage(
        of site: ClusterSite, in folder: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let pages = try reportPages(folder)
        #expect(pages.count == site.pageCount, sourceLocation: sourceLocation)
        #expect(pages.values.allSatisfy { $0 == 200 }, sourceLocation: sourceLocation)
    }

    /// Waits until `site` has answered `count` page requests, or `process` has ended.
    static func waitForRequests(_ count: Int, on site: ClusterSite, while process: Process) async throws {
        while site.requests.count < count, process.isRunning {
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    @Test func threeWorkersAndTheCrawlKeepEveryHostPoliteAcrossTheCluster() async throws {
        let site = try await ClusterSite.start(hostCount: 6, pagesPerHost: 15, answerDelay: .milliseconds(30))
        let crawl = try await Self.startCrawl(Self.arguments(for: site, delay: 0.1))
        let workers = try (0..<3).map { _ in try Self.startWorker(crawl) }
        let crawlStatus = await waitForExit(crawl.process)
        let fetchedByWorkers = await Self.pagesFetched(by: workers)
        await site.stop()
        #expect(crawlStatus == 0, "\(Self.output(crawl.outputPath))")
        try Self.expectEveryPage(of: site, in: crawl.folder)
        // The server's log: one request per host at a time, 0.1 s between two starts, less how
        // much later one request than the next reaches the server (5 processes on 2 cores under
        // a loaded CI run: up to 36 ms seen). Half the delay still tells it from no spacing, where
        // one host's requests follow each other at the 30 ms the server takes to answer.
        #expect(site.largestInFlightPerHost() == 1)
        #expect(site.shortestGapBetweenStarts() >= 0.05)
        // Every page was fetched once, and the work was shared.
        #expect(site.requests.count == site.pageCount)
        #expect(fetchedByWorkers.count == 3)
        #expect(fetchedByWorkers.filter { $0 > 0 }.count >= 2, "\(fetchedByWorkers)")
    }

    /// The pages each worker says it fetched, once all have ended (each exiting 0).
    static func pagesFetched(by workers: [(process: Process, outputPath: String)]) async -> [Int] {
        var fetched: [Int] = []
        for worker in workers {
            let status = await waitForExit(worker.process)
            let output = Self.output(worker.outputPath)
            #expect(status == 0, "\(output)")
            if let range = output.range(of: #"fetched (\d+) pages"#, options: .regularExpression) {
                fetched.append(Int(output[range].split(separator: " ")[1]) ?? 0)
            }
        }
        return fetched
    }

    @Test func oneHostWithNoSpacingIsSharedByEveryProcessWithinItsLimit() async throws {
        // An unthrottled loopback host may have --concurrency (3) requests in flight: across the
        // crawl and its two workers, not in each.
        let site = try await ClusterSite.start(
            hostCount: 1, pagesPerHost: 150, linksPerPage: 20, answerDelay: .milliseconds(40))
        let crawl = try await Self.startCrawl([
            site.seed, "--no-sitemaps", "--concurrency", "3", "--max-pages", "100000", "--depth", "1000",
        ])
        let workers = try (0..<2).map { _ in try Self.startWorker(crawl) }
        let crawlStatus = await waitForExit(crawl.process)
        let fetchedByWorkers = await Self.pagesFetched(by: workers)
        await site.stop()
        #expect(crawlStatus == 0, "\(Self.output(crawl.outputPath))")
        try Self.expectEveryPage(of: site, in: crawl.folder)
        #expect(site.largestInFlightPerHost() <= 3)
        #expect(site.requests.count == site.pageCount)
        // The one host's pages were fetched by the workers too, not only by the crawl.
        #expect(fetchedByWorkers.count == 2)
        #expect(fetchedByWorkers.reduce(0, +) >= site.pageCount / 10, "\(fetchedByWorkers)")
    }

    @Test func aWorkerKilledWhileSharingAHostLosesNothingAndItsSlotsComeBack() async throws {
        let site = try await ClusterSite.start(
            hostCount: 1, pagesPerHost: 150, linksPerPage: 20, answerDelay: .milliseconds(40))
        let crawl = try await Self.startCrawl(
            [site.seed, "--no-sitemaps", "--concurrency", "3", "--max-pages", "100000", "--depth", "1000"],
            extra: ["--lease", "3"])
        let doomed = try Self.startWorker(crawl, extra: ["--lease", "3"])
        try await Self.waitForRequests(40, on: site, while: doomed.process)
        kill(doomed.process.processIdentifier, SIGKILL)
        _ = await waitForExit(doomed.process)
        let crawlStatus = await waitForExit(crawl.process)
        await site.stop()
        #expect(crawlStatus == 0, "\(Self.output(crawl.outputPath))")
        try Self.expectEveryPage(of: site, in: crawl.folder)
        // Fetched twice: at most what the killed worker had in flight (its slots: 3 at most);
        // the entries it had claimed and not started were queued again, not lost.
        let refetched = site.requests.count - Set(site.requests.map { "\($0.host)\($0.path)" }).count
        #expect(refetched <= 3, "\(refetched) pages fetched twice")
        #expect(site.largestInFlightPerHost() <= 3)
    }

    @Test func threeProcessesOnOneThrottledHostKeepItsLimitAndItsSpacing() async throws {
        // Answers slower than the delay: one process alone would have two requests in flight.
        let site = try await ClusterSite.start(hostCount: 1, pagesPerHost: 16, answerDelay: .milliseconds(300))
        let crawl = try await Self.startCrawl([
            site.seed, "--no-sitemaps", "--per-host", "2", "--concurrency", "4", "--delay", "0.2",
            "--throttle-loopback", "--max-pages", "100000", "--depth", "1000",
        ])
        let workers = try (0..<2).map { _ in try Self.startWorker(crawl) }
        let crawlStatus = await waitForExit(crawl.process)
        let fetchedByWorkers = await Self.pagesFetched(by: workers)
        await site.stop()
        #expect(crawlStatus == 0, "\(Self.output(crawl.outputPath))")
        try Self.expectEveryPage(of: site, in: crawl.folder)
        #expect(fetchedByWorkers.count == 2)
        // The server's log: never more than two at once, and 0.2 s between two starts (half of it
        // allowed for how much later one request than the next reaches the server, as above).
        #expect(site.largestInFlightPerHost() == 2)
        #expect(site.shortestGapBetweenStarts() >= 0.1)
        #expect(site.requests.count == site.pageCount)
    }

    @Test func aWorkerKilledMidCrawlLosesNothingAndIsRefetchedAtMostItsInFlightPages() async throws {
        let site = try await ClusterSite.start(hostCount: 6, pagesPerHost: 25, answerDelay: .milliseconds(40))
        let crawl = try await Self.startCrawl(Self.arguments(for: site, delay: 0.15), extra: ["--lease", "3"])
        let doomed = try Self.startWorker(crawl, extra: ["--lease", "3"])
        let survivor = try Self.startWorker(crawl, extra: ["--lease", "3"])
        // Killed once the crawl is well under way (and so holding leases, with pages in flight).
        try await Self.waitForRequests(40, on: site, while: doomed.process)
        kill(doomed.process.processIdentifier, SIGKILL)
        _ = await waitForExit(doomed.process)
        let survivorStatus = await waitForExit(survivor.process)
        let crawlStatus = await waitForExit(crawl.process)
        await site.stop()
        #expect(survivorStatus == 0, "\(Self.output(survivor.outputPath))")
        #expect(crawlStatus == 0, "\(Self.output(crawl.outputPath))")
        try Self.expectEveryPage(of: site, in: crawl.folder)
        // Fetched twice: at most what the killed worker had in flight (--concurrency 2).
        let refetched = site.requests.count - Set(site.requests.map { "\($0.host)\($0.path)" }).count
        #expect(refetched <= 2, "\(refetched) pages fetched twice")
        #expect(site.largestInFlightPerHost() == 1)
    }

    @Test func thePageBudgetIsTheWholeCrawlsNotEachProcesss() async throws {
        let site = try await ClusterSite.start(hostCount: 6, pagesPerHost: 15, answerDelay: .milliseconds(5))
        var arguments = Self.arguments(for: site, delay: 0)
        arguments[arguments.firstIndex(of: "100000")!] = "30"
        let crawl = try await Self.startCrawl(arguments)
        let workers = try (0..<2).map { _ in try Self.startWorker(crawl) }
        #expect(await waitForExit(crawl.process) == 0, "\(Self.output(crawl.outputPath))")
        for worker in workers { #expect(await waitForExit(worker.process) == 0, "\(Self.output(worker.outputPath))") }
        await site.stop()
        // Each process reads the crawl's count before it admits a page's links; two of them may
        // admit at the same moment, so the budget is exceeded by at most the links (4) of one
        // page per other process.
        let pages = try Self.reportPages(crawl.folder)
        #expect(pages.count >= 30)
        #expect(pages.count <= 30 + 2 * 4, "\(pages.count) pages")
    }

    @Test func ctrlCStopsTheStarterAndAWorkerFinishesTheCrawlWhoseReportsAreWrittenAgain() async throws {
        let site = try await ClusterSite.start(hostCount: 3, pagesPerHost: 15, answerDelay: .milliseconds(20))
        let crawl = try await Self.startCrawl(Self.arguments(for: site, delay: 0.1), extra: ["--lease", "3"])
        try await Self.waitForRequests(5, on: site, while: crawl.process)
        kill(crawl.process.processIdentifier, SIGINT)
        #expect(await waitForExit(crawl.process) == 130)
        let said = Self.output(crawl.outputPath)
        #expect(said.contains("spotcheck worker --store postgres://"), "\(said)")
        #expect(said.contains("--crawl \(crawl.id)"))
        let database = try #require(TestDatabase.url)
        #expect(!said.contains(try #require(URLComponents(string: database)?.password)))
        // A worker takes the crawl over (the starter's leases expire first) and ends it.
        let worker = try await runProcess(
            try spotcheckExecutable(), ["worker", "--store", database, "--crawl", crawl.id, "--quiet"])
        #expect(worker.status == 0, "\(worker.output)")
        let folder = try temporaryFolder("shared-report")
        let report = try await runProcess(
            try spotcheckExecutable(), ["report", database, "--crawl", crawl.id, "--output", folder])
        await site.stop()
        #expect(report.status == 0, "\(report.output)")
        try Self.expectEveryPage(of: site, in: folder)
    }

    @Test func aWorkerStartedAfterTheCrawlEndedHasNothingToDo() async throws {
        let site = try await ClusterSite.start(hostCount: 2, pagesPerHost: 3, answerDelay: .milliseconds(1))
        let crawl = try await Self.startCrawl(Self.arguments(for: site, delay: 0))
        #expect(await waitForExit(crawl.process) == 0, "\(Self.output(crawl.outputPath))")
        await site.stop()
        let late = try await runProcess(
            try spotcheckExecutable(), ["worker", "--store", try #require(TestDatabase.url), "--crawl", crawl.id])
        #expect(late.status == 0)
        #expect(late.output.contains("crawl \(crawl.id) finished"), "\(late.output)")
        #expect(late.output.contains("nothing to do"))
        // A crawl id the database does not have is a mistake: exit 6, naming it.
        let unknown = try await runProcess(
            try spotcheckExecutable(), ["worker", "--store", try #require(TestDatabase.url), "--crawl", "987654321"])
        #expect(unknown.status == 6, "\(unknown.output)")
        #expect(unknown.output.contains("987654321"))
        // `crawls` lists it as finished with its 6 pages done.
        // `diff --store` reports crawls of the database: the crawl against itself has no difference.
        let diff = try await runProcess(
            try spotcheckExecutable(), ["diff", crawl.id, crawl.id, "--store", try #require(TestDatabase.url)])
        #expect(diff.status == 0, "\(diff.output)")
        let listing = try await runProcess(
            try spotcheckExecutable(), ["crawls", "--store", try #require(TestDatabase.url)])
        #expect(listing.status == 0)
        let line = listing.output.split(separator: "\n").first { $0.hasPrefix("\(crawl.id)\t") }
        #expect(line?.hasPrefix("\(crawl.id)\tfinished\t6\t") == true, "\(listing.output)")
        let password = URLComponents(string: TestDatabase.url ?? "")?.password
        #expect(!listing.output.contains(try #require(password)))
    }

    @Test(
        .enabled(
            if: TestDatabase.folder != nil, "SPOTCHECK_TEST_POSTGRES_DIR is unset: the cluster cannot be restarted"))
    func theServerRestartingMidCrawlLosesNothing() async throws {
        let site = try await ClusterSite.start(hostCount: 4, pagesPerHost: 20, answerDelay: .milliseconds(30))
        let crawl = try await Self.startCrawl(Self.arguments(for: site, delay: 0.1))
        let worker = try Self.startWorker(crawl)
        try await Self.waitForRequests(20, on: site, while: crawl.process)
        let restart = try await runProcess(
            TestSite.projectRoot.appendingPathComponent("Scripts/postgres-cluster.sh").path,
            ["restart", try #require(TestDatabase.folder)])
        #expect(restart.status == 0, "\(restart.output)")
        // The restart came in the middle of the crawl, not after it.
        #expect(crawl.process.isRunning)
        let crawlStatus = await waitForExit(crawl.process)
        let workerStatus = await waitForExit(worker.process)
        await site.stop()
        #expect(crawlStatus == 0, "\(Self.output(crawl.outputPath))")
        #expect(workerStatus == 0, "\(Self.output(worker.outputPath))")
        try Self.expectEveryPage(of: site, in: crawl.folder)
    }

    @Test func theFixtureSiteGivesTheSameReportAsTheSQLiteStore() async throws {
        let executable = try spotcheckExecutable()
        let sqlite = try temporaryFolder("fixture-sqlite")
        let shared = try temporaryFolder("fixture-postgres")
        let common = [TestSite.fixtureRoot, "--quiet", "--app-id", "1234567890"]
        let first = try await runProcess(executable, ["crawl"] + common + ["--output", sqlite])
        let second = try await runProcess(
            executable, ["crawl"] + common + ["--output", shared, "--store", try #require(TestDatabase.url)])
        #expect(first.status == 0, "\(first.output)")
        #expect(second.status == 0, "\(second.output)")
        let (one, other) = (try Self.comparable(sqlite), try Self.comparable(shared))
        // On a difference, the lines only one report has (an intermittent one was seen in CI).
        let onlySQLite = Set(one.split(separator: "\n")).subtracting(other.split(separator: "\n"))
        let onlyShared = Set(other.split(separator: "\n")).subtracting(one.split(separator: "\n"))
        #expect(
            one == other,
            "only in SQLite's: \(onlySQLite.sorted().prefix(20)); only in PostgreSQL's: \(onlyShared.sorted().prefix(20))"
        )
    }

    /// report.json without what differs between any two crawls (times, ports, durations, the
    /// order in which concurrent pages reached the frontier or recorded the links they skip) and
    /// without the page rules a shared crawl keeps in its settings for its workers.
    static func comparable(_ folder: String) throws -> String {
        let text = try String(contentsOfFile: folder + "/report.json", encoding: .utf8)
        var value = try #require(JSONParser.parse(text, lenient: false).value)
        func strip(_ value: JSONValue) -> JSONValue {
            switch value {
            case .object(let object):
                var kept = JSONObject()
                for member in object where !Self.volatile.contains(member.key) {
                    kept.append(member.key, strip(member.value))
                }
                return .object(kept)
            case .array(let items): return .array(items.map(strip))
            case .string(let text):
                return .string(
                    text.replacingOccurrences(
                        of: #"127\.0\.0\.1:\d+"#, with: "127.0.0.1:PORT", options: .regularExpression))
            default: return value
            }
        }
        value = strip(value)
        // Sorted lines, each without its trailing comma: which member of an array comes last (no
        // comma) depends on the order concurrent pages reached the frontier, as the order does.
        var lines = value.serialized(pretty: true, sortKeys: true).split(separator: "\n").map {
            $0.hasSuffix(",") ? String($0.dropLast()) : String($0)
        }
        lines.sort()
        return lines.joined(separator: "\n")
    }

    static let volatile: Set<String> = [
        "fetchedAt", "startedAt", "finishedAt", "generatedAt", "elapsed", "timings", "seconds", "pageRules", "foundOn",
        "headers", "durationSeconds", "responseTimes", "pagesPerSecond", "depth",
    ]

    @Test func aWrongPasswordAndAnUnreachableServerAreClearErrorsWithoutThePassword() async throws {
        let database = try #require(TestDatabase.url)
        let url = try #require(URLComponents(string: database))
        var wrong = url
        wrong.password = "not-the-password-\(UUID().uuidString.prefix(8))"
        let refused = try await runProcess(
            try spotcheckExecutable(), ["crawls", "--store", try #require(wrong.string)])
        #expect(refused.status == 9)
        #expect(refused.output.contains("password authentication failed"), "\(refused.output)")
        #expect(!refused.output.contains(wrong.password ?? "?"))
        var unreachable = url
        unreachable.port = 9
        let down = try await runProcess(
            try spotcheckExecutable(),
            [
                "crawl", TestSite.fixtureRoot, "--store", try #require(unreachable.string), "--output",
                try temporaryFolder("unreachable") + "/out",
            ])
        #expect(down.status == 9)
        #expect(
            down.output.contains("cannot connect to PostgreSQL at 127.0.0.1:9: connection refused"), "\(down.output)")
        #expect(!down.output.contains(url.password ?? "?"))
    }
}
