import CrawlStore
import Crawling
import Foundation
import PageFetching
import Synchronization
import Testing

/// The crawl loop talks to any `CrawlStoring`, and only from the store's own serial queue: never
/// from Swift's cooperative pool, where a blocking SQLite call would hold one of its two threads.
@Suite("the crawl store seam")
struct StoreSeamTests {
    /// A store that forwards to a `CrawlStore` and records which queue each call ran on.
    final class RecordingStore: CrawlStoring {
        let store: CrawlStore
        let calls = Mutex<[(method: String, onStoreQueue: Bool)]>([])

        init(_ store: CrawlStore) { self.store = store }

        private func record<T>(_ method: String = #function, _ work: () throws(CrawlStoreError) -> T)
            throws(CrawlStoreError) -> T
        {
            let onStoreQueue = Crawler.isOnStoreQueue
            calls.withLock { $0.append((method, onStoreQueue)) }
            return try work()
        }

        func beginRun(seed: String, settingsJSON: String, at time: Double) throws(CrawlStoreError) -> CrawlRun {
            try record { () throws(CrawlStoreError) in
                try store.beginRun(seed: seed, settingsJSON: settingsJSON, at: time)
            }
        }
        func resumeRun() throws(CrawlStoreError) -> CrawlRun {
            try record { () throws(CrawlStoreError) in try store.resumeRun() }
        }
        func finishRun(at time: Double) throws(CrawlStoreError) {
            try record { () throws(CrawlStoreError) in try store.finishRun(at: time) }
        }
        func admittedCount() throws(CrawlStoreError) -> Int {
            try record { () throws(CrawlStoreError) in try store.admittedCount() }
        }
        func enqueue(_ entries: [FrontierEntry]) throws(CrawlStoreError) -> [FrontierEntry] {
            try record { () throws(CrawlStoreError) in try store.enqueue(entries) }
        }
        func contains(key: String) throws(CrawlStoreError) -> Bool {
            try record { () throws(CrawlStoreError) in try store.contains(key: key) }
        }
        func knownKeys(_ keys: [String]) throws(CrawlStoreError) -> Set<String> {
            try record { () throws(CrawlStoreError) in try store.knownKeys(keys) }
        }
        func claim(host: String, limit: Int, now: Double) throws(CrawlStoreError) -> [FrontierEntry] {
            try record { () throws(CrawlStoreError) in try store.claim(host: host, limit: limit, now: now) }
        }
        func hostsWithWork() throws(CrawlStoreError) -> [(host: String, earliest: Double)] {
            try record { () throws(CrawlStoreError) in try store.hostsWithWork() }
        }
        func counts() throws(CrawlStoreError) -> FrontierCounts {
            try record { () throws(CrawlStoreError) in try store.counts() }
        }
        func skippedURLCount() throws(CrawlStoreError) -> Int {
            try record { () throws(CrawlStoreError) in try store.skippedURLCount() }
        }
        func requeue(id: Int64, notBefore: Double) throws(CrawlStoreError) {
            try record { () throws(CrawlStoreError) in try store.requeue(id: id, notBefore: notBefore) }
        }
        func skip(id: Int64, _ skipped: SkippedURL) throws(CrawlStoreError) {
            try record { () throws(CrawlStoreError) in try store.skip(id: id, skipped) }
        }
        func complete(
            _ page: PageRecord, discovered: [FrontierEntry], skipped: [SkippedURL], aliases: [FrontierEntry]
        ) throws(CrawlStoreError) -> [FrontierEntry] {
            try record { () throws(CrawlStoreError) in
                try store.complete(page, discovered: discovered, skipped: skipped, aliases: aliases)
            }
        }
        func previousPage(key: String) throws(CrawlStoreError) -> PageRecord? {
            try record { () throws(CrawlStoreError) in try store.previousPage(key: key) }
        }
        func page(url: String) throws(CrawlStoreError) -> PageRecord? {
            try record { () throws(CrawlStoreError) in try store.page(url: url) }
        }
        func hasSitemapEntries() throws(CrawlStoreError) -> Bool {
            try record { () throws(CrawlStoreError) in try store.hasSitemapEntries() }
        }
        func addSitemapHarvest(
            _ entries: [CrawlStore.SitemapEntryRecord], enqueue frontier: [FrontierEntry], skipped: [SkippedURL]
        ) throws(CrawlStoreError) -> [FrontierEntry] {
            try record { () throws(CrawlStoreError) in
                try store.addSitemapHarvest(entries, enqueue: frontier, skipped: skipped)
            }
        }
        func saveRobots(_ record: CrawlStore.RobotsRecord) throws(CrawlStoreError) {
            try self.record { () throws(CrawlStoreError) in try store.saveRobots(record) }
        }
        func saveSiteFile(_ record: CrawlStore.SiteFileRecord) throws(CrawlStoreError) {
            try self.record { () throws(CrawlStoreError) in try store.saveSiteFile(record) }
        }
        func currentRun() throws(CrawlStoreError) -> CrawlRun? {
            try record { () throws(CrawlStoreError) in try store.currentRun() }
        }
        func forEachPage(batchSize: Int, includingMarkupDump: Bool, _ body: ([PageRecord]) throws -> Void) throws {
            try store.forEachPage(batchSize: batchSize, includingMarkupDump: includingMarkupDump, body)
        }
        func skippedURLs(first limit: Int) throws(CrawlStoreError) -> [SkippedURL] {
            try record { () throws(CrawlStoreError) in try store.skippedURLs(first: limit) }
        }
        func skippedCountsByReason() throws(CrawlStoreError) -> [String: Int] {
            try record { () throws(CrawlStoreError) in try store.skippedCountsByReason() }
        }
        func forEachSkippedURL(reason: String?, _ body: (SkippedURL) throws -> Void) throws {
            try store.forEachSkippedURL(reason: reason, body)
        }
        func skippedURL(_ url: String) throws(CrawlStoreError) -> SkippedURL? {
            try record { () throws(CrawlStoreError) in try store.skippedURL(url) }
        }
        func robots(origin: String) throws(CrawlStoreError) -> CrawlStore.RobotsRecord? {
            try record { () throws(CrawlStoreError) in try store.robots(origin: origin) }
        }
        func sitemapEntriesForSiteChecks() throws(CrawlStoreError) -> [CrawlStore.SitemapEntryRecord] {
            try record { () throws(CrawlStoreError) in try store.sitemapEntriesForSiteChecks() }
        }
        func sitemapLine(of key: String, in sitemapURL: String) throws(CrawlStoreError) -> Int? {
            try record { () throws(CrawlStoreError) in try store.sitemapLine(of: key, in: sitemapURL) }
        }
        func sitemapLocationsNotCrawled(first limit: Int) throws(CrawlStoreError)
            -> ListSample<CrawlStore.SitemapEntryRecord>
        {
            try record { () throws(CrawlStoreError) in try store.sitemapLocationsNotCrawled(first: limit) }
        }
        func pagesNotInSitemaps(first limit: Int) throws(CrawlStoreError) -> ListSample<String> {
            try record { () throws(CrawlStoreError) in try store.pagesNotInSitemaps(first: limit) }
        }
        func stalePageURLs(first limit: Int) throws(CrawlStoreError) -> ListSample<String> {
            try record { () throws(CrawlStoreError) in try store.stalePageURLs(first: limit) }
        }
        func siteFiles() throws(CrawlStoreError) -> [CrawlStore.SiteFileRecord] {
            try record { () throws(CrawlStoreError) in try store.siteFiles() }
        }
    }

    @Test("a crawl over a store of another kind: every store call runs on the store's queue")
    func everyStoreCallRunsOnTheStoreQueue() async throws {
        let folder = try temporaryFolder("store-seam")
        let store = RecordingStore(try CrawlStore(path: folder + "/crawl.sqlite"))
        let settings = CrawlSettings(seed: InMemoryCrawlTests.origin + "/", delay: 0, useSitemaps: false)
        let summary = try await Crawler(settings: settings, store: store, fetcher: InMemoryCrawlTests.site()).run(
            resume: false)
        #expect(summary.fetched == 4)
        let calls = store.calls.withLock { $0 }
        let methods = Set(calls.map(\.method))
        for expected in ["beginRun(seed:settingsJSON:at:)", "claim(host:limit:now:)", "finishRun(at:)"] {
            #expect(methods.contains(expected), "\(methods)")
        }
        #expect(calls.contains { $0.method.hasPrefix("complete(") })
        let elsewhere = calls.filter { !$0.onStoreQueue }
        #expect(elsewhere.isEmpty, "store calls off the store's queue: \(elsewhere)")
    }
}
