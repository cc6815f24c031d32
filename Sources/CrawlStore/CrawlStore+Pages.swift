import Foundation
import GRDB

extension CrawlStore {
    /// One transaction: the page record is stored (replacing this key's previous-generation page),
    /// the frontier entry becomes done, the discovered entries are enqueued (keys already seen are
    /// ignored), the skipped URLs recorded. Returns the newly queued entries. After a kill -9 either
    /// all of it is there or none. Throws, writing nothing, when no run has begun or when the
    /// page's frontier entry is not queued or in flight.
    ///
    /// `aliases` are URLs the page stands for besides its own (the end of a redirect chain the
    /// crawler followed): they enter the frontier as done, so nothing fetches them again.
    public func complete(
        _ page: PageRecord, discovered: [FrontierEntry], skipped: [SkippedURL], aliases: [FrontierEntry] = []
    ) throws(CrawlStoreError) -> [FrontierEntry] {
        try write("complete") { db in
            guard let generation = try Self.currentGeneration(db) else { throw StoreFailure("no run has begun") }
            return try Self.complete(
                PageCompletion(page: page, discovered: discovered, skipped: skipped, aliases: aliases),
                generation: generation, db)
        }
    }

    /// Several pages in one transaction (a group commit: one WAL append and one lock for all), each
    /// in a savepoint of its own, so that one page's failure rolls back only its own writes.
    public func complete(_ pages: [PageCompletion]) -> [Result<[FrontierEntry], CrawlStoreError>] {
        do {
            return try write("complete") { db in
                guard let generation = try Self.currentGeneration(db) else { throw StoreFailure("no run has begun") }
                return pages.map { completion -> Result<[FrontierEntry], CrawlStoreError> in
                    var added: [FrontierEntry] = []
                    do {
                        try db.inSavepoint {
                            added = try Self.complete(completion, generation: generation, db)
                            return .commit
                        }
                        return .success(added)
                    } catch {
                        return .failure(CrawlStoreError(wrapping: error, path: path, operation: "complete"))
                    }
                }
            }
        } catch {
            return pages.map { _ in .failure(error) }
        }
    }

    /// One page's writes, inside the caller's transaction or savepoint.
    private static func complete(_ completion: PageCompletion, generation: Int, _ db: Database) throws
        -> [FrontierEntry]
    {
        let page = completion.page
        try Self.insert(page, generation: generation, db)
        let aliased = try Self.insert(completion.aliases, db)
        if !aliased.isEmpty {
            let done = try db.cachedStatement(sql: "UPDATE frontier SET state = 2 WHERE id = ?")
            for alias in aliased { try done.execute(arguments: [alias.id]) }
        }
        let added = try Self.insert(completion.discovered, db)
        try Self.insert(completion.skipped, db)
        // Checked last on purpose: a failure here rolls back the writes above, which is what the
        // store's all-or-nothing promise rests on (and what the tests exercise).
        let mark = try db.cachedStatement(sql: "UPDATE frontier SET state = 2 WHERE id = ? AND state IN (0, 1)")
        try mark.execute(arguments: [page.frontierID])
        guard db.changesCount == 1 else {
            throw StoreFailure("no queued or in-flight frontier entry \(page.frontierID)")
        }
        return added
    }

    /// The previous generation's page for a key (for If-None-Match / If-Modified-Since and keeping
    /// unchanged pages); `nil` when there is none or the current run already replaced it.
    public func previousPage(key: String) throws(CrawlStoreError) -> PageRecord? {
        try read("previousPage") { db in
            let generation = try Self.currentGeneration(db) ?? Int.max
            let statement = try db.cachedStatement(
                sql: "SELECT \(Self.pageColumns) FROM page WHERE key = ? AND generation < ?")
            return try Row.fetchOne(statement, arguments: [key, generation]).map(Self.pageRecord)
        }
    }

    /// Pages of the current generation, in frontier order, passed to `body` in batches of at most
    /// `batchSize` (each batch is read in its own transaction; `body` runs outside of it and may
    /// use the store). Without `includingMarkupDump`, the pages' raw markup dumps are not read
    /// (`markupDumpJSON` is nil). Errors from the store are `CrawlStoreError`; errors from `body`
    /// are rethrown.
    public func foundOn(frontierID: Int64) throws(CrawlStoreError) -> String? {
        try read("foundOn") { db in
            try String?.fetchOne(db, sql: "SELECT found_on FROM frontier WHERE id = ?", arguments: [frontierID])
                ?? nil
        }
    }

    public func forEachPage(
        batchSize: Int = 64, includingMarkupDump: Bool = true, _ body: ([PageRecord]) throws -> Void
    ) throws {
        let columns = includingMarkupDump ? Self.pageColumns : Self.pageColumnsWithoutDump
        try KeysetBatches.forEach(
            of: batchSize, id: \.frontierID,
            read: { after, size in
                try read("forEachPage") { db -> [PageRecord] in
                    guard let generation = try Self.currentGeneration(db) else { return [] }
                    let statement = try db.cachedStatement(
                        sql: """
                            SELECT \(columns) FROM page
                            WHERE generation = ? AND frontier_id > ? ORDER BY frontier_id LIMIT ?
                            """)
                    return try Row.fetchAll(statement, arguments: [generation, after, size]).map(Self.pageRecord)
                }
            }, body)
    }

    /// The current generation's page whose requested URL is `url`, if it was fetched.
    public func page(url: String) throws(CrawlStoreError) -> PageRecord? {
        try read("page") { db in
            guard let generation = try Self.currentGeneration(db) else { return nil }
            let statement = try db.cachedStatement(
                sql: "SELECT \(Self.pageColumnsWithoutDump) FROM page WHERE generation = ? AND requested_url = ?")
            return try Row.fetchOne(statement, arguments: [generation, url]).map(Self.pageRecord)
        }
    }

    /// The number of pages of the current generation.
    public func pageCount() throws(CrawlStoreError) -> Int {
        try read("pageCount") { db in
            guard let generation = try Self.currentGeneration(db) else { return 0 }
            let statement = try db.cachedStatement(sql: "SELECT COUNT(*) FROM page WHERE generation = ?")
            return try Int.fetchOne(statement, arguments: [generation]) ?? 0
        }
    }

    /// Pages from older generations not seen by the current run (disappeared since the previous
    /// crawl), newest generation first, then in their frontier order.
    public func stalePages() throws(CrawlStoreError) -> [PageRecord] {
        try read("stalePages") { db in
            guard let generation = try Self.currentGeneration(db) else { return [] }
            let statement = try db.cachedStatement(
                sql: """
                    SELECT \(Self.pageColumnsWithoutDump) FROM page WHERE generation < ?
                    ORDER BY generation DESC, frontier_id
                    """)
            return try Row.fetchAll(statement, arguments: [generation]).map(Self.pageRecord)
        }
    }

    /// The final URLs of the first `limit` stale pages (as `stalePages()` orders them), and how
    /// many there are.
    public func stalePageURLs(first limit: Int) throws(CrawlStoreError) -> ListSample<String> {
        try read("stalePageURLs") { db in
            guard let generation = try Self.currentGeneration(db) else { return ListSample(total: 0, first: []) }
            let total = try Int.fetchOne(
                db.cachedStatement(sql: "SELECT COUNT(*) FROM page WHERE generation < ?"), arguments: [generation])
            let first = try String.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT final_url FROM page WHERE generation < ?
                        ORDER BY generation DESC, frontier_id LIMIT ?
                        """),
                arguments: [generation, limit])
            return ListSample(total: total ?? 0, first: first)
        }
    }

    // MARK: - Rows

    /// The page table's columns, in the order `pageRecord` reads them: the same in every store
    /// (the PostgreSQL one too).
    public static let pageColumns = """
        frontier_id, requested_url, final_url, key, final_key, depth, status, content_type, body_bytes, \
        body_sha256, etag, last_modified, not_modified, error_kind, error_message, applebot_allowed, fetched_at, \
        unique_identifier, canonical, app_argument, title, description, thumbnail_url, is_candidate, \
        failing_conditions, error_count, warning_count, info_count, payload_version, payload, markup
        """

    /// `pageColumns` with NULL for the page's full markup, which the reports rarely need.
    public static let pageColumnsWithoutDump = String(pageColumns.dropLast("markup".count)) + "NULL AS markup"

    /// The JSON text columns of payload versions 1-4, NOT NULL in the schema: a new page leaves them empty.
    public static let emptyLegacyColumns = (names: "headers_json, redirects_json, timings_json", values: "'', '', ''")

    static func insert(_ page: PageRecord, generation: Int, _ db: Database) throws {
        // REPLACE on the unique key: the previous generation's page of this key goes.
        let statement = try db.cachedStatement(
            sql: """
                INSERT OR REPLACE INTO page (generation, \(emptyLegacyColumns.names), \(pageColumns))
                VALUES (?, \(emptyLegacyColumns.values), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,
                    ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
        try statement.execute(arguments: [
            generation, page.frontierID, page.requestedURL, page.finalURL, page.key, page.finalKey, page.depth,
            page.status, page.contentType, page.bodyBytes, page.bodySHA256, page.etag, page.lastModified,
            page.notModified, page.errorKind, page.errorMessage, page.applebotAllowed, page.fetchedAt,
            page.verdict?.uniqueIdentifier, page.verdict?.canonical, page.verdict?.appArgument, page.verdict?.title,
            page.verdict?.contentDescription, page.verdict?.thumbnailURL, page.verdict?.isCandidate,
            page.verdict.map { $0.failingConditions.joined(separator: " ") }, page.findingCounts.errors,
            page.findingCounts.warnings, page.findingCounts.infos, page.payloadVersion, page.payload.map { Data($0) },
            page.markup.map { Data($0) },
        ])
    }

    static func pageRecord(_ row: Row) throws -> PageRecord {
        let failing: String? = try row.decode(atIndex: 24)
        let verdict: PageVerdict? =
            try failing.map {
                try PageVerdict(
                    uniqueIdentifier: row.decode(atIndex: 17), canonical: row.decode(atIndex: 18),
                    appArgument: row.decode(atIndex: 19), title: row.decode(atIndex: 20),
                    contentDescription: row.decode(atIndex: 21), thumbnailURL: row.decode(atIndex: 22),
                    isCandidate: row.decode(atIndex: 23),
                    failingConditions: $0.split(separator: " ").map(String.init))
            }
        let payload: Data? = try row.decode(atIndex: 29)
        let markup: Data? = try row.decode(atIndex: 30)
        return try PageRecord(
            frontierID: row.decode(atIndex: 0), requestedURL: row.decode(atIndex: 1), finalURL: row.decode(atIndex: 2),
            key: row.decode(atIndex: 3), finalKey: row.decode(atIndex: 4), depth: row.decode(atIndex: 5),
            status: row.decode(atIndex: 6), contentType: row.decode(atIndex: 7), bodyBytes: row.decode(atIndex: 8),
            bodySHA256: row.decode(atIndex: 9), etag: row.decode(atIndex: 10), lastModified: row.decode(atIndex: 11),
            notModified: row.decode(atIndex: 12), errorKind: row.decode(atIndex: 13),
            errorMessage: row.decode(atIndex: 14), payload: payload.map { [UInt8]($0) },
            markup: markup.map { [UInt8]($0) }, applebotAllowed: row.decode(atIndex: 15),
            fetchedAt: row.decode(atIndex: 16), verdict: verdict,
            findingCounts: FindingCounts(
                errors: row.decode(atIndex: 25), warnings: row.decode(atIndex: 26), infos: row.decode(atIndex: 27)),
            payloadVersion: row.decode(atIndex: 28))
    }
}
