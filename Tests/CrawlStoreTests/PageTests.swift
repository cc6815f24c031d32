import CrawlStore
import Testing

@Suite("Crawl store: pages")
struct PageTests {
    @Test("complete stores the page, marks the entry done, queues the new links and records the skipped ones")
    func complete() throws {
        let folder = try TemporaryFolder()
        let store = try folder.storeWithRun()
        _ = try store.enqueue([entry("/", depth: 0, discovery: .seed), entry("/known")])
        let home = try store.claim(host: "a.test", limit: 1, now: 0)[0]
        var record = page(for: home)
        record.status = nil
        record.errorKind = "timeout"
        record.applebotAllowed = nil
        let added = try store.complete(
            record, discovered: [entry("/known", depth: 1), entry("/new", depth: 1), entry("/new2", depth: 1)],
            skipped: [SkippedURL(url: "ftp://a.test/", reason: "scheme", foundOn: home.url)])
        #expect(added.map(\.key) == ["a.test/new", "a.test/new2"])
        #expect(added.allSatisfy { $0.id != nil })
        #expect(try store.counts() == FrontierCounts(queued: 3, inFlight: 0, done: 1, skipped: 0))
        #expect(try store.skippedURLs().map(\.reason) == ["scheme"])
        var pages: [PageRecord] = []
        try store.forEachPage { pages += $0 }
        #expect(pages == [record])

        // The entry is done: completing it again is refused.
        let error = #expect(throws: CrawlStoreError.self) {
            try store.complete(record, discovered: [], skipped: [])
        }
        #expect(error?.message == "complete: no queued or in-flight frontier entry \(home.id!)")
    }

    /// kill -9 cannot be staged in-process, so this proves the mechanism the guarantee rests on:
    /// `complete` writes the page, the links and the skipped URLs before it checks the frontier
    /// entry, and a failure at that last step must roll all of it back.
    @Test("a complete that fails at its last step (unknown frontier id) leaves nothing written")
    func completeRollsBackAtTheEnd() throws {
        let folder = try TemporaryFolder()
        let store = try folder.storeWithRun()
        let entries = try store.enqueue([entry("/a")])
        let before = try store.counts()
        var orphan = page(for: entries[0])
        orphan.frontierID = 424_242
        let error = #expect(throws: CrawlStoreError.self) {
            try store.complete(
                orphan, discovered: [entry("/new")], skipped: [SkippedURL(url: "mailto:x", reason: "scheme")])
        }
        #expect(error?.message == "complete: no queued or in-flight frontier entry 424242")
        #expect(error?.path == folder.database)
        #expect(try store.pageCount() == 0)
        #expect(try !store.contains(key: "a.test/new"))
        #expect(try store.skippedURLs().isEmpty)
        #expect(try store.counts() == before)
    }

    /// The group commit behind `StoreQueue.complete`: one transaction, one savepoint per page.
    @Test("pages completed together: each stored as alone, and one that fails leaves the others written")
    func completeSeveralTogether() throws {
        let folder = try TemporaryFolder()
        let store = try folder.storeWithRun()
        let entries = try store.enqueue([entry("/a"), entry("/b")])
        var orphan = page(for: entries[0])
        orphan.frontierID = 424_242
        let results = store.complete([
            PageCompletion(page: page(for: entries[0]), discovered: [entry("/from-a")], skipped: [], aliases: []),
            PageCompletion(
                page: orphan, discovered: [entry("/from-orphan")],
                skipped: [SkippedURL(url: "mailto:x", reason: "scheme")], aliases: []),
            PageCompletion(page: page(for: entries[1]), discovered: [entry("/from-b")], skipped: [], aliases: []),
        ])
        #expect(results.count == 3)
        #expect((try? results[0].get())?.map(\.key) == ["a.test/from-a"])
        #expect((try? results[2].get())?.map(\.key) == ["a.test/from-b"])
        guard case .failure(let error) = results[1] else {
            Issue.record("the orphan page was stored")
            return
        }
        #expect(error.message == "complete: no queued or in-flight frontier entry 424242")
        #expect(try store.pageCount() == 2)
        #expect(try !store.contains(key: "a.test/from-orphan"))
        #expect(try store.skippedURLs().isEmpty)
        #expect(try store.counts() == FrontierCounts(queued: 2, inFlight: 0, done: 2, skipped: 0))
    }

    @Test("a complete that fails in the middle (a discovered entry breaks a constraint) leaves nothing written")
    func completeRollsBackInTheMiddle() throws {
        let folder = try TemporaryFolder()
        let store = try folder.storeWithRun()
        _ = try store.enqueue([entry("/a")])
        let claimed = try store.claim(host: "a.test", limit: 1, now: 0)[0]
        // The page and "/ok" are written before "/bad" (negative depth) fails its CHECK constraint.
        let error = #expect(throws: CrawlStoreError.self) {
            try store.complete(page(for: claimed), discovered: [entry("/ok"), entry("/bad", depth: -1)], skipped: [])
        }
        #expect(error?.sqliteCode == 275)  // SQLITE_CONSTRAINT_CHECK
        #expect(error?.message.hasPrefix("complete: SQLite error 275") == true, "\(error?.message ?? "")")
        #expect(try store.pageCount() == 0)
        #expect(try !store.contains(key: "a.test/ok"))
        #expect(try store.counts() == FrontierCounts(inFlight: 1))

        // The same completion without the bad link goes through.
        #expect(try store.complete(page(for: claimed), discovered: [entry("/ok")], skipped: []).count == 1)
        #expect(try store.counts() == FrontierCounts(queued: 1, done: 1))
    }

    @Test("complete before any run is refused")
    func completeWithoutRun() throws {
        let folder = try TemporaryFolder()
        let store = try CrawlStore(path: folder.database)
        let entries = try store.enqueue([entry("/a")])
        let error = #expect(throws: CrawlStoreError.self) {
            try store.complete(page(for: entries[0]), discovered: [], skipped: [])
        }
        #expect(error?.message == "complete: no run has begun")
    }

    @Test("forEachPage streams the run's pages in frontier order, in batches", arguments: [1, 3, 7, 10, 500])
    func forEachPageBatches(batchSize: Int) throws {
        let folder = try TemporaryFolder()
        let store = try folder.storeWithRun()
        let entries = try store.enqueue((0..<10).map { entry("/\($0)") })
        // Completed out of order: the pages still come in frontier (id) order.
        let claimed = try store.claim(host: "a.test", limit: 10, now: 0)
        for item in claimed.reversed() { _ = try store.complete(page(for: item), discovered: [], skipped: []) }
        var batches: [[PageRecord]] = []
        try store.forEachPage(batchSize: batchSize) { batches.append($0) }
        #expect(batches.flatMap { $0 }.map(\.frontierID) == entries.compactMap(\.id))
        #expect(batches.count == (10 + batchSize - 1) / batchSize)
        #expect(batches.dropLast().allSatisfy { $0.count == batchSize })
    }

    @Test("forEachPage rethrows the body's error and lets the body use the store")
    func forEachPageBody() throws {
        struct Stop: Error {}
        let folder = try TemporaryFolder()
        let store = try folder.storeWithRun()
        _ = try store.enqueue((0..<4).map { entry("/\($0)") })
        for item in try store.claim(host: "a.test", limit: 4, now: 0) {
            _ = try store.complete(page(for: item), discovered: [], skipped: [])
        }
        var seen = 0
        #expect(throws: Stop.self) {
            try store.forEachPage(batchSize: 2) { batch in
                seen += batch.count
                #expect(try store.pageCount() == 4)
                if seen == 2 { throw Stop() }
            }
        }
        #expect(seen == 2)
        var none = 0
        let empty = try TemporaryFolder()
        try CrawlStore(path: empty.database).forEachPage { none += $0.count }
        #expect(none == 0)
    }

    @Test("a page keeps every field through the store, nil and non-nil alike")
    func roundTrip() throws {
        let folder = try TemporaryFolder()
        let store = try folder.storeWithRun()
        let entries = try store.enqueue([entry("/full"), entry("/empty"), entry("/304")])
        _ = try store.claim(host: "a.test", limit: 3, now: 0)
        let full = page(for: entries[0], markup: #"[{"type":"meta"}]"#, finalURL: "https://a.test/full/", finalKey: "k")
        let empty = PageRecord(
            frontierID: entries[1].id!, requestedURL: entries[1].url, finalURL: entries[1].url, key: entries[1].key,
            depth: 1, fetchedAt: 0)
        var notModified = page(for: entries[2])
        notModified.status = 304
        notModified.notModified = true
        notModified.applebotAllowed = false
        for record in [full, empty, notModified] { _ = try store.complete(record, discovered: [], skipped: []) }
        var pages: [PageRecord] = []
        try store.forEachPage { pages += $0 }
        #expect(pages == [full, empty, notModified])
    }
}
