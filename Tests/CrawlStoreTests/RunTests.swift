import CrawlStore
import Foundation
import Synchronization
import Testing

@Suite("Crawl store: opening and runs")
struct RunTests {
    @Test("stores opened at the same moment on a new file all open (a crawl and a viewer racing)")
    func concurrentCreation() throws {
        for _ in 0..<40 {
            let folder = try TemporaryFolder()
            let path = folder.database
            let failures = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 6) { _ in
                do {
                    _ = try CrawlStore(path: path).currentRun()
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
            #expect(failures.withLock { $0 }.isEmpty)
        }
    }

    @Test("a database is created, migrated once, in WAL mode, and opens again with its data")
    func openTwice() throws {
        let folder = try TemporaryFolder()
        do {
            let store = try CrawlStore(path: folder.database)
            #expect(try store.currentRun() == nil)
            _ = try store.beginRun(seed: "https://a.test/", settingsJSON: #"{"depth":3}"#, at: 100)
            _ = try store.enqueue([entry("/")])
        }
        // Two stores on the file at once, as a crawler and a report reader would be.
        let first = try CrawlStore(path: folder.database)
        let second = try CrawlStore(path: folder.database)
        #expect(try first.currentRun()?.settingsJSON == #"{"depth":3}"#)
        #expect(try second.contains(key: "a.test/"))
        _ = try first.enqueue([entry("/b")])
        #expect(try second.counts().queued == 2)

        // The file header's read and write format versions are 2 in WAL mode.
        let header = try [UInt8](Data(contentsOf: URL(fileURLWithPath: folder.database)).prefix(20))
        #expect(header[18] == 2 && header[19] == 2)
        #expect(FileManager.default.fileExists(atPath: folder.database + "-wal"))
    }

    struct BadPath: Sendable, CustomTestStringConvertible {
        var name: String
        /// Makes the bad path inside the folder.
        var make: @Sendable (TemporaryFolder) throws -> String
        /// A fragment of the SQLite message.
        var fragment: String
        var testDescription: String { name }
    }

    @Test(
        "an unusable path gives a CrawlStoreError that names the path and the SQLite code",
        arguments: [
            BadPath(
                name: "a directory", make: { folder in folder.path }, fragment: "SQLite error 14"),
            BadPath(
                name: "a file that is not SQLite",
                make: { folder in
                    let path = folder.path + "/notes.sqlite"
                    try Data(String(repeating: "not a database, just text\n", count: 100).utf8)
                        .write(to: URL(fileURLWithPath: path))
                    return path
                },
                fragment: "SQLite error 26"),
            BadPath(
                name: "a missing folder", make: { folder in folder.path + "/missing/crawl.sqlite" },
                fragment: "SQLite error 14"),
        ])
    func badPath(_ bad: BadPath) throws {
        let folder = try TemporaryFolder()
        let path = try bad.make(folder)
        let error = #expect(throws: CrawlStoreError.self) { try CrawlStore(path: path) }
        #expect(error?.path == path)
        #expect(error?.description.hasPrefix(path + ": open: ") == true)
        #expect(error?.message.contains(bad.fragment) == true, "\(error?.message ?? "")")
        #expect(error?.sqliteCode != nil)
    }

    @Test("runs: generations count up, finish and resume are checked")
    func runs() throws {
        let folder = try TemporaryFolder()
        let store = try CrawlStore(path: folder.database)
        #expect(throws: CrawlStoreError.self) { try store.resumeRun() }
        #expect(throws: CrawlStoreError.self) { try store.finishRun(at: 1) }

        let first = try store.beginRun(seed: "https://a.test/", settingsJSON: "{}", at: 100)
        #expect(first == CrawlRun(seed: "https://a.test/", settingsJSON: "{}", generation: 1, startedAt: 100))
        #expect(try store.resumeRun() == first)
        try store.finishRun(at: 150)
        #expect(try store.currentRun()?.finishedAt == 150)
        #expect(try store.currentRun()?.isFinished == true)
        let error = #expect(throws: CrawlStoreError.self) { try store.resumeRun() }
        #expect(error?.message == "resumeRun: there is no unfinished run to resume")
        #expect(throws: CrawlStoreError.self) { try store.finishRun(at: 160) }

        let second = try store.beginRun(seed: "https://a.test/", settingsJSON: #"{"x":1}"#, at: 200)
        #expect(second.generation == 2)
        #expect(try store.currentRun() == second)
    }

    @Test("resumeRun puts in-flight entries back to queued and leaves done and skipped ones alone")
    func resume() throws {
        let folder = try TemporaryFolder()
        do {
            let store = try folder.storeWithRun()
            let entries = try store.enqueue((0..<5).map { entry("/\($0)") })
            let claimed = try store.claim(host: "a.test", limit: 4, now: 0)
            _ = try store.complete(page(for: claimed[0]), discovered: [], skipped: [])
            try store.skip(id: claimed[1].id!, SkippedURL(url: claimed[1].url, reason: "robots"))
            #expect(try store.counts() == FrontierCounts(queued: 1, inFlight: 2, done: 1, skipped: 1))
            #expect(entries.count == 5)
        }
        // The process was "killed" with two entries in flight: a new store on the same file resumes.
        let store = try CrawlStore(path: folder.database)
        let run = try store.resumeRun()
        #expect(run.generation == 1)
        #expect(try store.counts() == FrontierCounts(queued: 3, inFlight: 0, done: 1, skipped: 1))
        #expect(
            try store.claim(host: "a.test", limit: 10, now: 0).map(\.url)
                == ["/2", "/3", "/4"].map { "https://a.test" + $0 })
        #expect(try store.pageCount() == 1)
    }

    @Test("a second generation clears the frontier and keeps the previous pages for validators")
    func secondGeneration() throws {
        let folder = try TemporaryFolder()
        let store = try folder.storeWithRun()
        let entries = try store.enqueue([entry("/", depth: 0, discovery: .seed), entry("/a"), entry("/gone")])
        let claimed = try store.claim(host: "a.test", limit: 3, now: 0)
        #expect(claimed == entries)
        for item in claimed {
            _ = try store.complete(page(for: item, markup: "gen1 \(item.key)"), discovered: [], skipped: [])
        }
        try store.recordSkipped([SkippedURL(url: "mailto:x@a.test", reason: "scheme")])
        try store.addSitemapEntries([
            .init(sitemapURL: "https://a.test/s.xml", location: "https://a.test/", key: "a.test/", line: 3)
        ])
        #expect(try store.previousPage(key: "a.test/a") == nil, "the current run's own page is not a previous page")
        try store.finishRun(at: 300)

        let run = try store.beginRun(seed: "https://a.test/", settingsJSON: "{}", at: 400)
        #expect(run.generation == 2)
        #expect(try store.counts() == FrontierCounts())
        #expect(try store.contains(key: "a.test/a") == false)
        #expect(try store.skippedURLs().isEmpty)
        #expect(try store.sitemapEntries().isEmpty)
        #expect(try store.pageCount() == 0)

        let previous = try #require(try store.previousPage(key: "a.test/a"))
        #expect(previous.etag == "\"e1\"")
        #expect(previous.payload == Array("gen1 a.test/a".utf8))
        #expect(previous == page(for: claimed[1], markup: "gen1 a.test/a"))

        // The new run sees "/" and "/a" again (the ids are new), "/gone" disappeared.
        let again = try store.enqueue([entry("/", depth: 0, discovery: .seed), entry("/a")])
        #expect(Set(again.compactMap(\.id)).isDisjoint(with: claimed.compactMap(\.id)))
        for item in try store.claim(host: "a.test", limit: 5, now: 0) {
            var record = page(for: item, markup: "gen2")
            record.notModified = true
            _ = try store.complete(record, discovered: [], skipped: [])
        }
        #expect(try store.pageCount() == 2)
        #expect(try store.previousPage(key: "a.test/a") == nil, "replaced by this run's page")
        #expect(try store.stalePages().map(\.key) == ["a.test/gone"])
        try store.finishRun(at: 500)

        // A third run: pages older than the last finished run (the stale "/gone") are dropped.
        _ = try store.beginRun(seed: "https://a.test/", settingsJSON: "{}", at: 600)
        #expect(try store.stalePages().map(\.key) == ["a.test/", "a.test/a"])
        #expect(try store.previousPage(key: "a.test/gone") == nil)
        #expect(try store.previousPage(key: "a.test/a")?.notModified == true)
    }

    @Test("an interrupted run abandoned for a new one keeps its pages as previous pages")
    func abandonedRun() throws {
        let folder = try TemporaryFolder()
        let store = try folder.storeWithRun()
        try store.finishRun(at: 110)
        _ = try store.beginRun(seed: "https://a.test/", settingsJSON: "{}", at: 120)
        _ = try store.enqueue([entry("/a")])
        let claimed = try store.claim(host: "a.test", limit: 1, now: 0)
        _ = try store.complete(page(for: claimed[0]), discovered: [], skipped: [])
        // Generation 2 is never finished; generation 3 starts.
        _ = try store.beginRun(seed: "https://a.test/", settingsJSON: "{}", at: 130)
        #expect(try store.previousPage(key: "a.test/a")?.frontierID == claimed[0].id)
    }
}
