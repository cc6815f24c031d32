public import CrawlStore
import Foundation
import PostgresNIO
import Synchronization

/// The crawl store on PostgreSQL: the same `CrawlStoring` contract as the SQLite store, for a
/// crawl that many worker processes, on any number of machines, work on together.
///
/// A database holds any number of crawls, each with an id; a store object works on one of them
/// (`beginRun` registers a new one, `open(crawl:)` opens one to join or report). Workers lease hosts, never
/// URLs: `claim(host:)` takes the host's lease (`FOR UPDATE SKIP LOCKED` on its row) before it
/// hands out that host's URLs, so only one worker at a time fetches from a host and its local
/// scheduler's per-host limit, delay, Crawl-delay and back-off hold for the whole cluster; the
/// worker renews its leases in the background and gives a host back (`releaseHost`) with the
/// time its next request may start, which the next holder honours. A lease that is not renewed
/// (a worker killed, a machine gone) expires, and the host's in-flight URLs are queued again.
///
/// Differences from the SQLite store: a crawl here is one run (no re-crawl generations, so
/// `previousPage` is nil and `stalePages` empty); completing, re-queueing or skipping an entry
/// that is no longer queued or in flight does nothing instead of failing (after a lease expired
/// under a stalled worker, the first completion wins); robots.txt is cached for every crawl of
/// the database.
public final class PostgresCrawlStore: Sendable {
    /// Where the database is (its description has no password).
    public let location: PostgresLocation
    /// This worker's name in leases: `hostname:pid:random`.
    public let worker: String
    /// How long a lease lasts without renewal; renewed every third of it.
    public let leaseSeconds: Double
    /// The most hosts this worker leases at once (the others are left to other workers).
    public let maximumLeases: Int
    let session: PostgresSession
    /// The seen-keys question's own connection (`asksSeenKeysOnItsOwnConnection`), opened on its first use.
    let questionSession: PostgresSession
    private let crawl = Mutex<Int64?>(nil)
    /// Whether this process has a sitemap harvest pending (its renewal keeps the harvest alive).
    let harvesting = Mutex(false)
    let clock: @Sendable () -> Double
    private let onRegistered: (@Sendable (Int64) -> Void)?
    private let renewal: LeaseRenewal
    let wakeups: WorkNotifications

    /// Connects to `location` and brings the schema up to date. Fails at once, naming the server,
    /// when it cannot be reached or refuses the login. `onRegistered` hears a new crawl's id as
    /// soon as `beginRun` registered it.
    public init(
        location: PostgresLocation, worker: String? = nil, leaseSeconds: Double = 30, maximumLeases: Int = 8,
        clock: (@Sendable () -> Double)? = nil,
        onRegistered: (@Sendable (Int64) -> Void)? = nil
    ) throws(PostgresStoreError) {
        self.location = location
        self.worker =
            worker ?? "\(ProcessInfo.processInfo.hostName):\(getpid()):\(UInt32.random(in: 0...UInt32.max))"
        self.leaseSeconds = max(1, leaseSeconds)
        self.maximumLeases = max(1, maximumLeases)
        self.clock = clock ?? { Date().timeIntervalSince1970 }
        self.onRegistered = onRegistered
        session = PostgresSession(location: location)
        questionSession = PostgresSession(location: location)
        try Self.migrate(session)
        renewal = LeaseRenewal(every: self.leaseSeconds / 3)
        wakeups = WorkNotifications(location: location)
        renewal.start { [weak self] in self?.renewLeases() }
    }

    deinit {
        renewal.stop()
        wakeups.stop()
    }

    /// The crawl this store works on (nil before `beginRun` or `join`).
    public var crawlID: Int64? { crawl.withLock { $0 } }

    /// Applies the migrations the database has not had yet.
    private static func migrate(_ session: PostgresSession) throws(PostgresStoreError) {
        try PostgresSchema.migrate(
            session, versionTable: "spotcheck_schema", lock: PostgresSchema.migrationLock,
            migrations: PostgresSchema.migrations)
    }

    // MARK: - Crawls

    /// One crawl of the database, as `spotcheck crawls` lists it.
    public struct CrawlListing: Sendable, Hashable {
        public var id: Int64
        public var seed: String
        public var startedAt: Double
        public var finishedAt: Double?
        public var counts: FrontierCounts
        /// Hosts whose lease, or a share of it, is held now.
        public var leasedHosts: Int
        /// Workers holding a lease or a share now.
        public var workers: Int
    }

    /// Every crawl of the database, newest first, with its progress.
    public func crawls() throws(PostgresStoreError) -> [CrawlListing] {
        let now = clock()
        return try session.transaction("crawls") { statements in
            try statements.rows(
                """
                WITH held AS (
                    SELECT crawl_id, host, lease_owner AS worker FROM crawl_host
                    WHERE lease_owner IS NOT NULL AND lease_until >= \(now)
                    UNION ALL
                    SELECT crawl_id, host, worker FROM crawl_host_slot WHERE slots > 0 AND lease_until >= \(now)
                )
                SELECT c.id, c.seed, c.started_at, c.finished_at,
                    (SELECT COUNT(*) FROM frontier f WHERE f.crawl_id = c.id AND f.state = 0),
                    (SELECT COUNT(*) FROM frontier f WHERE f.crawl_id = c.id AND f.state = 1),
                    (SELECT COUNT(*) FROM frontier f WHERE f.crawl_id = c.id AND f.state = 2),
                    (SELECT COUNT(*) FROM frontier f WHERE f.crawl_id = c.id AND f.state = 3),
                    (SELECT COUNT(DISTINCT held.host) FROM held WHERE held.crawl_id = c.id),
                    (SELECT COUNT(DISTINCT held.worker) FROM held WHERE held.crawl_id = c.id)
                FROM crawl c ORDER BY c.id DESC
                """
            ).map { row in
                let (id, seed, started, finished, queued, inFlight, done, skipped, leased, workers) = try row.decode(
                    (Int64, String, Double, Double?, Int, Int, Int, Int, Int, Int).self)
                return CrawlListing(
                    id: id, seed: seed, startedAt: started, finishedAt: finished,
                    counts: FrontierCounts(queued: queued, inFlight: inFlight, done: done, skipped: skipped),
                    leasedHosts: leased, workers: workers)
            }
        }
    }

    /// Opens crawl `id` (nil: the oldest unfinished one) to work on or report; returns its run, or
    /// nil when there is no such crawl (`id` nil: no unfinished crawl).
    public func open(crawl id: Int64?) throws(PostgresStoreError) -> CrawlRun? {
        let found: (Int64, CrawlRun)? = try session.transaction("open") { statements in
            let rows =
                if let id {
                    try statements.rows(
                        "SELECT id, seed, settings_json, started_at, finished_at FROM crawl WHERE id = \(id)")
                } else {
                    try statements.rows(
                        """
                        SELECT id, seed, settings_json, started_at, finished_at FROM crawl
                        WHERE finished_at IS NULL ORDER BY id LIMIT 1
                        """)
                }
            return try rows.first.map(Self.crawlRun)
        }
        guard let (crawlID, run) = found else { return nil }
        crawl.withLock { $0 = crawlID }
        return run
    }

    /// Works on the crawl `beginRun` just registered, and says its id.
    func setCrawl(_ id: Int64) {
        crawl.withLock { $0 = id }
        onRegistered?(id)
    }

    static func crawlRun(_ row: PostgresRow) throws -> (Int64, CrawlRun) {
        let (id, seed, settings, started, finished) = try row.decode((Int64, String, String, Double, Double?).self)
        return (
            id, CrawlRun(seed: seed, settingsJSON: settings, generation: 1, startedAt: started, finishedAt: finished)
        )
    }

    /// The open crawl's id, or a failure saying none is open.
    func openCrawl() throws(CrawlStoreError) -> Int64 {
        guard let id = crawlID else {
            throw CrawlStoreError(path: location.description, message: "no crawl is open in this store")
        }
        return id
    }

    @discardableResult
    /// One transaction on the open crawl (`oneStatement`: one statement, atomic on its own, run
    /// without `BEGIN` and `COMMIT` around it); failures as `CrawlStoreError` naming the database.
    func withCrawl<T>(
        _ operation: String, oneStatement: Bool = false, on session: PostgresSession? = nil,
        _ body: (PostgresSession.Statements, Int64) throws -> T
    ) throws(CrawlStoreError) -> T {
        let id = try openCrawl()
        let session = session ?? self.session
        do {
            return oneStatement
                ? try session.read(operation) { try body($0, id) }
                : try session.transaction(operation) { try body($0, id) }
        } catch {
            throw error.crawlStoreError
        }
    }

    // MARK: - Leases

    /// Extends every lease this worker holds (the renewal timer's work).
    private func renewLeases() {
        guard let id = crawlID else { return }
        let until = clock() + leaseSeconds
        let harvesting = harvesting.withLock { $0 }
        _ = try? session.transaction("renewLeases") { statements in
            try statements.execute(
                "UPDATE crawl_host SET lease_until = \(until) WHERE crawl_id = \(id) AND lease_owner = \(worker)")
            try statements.execute(
                """
                UPDATE crawl_host_slot SET lease_until = \(until)
                WHERE crawl_id = \(id) AND worker = \(worker) AND slots > 0
                """)
            if harvesting {
                try statements.execute(
                    "UPDATE crawl SET harvest_until = \(until) WHERE id = \(id) AND harvest_pending")
            }
        }
    }

    /// Queues again the in-flight entries of hosts whose lease expired (their worker is gone) and
    /// frees those hosts. Inside a transaction of the open crawl.
    static func recoverExpiredLeases(_ statements: PostgresSession.Statements, crawl id: Int64, now: Double) throws {
        let expired = try statements.rows(
            """
            UPDATE crawl_host SET lease_owner = NULL, lease_until = 0
            WHERE crawl_id = \(id) AND lease_owner IS NOT NULL AND lease_until < \(now)
            RETURNING host
            """
        ).map { try $0.decode(String.self) }
        let sharesRecovered = try recoverExpiredShares(statements, crawl: id, host: nil, now: now)
        guard !expired.isEmpty || sharesRecovered else { return }
        if !expired.isEmpty {
            try statements.execute(
                """
                UPDATE frontier SET state = 0
                WHERE crawl_id = \(id) AND state = 1 AND host = ANY(\(expired))
                """)
        }
        try notify(statements, crawl: id)
    }

    /// Drops the shares of hosts (`host`, or every host) that were not renewed in time (their worker
    /// is gone, or a request for a share was not asked again) and queues again the in-flight
    /// entries those workers had claimed. A worker claiming (`except`) is alive: its own share is
    /// renewed by the claim. Whether any was dropped.
    @discardableResult
    static func recoverExpiredShares(
        _ statements: PostgresSession.Statements, crawl id: Int64, host: String?, except worker: String? = nil,
        now: Double
    ) throws -> Bool {
        try statements.rows(
            """
            WITH gone AS (
                DELETE FROM crawl_host_slot
                WHERE crawl_id = \(id) AND lease_until < \(now) AND (\(host)::text IS NULL OR host = \(host))
                    AND (\(worker)::text IS NULL OR worker <> \(worker))
                RETURNING host, worker, slots
            ), requeued AS (
                UPDATE frontier f SET state = 0 FROM gone g
                WHERE f.crawl_id = \(id) AND f.state = 1 AND f.host = g.host AND f.claimed_by = g.worker
                RETURNING f.id
            )
            SELECT (SELECT COUNT(*) FROM gone WHERE slots > 0) + (SELECT COUNT(*) FROM requeued)
            """
        )[0].decode(Int.self) > 0
    }

    /// Wakes the workers waiting for work on crawl `id` (delivered when the transaction commits).
    static func notify(_ statements: PostgresSession.Statements, crawl id: Int64) throws {
        try statements.execute("SELECT pg_notify(\(WorkNotifications.channel), \(String(id)))")
    }
}

extension Error {
    /// Any error of a store transaction as the crawl store's error type.
    var crawlStoreError: CrawlStoreError {
        (self as? PostgresStoreError)?.crawlStoreError
            ?? CrawlStoreError(path: "postgres", message: "\(self)")
    }
}
