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
}

extension CrawlStore: CrawlRecordSource {}
