import CrawlStore
import Foundation
import PostgresNIO
import Synchronization

/// How many pages one `CompletePages` statement stores: a batch is cut into statements of 8, 4,
/// 2 and 1 pages, each prepared once per connection.
protocol PageBatch: SendableMetatype {
    static var pages: Int { get }
}

enum OnePage: PageBatch { static let pages = 1 }
enum TwoPages: PageBatch { static let pages = 2 }
enum FourPages: PageBatch { static let pages = 4 }
enum EightPages: PageBatch { static let pages = 8 }

/// The statements of several pages, largest first.
let severalPages: [any PageBatch.Type] = [EightPages.self, FourPages.self, TwoPages.self]

/// `complete` for `Batch.pages` pages: each page's frontier entry done, the page stored, its
/// aliases and discovered entries added, the worker's admitted count raised (its own row of
/// `crawl_admitted`: one row of the crawl's, locked by every page of every worker until it
/// committed, made the workers queue up), its skipped URLs recorded and, when one of the new
/// entries is on a host no worker holds, the waiting workers woken, in one statement: one round
/// trip for several pages, which on a loaded machine cost three times the server's time in
/// waiting. (Entries on a held host are the holder's to claim: waking every waiting worker for
/// each page's links made them, at 32 workers, ask for work twice a page.) A page whose entry
/// another worker completed first changes nothing. Returns the queued entries it added (`id`, `key`).
enum CompletePages<Batch: PageBatch>: StoreStatement {
    /// The crawl id; each page's columns (`CrawlStore.pageColumns`, its frontier id first); the
    /// entries' columns as arrays (`appendColumns(of:states:to:)`) and the page (1-based) each
    /// came with; the skipped URLs' columns as arrays and their page; the notification's channel
    /// and payload; the worker. The types are postgres-nio's for the Swift values bound, and the
    /// statement's `$n` are numbered from them.
    static var parameterGroups: [[PostgresDataType]] {
        [[.int8]]
            + Array(repeating: CompletePagesSQL.pageTypes, count: Batch.pages)
            + [
                [
                    .textArray, .textArray, .textArray, .int8Array, .textArray, .textArray, .int8Array, .float8Array,
                    .int8Array, .int8Array,
                ],
                Array(repeating: .textArray, count: 5) + [.int8Array],
                [.text, .text, .text],
            ]
    }

    static var parameterTypes: [PostgresDataType] { parameterGroups.flatMap { $0 } }

    static var sql: String { CompletePagesSQL.sql(pages: Batch.pages, groups: parameterGroups) }
}

/// `CompletePages`' text, made once per batch size.
enum CompletePagesSQL {
    static let pageTypes: [PostgresDataType] = [
        .int8, .text, .text, .text, .text, .int8, .int8, .text, .int8, .text, .text, .text, .bool, .text, .text,
        .bool, .float8, .text, .text, .text, .text, .text, .text, .bool, .text, .int8, .int8, .int8, .int8,
        .bytea, .bytea,
    ]

    private static let made = Mutex<[Int: String]>([:])

    static func sql(pages: Int, groups: [[PostgresDataType]]) -> String {
        if let sql = made.withLock({ $0[pages] }) { return sql }
        let sql = make(pages: pages, groups: groups)
        made.withLock { $0[pages] = sql }
        return sql
    }

    private static func make(pages: Int, groups: [[PostgresDataType]]) -> String {
        // `$n` for each parameter of a group, in order.
        var placeholders: [[String]] = []
        var next = 1
        for group in groups {
            placeholders.append(group.indices.map { "$\(next + $0)" })
            next += group.count
        }
        let rows = placeholders[1...pages]
        let (entries, skipped, notification) = (
            placeholders[pages + 1], placeholders[pages + 2], placeholders[pages + 3]
        )
        let columns = CrawlStore.pageColumns.split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        precondition(rows.allSatisfy { $0.count == columns.count }, "CompletePages binds every page column")
        let values = rows.enumerated().map { index, row in
            "(\(index + 1), \(zip(row, pageTypes).map { "\($0)::\(sqlType($1))" }.joined(separator: ", ")))"
        }
        // A key fetched twice (a lease lost under a stalled worker) keeps the latest page. The
        // pages are not copied on their way in: `given` is not materialized, `stored` not sorted.
        let updates = columns.filter { $0 != "key" }.map { "\($0) = EXCLUDED.\($0)" }.joined(separator: ", ")
        return """
            WITH given (position, \(columns.joined(separator: ", "))) AS NOT MATERIALIZED (
                VALUES \(values.joined(separator: ", "))
            ), updated AS (
                -- By the primary key: with the state and crawl columns as they are, the generic
                -- plan read the crawl's every queued entry through the state index.
                UPDATE frontier SET state = 2
                WHERE id IN (\(rows.map { $0[0] }.joined(separator: ", "))) AND crawl_id + 0 = $1 AND state + 0 IN (0, 1)
                RETURNING id
            ), done AS (
                SELECT g.position FROM given g JOIN updated u ON u.id = g.frontier_id
            ), stored AS (
                INSERT INTO page (crawl_id, \(CrawlStore.emptyLegacyColumns.names), \(CrawlStore.pageColumns))
                SELECT $1, \(CrawlStore.emptyLegacyColumns.values), \(columns.map { "g.\($0)" }.joined(separator: ", "))
                FROM given g JOIN done USING (position)
                ON CONFLICT (crawl_id, key) DO UPDATE SET \(updates)
            ), added AS (
                INSERT INTO frontier (crawl_id, url, key, host, depth, discovery, found_on, attempts, not_before, state)
                SELECT $1, t.url, t.key, t.host, t.depth, t.discovery, NULLIF(t.found_on, ''), t.attempts,
                    t.not_before, t.state
                FROM unnest(\(entries.joined(separator: ", ")))
                    WITH ORDINALITY AS t(url, key, host, depth, discovery, found_on, attempts, not_before, state,
                        page, position)
                JOIN done ON done.position = t.page
                ORDER BY t.position
                ON CONFLICT (crawl_id, key) DO NOTHING
                RETURNING id, key, state, discovery, host
            ), counted AS (
                INSERT INTO crawl_admitted (crawl_id, worker, admitted)
                SELECT $1, \(notification[2]), n.count
                FROM (SELECT COUNT(*) AS count FROM added WHERE discovery <> 'redirect') AS n WHERE n.count > 0
                ON CONFLICT (crawl_id, worker) DO UPDATE SET admitted = crawl_admitted.admitted + EXCLUDED.admitted
            ), recorded AS (
                INSERT INTO skipped (crawl_id, url, key, reason, detail, found_on)
                SELECT $1, t.url, NULLIF(t.key, ''), t.reason, t.detail, NULLIF(t.found_on, '')
                FROM unnest(\(skipped.joined(separator: ", ")))
                    WITH ORDINALITY AS t(url, key, reason, detail, found_on, page, position)
                JOIN done ON done.position = t.page
                ORDER BY t.position
                ON CONFLICT (crawl_id, url, reason) DO NOTHING
            )
            SELECT id, key FROM added WHERE state = 0
            UNION ALL
            SELECT 0, '' FROM pg_notify(\(notification[0]), \(notification[1]))
            WHERE EXISTS (
                SELECT 1 FROM added a LEFT JOIN crawl_host h ON h.crawl_id = $1 AND h.host = a.host
                WHERE a.state = 0 AND h.lease_owner IS NULL AND NOT EXISTS (
                    SELECT 1 FROM crawl_host_slot s WHERE s.crawl_id = $1 AND s.host = a.host AND s.slots > 0)
            )
            """
    }

    /// The SQL name of a page column's type (a `VALUES` row's types come from its casts).
    private static func sqlType(_ type: PostgresDataType) -> String {
        switch type {
        case .int8: "int8"
        case .bool: "bool"
        case .float8: "float8"
        case .bytea: "bytea"
        default: "text"
        }
    }
}

/// The keys of `$2` the crawl has seen, with the crawl's admitted count: what the page budget
/// needs to admit a page's links, in one round trip. Planned on every call: prepared, its generic
/// plan, made while the frontier was small, read every frontier row of the crawl (0.37 ms a page
/// on the scale-out benchmark, against 0.05 for the seen set's index).
enum KnownKeysAndAdmitted: StoreStatement {
    static let parameterTypes: [PostgresDataType] = [.int8, .textArray]
    static let plansEachCall = true
    static let sql = """
        SELECT \(CrawlAdmitted.sum),
            ARRAY(SELECT key FROM frontier WHERE crawl_id = $1 AND key = ANY($2::text[]))
        """
}

/// `hostsWithWork`: the hosts with queued entries, found by skipping through the queued index a
/// host at a time (a recursive scan: one probe per host), that this worker (`$2`) holds or may
/// lease at `$3`: a free host only while it holds fewer than `$4` leases, or the crawl loop would
/// be offered, at once and again, a host whose claim its lease count refuses. When there is no
/// such host, the hosts another worker leases whole and may share (`shareable`: no spacing) are
/// offered, so that a worker with nothing else to do asks for a share of them (`claimShare`).
/// Each host comes with the earliest time one of its entries may start: a due entry found first
/// (most are due), the smallest `not_before` only when none is, with the host's next allowed start
/// for a host it does not hold. Planned on every call, as `KnownKeysAndAdmitted`.
enum HostsWithWork: StoreStatement {
    static let parameterTypes: [PostgresDataType] = [.int8, .text, .float8, .int8]
    static let plansEachCall = true
    static let sql = """
        WITH RECURSIVE queued(host) AS (
            (SELECT host FROM frontier WHERE crawl_id = $1 AND state = 0 ORDER BY host LIMIT 1)
            UNION ALL
            SELECT (SELECT f.host FROM frontier f WHERE f.crawl_id = $1 AND f.state = 0 AND f.host > q.host
                ORDER BY f.host LIMIT 1)
            FROM queued q WHERE q.host IS NOT NULL
        ), held AS (
            SELECT COUNT(*) AS leases FROM crawl_host WHERE crawl_id = $1 AND lease_owner = $2 AND lease_until >= $3
        ), listed AS (
            SELECT q.host, GREATEST(
                COALESCE(
                    (SELECT f.not_before FROM frontier f
                        WHERE f.crawl_id = $1 AND f.state = 0 AND f.host = q.host AND f.not_before <= $3 LIMIT 1),
                    (SELECT MIN(f.not_before) FROM frontier f WHERE f.crawl_id = $1 AND f.state = 0 AND f.host = q.host)),
                CASE WHEN h.lease_owner = $2 THEN 0 ELSE COALESCE(h.next_allowed, 0) END) AS earliest,
                COALESCE(h.lease_owner = $2 OR ((h.lease_owner IS NULL OR h.lease_until < $3) AND held.leases < $4),
                    held.leases < $4) AS takeable
            FROM queued q LEFT JOIN crawl_host h ON h.crawl_id = $1 AND h.host = q.host, held
            WHERE q.host IS NOT NULL
                AND (h.lease_owner = $2 OR ((h.lease_owner IS NULL OR h.lease_until < $3) AND held.leases < $4)
                    OR h.shareable)
        )
        SELECT host, earliest FROM listed
        WHERE takeable OR NOT EXISTS (SELECT 1 FROM listed WHERE takeable)
        ORDER BY host
        """
}

/// The crawl's admitted count: what the starter admitted (seeds, sitemaps: `crawl.admitted`) and
/// what every worker's pages admitted (`crawl_admitted`, a row per worker).
enum CrawlAdmitted {
    static let sum = """
        (SELECT c.admitted + COALESCE((SELECT SUM(a.admitted) FROM crawl_admitted a WHERE a.crawl_id = $1), 0)::bigint
            FROM crawl c WHERE c.id = $1)
        """
}
