import DatabaseOpening
import Foundation
import GRDB

/// The index in one SQLite file: WAL mode through a GRDB `DatabasePool` (readers never wait for
/// the writer), full-text search by FTS5 (`IndexSchema`), every write one transaction.
public final class SQLiteIndexStorage: IndexStorage {
    /// The database file.
    public let path: String
    private let pool: DatabasePool

    public var location: String { path }

    /// At most this many matches are ranked by relevance: a search matching more ranks the
    /// best-hinted this many (then the oldest), so a one-letter prefix over a million items costs
    /// what a rarer word does; one matching fewer, or asking for this many results or more, ranks
    /// every match.
    public static let candidateLimit = 500

    /// Opens the index file at `path`, creating it if needed. Throws `.cannotOpen` for a file that
    /// is not a readable SQLite database (or was written by a newer version) and
    /// `.fullTextSearchUnavailable` when SQLite lacks FTS5.
    public init(path: String) throws(LocalIndexError) {
        self.path = path
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            // Statement journals in memory, not in temporary files: every upsert keeps one (its
            // triggers may fail half-way), and 200,000 items took 17 s to import instead of 13.
            try db.execute(sql: "PRAGMA temp_store = MEMORY")
            FullTextRanking.register(on: db)
        }
        try Self.refuseMissingFolder(of: path)
        // Two imports (or an import and a search) may create a new index at the same moment:
        // PoolOpener retries.
        do {
            pool = try PoolOpener.open(path: path, configuration: configuration, migrator: IndexSchema.migrator) {
                try Self.refuseUnusable($0, path: path)
            }
        } catch {
            throw LocalIndexError(wrapping: error, path: path, operation: "open", kind: .cannotOpen)
        }
    }

    public func write<T>(_ body: (any IndexStorageWriter) throws -> T) throws -> T {
        try pool.write { db in
            let result = try body(Writer(db: db))
            // The full-text index takes the transaction's new rows at once, in rowid order (v4).
            try IndexSchema.flushPendingSearchText(db)
            return result
        }
    }

    public func refreshAfterBulkWrite() throws {
        try pool.write { db in try FullTextRanking.recountWords(db) }
    }

    public func read<T>(rerunnable: Bool, _ body: (any IndexStorageReader) throws -> T) throws -> T {
        try pool.read { db in try body(Reader(db: db, path: path)) }
    }

    /// A new index is created in an existing folder only: a missing one is named (SQLite would
    /// say "error 14, unable to open database file").
    private static func refuseMissingFolder(of path: String) throws(LocalIndexError) {
        guard !FileManager.default.fileExists(atPath: path) else { return }
        let parent = (path as NSString).deletingLastPathComponent
        var isFolder: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: parent.isEmpty ? "." : parent, isDirectory: &isFolder)
        guard !exists || !isFolder.boolValue else { return }
        throw LocalIndexError(
            path: path, kind: .cannotOpen,
            message: exists
                ? "cannot create the index there: \(parent) is a file, not a folder; "
                    + "name an index file in an existing folder"
                : "no such file, and its folder \(parent) does not exist to create it in; "
                    + "create the folder or name an index file in an existing one")
    }

    /// Throws for a file the index cannot use: an SQLite without FTS5, a crawl store, a file
    /// written by a newer SpotCheck, or another application's database.
    private static func refuseUnusable(_ pool: DatabasePool, path: String) throws {
        // A crawl store's migrations are named like the index's (v1 …): recognise it by its tables.
        let isCrawlStore = try pool.read { db in
            try db.tableExists("frontier") && db.tableExists("page") && !db.tableExists("item")
        }
        guard !isCrawlStore else {
            throw LocalIndexError(
                path: path, kind: .cannotOpen,
                message:
                    "a crawl store (the crawl.sqlite `spotcheck crawl` writes), not a local index; name a "
                    + "`spotcheck index` file (a new one is created), e.g. --index site-index.sqlite")
        }
        let hasFTS5 = try pool.write { try IndexSchema.hasFullTextSearch($0) }
        guard hasFTS5 else {
            throw LocalIndexError(
                path: path, kind: .fullTextSearchUnavailable,
                message:
                    "this SQLite (\(try pool.read { try String.fetchOne($0, sql: "SELECT sqlite_version()") } ?? "?")) has no FTS5 module; the index needs it for search"
            )
        }
        let migrator = IndexSchema.migrator
        let unknown = try pool.read { db in
            try db.tableExists("grdb_migrations")
                ? try migrator.appliedIdentifiers(db).subtracting(migrator.migrations) : []
        }
        guard unknown.isEmpty else {
            throw LocalIndexError(
                path: path, kind: .cannotOpen,
                message: "written by a newer SpotCheck (schema \(unknown.sorted().joined(separator: ", ")))")
        }
        let isForeign = try pool.read { db in
            try !db.tableExists("grdb_migrations")
                && (try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") ?? 0) > 0
        }
        guard !isForeign else {
            throw LocalIndexError(
                path: path, kind: .cannotOpen,
                message: "is an SQLite database but not a SpotCheck index (it has other tables)")
        }
    }
}

// MARK: - Writing

extension SQLiteIndexStorage {
    private struct Writer: IndexStorageWriter {
        let db: Database

        func liveItem(identifier: String, now: Double) throws -> IndexedItem? {
            try Reader.liveItem(db, identifier: identifier, now: now)
        }

        /// The item and activity upserts: the shared columns, then the searched texts (an item's
        /// title, display name and description are read from its attribute set, `IndexSchema` v2).
        private static let upsertItemSQL = upsert(into: "item", ItemColumns.sharedColumns + ["keywords_text"])
        private static let upsertActivitySQL = upsert(
            into: "activity",
            ActivityColumns.sharedColumns + ["search_title", "display_name", "content_description", "keywords_text"])

        private static func upsert(into table: String, _ columns: [String]) -> String {
            Upsert.statement(
                into: table, columns: columns,
                values: "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")")
        }

        func upsertItem(_ item: ItemColumns) throws {
            try db.cachedStatement(sql: Self.upsertItemSQL).execute(arguments: [
                item.uniqueIdentifier, item.domainIdentifier, item.attributeSetJSON, item.expirationText,
                item.expiresAt, item.indexedAt, item.contentType, item.rankingHint, item.urlKey, item.contentURLKey,
                item.searchText.keywords,
            ])
        }

        func upsertActivity(_ activity: ActivityColumns) throws {
            let text = activity.searchText
            try db.cachedStatement(sql: Self.upsertActivitySQL).execute(arguments: [
                activity.key, activity.activityType, activity.title, activity.keywordsJSON, activity.webpageURL,
                activity.webpageURLKey, activity.persistentIdentifier, activity.isEligibleForSearch,
                activity.isEligibleForPublicIndexing, activity.isEligibleForHandoff, activity.isEligibleForPrediction,
                activity.requiredUserInfoKeysJSON, activity.userInfoJSON, activity.contentAttributeSetJSON,
                activity.relatedUniqueIdentifier, activity.domainIdentifier, activity.expirationText,
                activity.expiresAt, activity.indexedAt, activity.contentType, activity.rankingHint,
                text.title, text.displayName, text.contentDescription, text.keywords,
            ])
        }

        func deleteItems(identifiers: [String]) throws -> Removal {
            let countActivities = try db.cachedStatement(
                sql: "SELECT count(*) FROM activity WHERE related_unique_identifier = ?")
            let delete = try db.cachedStatement(sql: "DELETE FROM item WHERE unique_identifier = ?")
            var removal = Removal(items: 0, activities: 0)
            for identifier in identifiers {
                let activities = try Int.fetchOne(countActivities, arguments: [identifier]) ?? 0
                // The item's delete trigger deletes its related activities.
                try delete.execute(arguments: [identifier])
                if db.changesCount > 0 {
                    removal.items += db.changesCount
                    removal.activities += activities
                }
            }
            return removal
        }

        func deleteItems(domain: String) throws -> Removal {
            let arguments: StatementArguments = [domain, domain + ".", domain + "/"]
            let condition = "(domain_identifier = ? OR (domain_identifier >= ? AND domain_identifier < ?))"
            return try removing {
                let items = try deleteRows(of: "item", where: condition, arguments)
                _ = try deleteRows(of: "activity", where: condition, arguments)
                return items
            }
        }

        func deleteExpired(now: Double) throws -> Removal {
            try removing {
                let items = try deleteRows(of: "item", where: "expires_at <= ?", [now])
                _ = try deleteRows(of: "activity", where: "expires_at <= ?", [now])
                return items
            }
        }

        /// Deletes the rows of `table` (`item` or `activity`) matching `condition`, one statement
        /// per row, in id order; returns how many (not counting what their triggers delete). One
        /// statement for them all kept a copy of every page it changed until it ended (its
        /// statement journal, in memory): deleting a domain of 167,000 of a million items took
        /// 534 MB, and row by row 61 MB in about the same time (12.2 s against 11.6 s).
        private func deleteRows(of table: String, where condition: String, _ arguments: StatementArguments)
            throws -> Int
        {
            let ids = try Int64.fetchAll(
                db, sql: "SELECT id FROM \(table) WHERE \(condition) ORDER BY id", arguments: arguments)
            let delete = try db.cachedStatement(sql: "DELETE FROM \(table) WHERE id = ?")
            var deleted = 0
            for id in ids {
                try delete.execute(arguments: [id])
                deleted += db.changesCount
            }
            return deleted
        }

        func deleteAll() throws -> Removal {
            let removal = try removing {
                try IndexSchema.deleteEveryRow(db)
            }
            try db.execute(sql: "DELETE FROM client_state")
            return removal
        }

        /// Runs deletes that return how many items they took, counting the activities they took
        /// (the item trigger's included) by the table's size before and after.
        private func removing(_ deletes: () throws -> Int) throws -> Removal {
            let before = try Int.fetchOne(db, sql: "SELECT count(*) FROM activity") ?? 0
            let items = try deletes()
            let after = try Int.fetchOne(db, sql: "SELECT count(*) FROM activity") ?? 0
            return Removal(items: items, activities: before - after)
        }

        func setClientState(_ state: [UInt8], index name: String, now: Double) throws {
            try db.execute(
                sql: "INSERT OR REPLACE INTO client_state (index_name, state, updated_at) VALUES (?, ?, ?)",
                arguments: [name, Data(state), now])
        }
    }
}

// MARK: - Reading

extension SQLiteIndexStorage {
    private struct Reader: IndexStorageReader {
        let db: Database
        let path: String

        static func liveItem(_ db: Database, identifier: String, now: Double) throws -> IndexedItem? {
            let statement = try db.cachedStatement(
                sql: "SELECT \(StoredItem.columns) FROM item WHERE unique_identifier = ? AND expires_at > ?")
            return try Row.fetchOne(statement, arguments: [identifier, now]).map { try Self.item($0) }
        }

        static func item(_ row: Row) throws -> IndexedItem {
            try StoredItem(
                uniqueIdentifier: row.decode(atIndex: 0), domainIdentifier: row.decode(atIndex: 1),
                attributeSetJSON: row.decode(atIndex: 2), expirationText: row.decode(atIndex: 3),
                expiresAt: row.decode(atIndex: 4), indexedAt: row.decode(atIndex: 5)
            ).indexed
        }

        static func activity(_ row: Row) throws -> IndexedActivity {
            try StoredActivity(
                id: row.decode(atIndex: 0), activityType: row.decode(atIndex: 1),
                title: row.decode(atIndex: 2), keywordsJSON: row.decode(atIndex: 3),
                webpageURL: row.decode(atIndex: 4), persistentIdentifier: row.decode(atIndex: 5),
                isEligibleForSearch: row.decode(atIndex: 6),
                isEligibleForPublicIndexing: row.decode(atIndex: 7),
                isEligibleForHandoff: row.decode(atIndex: 8),
                isEligibleForPrediction: row.decode(atIndex: 9),
                requiredUserInfoKeysJSON: row.decode(atIndex: 10),
                userInfoJSON: row.decode(atIndex: 11),
                contentAttributeSetJSON: row.decode(atIndex: 12),
                expirationText: row.decode(atIndex: 13), expiresAt: row.decode(atIndex: 14),
                indexedAt: row.decode(atIndex: 15)
            ).indexed
        }

        func liveItem(identifier: String, now: Double) throws -> IndexedItem? {
            try Self.liveItem(db, identifier: identifier, now: now)
        }

        func liveItems(after identifier: String?, limit: Int, now: Double) throws -> [IndexedItem] {
            try Row.fetchAll(
                db,
                sql: """
                    SELECT \(StoredItem.columns) FROM item
                    WHERE expires_at > ? AND (?2 IS NULL OR unique_identifier > ?2)
                    ORDER BY unique_identifier LIMIT ?
                    """, arguments: [now, identifier, limit]
            ).map { try Self.item($0) }
        }

        func forEachLiveItem(now: Double, _ body: (IndexedItem) throws -> Void) throws {
            let items = try Row.fetchCursor(
                db, sql: "SELECT \(StoredItem.columns) FROM item WHERE expires_at > ? ORDER BY unique_identifier",
                arguments: [now])
            while let row = try items.next() { try body(Self.item(row)) }
        }

        func liveActivities(relatedTo identifier: String?, now: Double) throws -> [IndexedActivity] {
            guard let identifier else {
                var activities: [IndexedActivity] = []
                try forEachLiveActivity(now: now) { activities.append($0) }
                return activities
            }
            return try Row.fetchAll(
                db,
                sql: """
                    SELECT \(StoredActivity.columns) FROM activity
                    WHERE related_unique_identifier = ? AND expires_at > ? ORDER BY id
                    """, arguments: [identifier, now]
            ).map { try Self.activity($0) }
        }

        func forEachLiveActivity(now: Double, _ body: (IndexedActivity) throws -> Void) throws {
            let activities = try Row.fetchCursor(
                db, sql: "SELECT \(StoredActivity.columns) FROM activity WHERE expires_at > ? ORDER BY id",
                arguments: [now])
            while let row = try activities.next() { try body(Self.activity(row)) }
        }

        func liveItems(expiringBy until: Double, now: Double) throws -> [IndexedItem] {
            try Row.fetchAll(
                db,
                sql: """
                    SELECT \(StoredItem.columns) FROM item WHERE expires_at > ? AND expires_at <= ?
                    ORDER BY expires_at, unique_identifier
                    """, arguments: [now, until]
            ).map { try Self.item($0) }
        }

        func clientStates() throws -> [(indexName: String, state: [UInt8])] {
            try Row.fetchAll(db, sql: "SELECT index_name, state FROM client_state ORDER BY index_name").map { row in
                try (indexName: row.decode(String.self, atIndex: 0), state: [UInt8](row.decode(Data.self, atIndex: 1)))
            }
        }

        func statistics(now: Double) throws -> IndexStatistics {
            var statistics = IndexStatistics()
            func count(_ sql: String) throws -> Int { try Int.fetchOne(db, sql: sql, arguments: [now]) ?? 0 }
            statistics.items = try count("SELECT count(*) FROM item WHERE expires_at > ?")
            statistics.expiredItems = try count("SELECT count(*) FROM item WHERE expires_at <= ?")
            statistics.activities = try count("SELECT count(*) FROM activity WHERE expires_at > ?")
            statistics.expiredActivities = try count("SELECT count(*) FROM activity WHERE expires_at <= ?")
            for (column, keyPath) in [
                ("domain_identifier", \IndexStatistics.itemsByDomain), ("content_type", \.itemsByContentType),
            ] {
                for row in try Row.fetchAll(
                    db, sql: "SELECT coalesce(\(column), ''), count(*) FROM item WHERE expires_at > ? GROUP BY 1",
                    arguments: [now])
                {
                    try statistics[keyPath: keyPath][row.decode(String.self, atIndex: 0)] = row.decode(
                        Int.self, atIndex: 1)
                }
            }
            for (name, state) in try clientStates() { statistics.clientStates[name] = state }
            for suffix in ["", "-wal", "-shm"] {
                let attributes = try? FileManager.default.attributesOfItem(atPath: path + suffix)
                statistics.fileBytes += (attributes?[.size] as? NSNumber)?.int64Value ?? 0
            }
            return statistics
        }

        func forEachHit(_ query: SearchQuery, now: Double, _ body: (SearchHit) throws -> Bool) throws {
            guard let match = query.matchExpression else { return }
            var conditions = [
                """
                ((i.id IS NOT NULL AND i.expires_at > :now)
                  OR (a.id IS NOT NULL AND a.expires_at > :now AND a.is_eligible_for_search))
                """
            ]
            var arguments: [String: (any DatabaseValueConvertible)?] = ["match": match, "now": now]
            if let domain = query.domainIdentifier {
                conditions.append(
                    """
                    (coalesce(i.domain_identifier, a.domain_identifier) = :domain
                      OR (coalesce(i.domain_identifier, a.domain_identifier) >= :domainDot
                          AND coalesce(i.domain_identifier, a.domain_identifier) < :domainEnd))
                    """)
                arguments["domain"] = domain
                arguments["domainDot"] = domain + "."
                arguments["domainEnd"] = domain + "/"
            }
            if let type = query.contentType {
                conditions.append("coalesce(i.content_type, a.content_type) = :type COLLATE NOCASE")
                arguments["type"] = type
            }
            let weights = SearchQuery.columnWeights.map { String($0) }.joined(separator: ", ")
            // bm25 without counting the rows that hold a word for every search (`FullTextRanking`).
            let structure = try FullTextRanking.structure(db, table: "search_text")
            arguments["index"] = FullTextRanking.indexState(structure: structure, path: path)
            arguments["words"] = query.words.joined(separator: " ") + (query.prefixMatchesLastWord ? "*" : "")
            arguments["rows"] = try FullTextRanking.keptRows(
                db, words: query.words, lastIsPrefix: query.prefixMatchesLastWord, structure: structure)
            // A search asking for as many results as the candidates, or more, ranks every match.
            arguments["candidates"] =
                query.limit >= SQLiteIndexStorage.candidateLimit ? -1 : SQLiteIndexStorage.candidateLimit
            // Matches come best-hinted first (`SearchRowID`); the first `candidateLimit` that pass
            // the filters are scored and sorted, and each row is read when its hit is reached (most
            // searches stop after `limit`). Ties go to the older row, as before v2.
            let rowID = "search_text.rowid"
            let sql = """
                SELECT \(SearchRowID.key("hit")) AS key, score
                FROM (
                    SELECT search_text.rowid AS hit,
                        -\(FullTextRanking.functionName)(search_text, \(weights), :index, :words, :rows) * (1.0 + coalesce(i.ranking_hint, a.ranking_hint, 0) / 100.0)
                            AS score
                    FROM search_text
                    LEFT JOIN item i ON \(SearchRowID.isItem(rowID)) AND i.id = \(SearchRowID.id(rowID))
                    LEFT JOIN activity a ON \(SearchRowID.isActivity(rowID)) AND a.id = \(SearchRowID.id(rowID))
                    WHERE search_text MATCH :match AND \(conditions.joined(separator: " AND "))
                    ORDER BY search_text.rowid LIMIT :candidates
                )
                ORDER BY score DESC, key
                """
            let itemByID = try db.cachedStatement(sql: "SELECT \(StoredItem.columns) FROM item WHERE id = ?")
            let activityByID = try db.cachedStatement(
                sql: "SELECT \(StoredActivity.columns) FROM activity WHERE id = ?")
            let hits = try Row.fetchCursor(db, sql: sql, arguments: StatementArguments(arguments))
            while let row = try hits.next() {
                let rowid: Int64 = row[0]
                let score: Double = row[1]
                let match: SearchHit.Match
                if rowid > 0 {
                    guard let found = try Row.fetchOne(itemByID, arguments: [rowid]) else { continue }
                    match = .item(try Self.item(found))
                } else {
                    guard let found = try Row.fetchOne(activityByID, arguments: [-rowid]) else { continue }
                    match = .activity(try Self.activity(found))
                }
                guard try body(SearchHit(match, score: score)) else { return }
            }
        }

        func liveItem(describing webpageURL: String, key: String, now: Double) throws -> IndexedItem? {
            try Row.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT \(StoredItem.columns) FROM item
                        WHERE (unique_identifier IN (?1, ?2) OR url_key = ?2 OR content_url_key = ?2)
                            AND expires_at > ?3
                        ORDER BY id LIMIT 1
                        """), arguments: [webpageURL, key, now]
            ).map { try Self.item($0) }
        }
    }
}
