/// What the crawl loop does with its store: runs, the frontier and seen set, pages, robots.txt,
/// sitemaps and site files. `CrawlStore` (SQLite) is one; a second store (PostgreSQL) conforms the
/// same way and the crawl loop does not change. Every method is one transaction.
public protocol CrawlStoring: CrawlRecordSource {
    func beginRun(seed: String, settingsJSON: String, at time: Double) throws(CrawlStoreError) -> CrawlRun
    func resumeRun() throws(CrawlStoreError) -> CrawlRun
    func finishRun(at time: Double) throws(CrawlStoreError)
    func admittedCount() throws(CrawlStoreError) -> Int
    func enqueue(_ entries: [FrontierEntry]) throws(CrawlStoreError) -> [FrontierEntry]
    func contains(key: String) throws(CrawlStoreError) -> Bool
    func knownKeys(_ keys: [String]) throws(CrawlStoreError) -> Set<String>
    func claim(host: String, limit: Int, now: Double) throws(CrawlStoreError) -> [FrontierEntry]
    func hostsWithWork() throws(CrawlStoreError) -> [(host: String, earliest: Double)]
    func counts() throws(CrawlStoreError) -> FrontierCounts
    func skippedURLCount() throws(CrawlStoreError) -> Int
    func requeue(id: Int64, notBefore: Double) throws(CrawlStoreError)
    func skip(id: Int64, _ skipped: SkippedURL) throws(CrawlStoreError)
    func complete(_ page: PageRecord, discovered: [FrontierEntry], skipped: [SkippedURL], aliases: [FrontierEntry])
        throws(CrawlStoreError) -> [FrontierEntry]
    func previousPage(key: String) throws(CrawlStoreError) -> PageRecord?
    func hasSitemapEntries() throws(CrawlStoreError) -> Bool
    func addSitemapHarvest(
        _ entries: [CrawlStore.SitemapEntryRecord], enqueue frontier: [FrontierEntry], skipped: [SkippedURL]
    ) throws(CrawlStoreError) -> [FrontierEntry]
    func saveRobots(_ record: CrawlStore.RobotsRecord) throws(CrawlStoreError)
    func saveSiteFile(_ record: CrawlStore.SiteFileRecord) throws(CrawlStoreError)
}

extension CrawlStore: CrawlStoring {}
