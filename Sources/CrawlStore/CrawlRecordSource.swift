/// What the reports read of a stored crawl. `CrawlStore` (SQLite) is one; a second store, or a
/// test's counting fake, is another: report code never names the concrete store.
public protocol CrawlRecordSource: Sendable {
    func currentRun() throws(CrawlStoreError) -> CrawlRun?
    /// The current generation's pages in frontier order, in batches of at most `batchSize`; their
    /// raw markup dumps (`markupDumpJSON`) only with `includingMarkupDump`.
    func forEachPage(batchSize: Int, includingMarkupDump: Bool, _ body: ([PageRecord]) throws -> Void) throws
    func skippedURLs() throws(CrawlStoreError) -> [SkippedURL]
    func robots(origin: String) throws(CrawlStoreError) -> CrawlStore.RobotsRecord?
    func sitemapEntries() throws(CrawlStoreError) -> [CrawlStore.SitemapEntryRecord]
    func sitemapLocationsNotCrawled() throws(CrawlStoreError) -> [CrawlStore.SitemapEntryRecord]
    func pagesNotInSitemaps() throws(CrawlStoreError) -> [String]
    func stalePages() throws(CrawlStoreError) -> [PageRecord]
    func siteFiles() throws(CrawlStoreError) -> [CrawlStore.SiteFileRecord]
    /// The URL of the page whose link put this frontier entry in the crawl (nil for a seed, a
    /// sitemap's URL, or a store that does not keep it).
    func foundOn(frontierID: Int64) throws(CrawlStoreError) -> String?
}

extension CrawlRecordSource {
    public func foundOn(frontierID: Int64) throws(CrawlStoreError) -> String? { nil }
}

extension CrawlStore: CrawlRecordSource {}

extension PageRecord {
    /// Pages read in frontier order, `batchSize` at a time, the way every store's `forEachPage`
    /// reads them: `read(after, size)` returns at most `size` pages whose frontier id is greater
    /// than `after`, in frontier order; each batch goes to `body`, until a batch comes back short.
    public static func forEachBatch(
        of batchSize: Int, read: (_ after: Int64, _ size: Int) throws -> [PageRecord],
        _ body: ([PageRecord]) throws -> Void
    ) throws {
        let size = max(1, batchSize)
        var after = Int64.min
        while true {
            let batch = try read(after, size)
            guard let last = batch.last else { return }
            try body(batch)
            guard batch.count == size else { return }
            after = last.frontierID
        }
    }
}
