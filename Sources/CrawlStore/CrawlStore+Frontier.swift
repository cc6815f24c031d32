import GRDB

extension CrawlStore {
    /// Adds entries to the frontier, ignoring those whose key the run has already seen (within the
    /// batch too); returns the entries that were new, with their ids, in the given order.
    public func enqueue(_ entries: [FrontierEntry]) throws(CrawlStoreError) -> [FrontierEntry] {
        guard !entries.isEmpty else { return [] }
        return try write("enqueue") { db in try Self.insert(entries, db) }
    }

    /// Whether a key was already seen in this run: it is in the frontier, queued, in flight, done
    /// or skipped. (URLs recorded with `recordSkipped` never entered the frontier and do not count.)
    public func contains(key: String) throws(CrawlStoreError) -> Bool {
        try read("contains") { db in
            let statement = try db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM frontier WHERE key = ?)")
            return try Bool.fetchOne(statement, arguments: [key]) ?? false
        }
    }

    /// The keys among `keys` that are already in this run's frontier (in any state): one read
    /// for a page's worth of links instead of one per link.
    public func knownKeys(_ keys: [String]) throws(CrawlStoreError) -> Set<String> {
        guard !keys.isEmpty else { return [] }
        return try read("knownKeys") { db in
            var known: Set<String> = []
            let statement = try db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM frontier WHERE key = ?)")
            for key in keys where try Bool.fetchOne(statement, arguments: [key]) ?? false {
                known.insert(key)
            }
            return known
        }
    }

    /// Queued entries of `host` with `notBefore <= now`, oldest first (by id), at most `limit`,
    /// marked in flight in the same transaction.
    public func claim(host: String, limit: Int, now: Double) throws(CrawlStoreError) -> [FrontierEntry] {
        guard limit > 0 else { return [] }
        return try write("claim") { db in
            // The partial index is in id order per host: the scan stops after `limit` rows. Without
            // INDEXED BY the planner may prefer the not_before index and sort every eligible row.
            let select = try db.cachedStatement(
                sql: """
                    SELECT \(Self.frontierColumns) FROM frontier INDEXED BY frontier_queued
                    WHERE state = 0 AND host = ? AND not_before <= ?
                    ORDER BY id LIMIT ?
                    """)
            let entries = try Row.fetchAll(select, arguments: [host, now, limit]).map(Self.frontierEntry)
            let mark = try db.cachedStatement(sql: "UPDATE frontier SET state = ? WHERE id = ?")
            for entry in entries {
                try mark.execute(arguments: [FrontierState.inFlight.rawValue, entry.id])
            }
            return entries
        }
    }

    /// Hosts with queued entries, sorted by name, and for each the earliest `notBefore` (so the
    /// scheduler can wait). Costs O(hosts × log n), not a scan of the queue.
    public func hostsWithWork() throws(CrawlStoreError) -> [(host: String, earliest: Double)] {
        try read("hostsWithWork") { db in
            // A skip scan: each step seeks the next distinct host in the partial index.
            let statement = try db.cachedStatement(
                sql: """
                    WITH RECURSIVE hosts (host) AS (
                        SELECT (SELECT MIN(host) FROM frontier INDEXED BY frontier_queued WHERE state = 0)
                        UNION ALL
                        SELECT (
                            SELECT MIN(host) FROM frontier INDEXED BY frontier_queued
                            WHERE state = 0 AND host > hosts.host
                        )
                        FROM hosts WHERE hosts.host IS NOT NULL
                    )
                    SELECT host, (
                        SELECT MIN(not_before) FROM frontier INDEXED BY frontier_queued_not_before
                        WHERE state = 0 AND host = hosts.host
                    )
                    FROM hosts WHERE host IS NOT NULL
                    """)
            return try Row.fetchAll(statement).map { row in
                try (host: row.decode(atIndex: 0), earliest: row.decode(atIndex: 1))
            }
        }
    }

    /// How many entries of the run's frontier are in each state.
    public func counts() throws(CrawlStoreError) -> FrontierCounts {
        try read("counts") { db in
            let statement = try db.cachedStatement(sql: "SELECT state, COUNT(*) FROM frontier GROUP BY state")
            var counts = FrontierCounts()
            for row in try Row.fetchAll(statement) {
                try counts.add(row.decode(atIndex: 1), inState: row.decode(atIndex: 0))
            }
            return counts
        }
    }

    /// SQLite's `PRAGMA integrity_check`: the problems it finds, none for a sound file (the soak
    /// script and the kill tests ask it after every `kill -9`).
    public func integrityProblems() throws(CrawlStoreError) -> [String] {
        try read("integrityProblems") { db in
            try String.fetchAll(db, sql: "PRAGMA integrity_check").filter { $0 != "ok" }
        }
    }

    /// The URLs recorded as not crawled (out of scope, robots.txt, budget …), one per URL and
    /// reason: what report.json lists under `coverage.skipped`.
    public func skippedURLCount() throws(CrawlStoreError) -> Int {
        try read("skippedURLCount") { db in
            try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM skipped")) ?? 0
        }
    }

    /// The entries the page budget admitted: every frontier entry but redirect targets (those
    /// join the frontier as aliases of the page that redirected, outside the budget), whatever
    /// its state, including those skipped at fetch time (robots.txt). A resumed crawl starts its
    /// budget from this, so it admits what the uninterrupted crawl would.
    public func admittedCount() throws(CrawlStoreError) -> Int {
        try read("admittedCount") { db in
            let statement = try db.cachedStatement(
                sql: "SELECT COUNT(*) FROM frontier WHERE discovery != ?")
            return try Int.fetchOne(statement, arguments: [Discovery.redirect.rawValue]) ?? 0
        }
    }

    /// A retry: the entry (queued or in flight) goes back to queued with `attempts + 1`, not
    /// claimable before `notBefore`. Throws if there is no such entry.
    public func requeue(id: Int64, notBefore: Double) throws(CrawlStoreError) {
        try write("requeue") { db in
            let statement = try db.cachedStatement(
                sql: """
                    UPDATE frontier SET state = 0, attempts = attempts + 1, not_before = ?
                    WHERE id = ? AND state IN (0, 1)
                    """)
            try statement.execute(arguments: [notBefore, id])
            guard db.changesCount == 1 else { throw StoreFailure("no queued or in-flight frontier entry \(id)") }
        }
    }

    /// Marks a frontier entry (queued or in flight) skipped, e.g. robots disallowed at fetch time,
    /// and records why, in one transaction. A `nil` key or `foundOn` is taken from the entry.
    public func skip(id: Int64, _ skipped: SkippedURL) throws(CrawlStoreError) {
        try write("skip") { db in
            let mark = try db.cachedStatement(sql: "UPDATE frontier SET state = 3 WHERE id = ? AND state IN (0, 1)")
            try mark.execute(arguments: [id])
            guard db.changesCount == 1 else { throw StoreFailure("no queued or in-flight frontier entry \(id)") }
            let record = try db.cachedStatement(
                sql: """
                    INSERT INTO skipped (url, key, reason, detail, found_on)
                    SELECT ?, COALESCE(?, key), ?, ?, COALESCE(?, found_on) FROM frontier WHERE id = ?
                    ON CONFLICT (url, reason) DO NOTHING
                    """)
            try record.execute(
                arguments: [skipped.url, skipped.key, skipped.reason, skipped.detail, skipped.foundOn, id])
        }
    }

    /// Records URLs skipped before they entered the frontier (scope, scheme, budget, robots),
    /// de-duplicated by (url, reason): the first record of a pair is kept.
    public func recordSkipped(_ skipped: [SkippedURL]) throws(CrawlStoreError) {
        guard !skipped.isEmpty else { return }
        try write("recordSkipped") { db in try Self.insert(skipped, db) }
    }

    /// Every skipped URL of the run, in the order they were recorded.
    public func skippedURLs() throws(CrawlStoreError) -> [SkippedURL] {
        try skippedURLs(first: Int(Int64.max))
    }

    /// The first `limit` skipped URLs, in the order they were recorded.
    public func skippedURLs(first limit: Int) throws(CrawlStoreError) -> [SkippedURL] {
        try read("skippedURLs") { db in
            let statement = try db.cachedStatement(
                sql: "SELECT url, key, reason, detail, found_on FROM skipped ORDER BY id LIMIT ?")
            return try Row.fetchAll(statement, arguments: [limit]).map(Self.skippedURL)
        }
    }

    /// Every skipped URL with `reason` (or any reason), in the order they were recorded, read
    /// 1,000 at a time (`body` runs between reads, so it may use the store): memory does not grow
    /// with how many there are.
    public func forEachSkippedURL(reason: String?, _ body: (SkippedURL) throws -> Void) throws {
        try KeysetBatches.forEach(
            of: 1_000, id: \.id,
            read: { after, size in
                try read("forEachSkippedURL") { db in
                    try Row.fetchAll(
                        db.cachedStatement(
                            sql: """
                                SELECT url, key, reason, detail, found_on, id FROM skipped
                                WHERE id > :after AND (:reason IS NULL OR reason = :reason) ORDER BY id LIMIT :size
                                """),
                        arguments: ["after": after, "reason": reason, "size": size]
                    ).map { row in (id: row[5] as Int64, url: try Self.skippedURL(row)) }
                }
            }
        ) { batch in
            for row in batch { try body(row.url) }
        }
    }

    /// How many URLs were skipped, by reason.
    public func skippedCountsByReason() throws(CrawlStoreError) -> [String: Int] {
        try read("skippedCountsByReason") { db in
            var counts: [String: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT reason, COUNT(*) FROM skipped GROUP BY reason") {
                counts[try row.decode(atIndex: 0)] = try row.decode(atIndex: 1)
            }
            return counts
        }
    }

    /// The skipped URL recorded first for `url`, whatever the reason.
    public func skippedURL(_ url: String) throws(CrawlStoreError) -> SkippedURL? {
        try read("skippedURL") { db in
            try Row.fetchOne(
                db.cachedStatement(
                    sql: "SELECT url, key, reason, detail, found_on FROM skipped WHERE url = ? ORDER BY id LIMIT 1"),
                arguments: [url]
            ).map(Self.skippedURL)
        }
    }

    static func skippedURL(_ row: Row) throws -> SkippedURL {
        try SkippedURL(
            url: row.decode(atIndex: 0), key: row.decode(atIndex: 1), reason: row.decode(atIndex: 2),
            detail: row.decode(atIndex: 3), foundOn: row.decode(atIndex: 4))
    }

    // MARK: - Shared with `complete`

    /// Inserts new frontier entries (one cached statement, stepped per entry); returns the new ones.
    static func insert(_ entries: [FrontierEntry], _ db: Database) throws -> [FrontierEntry] {
        guard !entries.isEmpty else { return [] }
        // Not INSERT OR IGNORE: that would also silently drop rows failing a CHECK constraint.
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO frontier (url, key, host, depth, discovery, found_on, attempts, not_before, state)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0)
                ON CONFLICT (key) DO NOTHING
                """)
        var added: [FrontierEntry] = []
        for var entry in entries {
            try statement.execute(arguments: [
                entry.url, entry.key, entry.host, entry.depth, entry.discovery.rawValue, entry.foundOn,
                entry.attempts, entry.notBefore,
            ])
            if db.changesCount > 0 {
                entry.id = db.lastInsertedRowID
                added.append(entry)
            }
        }
        return added
    }

    static func insert(_ skipped: [SkippedURL], _ db: Database) throws {
        guard !skipped.isEmpty else { return }
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO skipped (url, key, reason, detail, found_on) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (url, reason) DO NOTHING
                """)
        for url in skipped {
            try statement.execute(arguments: [url.url, url.key, url.reason, url.detail, url.foundOn])
        }
    }

    static let frontierColumns = "id, url, key, host, depth, discovery, found_on, attempts, not_before"

    static func frontierEntry(_ row: Row) throws -> FrontierEntry {
        let discovery: String = try row.decode(atIndex: 5)
        guard let kind = Discovery(rawValue: discovery) else {
            throw StoreFailure("unknown discovery '\(discovery)' in the frontier")
        }
        var entry = try FrontierEntry(
            url: row.decode(atIndex: 1), key: row.decode(atIndex: 2), host: row.decode(atIndex: 3),
            depth: row.decode(atIndex: 4), discovery: kind, foundOn: row.decode(atIndex: 6),
            attempts: row.decode(atIndex: 7), notBefore: row.decode(atIndex: 8))
        entry.id = try row.decode(atIndex: 0)
        return entry
    }
}
