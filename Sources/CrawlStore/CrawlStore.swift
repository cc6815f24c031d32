import DatabaseOpening
import GRDB

/// The crawl's SQLite store: runs, the frontier (the queue and the seen set), pages, skipped URLs,
/// the robots.txt cache and the sitemap entries, all in one database file.
///
/// The file is opened in WAL mode with `synchronous = NORMAL` through a GRDB `DatabasePool`: reads
/// run concurrently with the single writer. Every method is one transaction, so a process killed at
/// any point leaves either all or none of a method's changes. Nothing is kept in memory between
/// calls; the frontier lives in the database, so memory stays flat however large the crawl.
///
/// The store does not interpret URLs: keys, hosts and JSON text are computed by the caller.
public final class CrawlStore: Sendable {
    /// The database file.
    public let path: String
    private let pool: DatabasePool

    /// Opens the database at `path`, creating it if needed, and brings its schema up to date.
    public init(path: String) throws(CrawlStoreError) {
        self.path = path
        var configuration = Configuration()
        // Another process (a report viewer) may hold the file briefly.
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            // DatabasePool already sets it on the writer in WAL mode; stated here, not assumed.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        // A crawl and a viewer may create a new store at the same moment: PoolOpener retries.
        do {
            pool = try PoolOpener.open(path: path, configuration: configuration, migrator: Schema.migrator)
        } catch {
            throw CrawlStoreError(wrapping: error, path: path, operation: "open")
        }
    }

    // MARK: - Database access

    /// One write transaction; errors are wrapped as `CrawlStoreError` naming the operation.
    func write<T>(_ operation: String, _ updates: (Database) throws -> T) throws(CrawlStoreError) -> T {
        do {
            return try pool.write(updates)
        } catch {
            throw CrawlStoreError(wrapping: error, path: path, operation: operation)
        }
    }

    /// One read transaction (concurrent with the writer); errors are wrapped as `CrawlStoreError`.
    func read<T>(_ operation: String, _ value: (Database) throws -> T) throws(CrawlStoreError) -> T {
        do {
            return try pool.read(value)
        } catch {
            throw CrawlStoreError(wrapping: error, path: path, operation: operation)
        }
    }

    // MARK: - Runs

    /// The latest run, finished or not; `nil` before the first `beginRun`.
    public func currentRun() throws(CrawlStoreError) -> CrawlRun? {
        try read("currentRun") { db in try Self.fetchCurrentRun(db) }
    }

    /// Starts a new run (generation = previous + 1, or 1). The frontier, the skipped list and the
    /// sitemap entries of a previous run are cleared; the previous run's pages stay (with their
    /// generation) so the new run can send validators and keep unchanged pages. Pages older than
    /// the last finished run (already reported stale by it) are deleted.
    public func beginRun(seed: String, settingsJSON: String, at time: Double) throws(CrawlStoreError) -> CrawlRun {
        try write("beginRun") { db in
            let previous = try Self.fetchCurrentRun(db)
            let lastFinished = try Int.fetchOne(
                db, sql: "SELECT MAX(generation) FROM run WHERE finished_at IS NOT NULL")
            try db.execute(sql: "DELETE FROM frontier; DELETE FROM skipped; DELETE FROM sitemap_entry;")
            if let lastFinished {
                try db.execute(sql: "DELETE FROM page WHERE generation < ?", arguments: [lastFinished])
            }
            let run = CrawlRun(
                seed: seed, settingsJSON: settingsJSON, generation: (previous?.generation ?? 0) + 1, startedAt: time)
            try db.execute(
                sql: "INSERT INTO run (generation, seed, settings_json, started_at) VALUES (?, ?, ?, ?)",
                arguments: [run.generation, run.seed, run.settingsJSON, run.startedAt])
            return run
        }
    }

    /// Resuming an interrupted run: every in-flight entry goes back to queued (they were in flight
    /// at the kill); returns the run. Throws if there is no unfinished run.
    public func resumeRun() throws(CrawlStoreError) -> CrawlRun {
        try write("resumeRun") { db in
            guard let run = try Self.fetchCurrentRun(db), run.finishedAt == nil else {
                throw StoreFailure("there is no unfinished run to resume")
            }
            try db.execute(
                sql: "UPDATE frontier SET state = ? WHERE state = ?",
                arguments: [FrontierState.queued.rawValue, FrontierState.inFlight.rawValue])
            return run
        }
    }

    /// Marks the current run finished. Pages of older generations that this run did not fetch are
    /// kept; `stalePages()` lists them. Throws if there is no unfinished run.
    public func finishRun(at time: Double) throws(CrawlStoreError) {
        try write("finishRun") { db in
            try db.execute(
                sql: """
                    UPDATE run SET finished_at = ?
                    WHERE generation = (SELECT MAX(generation) FROM run) AND finished_at IS NULL
                    """,
                arguments: [time])
            guard db.changesCount == 1 else { throw StoreFailure("there is no unfinished run to finish") }
        }
    }

    static func fetchCurrentRun(_ db: Database) throws -> CrawlRun? {
        let statement = try db.cachedStatement(
            sql: """
                SELECT seed, settings_json, generation, started_at, finished_at
                FROM run ORDER BY generation DESC LIMIT 1
                """)
        return try Row.fetchOne(statement).map { row in
            try CrawlRun(
                seed: row.decode(atIndex: 0), settingsJSON: row.decode(atIndex: 1), generation: row.decode(atIndex: 2),
                startedAt: row.decode(atIndex: 3), finishedAt: row.decode(atIndex: 4))
        }
    }

    static func currentGeneration(_ db: Database) throws -> Int? {
        try Int.fetchOne(db.cachedStatement(sql: "SELECT MAX(generation) FROM run"))
    }
}

/// A store-level failure inside a transaction (not SQLite's); wrapped as `CrawlStoreError`.
struct StoreFailure: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
