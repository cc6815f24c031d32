import CrawlStore
import Testing

@Suite("Crawl store: frontier")
struct FrontierTests {
    @Test("enqueue ignores keys already seen, within a batch and across calls, and keeps the order")
    func enqueueDeduplicates() throws {
        let folder = try TemporaryFolder()
        let store = try folder.storeWithRun()
        let added = try store.enqueue([entry("/a"), entry("/b"), entry("/a"), entry("/c")])
        #expect(added.map(\.key) == ["a.test/a", "a.test/b", "a.test/c"])
        #expect(added.allSatisfy { $0.id != nil })
        #expect(Set(added.compactMap(\.id)).count == 3)
        #expect(added[0].foundOn == "https://a.test/")

        // Same keys with another URL (the key is what counts), plus one new.
        var variant = entry("/b")
        variant.url = "https://a.test/b?utm=1"
        let again = try store.enqueue([variant, entry("/d"), entry("/c")])
        #expect(again.map(\.key) == ["a.test/d"])
        #expect(try store.enqueue([]).isEmpty)
        #expect(try store.counts().queued == 4)
        #expect(try store.contains(key: "a.test/b"))
        #expect(try !store.contains(key: "a.test/zz"))
        #expect(try store.knownKeys(["a.test/zz", "a.test/b", "a.test/d", "a.test/b"]) == ["a.test/b", "a.test/d"])
        #expect(try store.knownKeys([]).isEmpty)
    }

    @Test("a key is never queued twice, whatever state its entry is in")
    func neverTwice() throws {
        let folder = try TemporaryFolder()
        let store = try folder.storeWithRun()
        let entries = try store.enqueue([entry("/queued"), entry("/flight"), entry("/done"), entry("/skipped")])
        let claimed = try store.claim(host: "a.test", limit: 4, now: 0)
        try store.requeue(id: entries[0].id!, notBefore: 0)
        _ = try store.complete(page(for: claimed[2]), discovered: [entry("/done"), entry("/flight")], skipped: [])
        try store.skip(id: entries[3].id!, SkippedURL(url: entries[3].url, reason: "robots"))
        #expect(try store.counts() == FrontierCounts(queued: 1, inFlight: 1, done: 1, skipped: 1))
        for path in ["/queued", "/flight", "/done", "/skipped"] {
            #expect(try store.enqueue([entry(path)]).isEmpty, "\(path)")
            #expect(try store.contains(key: "a.test" + path))
        }
        #expect(try store.counts().total == 4)
    }

    @Test("claim: oldest first, at most the limit, only the host's, only once notBefore has passed")
    func claimOrder() throws {
        let folder = try TemporaryFolder()
        let store = try folder.storeWithRun()
        _ = try store.enqueue([
            entry("/1"), entry("/x1", host: "b.test"), entry("/2", notBefore: 50), entry("/3"), entry("/4"),
            entry("/x2", host: "b.test"),
        ])
        #expect(try store.claim(host: "a.test", limit: 2, now: 10).map(\.key) == ["a.test/1", "a.test/3"])
        #expect(try store.claim(host: "a.test", limit: 0, now: 10).isEmpty)
        #expect(try store.claim(host: "a.test", limit: 5, now: 10).map(\.key) == ["a.test/4"])
        #expect(try store.claim(host: "a.test", limit: 5, now: 49.9).isEmpty)
        let late = try store.claim(host: "a.test", limit: 5, now: 50)
        #expect(late.map(\.key) == ["a.test/2"])
        #expect(late[0].notBefore == 50)
        #expect(try store.claim(host: "c.test", limit: 5, now: 100).isEmpty)
        #expect(try store.claim(host: "b.test", limit: 5, now: 0).map(\.key) == ["b.test/x1", "b.test/x2"])
        #expect(try store.counts() == FrontierCounts(inFlight: 6))
    }

    @Test("requeue: back to queued with one more attempt and a backoff; unknown ids throw")
    func requeue() throws {
        let folder = try TemporaryFolder()
        let store = try folder.storeWithRun()
        _ = try store.enqueue([entry("/a"), entry("/b")])
        let first = try store.claim(host: "a.test", limit: 1, now: 0)[0]
        try store.requeue(id: first.id!, notBefore: 30)
        #expect(try store.claim(host: "a.test", limit: 5, now: 10).map(\.key) == ["a.test/b"])
        let retried = try store.claim(host: "a.test", limit: 5, now: 30)
        #expect(retried.count == 1)
        #expect(retried[0].id == first.id)
        #expect(retried[0].attempts == 1)
        #expect(retried[0].notBefore == 30)

        let error = #expect(throws: CrawlStoreError.self) { try store.requeue(id: 9_999, notBefore: 0) }
        #expect(error?.message == "requeue: no queued or in-flight frontier entry 9999")
        #expect(error?.path == folder.database)
    }

    @Test("hostsWithWork lists hosts with queued entries and their earliest notBefore")
    func hostsWithWork() throws {
        let folder = try TemporaryFolder()
        let store = try folder.storeWithRun()
        #expect(try store.hostsWithWork().isEmpty)
        _ = try store.enqueue([
            entry("/1", host: "b.test:8080", notBefore: 20), entry("/2", host: "b.test:8080", notBefore: 5),
            entry("/1", host: "a.test", notBefore: 7), entry("/1", host: "c.test"), entry("/2", host: "c.test"),
        ])
        var hosts = try store.hostsWithWork()
        #expect(hosts.map(\.host) == ["a.test", "b.test:8080", "c.test"])
        #expect(hosts.map(\.earliest) == [7, 5, 0])

        // Claiming a host's only entry removes it; claiming the earliest raises the host's earliest.
        _ = try store.claim(host: "a.test", limit: 1, now: 10)
        _ = try store.claim(host: "b.test:8080", limit: 1, now: 10)
        hosts = try store.hostsWithWork()
        #expect(hosts.map(\.host) == ["b.test:8080", "c.test"])
        #expect(hosts.map(\.earliest) == [20, 0])
    }

    @Test("skipped URLs: recorded once per (url, reason), a skipped entry takes its key from the frontier")
    func skipped() throws {
        let folder = try TemporaryFolder()
        let store = try folder.storeWithRun()
        try store.recordSkipped([
            SkippedURL(url: "https://b.test/", key: "b.test/", reason: "scope", detail: "other host", foundOn: "p1"),
            SkippedURL(url: "https://b.test/", key: "b.test/", reason: "scope", detail: "again", foundOn: "p2"),
            SkippedURL(url: "https://b.test/", key: "b.test/", reason: "robots", detail: "Disallow: /"),
        ])
        try store.recordSkipped([SkippedURL(url: "https://b.test/", reason: "scope")])
        try store.recordSkipped([])
        let entries = try store.enqueue([entry("/private")])
        try store.skip(
            id: entries[0].id!, SkippedURL(url: entries[0].url, reason: "robots", detail: "Disallow: /private"))
        #expect(
            try store.skippedURLs() == [
                SkippedURL(
                    url: "https://b.test/", key: "b.test/", reason: "scope", detail: "other host", foundOn: "p1"),
                SkippedURL(url: "https://b.test/", key: "b.test/", reason: "robots", detail: "Disallow: /"),
                SkippedURL(
                    url: "https://a.test/private", key: "a.test/private", reason: "robots",
                    detail: "Disallow: /private", foundOn: "https://a.test/"),
            ])
        #expect(try store.counts() == FrontierCounts(skipped: 1))
        // Skipping twice, or an unknown entry, is an error and records nothing.
        #expect(throws: CrawlStoreError.self) {
            try store.skip(id: entries[0].id!, SkippedURL(url: "https://a.test/other", reason: "robots"))
        }
        #expect(try store.skippedURLs().count == 3)
    }

    @Test("skipped URLs are passed a batch of 1,000 at a time, in order, filtered by reason; counted by reason")
    func skippedURLsInBatches() throws {
        let folder = try TemporaryFolder()
        let store = try folder.storeWithRun()
        let skipped = (0..<2_500).map {
            SkippedURL(url: "https://b.test/\($0)", reason: $0 % 3 == 0 ? "robots" : "scope")
        }
        try store.recordSkipped(skipped)
        var all: [SkippedURL] = []
        try store.forEachSkippedURL(reason: nil) { all.append($0) }
        #expect(all == skipped)
        // The body may use the store: it runs between reads (a database read is not reentrant).
        var robots: [SkippedURL] = []
        var runsSeen = 0
        try store.forEachSkippedURL(reason: "robots") {
            robots.append($0)
            if try store.currentRun() != nil { runsSeen += 1 }
        }
        #expect(robots == skipped.filter { $0.reason == "robots" })
        #expect(runsSeen == robots.count)
        #expect(try store.skippedCountsByReason() == ["robots": 834, "scope": 1_666])
        #expect(try store.skippedURLs(first: 2) == Array(skipped.prefix(2)))
    }

    @Test("admittedCount: every entry but redirect targets, whatever its state")
    func admittedCount() throws {
        let folder = try TemporaryFolder()
        let store = try folder.storeWithRun()
        _ = try store.enqueue([entry("/", depth: 0, discovery: .seed)])
        #expect(try store.admittedCount() == 1)
        let seed = try #require(try store.claim(host: "a.test", limit: 1, now: 0).first)
        // The seed redirects to /home (an alias outside the budget) and links three pages.
        _ = try store.complete(
            page(for: seed, finalURL: "https://a.test/home", finalKey: "a.test/home"),
            discovered: [entry("/a"), entry("/b"), entry("/private/c")], skipped: [],
            aliases: [entry("/home", depth: 0, discovery: .redirect)])
        #expect(try store.counts().done == 2)
        #expect(try store.admittedCount() == 4)
        // One is skipped at fetch time (robots.txt), one in flight: still admitted.
        let claimed = try store.claim(host: "a.test", limit: 3, now: 0)
        let blocked = try #require(claimed.first { $0.url.hasSuffix("/private/c") })
        try store.skip(
            id: try #require(blocked.id),
            SkippedURL(url: blocked.url, key: nil, reason: "robots", detail: "disallowed", foundOn: nil))
        #expect(try store.admittedCount() == 4)
        #expect(try store.counts().skipped == 1)
    }

    @Test(
        "counts follow every transition",
        arguments: [(enqueued: 0, claimed: 0, completed: 0), (5, 0, 0), (5, 3, 0), (5, 3, 2), (7, 7, 7)])
    func counts(enqueued: Int, claimed: Int, completed: Int) throws {
        let folder = try TemporaryFolder()
        let store = try folder.storeWithRun()
        _ = try store.enqueue((0..<enqueued).map { entry("/\($0)") })
        let inFlight = try store.claim(host: "a.test", limit: claimed, now: 0)
        for item in inFlight.prefix(completed) {
            _ = try store.complete(page(for: item), discovered: [], skipped: [])
        }
        let expected = FrontierCounts(
            queued: enqueued - claimed, inFlight: claimed - completed, done: completed, skipped: 0)
        #expect(try store.counts() == expected)
        #expect(try store.pageCount() == completed)
    }
}
