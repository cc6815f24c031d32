/// What the reports read of a stored crawl. `CrawlStore` (SQLite) is one; a second store, or a
/// test's counting fake, is another: report code never names the concrete store.
public protocol CrawlRecordSource: Sendable {
    func currentRun() throws(CrawlStoreError) -> CrawlRun?
    /// The current generation's pages in frontier order, in batches of at most `batchSize`; their
    /// raw markup dumps (`markupDumpJSON`) only with `includingMarkupDump`.
    func forEachPage(batchSize: Int, includingMarkupDump: Bool, _ body: ([PageRecord]) throws -> Void) throws
    /// What was not crawled is read in bounded samples, counts and row-at-a-time passes: a report
    /// holds none of it whole, however much a crawl skipped (issue 35 §2).
    func skippedURLs(first limit: Int) throws(CrawlStoreError) -> [SkippedURL]
    func skippedCountsByReason() throws(CrawlStoreError) -> [String: Int]
    func forEachSkippedURL(reason: String?, _ body: (SkippedURL) throws -> Void) throws
    /// The skipped URL recorded first for `url`, whatever the reason.
    func skippedURL(_ url: String) throws(CrawlStoreError) -> SkippedURL?
    func robots(origin: String) throws(CrawlStoreError) -> CrawlStore.RobotsRecord?
    func sitemapEntriesForSiteChecks() throws(CrawlStoreError) -> [CrawlStore.SitemapEntryRecord]
    func sitemapLine(of key: String, in sitemapURL: String) throws(CrawlStoreError) -> Int?
    func sitemapLocationsNotCrawled(first limit: Int) throws(CrawlStoreError)
        -> ListSample<CrawlStore.SitemapEntryRecord>
    func pagesNotInSitemaps(first limit: Int) throws(CrawlStoreError) -> ListSample<String>
    func stalePageURLs(first limit: Int) throws(CrawlStoreError) -> ListSample<String>
    func siteFiles() throws(CrawlStoreError) -> [CrawlStore.SiteFileRecord]
    /// The URL of the page whose link put this frontier entry in the crawl (nil for a seed, a
    /// sitemap's URL, or a store that does not keep it).
    func foundOn(frontierID: Int64) throws(CrawlStoreError) -> String?
}

extension CrawlRecordSource {
    public func foundOn(frontierID: Int64) throws(CrawlStoreError) -> String? { nil }
}

extension CrawlStore: CrawlRecordSource {}

/// How every store pages through a table in id order: `read(after, size)` returns at most `size`
/// rows whose id (`id`) is greater than `after`, in id order; each batch goes to `body`, between
/// reads (so `body` may use the store), until a batch comes back short.
public enum KeysetBatches {
    public static func forEach<Row>(
        of batchSize: Int, id: (Row) -> Int64, read: (_ after: Int64, _ size: Int) throws -> [Row],
        _ body: ([Row]) throws -> Void
    ) throws {
        let size = max(1, batchSize)
        var after = Int64.min
        while true {
            let batch = try read(after, size)
            guard let last = batch.last else { return }
            try body(batch)
            guard batch.count == size else { return }
            after = id(last)
        }
    }
}
