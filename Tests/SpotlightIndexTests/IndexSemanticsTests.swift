import Foundation
import GRDB
import LenientJSON
import SpotCheckTestSupport
import SpotlightIndex
import SpotlightModel
import Synchronization
import Testing

@Suite("Items: upsert, isUpdate, deletes")
struct ItemTests {
    @Test(arguments: IndexBackend.available) func indexingTheSameIdentifierReplacesTheItem(backend: IndexBackend) throws
    {
        let index = try makeIndex(backend)
        try index.indexItems([item("a", domain: "movies", title: "Old", keywords: ["x"])])
        try index.indexItems([item("a", title: "New")])
        let stored = try #require(try index.item(identifier: "a"))
        #expect(stored.item.attributeSet.title == "New")
        // A replacement, not a merge: the old keywords and domain are gone.
        #expect(stored.item.attributeSet.keywords.isEmpty)
        #expect(stored.item.domainIdentifier == nil)
        #expect(try index.identifiers() == ["a"])
    }

    @Test(arguments: IndexBackend.available) func isUpdateMergesTheFieldsItSets(backend: IndexBackend) throws {
        let index = try makeIndex(backend)
        try index.indexItems([
            item("a", domain: "movies", title: "Up", description: "Balloons", keywords: ["pixar"], rankingHint: 10)
        ])
        let report = try index.indexItems([item("a", description: "A house flies", isUpdate: true)])
        #expect(report.itemsUpdated == 1)
        let stored = try #require(try index.item(identifier: "a")).item
        #expect(stored.attributeSet.title == "Up")
        #expect(stored.attributeSet.contentDescription == "A house flies")
        #expect(stored.attributeSet.keywords == ["pixar"])
        #expect(stored.attributeSet.rankingHint == 10)
        #expect(stored.domainIdentifier == "movies")
        // The search table follows the merge.
        #expect(try index.search(SearchQuery("house")).map(\.uniqueIdentifier) == ["a"])
        #expect(try index.search(SearchQuery("balloons")).isEmpty)
    }

    @Test(arguments: IndexBackend.available) func isUpdateOnAnAbsentItemIsIgnored(backend: IndexBackend) throws {
        let index = try makeIndex(backend)
        let report = try index.indexItems([item("ghost", title: "Boo", isUpdate: true)])
        #expect(report.updatesIgnored == ["ghost"])
        #expect(report.itemsIndexed == 0 && report.itemsUpdated == 0)
        #expect(try index.item(identifier: "ghost") == nil)
        #expect(try index.search(SearchQuery("boo")).isEmpty)
    }

    @Test(arguments: IndexBackend.available) func isUpdateOnAnExpiredItemIsIgnored(backend: IndexBackend) throws {
        let clock = TestClock()
        let index = try makeIndex(backend, clock: clock)
        try index.indexItems([item("a", title: "Up")])
        clock.advance(by: 31 * day)
        let report = try index.indexItems([item("a", title: "Up 2", isUpdate: true)])
        #expect(report.updatesIgnored == ["a"])
        #expect(try index.item(identifier: "a") == nil)
    }

    @Test(arguments: IndexBackend.available) func deleteByIdentifiers(backend: IndexBackend) throws {
        let index = try makeIndex(backend)
        try index.indexItems([item("a"), item("b"), item("c")])
        let report = try index.deleteItems(identifiers: ["a", "c", "missing"])
        #expect(report.itemsDeleted == 2)
        #expect(try index.identifiers() == ["b"])
    }

    @Test(
        "Deleting a domain deletes its sub-domains, not its look-alikes",
        arguments: IndexBackend.available,
        [
            ("a", ["ab", "b", "none"]),
            ("a.b", ["a", "a.bc", "ab", "b", "none"]),
            ("a.b.c", ["a", "a.b", "a.bc", "ab", "b", "none"]),
            ("b", ["a", "a.b", "a.b.c", "a.bc", "ab", "none"]),
            ("ab", ["a", "a.b", "a.b.c", "a.bc", "b", "none"]),
            ("a.", ["a", "a.b", "a.b.c", "a.bc", "ab", "b", "none"]),
        ])
    func recursiveDomainDelete(backend: IndexBackend, example: (String, [String])) throws {
        let (domain, remaining) = example
        let index = try makeIndex(backend)
        let domains = ["a", "a.b", "a.b.c", "a.bc", "ab", "b"]
        try index.indexItems(domains.map { item($0, domain: $0) } + [item("none")])
        try index.deleteItems(domainIdentifiers: [domain])
        #expect(try index.identifiers() == remaining)
    }

    @Test(arguments: IndexBackend.available) func deleteAllClearsItemsActivitiesAndEveryClientState(
        backend: IndexBackend
    ) throws {
        let index = try makeIndex(backend)
        var batch = try index.beginBatch(index: "one")
        batch.indexItems([item("a", title: "Up")])
        try index.endBatch(batch, clientState: Array("s1".utf8))
        try index.endBatch(try index.beginBatch(index: "two"), clientState: Array("s2".utf8))
        try index.indexActivities([activity("view", title: "Office", webpageURL: "https://example.com/office")])
        let report = try index.deleteAll()
        #expect(report.itemsDeleted == 1 && report.activitiesDeleted == 1)
        #expect(try index.items().isEmpty && index.activities().isEmpty)
        #expect(try index.lastClientState(index: "one") == nil)
        #expect(try index.lastClientState(index: "two") == nil)
        #expect(try index.search(SearchQuery("up")).isEmpty)
    }

    @Test(arguments: IndexBackend.available) func invalidItemsRollTheCallBack(backend: IndexBackend) throws {
        let index = try makeIndex(backend)
        #expect(throws: LocalIndexError.self) {
            try index.indexItems([item("fine"), item("bad", rankingHint: 101)])
        }
        #expect(try index.items().isEmpty)
        let error = try #require(throws: LocalIndexError.self) { try index.indexItems([item("")]) }
        #expect(error.kind == .invalidItem)
    }
}

@Suite("Expiration, with an injected clock")
struct ExpirationTests {
    @Test(arguments: IndexBackend.available) func defaultTimeToLiveIsAMonthAfterIndexing(backend: IndexBackend) throws {
        let clock = TestClock()
        let index = try makeIndex(backend, clock: clock)
        try index.indexItems([item("a", title: "Up")])
        let stored = try #require(try index.item(identifier: "a"))
        #expect(stored.indexedAt == TestClock.start)
        #expect(stored.expiresAt == TestClock.start + 30 * day)
        #expect(stored.item.expirationDate == nil)
        clock.advance(by: 30 * day - 1)
        #expect(try index.item(identifier: "a") != nil)
        clock.advance(by: 1)
        #expect(try index.item(identifier: "a") == nil)
    }

    @Test(arguments: IndexBackend.available) func expiredItemsAreNeverReturned(backend: IndexBackend) throws {
        let clock = TestClock()
        let index = try makeIndex(backend, clock: clock)
        try index.indexItems([
            item("soon", domain: "d", title: "Lighthouse", expiration: "2026-01-02T00:00:00Z"),
            item("later", domain: "d", title: "Lighthouse keeper", expiration: "2027-01-01T00:00:00Z"),
        ])
        clock.advance(by: 2 * day)
        #expect(try index.item(identifier: "soon") == nil)
        #expect(try index.identifiers() == ["later"])
        #expect(try index.search(SearchQuery("lighthouse")).map(\.uniqueIdentifier) == ["later"])
        #expect(try index.reindexDue(within: 400 * day).map(\.item.uniqueIdentifier) == ["later"])
        let statistics = try index.statistics()
        #expect(statistics.items == 1 && statistics.expiredItems == 1)
        #expect(statistics.itemsByDomain == ["d": 1])
        try index.purgeExpired()
        #expect(try index.statistics().expiredItems == 0)
    }

    @Test(arguments: IndexBackend.available) func reindexingResetsTheDefaultExpiration(backend: IndexBackend) throws {
        let clock = TestClock()
        let index = try makeIndex(backend, clock: clock)
        try index.indexItems([item("a")])
        clock.advance(by: 20 * day)
        try index.indexItems([item("a")])
        #expect(try index.item(identifier: "a")?.expiresAt == TestClock.start + 50 * day)
    }

    @Test(arguments: IndexBackend.available) func anUpdateWithoutExpirationKeepsTheItems(backend: IndexBackend) throws {
        let clock = TestClock()
        let index = try makeIndex(backend, clock: clock)
        try index.indexItems([item("a", title: "A")])
        clock.advance(by: 20 * day)
        try index.indexItems([item("a", title: "B", isUpdate: true)])
        let stored = try #require(try index.item(identifier: "a"))
        #expect(stored.expiresAt == TestClock.start + 30 * day)
        #expect(stored.item.attributeSet.title == "B")
    }

    @Test(
        "reindexDue lists what expires within the window, soonest first",
        arguments: IndexBackend.available,
        [
            (1.0, [String]()),
            (3.0, ["in2days"]),
            (7.0, ["in2days", "in7days"]),
            (31.0, ["in2days", "in7days", "default"]),
        ])
    func reindexDue(backend: IndexBackend, example: (Double, [String])) throws {
        let (windowDays, expected) = example
        let clock = TestClock()
        let index = try makeIndex(backend, clock: clock)
        try index.indexItems([
            item("in7days", expiration: "2026-01-08T00:00:00Z"),
            item("in2days", expiration: "2026-01-03T00:00:00Z"),
            item("default"),
            item("past", expiration: "2025-12-31T00:00:00Z"),
        ])
        #expect(try index.reindexDue(within: windowDays * day).map(\.item.uniqueIdentifier) == expected)
    }

    @Test(arguments: IndexBackend.available) func expiredActivitiesAreNotReturned(backend: IndexBackend) throws {
        let clock = TestClock()
        let index = try makeIndex(backend, clock: clock)
        var record = activity("view", title: "Office", webpageURL: "https://example.com/office")
        record.activity.expirationDate = ISO8601.date("2026-01-05T00:00:00Z")
        try index.indexActivities([record])
        #expect(try index.search(SearchQuery("office")).count == 1)
        clock.advance(by: 5 * day)
        #expect(try index.activities().isEmpty)
        #expect(try index.search(SearchQuery("office")).isEmpty)
    }
}

@Suite("Named indexes, batches and client states")
struct BatchTests {
    @Test(arguments: IndexBackend.available) func theDefaultIndexRejectsBatching(backend: IndexBackend) throws {
        let index = try makeIndex(backend)
        let begin = try #require(throws: LocalIndexError.self) { try index.beginBatch(index: nil) }
        #expect(begin.kind == .batchingUnsupported)
        let state = try #require(throws: LocalIndexError.self) { try index.lastClientState(index: nil) }
        #expect(state.kind == .batchingUnsupported)
        #expect(throws: LocalIndexError.self) { try index.beginBatch(index: "") }
    }

    @Test(
        "A client state under 250 bytes is kept; 250 or more is rejected and the batch not applied",
        arguments: IndexBackend.available,
        [(0, true), (1, true), (249, true), (250, false), (251, false), (4096, false)])
    func clientStateLimit(backend: IndexBackend, example: (Int, Bool)) throws {
        let (bytes, accepted) = example
        let index = try makeIndex(backend)
        var first = try index.beginBatch(index: "app")
        first.indexItems([item("before")])
        try index.endBatch(first, clientState: Array("previous".utf8))

        var batch = try index.beginBatch(index: "app")
        batch.indexItems([item("new")])
        batch.deleteItems(identifiers: ["before"])
        let state = [UInt8](repeating: UInt8(ascii: "x"), count: bytes)
        if accepted {
            try index.endBatch(batch, clientState: state)
            #expect(try index.lastClientState(index: "app") == state)
            #expect(try index.identifiers() == ["new"])
        } else {
            let error = try #require(throws: LocalIndexError.self) { try index.endBatch(batch, clientState: state) }
            #expect(error.kind == .invalidClientState)
            #expect(try index.lastClientState(index: "app") == Array("previous".utf8))
            #expect(try index.identifiers() == ["before"])
        }
    }

    @Test(arguments: IndexBackend.available) func namedIndexesKeepSeparateClientStates(backend: IndexBackend) throws {
        let index = try makeIndex(backend)
        try index.endBatch(try index.beginBatch(index: "movies"), clientState: Array("m1".utf8))
        try index.endBatch(try index.beginBatch(index: "people"), clientState: Array("p1".utf8))
        try index.endBatch(try index.beginBatch(index: "movies"), clientState: Array("m2".utf8))
        #expect(try index.lastClientState(index: "movies") == Array("m2".utf8))
        #expect(try index.lastClientState(index: "people") == Array("p1".utf8))
        #expect(try index.lastClientState(index: "never") == nil)
    }

    @Test(arguments: IndexBackend.available) func aBatchFailingHalfWayLeavesTheIndexAsItWas(backend: IndexBackend)
        throws
    {
        let index = try makeIndex(backend)
        var first = try index.beginBatch(index: "app")
        first.indexItems([item("kept", title: "Kept")])
        try index.endBatch(first, clientState: Array("v1".utf8))

        var batch = try index.beginBatch(index: "app")
        batch.deleteAll()
        batch.indexItems([item("fresh")])
        batch.indexItems([item("broken", rankingHint: -1)])
        #expect(throws: LocalIndexError.self) { try index.endBatch(batch, clientState: Array("v2".utf8)) }
        #expect(try index.identifiers() == ["kept"])
        #expect(try index.lastClientState(index: "app") == Array("v1".utf8))
        #expect(try index.search(SearchQuery("kept")).count == 1)
    }

    @Test(arguments: IndexBackend.available) func writeRollsBackWhenItsBodyThrows(backend: IndexBackend) throws {
        let index = try makeIndex(backend)
        try index.indexItems([item("kept")])
        #expect(throws: LocalIndexError.self) {
            try index.write(index: "app", clientState: Array("s".utf8)) { writer in
                try writer.deleteAll()
                try writer.indexItem(item("new"))
                throw TestFailure("interrupted")
            }
        }
        #expect(try index.identifiers() == ["kept"])
        #expect(try index.lastClientState(index: "app") == nil)
    }
}

@Suite("relatedUniqueIdentifier lifetimes and de-duplication")
struct RelatedActivityTests {
    @Test(arguments: IndexBackend.available) func anActivityWhoseRelatedItemIsNotIndexedIsNotStored(
        backend: IndexBackend
    ) throws {
        let index = try makeIndex(backend)
        let report = try index.indexActivities([activity("view", title: "Up", related: "movie-up")])
        #expect(report.activitiesIndexed == 0)
        #expect(report.activitiesRefused.count == 1)
        #expect(report.activitiesRefused.first?.reason.contains("movie-up") == true)
        #expect(try index.activities().isEmpty)
    }

    @Test(arguments: IndexBackend.available) func anActivityRelatedToAnExpiredItemIsNotStored(backend: IndexBackend)
        throws
    {
        let clock = TestClock()
        let index = try makeIndex(backend, clock: clock)
        try index.indexItems([item("movie-up", expiration: "2026-01-02T00:00:00Z")])
        clock.advance(by: 2 * day)
        #expect(try index.indexActivities([activity("view", related: "movie-up")]).activitiesRefused.count == 1)
    }

    @Test(arguments: IndexBackend.available) func deletingTheItemDeletesItsActivities(backend: IndexBackend) throws {
        let index = try makeIndex(backend)
        try index.indexItems([item("movie-up", domain: "movies", title: "Up"), item("other")])
        try index.indexActivities([
            activity("view", title: "Up", related: "movie-up"),
            activity("play", title: "Play Up", related: "movie-up"),
            activity("view", title: "Other", related: "other"),
        ])
        #expect(try index.activities(relatedTo: "movie-up").count == 2)
        let report = try index.deleteItems(identifiers: ["movie-up"])
        #expect(report.activitiesDeleted == 2)
        #expect(try index.activities().map(\.record.activity.title) == ["Other"])
    }

    @Test(arguments: IndexBackend.available) func deletingTheItemsDomainDeletesItsActivities(backend: IndexBackend)
        throws
    {
        let index = try makeIndex(backend)
        try index.indexItems([item("movie-up", domain: "movies.pixar", title: "Up")])
        try index.indexActivities([activity("view", title: "Up", related: "movie-up")])
        try index.deleteItems(domainIdentifiers: ["movies"])
        #expect(try index.activities().isEmpty)
    }

    @Test(arguments: IndexBackend.available) func activitiesAreDeletedByTheirOwnDomain(backend: IndexBackend) throws {
        let index = try makeIndex(backend)
        try index.indexActivities([
            activity("directions", title: "Office", webpageURL: "https://example.com/office", domain: "places.sf"),
            activity("directions", title: "Depot", webpageURL: "https://example.com/depot", domain: "placesx"),
        ])
        try index.deleteItems(domainIdentifiers: ["places"])
        #expect(try index.activities().map(\.record.activity.title) == ["Depot"])
    }

    @Test(arguments: IndexBackend.available) func reindexingTheItemKeepsItsActivities(backend: IndexBackend) throws {
        let index = try makeIndex(backend)
        try index.indexItems([item("movie-up", title: "Up")])
        try index.indexActivities([activity("view", title: "Up", related: "movie-up")])
        try index.indexItems([item("movie-up", title: "Up (2009)")])
        #expect(try index.activities(relatedTo: "movie-up").count == 1)
    }

    @Test(arguments: IndexBackend.available) func anActivityIndexedTwiceIsStoredOnce(backend: IndexBackend) throws {
        let index = try makeIndex(backend)
        try index.indexItems([item("movie-up", title: "Up")])
        try index.indexActivities([activity("view", title: "Up", related: "movie-up")])
        try index.indexActivities([activity("view", title: "Up", related: "movie-up")])
        try index.indexActivities([activity("view", title: "A", persistentIdentifier: "p")])
        try index.indexActivities([activity("view", title: "B", persistentIdentifier: "p")])
        #expect(try index.activities().map(\.record.activity.title) == ["Up", "B"])
    }

    @Test(arguments: IndexBackend.available) func anItemAndItsRelatedActivityAreOneSearchResult(backend: IndexBackend)
        throws
    {
        let index = try makeIndex(backend)
        try index.indexItems([item("movie-up", title: "Up", description: "Balloons")])
        try index.indexActivities([activity("view", title: "Up", related: "movie-up")])
        let results = try index.search(SearchQuery("up"))
        #expect(results.count == 1)
        let result = try #require(results.first)
        #expect(result.uniqueIdentifier == "movie-up")
        #expect(result.isItem)
        #expect(result.activityTypes == ["view"])
    }

    @Test(
        "An activity whose webpageURL is an item's identifier, url or contentURL joins that item",
        arguments: IndexBackend.available,
        [
            ("https://www.example.com/movies/up.html", nil, nil),
            ("movie-up", "https://www.example.com/movies/up.html", nil),
            ("movie-up", nil, "https://www.example.com/movies/up.html"),
            ("movie-up", "HTTPS://WWW.EXAMPLE.COM:443/movies/up.html#top", nil),
        ] as [(String, String?, String?)])
    func activityJoinsItemByURL(backend: IndexBackend, example: (String, String?, String?)) throws {
        let (identifier, url, contentURL) = example
        let index = try makeIndex(backend)
        var up = item(identifier, title: "Up", url: url)
        up.attributeSet.contentURL = contentURL
        try index.indexItems([up])
        try index.indexActivities([
            activity("view", title: "Up the movie", webpageURL: "https://www.example.com/movies/up.html")
        ])
        let results = try index.search(SearchQuery("up"))
        #expect(results.count == 1)
        #expect(results.first?.uniqueIdentifier == identifier)
        #expect(results.first?.activityTypes == ["view"])
    }

    @Test(arguments: IndexBackend.available) func activitiesNotEligibleForSearchAreNotFound(backend: IndexBackend)
        throws
    {
        let index = try makeIndex(backend)
        try index.indexActivities([
            activity("view", title: "Office", webpageURL: "https://example.com/office", eligibleForSearch: false)
        ])
        #expect(try index.activities().count == 1)
        #expect(try index.search(SearchQuery("office")).isEmpty)
    }
}

@Suite("Opening")
struct OpeningTests {
    @Test func aCorruptFileIsRefusedNamingIt() throws {
        let path = try temporaryFolder("corrupt") + "/index.sqlite"
        try Data(repeating: 0x41, count: 8192).write(to: URL(fileURLWithPath: path))
        let error = try #require(throws: LocalIndexError.self) { try LocalIndex(path: path) }
        #expect(error.kind == .cannotOpen)
        #expect(error.description.hasPrefix(path))
        #expect(error.sqliteCode == 26)  // SQLITE_NOTADB
    }

    @Test func anotherSQLiteDatabaseIsRefused() throws {
        let path = try temporaryFolder("foreign") + "/other.sqlite"
        // A database with a table of its own, as another tool would leave it.
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: "CREATE TABLE page (url TEXT)")
        }
        let error = try #require(throws: LocalIndexError.self) { try LocalIndex(path: path) }
        #expect(error.kind == .cannotOpen)
        #expect(error.message.contains("not a SpotCheck index"))
    }

    @Test func reopeningKeepsTheContent() throws {
        let folder = try temporaryFolder("reopen")
        let clock = TestClock()
        do {
            let index = try LocalIndex(path: folder + "/i.sqlite", clock: clock.reading)
            try index.indexItems([item("a", title: "Up")])
        }
        let index = try LocalIndex(path: folder + "/i.sqlite", clock: clock.reading)
        #expect(try index.identifiers() == ["a"])
    }

    /// Issue 17 §2.14 for the index: a value SpotCheck never writes is an error naming the column
    /// and row (GRDB's row subscripts trapped on it: SIGILL).
    @Test func aTamperedIndexIsAnErrorNotACrash() throws {
        let path = try temporaryFolder("tampered") + "/i.sqlite"
        let clock = TestClock()
        do {
            let index = try LocalIndex(path: path, clock: clock.reading)
            try index.indexItems([item("a", title: "Up")])
        }
        let queue = try DatabaseQueue(path: path)
        try queue.write { try $0.execute(sql: "UPDATE item SET indexed_at = 'yesterday'") }
        try queue.close()
        let index = try LocalIndex(path: path, clock: clock.reading)
        let error = try #require(throws: LocalIndexError.self) { try index.items() }
        #expect(error.message.contains(#"column: "indexed_at""#), "\(error)")
        #expect(error.message.contains("in the row"))
    }

    @Test("indexes opened at the same moment on a new file all open (two imports racing)")
    func concurrentCreation() throws {
        for _ in 0..<40 {
            let path = try temporaryFolder("race") + "/index.sqlite"
            let failures = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 6) { _ in
                do {
                    _ = try LocalIndex(path: path).identifiers()
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
            #expect(failures.withLock { $0 }.isEmpty)
        }
    }
}
