public import CrawlStore
import Foundation
import PostgresNIO

extension PostgresCrawlStore {
    // MARK: - Runs

    /// Registers a new crawl (its id is told to `onRegistered`) and works on it.
    public func beginRun(seed: String, settingsJSON: String, at time: Double) throws(CrawlStoreError) -> CrawlRun {
        let id: Int64
        do {
            id = try session.transaction("beginRun") { statements in
                try statements.rows(
                    """
                    INSERT INTO crawl (seed, settings_json, started_at) VALUES (\(seed), \(settingsJSON), \(time))
                    RETURNING id
                    """
                )[0].decode(Int64.self)
            }
        } catch {
            throw error.crawlStoreError
        }
        setCrawl(id)
        return CrawlRun(seed: seed, settingsJSON: settingsJSON, generation: 1, startedAt: time)
    }

    /// Joins the open crawl (`open(crawl:)`): hosts whose lease expired are freed and their
    /// in-flight entries queued again; other workers' in-flight entries are left alone. Throws
    /// when the crawl has finished.
    public func resumeRun() throws(CrawlStoreError) -> CrawlRun {
        let now = clock()
        return try withCrawl("resumeRun") { statements, id in
            guard
                let (_, run) = try statements.rows(
                    "SELECT id, seed, settings_json, started_at, finished_at FROM crawl WHERE id = \(id)"
                ).first.map(Self.crawlRun), run.finishedAt == nil
            else { throw StoreFailure("crawl \(id) has finished; there is nothing to resume") }
            try Self.recoverExpiredLeases(statements, crawl: id, now: now)
            return run
        }
    }

    /// Marks the crawl finished, once: when another worker already did, nothing changes.
    public func finishRun(at time: Double) throws(CrawlStoreError) {
        try withCrawl("finishRun") { statements, id in
            if try statements.execute("UPDATE crawl SET finished_at = \(time) WHERE id = \(id) AND finished_at IS NULL")
                > 0
            {
                try Self.notify(statements, crawl: id)
            }
        }
    }

    public func currentRun() throws(CrawlStoreError) -> CrawlRun? {
        try withCrawl("currentRun", oneStatement: true) { statements, id in
            try statements.rows("SELECT id, seed, settings_json, started_at, finished_at FROM crawl WHERE id = \(id)")
                .first.map(Self.crawlRun)?.1
        }
    }

    // MARK: - The frontier

    /// The entries the page budget admitted, by every worker (one row read: the crawl's count).
    public func admittedCount() throws(CrawlStoreError) -> Int {
        try withCrawl("admittedCount", oneStatement: true) { statements, id in
            var bindings = PostgresBindings(capacity: 1)
            bindings.append(id)
            return try statements.rows(PostgresQuery(unsafeSQL: "SELECT " + CrawlAdmitted.sum, binds: bindings))[0]
                .decode(Int.self)
        }
    }

    public func enqueue(_ entries: [FrontierEntry]) throws(CrawlStoreError) -> [FrontierEntry] {
        guard !entries.isEmpty else { return [] }
        return try withCrawl("enqueue") { statements, id in
            let added = try Self.insert(entries, state: .queued, statements, crawl: id)
            if !added.isEmpty { try Self.notify(statements, crawl: id) }
            return added
        }
    }

    public func contains(key: String) throws(CrawlStoreError) -> Bool {
        try withCrawl("contains", oneStatement: true) { statements, id in
            try statements.rows("SELECT EXISTS (SELECT 1 FROM frontier WHERE crawl_id = \(id) AND key = \(key))")[0]
                .decode(Bool.self)
        }
    }

    public func knownKeys(_ keys: [String]) throws(CrawlStoreError) -> Set<String> {
        guard !keys.isEmpty else { return [] }
        return try knownKeysAndAdmittedCount(keys).known
    }

    public func knownKeysAndAdmittedCount(_ keys: [String]) throws(CrawlStoreError) -> (
        known: Set<String>, admitted: Int
    ) {
        try withCrawl("knownKeys", oneStatement: true, on: questionSession) { statements, id in
            var bindings = PostgresBindings(capacity: 2)
            bindings.append(id)
            bindings.append(keys)
            let (admitted, known) = try statements.rows(KnownKeysAndAdmitted.self, bindings)[0].decode(
                (Int, [String]).self)
            return (Set(known), admitted)
        }
    }

    /// Takes `host`'s lease (unless another worker holds it, this worker holds `maximumLeases`
    /// already, or the host's next request may not start yet), then marks up to `limit` of its
    /// due queued entries in flight, oldest first. A lease taken over from a worker that is gone
    /// queues that worker's in-flight entries of the host again first.
    public func claim(host: String, limit: Int, now: Double) throws(CrawlStoreError) -> [FrontierEntry] {
        guard limit > 0 else { return [] }
        return try withCrawl("claim") { statements, id in
            guard try lease(host, statements, crawl: id, now: now) else { return [] }
            return try Self.claimEntries(limit, statements, id, host, worker, now)
        }
    }

    /// A host whose requests need no spacing (`CrawlStoring.claimShare`). Leased whole while no
    /// other worker asks for a share (as any host is: no coordination per claim); shared once one
    /// does: the holder's next claim turns its lease into a share. The host's row is locked (a
    /// worker waits for another's claim on it rather than skipping it), so shares are decided one
    /// at a time: a worker's is a fair part of `capacity` among the workers holding or asking for
    /// one (`capacity` divided by their number, rounded up), no more than the others leave free;
    /// its row counts its requests in flight if they are more. A share asked for and not given (no
    /// slots) is kept for `shareRequestSeconds`, so that the holders' next claims make room.
    public func claimShare(
        host: String, limit: Int, capacity: Int, inFlight: Int, notBefore: Double, now: Double
    ) throws(CrawlStoreError) -> (entries: [FrontierEntry], slots: Int?) {
        try withCrawl("claimShare") { statements, id in
            try statements.execute(
                "INSERT INTO crawl_host (crawl_id, host) VALUES (\(id), \(host)) ON CONFLICT DO NOTHING")
            let (owner, until, storedNextAllowed) = try statements.rows(
                """
                SELECT lease_owner, lease_until, next_allowed FROM crawl_host
                WHERE crawl_id = \(id) AND host = \(host) FOR UPDATE
                """
            )[0].decode((String?, Double, Double).self)
            if let owner, owner != worker, until >= now {
                // Leased whole by another worker: ask it for a share.
                try Self.holdShare(
                    0, until: now + min(leaseSeconds, Self.shareRequestSeconds), statements, id, host, worker)
                return ([], 0)
            }
            if let owner, owner != worker {
                try Self.requeueInFlight(of: host, statements, id)
                try statements.execute(
                    "UPDATE crawl_host SET lease_owner = NULL, lease_until = 0 WHERE crawl_id = \(id) AND host = \(host)"
                )
            }
            try Self.recoverExpiredShares(statements, crawl: id, host: host, except: worker, now: now)
            if notBefore > storedNextAllowed {
                try statements.execute(
                    "UPDATE crawl_host SET next_allowed = \(notBefore) WHERE crawl_id = \(id) AND host = \(host)")
            }
            let due = max(storedNextAllowed, notBefore) <= now
            let (others, othersHeld) = try statements.rows(
                """
                SELECT COUNT(*), COALESCE(SUM(slots), 0)::bigint FROM crawl_host_slot
                WHERE crawl_id = \(id) AND host = \(host) AND worker <> \(worker)
                """
            )[0].decode((Int, Int).self)
            if others == 0 {
                // No other worker wants it: leased whole.
                if owner != worker {
                    guard due, try leasesHeld(statements, id, now: now) < maximumLeases else { return ([], nil) }
                    try takeLease(of: host, shareable: true, statements, id, now: now)
                }
                try statements.execute(
                    "DELETE FROM crawl_host_slot WHERE crawl_id = \(id) AND host = \(host) AND worker = \(worker)")
                return (try Self.claimEntries(limit, statements, id, host, worker, now), nil)
            }
            if owner == worker {
                try statements.execute(
                    "UPDATE crawl_host SET lease_owner = NULL, lease_until = 0 WHERE crawl_id = \(id) AND host = \(host)"
                )
            }
            let fairShare = (capacity + others) / (others + 1)
            let slots = due ? max(0, min(fairShare, capacity - othersHeld)) : 0
            // The others leave free what this worker has in flight until its next claim, when
            // those above its new share have ended (it starts none while they run).
            let counted = max(inFlight, slots)
            let holdsUntil = now + (counted > 0 ? leaseSeconds : min(leaseSeconds, Self.shareRequestSeconds))
            try Self.holdShare(counted, until: holdsUntil, statements, id, host, worker)
            guard slots > 0 else { return ([], 0) }
            // Entries in proportion to the share: a narrow queue is spread over the workers
            // instead of going whole to whichever claims first.
            return (try Self.claimEntries(min(limit, 2 * slots), statements, id, host, worker, now), slots)
        }
    }

    /// Records `worker`'s share of `host` (`slots` counted against the host's capacity).
    private static func holdShare(
        _ slots: Int, until: Double, _ statements: PostgresSession.Statements, _ id: Int64, _ host: String,
        _ worker: String
    ) throws {
        try statements.execute(
            """
            INSERT INTO crawl_host_slot (crawl_id, host, worker, slots, lease_until)
            VALUES (\(id), \(host), \(worker), \(slots), \(until))
            ON CONFLICT (crawl_id, host, worker) DO UPDATE SET slots = EXCLUDED.slots, lease_until = EXCLUDED.lease_until
            """)
    }

    /// Marks up to `limit` of `host`'s due queued entries in flight for `worker`, oldest first.
    private static func claimEntries(
        _ limit: Int, _ statements: PostgresSession.Statements, _ id: Int64, _ host: String, _ worker: String,
        _ now: Double
    ) throws -> [FrontierEntry] {
        guard limit > 0 else { return [] }
        return try statements.rows(
            """
            UPDATE frontier SET state = 1, claimed_by = \(worker) WHERE id IN (
                SELECT id FROM frontier
                WHERE crawl_id = \(id) AND host = \(host) AND state = 0 AND not_before <= \(now)
                ORDER BY id LIMIT \(limit) FOR UPDATE
            )
            RETURNING \(unescaped: frontierColumns)
            """
        ).map(frontierEntry).sorted { ($0.id ?? 0) < ($1.id ?? 0) }
    }

    /// How long a worker's request for a share of a host holds without being asked again.
    static let shareRequestSeconds = 2.0

    /// Whether this worker holds `host`'s lease now, taking it when it may. Inside `claim`'s
    /// transaction: the host's row is locked, or skipped when another worker has it locked.
    private func lease(_ host: String, _ statements: PostgresSession.Statements, crawl id: Int64, now: Double) throws
        -> Bool
    {
        try statements.execute(
            "INSERT INTO crawl_host (crawl_id, host) VALUES (\(id), \(host)) ON CONFLICT DO NOTHING")
        guard
            let row = try statements.rows(
                """
                SELECT lease_owner, lease_until, next_allowed FROM crawl_host
                WHERE crawl_id = \(id) AND host = \(host) FOR UPDATE SKIP LOCKED
                """
            ).first
        else { return false }
        let (owner, until, nextAllowed) = try row.decode((String?, Double, Double).self)
        if owner == worker { return true }
        if owner != nil, until >= now { return false }
        if nextAllowed > now { return false }
        // Shared (`claimShare`) while its spacing allowed it: leased whole only once no other worker
        // holds a share of it.
        try Self.recoverExpiredShares(statements, crawl: id, host: host, except: worker, now: now)
        guard
            try statements.rows(
                """
                SELECT NOT EXISTS (SELECT 1 FROM crawl_host_slot
                    WHERE crawl_id = \(id) AND host = \(host) AND worker <> \(worker) AND slots > 0)
                """
            )[0].decode(Bool.self)
        else { return false }
        guard try leasesHeld(statements, id, now: now) < maximumLeases else { return false }
        if owner != nil { try Self.requeueInFlight(of: host, statements, id) }
        try statements.execute(
            "DELETE FROM crawl_host_slot WHERE crawl_id = \(id) AND host = \(host) AND worker = \(worker)")
        try takeLease(of: host, shareable: false, statements, id, now: now)
        return true
    }

    /// The hosts this worker leases whole now.
    private func leasesHeld(_ statements: PostgresSession.Statements, _ id: Int64, now: Double) throws -> Int {
        try statements.rows(
            """
            SELECT COUNT(*) FROM crawl_host
            WHERE crawl_id = \(id) AND lease_owner = \(worker) AND lease_until >= \(now)
            """
        )[0].decode(Int.self)
    }

    /// Leases `host` whole to this worker; `shareable`: its requests need no spacing, so a worker
    /// with nothing else to do may ask for a share of it (`hostsWithWork`, `claimShare`).
    private func takeLease(
        of host: String, shareable: Bool, _ statements: PostgresSession.Statements, _ id: Int64, now: Double
    ) throws {
        try statements.execute(
            """
            UPDATE crawl_host SET lease_owner = \(worker), lease_until = \(now + leaseSeconds), shareable = \(shareable)
            WHERE crawl_id = \(id) AND host = \(host)
            """)
    }

    /// A host leased whole by a worker that is gone: what it had in flight is fetched again.
    private static func requeueInFlight(
        of host: String, _ statements: PostgresSession.Statements, _ id: Int64
    ) throws {
        try statements.execute(
            "UPDATE frontier SET state = 0 WHERE crawl_id = \(id) AND host = \(host) AND state = 1")
    }

    /// Hosts with queued entries that this worker holds, or may lease now (free or expired, while
    /// it holds fewer than `maximumLeases`), each with the earliest time one of its entries may
    /// start (a free host's next allowed time included). A few index probes per host
    /// (`HostsWithWork`), not a pass over every queued entry.
    public func hostsWithWork() throws(CrawlStoreError) -> [(host: String, earliest: Double)] {
        let now = clock()
        return try withCrawl("hostsWithWork", oneStatement: true) { statements, id in
            var bindings = PostgresBindings(capacity: 4)
            bindings.append(id)
            bindings.append(worker)
            bindings.append(now)
            bindings.append(maximumLeases)
            return try statements.rows(HostsWithWork.self, bindings).map { row in
                let (host, earliest) = try row.decode((String, Double).self)
                return (host: host, earliest: earliest)
            }
        }
    }

    public func counts() throws(CrawlStoreError) -> FrontierCounts {
        try withCrawl("counts", oneStatement: true) { statements, id in
            var counts = FrontierCounts()
            for row in try statements.rows(
                "SELECT state, COUNT(*) FROM frontier WHERE crawl_id = \(id) GROUP BY state")
            {
                let (state, count) = try row.decode((Int, Int).self)
                counts.add(count, inState: state)
            }
            return counts
        }
    }

    public func skippedURLCount() throws(CrawlStoreError) -> Int {
        try withCrawl("skippedURLCount", oneStatement: true) { statements, id in
            try statements.rows("SELECT COUNT(*) FROM skipped WHERE crawl_id = \(id)")[0].decode(Int.self)
        }
    }

    /// A retry: back to queued with one more attempt, not before `notBefore`. An entry that is no
    /// longer queued or in flight (another worker finished it after this one's lease expired) is
    /// left as it is.
    public func requeue(id entry: Int64, notBefore: Double) throws(CrawlStoreError) {
        try withCrawl("requeue") { statements, id in
            let changed = try statements.execute(
                """
                UPDATE frontier SET state = 0, attempts = attempts + 1, not_before = \(notBefore)
                WHERE crawl_id = \(id) AND id = \(entry) AND state IN (0, 1)
                """)
            if changed > 0 { try Self.notify(statements, crawl: id) }
        }
    }

    /// Marks an entry skipped and records why (see `requeue` for an entry no longer in play).
    public func skip(id entry: Int64, _ skipped: SkippedURL) throws(CrawlStoreError) {
        try withCrawl("skip") { statements, id in
            guard
                try statements.execute(
                    "UPDATE frontier SET state = 3 WHERE crawl_id = \(id) AND id = \(entry) AND state IN (0, 1)") > 0
            else { return }
            try statements.execute(
                """
                INSERT INTO skipped (crawl_id, url, key, reason, detail, found_on)
                SELECT \(id), \(skipped.url), COALESCE(\(skipped.key), key), \(skipped.reason), \(skipped.detail),
                    COALESCE(\(skipped.foundOn), found_on)
                FROM frontier WHERE id = \(entry)
                ON CONFLICT (crawl_id, url, reason) DO NOTHING
                """)
        }
    }

    public func foundOn(frontierID: Int64) throws(CrawlStoreError) -> String? {
        try withCrawl("foundOn", oneStatement: true) { statements, id in
            try statements.rows(
                "SELECT found_on FROM frontier WHERE crawl_id = \(id) AND id = \(frontierID)"
            ).first?.decode(String?.self) ?? nil
        }
    }

    public func skippedURLs() throws(CrawlStoreError) -> [SkippedURL] {
        try skippedURLs(first: Int(Int64.max))
    }

    public func skippedURLs(first limit: Int) throws(CrawlStoreError) -> [SkippedURL] {
        try withCrawl("skippedURLs", oneStatement: true) { statements, id in
            try statements.rows(
                """
                SELECT url, key, reason, detail, found_on FROM skipped WHERE crawl_id = \(id) ORDER BY id
                LIMIT \(limit)
                """
            ).map(Self.skippedURL)
        }
    }

    /// Read in batches of 1,000 by id: memory does not grow with how many there are.
    public func forEachSkippedURL(reason: String?, _ body: (SkippedURL) throws -> Void) throws {
        try KeysetBatches.forEach(
            of: 1_000, id: \.id,
            read: { after, size in
                try withCrawl("forEachSkippedURL", oneStatement: true) { statements, id in
                    try statements.rows(
                        """
                        SELECT id, url, key, reason, detail, found_on FROM skipped
                        WHERE crawl_id = \(id) AND id > \(after) AND (\(reason)::text IS NULL OR reason = \(reason))
                        ORDER BY id LIMIT \(size)
                        """
                    ).map { row in
                        let (rowID, url, key, reason, detail, foundOn) = try row.decode(
                            (Int64, String, String?, String, String, String?).self)
                        return (
                            id: rowID,
                            url: SkippedURL(url: url, key: key, reason: reason, detail: detail, foundOn: foundOn)
                        )
                    }
                }
            }
        ) { batch in
            for row in batch { try body(row.url) }
        }
    }

    public func skippedCountsByReason() throws(CrawlStoreError) -> [String: Int] {
        try withCrawl("skippedCountsByReason", oneStatement: true) { statements, id in
            var counts: [String: Int] = [:]
            for row in try statements.rows(
                "SELECT reason, COUNT(*) FROM skipped WHERE crawl_id = \(id) GROUP BY reason")
            {
                let (reason, count) = try row.decode((String, Int).self)
                counts[reason] = count
            }
            return counts
        }
    }

    public func skippedURL(_ url: String) throws(CrawlStoreError) -> SkippedURL? {
        try withCrawl("skippedURL", oneStatement: true) { statements, id in
            try statements.rows(
                """
                SELECT url, key, reason, detail, found_on FROM skipped WHERE crawl_id = \(id) AND url = \(url)
                ORDER BY id LIMIT 1
                """
            ).first.map(Self.skippedURL)
        }
    }

    static func skippedURL(_ row: PostgresRow) throws -> SkippedURL {
        let (url, key, reason, detail, foundOn) = try row.decode((String, String?, String, String, String?).self)
        return SkippedURL(url: url, key: key, reason: reason, detail: detail, foundOn: foundOn)
    }

    // MARK: - The cluster

    /// Gives `host` back (when this worker holds it, whole or a share of it): no request to it may
    /// start before `notBefore` (the holder's delay, Crawl-delay and back-off), whoever leases it next.
    public func releaseHost(_ host: String, notBefore: Double) throws(CrawlStoreError) {
        try withCrawl("releaseHost") { statements, id in
            let share = try statements.execute(
                "DELETE FROM crawl_host_slot WHERE crawl_id = \(id) AND host = \(host) AND worker = \(worker)")
            let released = try statements.execute(
                """
                UPDATE crawl_host SET next_allowed = GREATEST(next_allowed, \(notBefore)),
                    lease_owner = CASE WHEN lease_owner = \(worker) THEN NULL ELSE lease_owner END,
                    lease_until = CASE WHEN lease_owner = \(worker) THEN 0 ELSE lease_until END
                WHERE crawl_id = \(id) AND host = \(host) AND (lease_owner = \(worker) OR \(share) > 0)
                """)
            if released > 0 { try Self.notify(statements, crawl: id) }
        }
    }

    /// Whether the starting process is reading sitemaps: the crawl cannot end while it is and
    /// the process is alive (it renews the harvest with its leases; a harvest not renewed for
    /// `leaseSeconds` is given up, and the crawl ends without the sitemaps' URLs).
    public func harvest(pending: Bool) throws(CrawlStoreError) {
        let until = pending ? clock() + leaseSeconds : 0
        try withCrawl("harvest") { statements, id in
            try statements.execute(
                "UPDATE crawl SET harvest_pending = \(pending), harvest_until = \(until) WHERE id = \(id)")
            if !pending { try Self.notify(statements, crawl: id) }
        }
        harvesting.withLock { $0 = pending }
    }

    /// Called when this worker has nothing to do: true when the crawl is over (finished by
    /// another worker, or now: nothing queued, nothing in flight, no live harvest pending, so it is
    /// marked finished here, once); otherwise waits up to `timeout` seconds for a notification
    /// of new work and returns false. Expired leases are recovered first.
    public func awaitWork(timeout: Double) throws(CrawlStoreError) -> Bool {
        let id = try openCrawl()
        wakeups.forgetEarlier()
        let now = clock()
        let over = try withCrawl("awaitWork") { statements, id in
            try Self.recoverExpiredLeases(statements, crawl: id, now: now)
            let (finished, harvesting, queued, inFlight) = try statements.rows(
                """
                SELECT finished_at IS NOT NULL, harvest_pending AND harvest_until >= \(now),
                    EXISTS (SELECT 1 FROM frontier WHERE crawl_id = \(id) AND state = 0),
                    EXISTS (SELECT 1 FROM frontier WHERE crawl_id = \(id) AND state = 1)
                FROM crawl WHERE id = \(id)
                """
            )[0].decode((Bool, Bool, Bool, Bool).self)
            if finished { return true }
            guard !harvesting, !queued, !inFlight else { return false }
            try statements.execute("UPDATE crawl SET finished_at = \(now) WHERE id = \(id) AND finished_at IS NULL")
            try Self.notify(statements, crawl: id)
            return true
        }
        if !over { wakeups.wait(crawl: id, seconds: timeout) }
        return over
    }

    // MARK: - Rows

    static let frontierColumns = "id, url, key, host, depth, discovery, found_on, attempts, not_before"

    static func frontierEntry(_ row: PostgresRow) throws -> FrontierEntry {
        let (id, url, key, host, depth, discovery, foundOn, attempts, notBefore) = try row.decode(
            (Int64, String, String, String, Int, String, String?, Int, Double).self)
        guard let kind = Discovery(rawValue: discovery) else {
            throw StoreFailure("unknown discovery '\(discovery)' in the frontier")
        }
        var entry = FrontierEntry(
            url: url, key: key, host: host, depth: depth, discovery: kind, foundOn: foundOn, attempts: attempts,
            notBefore: notBefore)
        entry.id = id
        return entry
    }

    /// Inserts frontier entries in one statement, ignoring keys the crawl has seen (within the
    /// batch too); returns the new ones with their ids, in the given order.
    static func insert(
        _ entries: [FrontierEntry], state: FrontierState, _ statements: PostgresSession.Statements, crawl id: Int64
    ) throws -> [FrontierEntry] {
        guard !entries.isEmpty else { return [] }
        let rows = try statements.rows(
            """
            INSERT INTO frontier (crawl_id, url, key, host, depth, discovery, found_on, attempts, not_before, state)
            SELECT \(id), t.url, t.key, t.host, t.depth, t.discovery, NULLIF(t.found_on, ''), t.attempts,
                t.not_before, \(state.rawValue)
            FROM unnest(\(entries.map(\.url)), \(entries.map(\.key)), \(entries.map(\.host)),
                \(entries.map(\.depth)), \(entries.map(\.discovery.rawValue)), \(entries.map { $0.foundOn ?? "" }),
                \(entries.map(\.attempts)), \(entries.map(\.notBefore)))
                WITH ORDINALITY AS t(url, key, host, depth, discovery, found_on, attempts, not_before, position)
            ORDER BY t.position
            ON CONFLICT (crawl_id, key) DO NOTHING
            RETURNING id, key
            """)
        var ids: [String: Int64] = [:]
        for row in rows {
            let (entryID, key) = try row.decode((Int64, String).self)
            ids[key] = entryID
        }
        var added: [FrontierEntry] = []
        for var entry in entries {
            guard let entryID = ids.removeValue(forKey: entry.key) else { continue }
            entry.id = entryID
            added.append(entry)
        }
        let admitted = added.count { $0.discovery != .redirect }
        if admitted > 0 {
            try statements.execute("UPDATE crawl SET admitted = admitted + \(admitted) WHERE id = \(id)")
        }
        return added
    }

    static func insert(_ skipped: [SkippedURL], _ statements: PostgresSession.Statements, crawl id: Int64) throws {
        guard !skipped.isEmpty else { return }
        try statements.execute(
            """
            INSERT INTO skipped (crawl_id, url, key, reason, detail, found_on)
            SELECT \(id), t.url, NULLIF(t.key, ''), t.reason, t.detail, NULLIF(t.found_on, '')
            FROM unnest(\(skipped.map(\.url)), \(skipped.map { $0.key ?? "" }), \(skipped.map(\.reason)),
                \(skipped.map(\.detail)), \(skipped.map { $0.foundOn ?? "" }))
                WITH ORDINALITY AS t(url, key, reason, detail, found_on, position)
            ORDER BY t.position
            ON CONFLICT (crawl_id, url, reason) DO NOTHING
            """)
    }
}
