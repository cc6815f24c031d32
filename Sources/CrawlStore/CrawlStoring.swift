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
    /// `knownKeys` and `admittedCount` read together (one round trip on a shared store).
    func knownKeysAndAdmittedCount(_ keys: [String]) throws(CrawlStoreError) -> (known: Set<String>, admitted: Int)
    func claim(host: String, limit: Int, now: Double) throws(CrawlStoreError) -> [FrontierEntry]
    func hostsWithWork() throws(CrawlStoreError) -> [(host: String, earliest: Double)]
    func counts() throws(CrawlStoreError) -> FrontierCounts
    func skippedURLCount() throws(CrawlStoreError) -> Int
    func requeue(id: Int64, notBefore: Double) throws(CrawlStoreError)
    func skip(id: Int64, _ skipped: SkippedURL) throws(CrawlStoreError)
    func complete(_ page: PageRecord, discovered: [FrontierEntry], skipped: [SkippedURL], aliases: [FrontierEntry])
        throws(CrawlStoreError) -> [FrontierEntry]
    /// `complete` for each page, in order, with each page's result as `complete` would give it
    /// (one page's failure leaves the others stored). A store may write them in one transaction.
    func complete(_ pages: [PageCompletion]) -> [Result<[FrontierEntry], CrawlStoreError>]
    func previousPage(key: String) throws(CrawlStoreError) -> PageRecord?
    /// The page fetched for the requested URL `url`, if there is one (without its markup dump).
    func page(url: String) throws(CrawlStoreError) -> PageRecord?
    func hasSitemapEntries() throws(CrawlStoreError) -> Bool
    func addSitemapHarvest(
        _ entries: [CrawlStore.SitemapEntryRecord], enqueue frontier: [FrontierEntry], skipped: [SkippedURL]
    ) throws(CrawlStoreError) -> [FrontierEntry]
    func saveRobots(_ record: CrawlStore.RobotsRecord) throws(CrawlStoreError)
    func saveSiteFile(_ record: CrawlStore.SiteFileRecord) throws(CrawlStoreError)

    // A store that several crawl processes share (PostgreSQL): hosts are leased, the crawl ends
    // when no process has work left. A store of one process (SQLite) keeps the defaults below.

    /// Whether other processes work on the same crawl.
    var isShared: Bool { get }
    /// Whether `knownKeysAndAdmittedCount` may run while another call of the store runs (it has
    /// a connection of its own), so the crawl loop's question does not wait behind page writes.
    var asksSeenKeysOnItsOwnConnection: Bool { get }
    /// Gives `host` back to the other processes: nothing of it is in flight here, and no request to
    /// it may start before `notBefore`.
    func releaseHost(_ host: String, notBefore: Double) throws(CrawlStoreError)
    /// Claims up to `limit` due entries of a host whose requests need no spacing (an unthrottled
    /// loopback host, or `--delay 0` and no Crawl-delay), which several processes may work on at
    /// once. Leased whole (`slots` nil) while no other process asks for a share; shared once one
    /// does, each process holding some of its `capacity` requests in flight (its slots), together
    /// never more. `inFlight`: this process's requests to the host now (counted until they end);
    /// `notBefore`: its own earliest next start there (a `Retry-After`), which holds every process.
    /// No slots (0) means none are free now: no entries, and the request for a share is kept a
    /// moment, so that the holders make room.
    func claimShare(host: String, limit: Int, capacity: Int, inFlight: Int, notBefore: Double, now: Double)
        throws(CrawlStoreError) -> (entries: [FrontierEntry], slots: Int?)
    /// Whether a sitemap harvest is running (the crawl cannot end while one is).
    func harvest(pending: Bool) throws(CrawlStoreError)
    /// This process has nothing to do: true when the whole crawl is over; otherwise waits up to
    /// `timeout` seconds for new work and returns false.
    func awaitWork(timeout: Double) throws(CrawlStoreError) -> Bool
}

/// One page for `CrawlStoring.complete(_:)`: what `complete` takes.
public struct PageCompletion: Sendable {
    public var page: PageRecord
    public var discovered: [FrontierEntry]
    public var skipped: [SkippedURL]
    public var aliases: [FrontierEntry]

    public init(page: PageRecord, discovered: [FrontierEntry], skipped: [SkippedURL], aliases: [FrontierEntry]) {
        self.page = page
        self.discovered = discovered
        self.skipped = skipped
        self.aliases = aliases
    }
}

extension CrawlStoring {
    public func complete(_ pages: [PageCompletion]) -> [Result<[FrontierEntry], CrawlStoreError>] {
        pages.map { completion in
            Result { () throws(CrawlStoreError) in
                try complete(
                    completion.page, discovered: completion.discovered, skipped: completion.skipped,
                    aliases: completion.aliases)
            }
        }
    }

    public func knownKeysAndAdmittedCount(_ keys: [String]) throws(CrawlStoreError) -> (
        known: Set<String>, admitted: Int
    ) {
        (try knownKeys(keys), try admittedCount())
    }

    public var isShared: Bool { false }
    public var asksSeenKeysOnItsOwnConnection: Bool { false }
    public func releaseHost(_ host: String, notBefore: Double) throws(CrawlStoreError) {}
    public func claimShare(
        host: String, limit: Int, capacity: Int, inFlight: Int, notBefore: Double, now: Double
    ) throws(CrawlStoreError) -> (entries: [FrontierEntry], slots: Int?) {
        (try claim(host: host, limit: limit, now: now), nil)
    }
    public func harvest(pending: Bool) throws(CrawlStoreError) {}
    public func awaitWork(timeout: Double) throws(CrawlStoreError) -> Bool { true }
}

extension CrawlStore: CrawlStoring {}
