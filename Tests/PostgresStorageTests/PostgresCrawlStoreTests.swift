import CrawlStore
import Foundation
import Testing

@testable import PostgresStorage

/// The PostgreSQL server these tests use: `make test` starts a throwaway one and sets the variable
/// (.ci/run always does).
enum TestDatabase {
    static let url = ProcessInfo.processInfo.environment["SPOTCHECK_TEST_POSTGRES"]
    static let skipped: Comment =
        "SPOTCHECK_TEST_POSTGRES is unset: `make test` starts a throwaway PostgreSQL and sets it (.ci/run always does)"

    static func location() throws -> PostgresLocation {
        try PostgresLocation(url: try #require(url))
    }
}

/// The PostgreSQL crawl store on a real server: the frontier as the SQLite store keeps it, and
/// what sharing a crawl adds (host leases, their expiry and hand-over, the crawl's single end).
@Suite("PostgreSQL crawl store", .enabled(if: TestDatabase.url != nil, TestDatabase.skipped))
struct PostgresCrawlStoreTests {
    /// A worker's store on a new crawl (`A`), and a second worker's on the same crawl (`B`).
    static func twoWorkers(maximumLeases: Int = 8, leaseSeconds: Double = 30) throws -> (
        PostgresCrawlStore, PostgresCrawlStore
    ) {
        let location = try TestDatabase.location()
        let first = try PostgresCrawlStore(
            location: location, worker: "A-\(UUID())", leaseSeconds: leaseSeconds, maximumLeases: maximumLeases)
        _ = try first.beginRun(seed: "http://a.example/", settingsJSON: "{}", at: 1000)
        let second = try PostgresCrawlStore(
            location: location, worker: "B-\(UUID())", leaseSeconds: leaseSeconds, maximumLeases: maximumLeases)
        _ = try #require(try second.open(crawl: first.crawlID))
        return (first, second)
    }

    static func entry(_ path: String, host: String = "a.example") -> FrontierEntry {
        FrontierEntry(url: "http://\(host)\(path)", key: "\(host)\(path)", host: host, depth: 1, discovery: .link)
    }

    @Test func enqueueKeepsTheSeenSetAcrossWorkersAndReturnsOnlyNewEntriesWithIds() throws {
        let (first, second) = try Self.twoWorkers()
        let added = try first.enqueue([Self.entry("/1"), Self.entry("/2"), Self.entry("/1")])
        #expect(added.map(\.key) == ["a.example/1", "a.example/2"])
        #expect(added.allSatisfy { $0.id != nil })
        let again = try second.enqueue([Self.entry("/2"), Self.entry("/3")])
        #expect(again.map(\.key) == ["a.example/3"])
        #expect(try second.knownKeys(["a.example/1", "a.example/9"]) == ["a.example/1"])
        #expect(try first.counts() == FrontierCounts(queued: 3))
        #expect(try first.admittedCount() == 3)
    }

    @Test func aLeasedHostIsNobodyElsesUntilItIsReleasedAndThenWaitsForItsNextAllowedTime() throws {
        let (first, second) = try Self.twoWorkers()
        _ = try first.enqueue((1...5).map { Self.entry("/\($0)") })
        // hostsWithWork reads the clock: the times are today's.
        let now = Date().timeIntervalSince1970
        let claimed = try first.claim(host: "a.example", limit: 2, now: now)
        #expect(claimed.map(\.key) == ["a.example/1", "a.example/2"])
        // B neither gets the host's URLs nor sees the host as work it may take.
        #expect(try second.claim(host: "a.example", limit: 2, now: now).isEmpty)
        #expect(try second.hostsWithWork().isEmpty)
        #expect(try first.hostsWithWork().map(\.host) == ["a.example"])
        // A gives it back: B may start no sooner than A's politeness allows.
        try first.releaseHost("a.example", notBefore: now + 5)
        let listed = try second.hostsWithWork()
        #expect(listed.map(\.host) == ["a.example"])
        #expect(listed.first?.earliest == now + 5)
        #expect(try second.claim(host: "a.example", limit: 2, now: now + 4).isEmpty)
        #expect(
            try second.claim(host: "a.example", limit: 2, now: now + 5).map(\.key) == ["a.example/3", "a.example/4"])
        // Releasing a host one does not hold changes nothing.
        try first.releaseHost("a.example", notBefore: now + 9999)
        #expect(try first.claim(host: "a.example", limit: 2, now: now + 6).isEmpty)
        #expect(try second.claim(host: "a.example", limit: 2, now: now + 6).map(\.key) == ["a.example/5"])
    }

    @Test func anExpiredLeaseIsTakenOverAndItsInFlightEntriesAreQueuedAgain() throws {
        let (first, second) = try Self.twoWorkers(leaseSeconds: 30)
        _ = try first.enqueue((1...3).map { Self.entry("/\($0)") })
        let now = Date().timeIntervalSince1970
        #expect(try first.claim(host: "a.example", limit: 2, now: now).count == 2)
        #expect(try second.claim(host: "a.example", limit: 5, now: now + 29).isEmpty)
        // 31 s later A has not renewed (as if it were gone): B takes the host and A's two.
        let taken = try second.claim(host: "a.example", limit: 5, now: now + 31)
        #expect(taken.map(\.key) == ["a.example/1", "a.example/2", "a.example/3"])
        // A's late completion of an entry B now owns wins nothing twice: the first one counts.
        let page = PageRecord(
            frontierID: try #require(taken[0].id), requestedURL: taken[0].url, finalURL: taken[0].url,
            key: taken[0].key, depth: 1, status: 200, fetchedAt: now)
        #expect(try second.complete(page, discovered: [Self.entry("/4")], skipped: [], aliases: []).count == 1)
        #expect(try first.complete(page, discovered: [Self.entry("/5")], skipped: [], aliases: []).isEmpty)
        #expect(try first.knownKeys(["a.example/5"]).isEmpty)
    }

    /// `claimShare` on "a.example" with room for `capacity` requests at once.
    static func share(
        _ store: PostgresCrawlStore, limit: Int = 4, capacity: Int = 4, inFlight: Int, notBefore: Double = 0,
        now: Double
    ) throws -> (keys: [String], slots: Int?) {
        let share = try store.claimShare(
            host: "a.example", limit: limit, capacity: capacity, inFlight: inFlight, notBefore: notBefore, now: now)
        return (share.entries.map(\.key), share.slots)
    }

    static func keys(_ range: ClosedRange<Int>) -> [String] { range.map { "a.example/\($0)" } }

    @Test func aHostWithNoSpacingIsSharedOnceAskedAndTheSharesNeverAddUpToMoreThanItsCapacity() throws {
        let (first, second) = try Self.twoWorkers()
        _ = try first.enqueue((1...30).map { Self.entry("/\($0)") })
        let now = Date().timeIntervalSince1970
        // Alone, A leases the host whole; B, with nothing else to do, is offered it and asks for a
        // share, and gets none while A holds the lease.
        #expect(try Self.share(first, inFlight: 0, now: now) == (Self.keys(1...4), nil))
        #expect(try second.hostsWithWork().map(\.host) == ["a.example"])
        #expect(try Self.share(second, inFlight: 0, now: now) == ([], 0))
        // A's next claim turns its lease into half the host, its four in flight counted until they end.
        #expect(try Self.share(first, inFlight: 4, now: now) == (Self.keys(5...8), 2))
        #expect(try Self.share(second, inFlight: 0, now: now) == ([], 0))
        #expect(try Self.share(first, inFlight: 1, now: now) == (Self.keys(9...12), 2))
        #expect(try Self.share(second, inFlight: 0, now: now) == (Self.keys(13...16), 2))
        // Shared, the host is offered to both, and leased whole by neither.
        #expect(try second.hostsWithWork().map(\.host) == ["a.example"])
        #expect(try first.claim(host: "a.example", limit: 2, now: now).isEmpty)
        #expect(try first.crawls().first { $0.id == first.crawlID }?.workers == 2)
        // B gives its share back: A's next claim leases the host whole again.
        try second.releaseHost("a.example", notBefore: 0)
        #expect(try Self.share(first, inFlight: 2, now: now) == (Self.keys(17...20), nil))
    }

    @Test func aHostWithSpacingIsNeverOfferedToAWorkerWhileAnotherLeasesIt() throws {
        let (first, second) = try Self.twoWorkers()
        _ = try first.enqueue((1...5).map { Self.entry("/\($0)") })
        let now = Date().timeIntervalSince1970
        #expect(try first.claim(host: "a.example", limit: 2, now: now).count == 2)
        #expect(try second.hostsWithWork().isEmpty)
    }

    @Test func aGoneWorkersShareIsQueuedAgainAndTheOtherWorkersInFlightEntriesStay() throws {
        let (first, second) = try Self.twoWorkers(leaseSeconds: 30)
        _ = try first.enqueue((1...10).map { Self.entry("/\($0)") })
        let now = Date().timeIntervalSince1970
        #expect(try Self.share(first, limit: 2, inFlight: 0, now: now) == (Self.keys(1...2), nil))
        #expect(try Self.share(second, limit: 2, inFlight: 0, now: now) == ([], 0))
        #expect(try Self.share(first, limit: 2, inFlight: 2, now: now) == (Self.keys(3...4), 2))
        #expect(try Self.share(second, limit: 2, inFlight: 0, now: now) == (Self.keys(5...6), 2))
        // 31 s later A has not renewed (as if it were gone): its four come back, B's two stay B's,
        // and B, alone, leases the host whole.
        #expect(try Self.share(second, limit: 3, inFlight: 2, now: now + 31) == (Self.keys(1...3), nil))
        #expect(try second.counts() == FrontierCounts(queued: 5, inFlight: 5))
        #expect(try Self.share(first, inFlight: 0, now: now + 31) == ([], 0))
    }

    @Test func aRetryAfterSeenByOneWorkerHoldsTheSharedHostForEveryWorker() throws {
        let (first, second) = try Self.twoWorkers()
        _ = try first.enqueue((1...10).map { Self.entry("/\($0)") })
        let now = Date().timeIntervalSince1970
        #expect(try Self.share(first, limit: 2, inFlight: 0, now: now).keys == Self.keys(1...2))
        #expect(try Self.share(second, limit: 2, inFlight: 0, now: now) == ([], 0))
        #expect(try Self.share(first, limit: 2, inFlight: 2, now: now) == (Self.keys(3...4), 2))
        #expect(try Self.share(second, limit: 2, inFlight: 0, now: now) == (Self.keys(5...6), 2))
        // A was told to wait 5 s: neither worker starts anything more on the host before then.
        #expect(try Self.share(first, limit: 2, inFlight: 1, notBefore: now + 5, now: now + 1) == ([], 0))
        #expect(try Self.share(second, limit: 2, inFlight: 0, now: now + 4) == ([], 0))
        #expect(try second.hostsWithWork().first?.earliest == now + 5)
        #expect(try Self.share(second, limit: 2, inFlight: 0, now: now + 5).keys == Self.keys(7...8))
    }

    @Test func aHarvestWhoseProcessStoppedRenewingItNoLongerHoldsTheCrawlOpen() throws {
        let location = try TestDatabase.location()
        let starter = try PostgresCrawlStore(
            location: location, worker: "S-\(UUID())", leaseSeconds: 30, clock: { 1000 })
        _ = try starter.beginRun(seed: "http://a.example/", settingsJSON: "{}", at: 1000)
        try starter.harvest(pending: true)
        func worker(at now: Double) throws -> PostgresCrawlStore {
            let store = try PostgresCrawlStore(location: location, worker: "W-\(UUID())", clock: { now })
            _ = try #require(try store.open(crawl: starter.crawlID))
            return store
        }
        // Within the starter's lease the harvest holds the crawl open.
        #expect(try worker(at: 1029).awaitWork(timeout: 0.05) == false)
        // Past it (the starter was killed: nothing renewed it), the crawl ends.
        #expect(try worker(at: 1031).awaitWork(timeout: 0.05) == true)
        #expect(try starter.currentRun()?.finishedAt == 1031)
    }

    @Test func aWorkerLeasesAtMostItsShareOfHosts() throws {
        let (first, second) = try Self.twoWorkers(maximumLeases: 1)
        _ = try first.enqueue([Self.entry("/1", host: "a.example"), Self.entry("/1", host: "b.example")])
        #expect(try first.claim(host: "a.example", limit: 1, now: 10).count == 1)
        #expect(try first.claim(host: "b.example", limit: 1, now: 10).isEmpty)
        #expect(try second.claim(host: "b.example", limit: 1, now: 10).count == 1)
    }

    /// A worker at its lease count is offered the hosts it holds and no free one: a free host it
    /// cannot lease would be claimed, refused and offered again at once (issue 32).
    @Test func aWorkerAtItsLeaseCountIsOfferedOnlyTheHostsItHolds() throws {
        let (first, second) = try Self.twoWorkers(maximumLeases: 1)
        _ = try first.enqueue([
            Self.entry("/1", host: "a.example"), Self.entry("/2", host: "a.example"),
            Self.entry("/1", host: "b.example"),
        ])
        #expect(try first.hostsWithWork().map(\.host) == ["a.example", "b.example"])
        let now = Date().timeIntervalSince1970
        #expect(try first.claim(host: "a.example", limit: 1, now: now).count == 1)
        #expect(try first.hostsWithWork().map(\.host) == ["a.example"])
        #expect(try second.hostsWithWork().map(\.host) == ["b.example"])
    }

    @Test func theCrawlEndsOnceWhenNothingIsQueuedInFlightOrBeingHarvested() throws {
        let (first, second) = try Self.twoWorkers()
        let added = try first.enqueue([Self.entry("/1")])
        try first.harvest(pending: true)
        let claimed = try first.claim(host: "a.example", limit: 1, now: 10)
        #expect(try second.awaitWork(timeout: 0.05) == false)
        let page = PageRecord(
            frontierID: try #require(added[0].id), requestedURL: claimed[0].url, finalURL: claimed[0].url,
            key: claimed[0].key, depth: 1, status: 200, fetchedAt: 10)
        _ = try first.complete(page, discovered: [], skipped: [], aliases: [])
        // Still harvesting: not over.
        #expect(try second.awaitWork(timeout: 0.05) == false)
        _ = try first.addSitemapHarvest([], enqueue: [], skipped: [])
        #expect(try second.awaitWork(timeout: 0.05) == true)
        let finished = try #require(try first.currentRun()?.finishedAt)
        // Every other worker sees the same end; finishing again changes nothing.
        #expect(try first.awaitWork(timeout: 0.05) == true)
        try first.finishRun(at: finished + 100)
        #expect(try second.currentRun()?.finishedAt == finished)
        // A worker joining now is told the crawl has finished.
        #expect(throws: CrawlStoreError.self) { try second.resumeRun() }
    }

    @Test func twoCrawlsInOneDatabaseStayApart() throws {
        let (first, _) = try Self.twoWorkers()
        let (other, _) = try Self.twoWorkers()
        #expect(try first.enqueue([Self.entry("/same")]).count == 1)
        #expect(try other.enqueue([Self.entry("/same")]).count == 1)
        _ = try first.claim(host: "a.example", limit: 1, now: 10)
        #expect(try other.claim(host: "a.example", limit: 1, now: 10).count == 1)
        try first.saveSiteFile(
            .init(url: "http://a.example/aasa", kind: "aasa", summaryJSON: "{}", findingsJSON: "[]", fetchedAt: 1))
        #expect(try other.siteFiles().isEmpty)
        #expect(try first.siteFiles().count == 1)
    }

    @Test func aPageComesBackExactlyAsItWasStored() throws {
        let (first, second) = try Self.twoWorkers()
        let added = try first.enqueue([Self.entry("/page")])
        _ = try first.claim(host: "a.example", limit: 1, now: 10)
        let page = PageRecord(
            frontierID: try #require(added[0].id), requestedURL: "http://a.example/page",
            finalURL: "http://a.example/final", key: "a.example/page", finalKey: "a.example/final", depth: 1,
            status: 200, contentType: "text/html", bodyBytes: 1234, bodySHA256: "abc", etag: "\"e\"",
            lastModified: "yesterday", notModified: false, errorKind: nil, errorMessage: nil,
            payload: [0, 1, 2, 0xFF, 0x80], markup: Array("the markup".utf8), applebotAllowed: true, fetchedAt: 12.5,
            verdict: PageVerdict(
                uniqueIdentifier: "u", canonical: "c", appArgument: "app://x", title: "T", contentDescription: "D",
                thumbnailURL: "http://a.example/t.png", isCandidate: false, failingConditions: ["noindex", "no-title"]),
            findingCounts: FindingCounts(errors: 1, warnings: 2, infos: 3))
        _ = try first.complete(
            page, discovered: [], skipped: [SkippedURL(url: "mailto:x", reason: "scheme", detail: "d", foundOn: "f")],
            aliases: [Self.entry("/final")])
        var pages: [PageRecord] = []
        try second.forEachPage(batchSize: 10, includingMarkupDump: true) { pages += $0 }
        #expect(pages == [page])
        var withoutDump: [PageRecord] = []
        try second.forEachPage(batchSize: 10, includingMarkupDump: false) { withoutDump += $0 }
        #expect(withoutDump.first?.markup == nil)
        #expect(try second.skippedURLs() == [SkippedURL(url: "mailto:x", reason: "scheme", detail: "d", foundOn: "f")])
        #expect(try second.counts() == FrontierCounts(done: 2))
        #expect(try second.page(url: "http://a.example/page")?.verdict?.title == "T")
    }

    /// A page with only the columns `complete` needs.
    static func page(for entry: FrontierEntry) throws -> PageRecord {
        PageRecord(
            frontierID: try #require(entry.id), requestedURL: entry.url, finalURL: entry.url, key: entry.key,
            finalKey: entry.key, depth: entry.depth, status: 200, payload: [1, 2, 3], fetchedAt: 1)
    }

    /// The group commit: pages the store queue hands over together go in statements of 4, 2 and
    /// 1 pages, and each gets the result it would get alone.
    @Test func pagesCompletedTogetherAreEachStoredAsAloneAndAnEntryFoundTwiceGoesToTheFirstPage() throws {
        let (first, second) = try Self.twoWorkers()
        let added = try first.enqueue((1...7).map { Self.entry("/\($0)") })
        _ = try first.claim(host: "a.example", limit: 7, now: 10)
        // Page 6 was completed by the other worker first: it changes nothing, and its statement's
        // other page is stored.
        _ = try second.complete(try Self.page(for: added[5]), discovered: [], skipped: [], aliases: [])
        let completions = try added.enumerated().map { index, entry in
            PageCompletion(
                page: try Self.page(for: entry),
                discovered: index == 5
                    ? [Self.entry("/from-6")] : [Self.entry("/new-\(index + 1)"), Self.entry("/shared")],
                skipped: [SkippedURL(url: "mailto:\(index + 1)", reason: "scheme", detail: "", foundOn: entry.url)],
                aliases: [])
        }
        let results = first.complete(completions)
        #expect(results.count == 7)
        let keys = try results.map { try $0.get().map(\.key) }
        #expect(keys[0] == ["a.example/new-1", "a.example/shared"])
        #expect(keys[1] == ["a.example/new-2"])
        #expect(keys[5] == [])
        #expect(keys[6] == ["a.example/new-7"])
        #expect(try results[0].get().allSatisfy { $0.id != nil })
        #expect(try first.counts() == FrontierCounts(queued: 7, done: 7))
        #expect(try !first.knownKeys(["a.example/from-6"]).contains("a.example/from-6"))
        #expect(
            try first.skippedURLs().map(\.url) == [
                "mailto:1", "mailto:2", "mailto:3", "mailto:4", "mailto:5", "mailto:7",
            ])
        var pages: [PageRecord] = []
        try first.forEachPage(batchSize: 10, includingMarkupDump: false) { pages += $0 }
        #expect(pages.count == 7)
        #expect(try first.admittedCount() == 7 + 7)
    }

    @Test func aPageThatFailsInAStatementOfSeveralFailsAloneAndTheOthersAreStored() throws {
        let (first, _) = try Self.twoWorkers()
        let added = try first.enqueue([Self.entry("/a"), Self.entry("/b")])
        _ = try first.claim(host: "a.example", limit: 2, now: 10)
        // A negative depth breaks the frontier's CHECK constraint.
        let broken = FrontierEntry(
            url: "http://a.example/bad", key: "a.example/bad", host: "a.example", depth: -1, discovery: .link)
        let results = first.complete([
            PageCompletion(page: try Self.page(for: added[0]), discovered: [broken], skipped: [], aliases: []),
            PageCompletion(
                page: try Self.page(for: added[1]), discovered: [Self.entry("/ok")], skipped: [], aliases: []),
        ])
        guard case .failure = results[0] else {
            Issue.record("the page with a broken entry was stored")
            return
        }
        #expect(try results[1].get().map(\.key) == ["a.example/ok"])
        #expect(try first.counts() == FrontierCounts(queued: 1, inFlight: 1, done: 1))
    }

    @Test func robotsTxtIsCachedForTheWholeDatabase() throws {
        let (first, _) = try Self.twoWorkers()
        let (other, _) = try Self.twoWorkers()
        let origin = "http://robots-\(UUID()).example"
        let record = CrawlStore.RobotsRecord(
            origin: origin, status: 200, body: Array("User-agent: *\nDisallow: /x\n".utf8), fetchedAt: 5)
        try first.saveRobots(record)
        #expect(try other.robots(origin: origin) == record)
    }

    @Test func migrationsAreRecordedOnceHoweverManyStoresOpenTheDatabase() throws {
        let location = try TestDatabase.location()
        let store = try PostgresCrawlStore(location: location)
        let versions = try store.session.transaction("test") { statements in
            try statements.rows("SELECT COUNT(*), MAX(version) FROM spotcheck_schema")[0].decode((Int, Int).self)
        }
        #expect(versions.0 == PostgresSchema.migrations.count)
        #expect(versions.1 == PostgresSchema.migrations.count)
    }
}
