import Foundation
import PostgresNIO
public import SpotlightIndex

/// The local index on PostgreSQL: the same rows as the SQLite index (`item`, `activity`,
/// `client_state`), with full-text search by a weighted `tsvector` per row and a GIN index.
///
/// What the search matches is cut and folded in Swift (`SearchTokens`, as FTS5's unicode61
/// tokenizer cuts it for SQLite) and written as `tsvector` lexemes: no server text-search
/// configuration, locale or extension is involved, so every server matches the same words. The
/// four texts weigh as in SQLite's bm25: title A (1.0), display name B (0.6), keywords C (0.4),
/// description D (0.2), ranked by `ts_rank` with its length normalisation 1 (a longer text ranks
/// lower, as in bm25) × (1 + rankingHint / 100). This approximates bm25: it has no inverse
/// document frequency and normalises by the whole text's length, not each field's, so scores
/// differ and a multi-word search may order close results differently; the results are the
/// same, and the fixture's searches come out in the same order on both. Text columns compared or
/// ordered are `COLLATE "C"`, SQLite's byte order, so listings and domain ranges agree.
///
/// Items are written in batches (a multi-row `INSERT … ON CONFLICT DO UPDATE` of up to 500),
/// flushed before anything that reads or deletes, so an import costs a round trip per batch,
/// not per item. A schema of its own in the database (`?options=-csearch_path%3Dname`) keeps
/// several indexes apart.
public final class PostgresIndexStorage: IndexStorage {
    public let database: PostgresLocation
    let session: PostgresSession

    public var location: String { database.description }

    /// Connects to `database` and brings the index schema up to date. Fails at once, naming the
    /// server, when it cannot be reached or refuses the login.
    public init(database: PostgresLocation) throws(PostgresStoreError) {
        self.database = database
        // An index statement may rank or delete a million rows: 10 minutes before the connection is
        // given up; a lost COMMIT is reported, not run again (an import is not re-applied blindly).
        session = PostgresSession(location: database, statementSeconds: 600, rerunsAfterLostCommit: false)
        try PostgresSchema.migrate(
            session, versionTable: "spotcheck_index_schema", lock: Self.migrationLock, migrations: Self.migrations)
    }

    /// The advisory lock key index migrations take ("SPIX" in ASCII).
    static let migrationLock: Int64 = 0x5350_4958

    public func write<T>(_ body: (any IndexStorageWriter) throws -> T) throws -> T {
        try passingOn { (bodyError: inout (any Error)?) throws(PostgresStoreError) in
            try session.transaction("write") { statements in
                let writer = Writer(statements: statements)
                let value = try Self.noting(&bodyError) { try body(writer) }
                try writer.flush()
                return value
            }
        }
    }

    public func read<T>(rerunnable: Bool, _ body: (any IndexStorageReader) throws -> T) throws -> T {
        try passingOn { (bodyError: inout (any Error)?) throws(PostgresStoreError) in
            try session.snapshot("read", rerunnable: rerunnable) { statements in
                try Self.noting(&bodyError) { try body(Reader(statements: statements)) }
            }
        }
    }

    /// Runs a transaction; a failure of the caller's body (an invalid item, a file that cannot be
    /// read) is thrown as it was, a failure of the database as a `LocalIndexError` naming it.
    private func passingOn<T>(_ run: (inout (any Error)?) throws(PostgresStoreError) -> T) throws -> T {
        var bodyError: (any Error)?
        do {
            return try run(&bodyError)
        } catch {
            if let bodyError { throw bodyError }
            throw LocalIndexError(path: location, kind: .databaseFailure, message: error.message)
        }
    }

    /// Runs `body`, noting an error that is not the database's in `bodyError` before rethrowing it.
    private static func noting<T>(_ bodyError: inout (any Error)?, _ body: () throws -> T) throws -> T {
        do {
            bodyError = nil
            return try body()
        } catch {
            if !(error is PSQLError), !PostgresSession.isConnectionLoss(error) { bodyError = error }
            throw error
        }
    }

    static let migrations = [
        """
        CREATE TABLE item (
            id bigserial PRIMARY KEY,
            unique_identifier text COLLATE "C" NOT NULL UNIQUE,
            domain_identifier text COLLATE "C",
            attribute_set_json text NOT NULL,
            expiration_text text,
            expires_at double precision NOT NULL,
            indexed_at double precision NOT NULL,
            content_type text,
            ranking_hint double precision CHECK (ranking_hint BETWEEN 0 AND 100),
            url_key text,
            content_url_key text,
            search_vector tsvector NOT NULL
        );
        CREATE INDEX item_domain ON item (domain_identifier);
        CREATE INDEX item_expires_at ON item (expires_at);
        CREATE INDEX item_url_key ON item (url_key) WHERE url_key IS NOT NULL;
        CREATE INDEX item_content_url_key ON item (content_url_key) WHERE content_url_key IS NOT NULL;
        CREATE INDEX item_search ON item USING gin (search_vector);
        CREATE TABLE activity (
            id bigserial PRIMARY KEY,
            activity_key text NOT NULL UNIQUE,
            activity_type text NOT NULL,
            title text,
            keywords_json text NOT NULL,
            webpage_url text,
            webpage_url_key text,
            persistent_identifier text,
            is_eligible_for_search boolean NOT NULL,
            is_eligible_for_public_indexing boolean NOT NULL,
            is_eligible_for_handoff boolean NOT NULL,
            is_eligible_for_prediction boolean NOT NULL,
            required_user_info_keys_json text,
            user_info_json text,
            content_attribute_set_json text,
            related_unique_identifier text COLLATE "C",
            domain_identifier text COLLATE "C",
            expiration_text text,
            expires_at double precision NOT NULL,
            indexed_at double precision NOT NULL,
            content_type text,
            ranking_hint double precision CHECK (ranking_hint BETWEEN 0 AND 100),
            search_vector tsvector NOT NULL
        );
        CREATE INDEX activity_related ON activity (related_unique_identifier)
            WHERE related_unique_identifier IS NOT NULL;
        CREATE INDEX activity_domain ON activity (domain_identifier);
        CREATE INDEX activity_webpage_url_key ON activity (webpage_url_key) WHERE webpage_url_key IS NOT NULL;
        CREATE INDEX activity_search ON activity USING gin (search_vector);
        CREATE TABLE client_state (
            index_name text COLLATE "C" PRIMARY KEY CHECK (index_name <> ''),
            state bytea NOT NULL CHECK (length(state) < 250),
            updated_at double precision NOT NULL
        )
        """
    ]
}

extension LocalIndex {
    /// Opens the index at `location`: a `postgres://` URL (its schema created or brought up to
    /// date) or an SQLite file (created when `create` is true). A file that does not exist with
    /// `create` false is `.cannotOpen` (a typo would otherwise leave an empty index behind).
    public static func open(
        _ location: String, create: Bool = true, timeToLive: Double = LocalIndex.defaultTimeToLive,
        clock: @escaping @Sendable () -> Double = LocalIndex.systemClock
    ) throws(LocalIndexError) -> LocalIndex {
        guard PostgresLocation.isURL(location) else {
            if !create, !FileManager.default.fileExists(atPath: location) {
                throw LocalIndexError(
                    path: location, kind: .cannotOpen,
                    message: "no such index file (spotcheck index import creates one)")
            }
            return try LocalIndex(path: location, timeToLive: timeToLive, clock: clock)
        }
        do {
            let storage = try PostgresIndexStorage(database: try PostgresLocation(url: location))
            return LocalIndex(storage: storage, timeToLive: timeToLive, clock: clock)
        } catch {
            throw LocalIndexError(path: error.location, kind: .cannotOpen, message: error.message)
        }
    }
}

// MARK: - Search text

extension PostgresIndexStorage {
    /// The `tsvector` literal of a row's searched texts: each word folded (`SearchTokens`), with
    /// its positions and its field's weight. PostgreSQL's limits are kept: positions up to 16,383,
    /// 256 per lexeme, lexemes under 2 KiB, and the whole under 1 MiB (words past that are not
    /// searchable, as a word past FTS5's limits is not).
    static func vector(_ text: SearchableText) -> String {
        var positions: [String: [String]] = [:]
        var order: [String] = []
        var position = 0
        var size = 0
        let fields = [
            (text.title, "A"), (text.displayName, "B"), (text.keywords, "C"), (text.contentDescription, "D"),
        ]
        for (field, weight) in fields {
            for word in SearchTokens.words(in: field) {
                position = min(position + 1, 16_383)
                let lexeme = SearchTokens.folded(word)
                guard !lexeme.isEmpty, lexeme.utf8.count < 2_000 else { continue }
                if positions[lexeme] == nil {
                    guard size + lexeme.utf8.count < 900_000 else { continue }
                    size += lexeme.utf8.count + 8
                    order.append(lexeme)
                    positions[lexeme] = []
                }
                if positions[lexeme, default: []].count < 256 {
                    positions[lexeme, default: []].append("\(position)\(weight)")
                    size += 7
                }
            }
        }
        return order.map { "'\(Self.quoted($0))':" + positions[$0, default: []].joined(separator: ",") }
            .joined(separator: " ")
    }

    /// The `tsquery` of a search: every word must match, the last as a prefix for type-ahead; nil
    /// when the text has no word.
    static func query(_ query: SearchQuery) -> String? {
        let lexemes = query.words.map(SearchTokens.folded).filter { !$0.isEmpty }
        guard !lexemes.isEmpty else { return nil }
        return lexemes.enumerated().map { index, lexeme in
            "'\(Self.quoted(lexeme))'" + (query.prefixMatchesLastWord && index == lexemes.count - 1 ? ":*" : "")
        }.joined(separator: " & ")
    }

    /// A lexeme inside single quotes (words are letters and digits, but a backslash or quote
    /// would be escaped all the same).
    private static func quoted(_ lexeme: String) -> String {
        lexeme.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "''")
    }

    /// `ts_rank`'s weights, D to A: description 2, keywords 4, display name 6, title 10 (of 10).
    static let rankWeights = "'{0.2, 0.4, 0.6, 1.0}'::real[]"
}

// MARK: - Writing

extension PostgresIndexStorage {
    /// A write transaction's statements. A class: it keeps the items not yet sent.
    private final class Writer: IndexStorageWriter {
        let statements: PostgresSession.Statements
        private var pending: [ItemColumns] = []
        private var pendingIdentifiers: Set<String> = []

        /// The most items one `INSERT` sends (11 parameters each, far under PostgreSQL's 65,535).
        static let batchSize = 500

        init(statements: PostgresSession.Statements) {
            self.statements = statements
        }

        func liveItem(identifier: String, now: Double) throws -> IndexedItem? {
            try flush()
            return try Reader(statements: statements).liveItem(identifier: identifier, now: now)
        }

        func upsertItem(_ columns: ItemColumns) throws {
            // One INSERT cannot touch a row twice: the same identifier again sends what is pending.
            if pendingIdentifiers.contains(columns.uniqueIdentifier) { try flush() }
            pending.append(columns)
            pendingIdentifiers.insert(columns.uniqueIdentifier)
            if pending.count >= Self.batchSize { try flush() }
        }

        /// The item and activity upserts' columns, the shared ones then the `tsvector`, with the
        /// type each parameter is cast to (a NULL parameter has no type of its own).
        private static let itemColumns = ItemColumns.sharedColumns + ["search_vector"]
        private static let itemTypes = [
            "text", "text", "text", "text", "float8", "float8", "text", "float8", "text", "text", "tsvector",
        ]
        private static let activityColumns = ActivityColumns.sharedColumns + ["search_vector"]
        private static let activityTypes =
            Array(repeating: "text", count: 7) + Array(repeating: "boolean", count: 4)
            + Array(repeating: "text", count: 6) + ["float8", "float8", "text", "float8", "tsvector"]

        /// `($first::type, $first+1::type, …)`: one row of parameters.
        private static func row(_ types: [String], from first: Int) -> String {
            "(" + types.enumerated().map { "$\(first + $0.offset)::\($0.element)" }.joined(separator: ", ") + ")"
        }

        /// Sends the pending items in one statement.
        func flush() throws {
            guard !pending.isEmpty else { return }
            var binds = PostgresBindings(capacity: pending.count * Self.itemTypes.count)
            var rows: [String] = []
            rows.reserveCapacity(pending.count)
            for item in pending {
                rows.append(Self.row(Self.itemTypes, from: binds.count + 1))
                binds.append(item.uniqueIdentifier)
                binds.append(item.domainIdentifier)
                binds.append(item.attributeSetJSON)
                binds.append(item.expirationText)
                binds.append(item.expiresAt)
                binds.append(item.indexedAt)
                binds.append(item.contentType)
                binds.append(item.rankingHint)
                binds.append(item.urlKey)
                binds.append(item.contentURLKey)
                binds.append(PostgresIndexStorage.vector(item.searchText))
            }
            pending.removeAll(keepingCapacity: true)
            pendingIdentifiers.removeAll(keepingCapacity: true)
            try statements.execute(
                PostgresQuery(
                    unsafeSQL: Upsert.statement(
                        into: "item", columns: Self.itemColumns, values: rows.joined(separator: ", ")),
                    binds: binds))
        }

        func upsertActivity(_ activity: ActivityColumns) throws {
            try flush()
            var binds = PostgresBindings(capacity: Self.activityTypes.count)
            binds.append(activity.key)
            binds.append(activity.activityType)
            binds.append(activity.title)
            binds.append(activity.keywordsJSON)
            binds.append(activity.webpageURL)
            binds.append(activity.webpageURLKey)
            binds.append(activity.persistentIdentifier)
            binds.append(activity.isEligibleForSearch)
            binds.append(activity.isEligibleForPublicIndexing)
            binds.append(activity.isEligibleForHandoff)
            binds.append(activity.isEligibleForPrediction)
            binds.append(activity.requiredUserInfoKeysJSON)
            binds.append(activity.userInfoJSON)
            binds.append(activity.contentAttributeSetJSON)
            binds.append(activity.relatedUniqueIdentifier)
            binds.append(activity.domainIdentifier)
            binds.append(activity.expirationText)
            binds.append(activity.expiresAt)
            binds.append(activity.indexedAt)
            binds.append(activity.contentType)
            binds.append(activity.rankingHint)
            binds.append(PostgresIndexStorage.vector(activity.searchText))
            try statements.execute(
                PostgresQuery(
                    unsafeSQL: Upsert.statement(
                        into: "activity", columns: Self.activityColumns, values: Self.row(Self.activityTypes, from: 1)),
                    binds: binds))
        }

        /// Deletes the items `itemCondition` selects, the activities related to them, and the
        /// activities `activityCondition` selects, in one statement; the counts of each.
        private func remove(
            items itemCondition: String, activities activityCondition: String, _ binds: PostgresBindings
        )
            throws -> Removal
        {
            try flush()
            let row = try statements.rows(
                PostgresQuery(
                    unsafeSQL: """
                        WITH gone AS (DELETE FROM item WHERE \(itemCondition) RETURNING unique_identifier),
                        related AS (
                            DELETE FROM activity
                            WHERE (\(activityCondition))
                                OR related_unique_identifier IN (SELECT unique_identifier FROM gone)
                            RETURNING 1)
                        SELECT (SELECT count(*) FROM gone), (SELECT count(*) FROM related)
                        """, binds: binds)
            ).first
            let (items, activities) = try row?.decode((Int, Int).self) ?? (0, 0)
            return Removal(items: items, activities: activities)
        }

        func deleteItems(identifiers: [String]) throws -> Removal {
            var binds = PostgresBindings()
            binds.append(identifiers)
            return try remove(items: "unique_identifier = ANY($1::text[])", activities: "false", binds)
        }

        func deleteItems(domain: String) throws -> Removal {
            var binds = PostgresBindings()
            binds.append(domain)
            binds.append(domain + ".")
            binds.append(domain + "/")
            let condition = "(domain_identifier = $1 OR (domain_identifier >= $2 AND domain_identifier < $3))"
            return try remove(items: condition, activities: condition, binds)
        }

        func deleteExpired(now: Double) throws -> Removal {
            var binds = PostgresBindings()
            binds.append(now)
            return try remove(items: "expires_at <= $1", activities: "expires_at <= $1", binds)
        }

        func deleteAll() throws -> Removal {
            let removal = try remove(items: "true", activities: "true", PostgresBindings())
            try statements.execute("DELETE FROM client_state")
            return removal
        }

        func setClientState(_ state: [UInt8], index name: String, now: Double) throws {
            try flush()
            try statements.execute(
                """
                INSERT INTO client_state (index_name, state, updated_at) VALUES (\(name), \(ByteBuffer(bytes: state)), \(now))
                ON CONFLICT (index_name) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at
                """)
        }
    }
}

// MARK: - Reading

extension PostgresIndexStorage {
    private struct Reader: IndexStorageReader {
        let statements: PostgresSession.Statements

        static func item(_ cells: PostgresRandomAccessRow, from column: Int = 0) throws -> IndexedItem {
            try StoredItem(
                uniqueIdentifier: cells[column].decode(String.self),
                domainIdentifier: cells[column + 1].decode(String?.self),
                attributeSetJSON: cells[column + 2].decode(String.self),
                expirationText: cells[column + 3].decode(String?.self),
                expiresAt: cells[column + 4].decode(Double.self), indexedAt: cells[column + 5].decode(Double.self)
            ).indexed
        }

        static func activity(_ cells: PostgresRandomAccessRow, from column: Int = 0) throws -> IndexedActivity {
            try StoredActivity(
                id: cells[column].decode(Int64.self), activityType: cells[column + 1].decode(String.self),
                title: cells[column + 2].decode(String?.self), keywordsJSON: cells[column + 3].decode(String.self),
                webpageURL: cells[column + 4].decode(String?.self),
                persistentIdentifier: cells[column + 5].decode(String?.self),
                isEligibleForSearch: cells[column + 6].decode(Bool.self),
                isEligibleForPublicIndexing: cells[column + 7].decode(Bool.self),
                isEligibleForHandoff: cells[column + 8].decode(Bool.self),
                isEligibleForPrediction: cells[column + 9].decode(Bool.self),
                requiredUserInfoKeysJSON: cells[column + 10].decode(String?.self),
                userInfoJSON: cells[column + 11].decode(String?.self),
                contentAttributeSetJSON: cells[column + 12].decode(String?.self),
                expirationText: cells[column + 13].decode(String?.self),
                expiresAt: cells[column + 14].decode(Double.self), indexedAt: cells[column + 15].decode(Double.self)
            ).indexed
        }

        private func items(_ query: PostgresQuery) throws -> [IndexedItem] {
            try statements.rows(query).map { try Self.item($0.makeRandomAccess()) }
        }

        func liveItem(identifier: String, now: Double) throws -> IndexedItem? {
            try items(
                """
                SELECT \(unescaped: StoredItem.columns) FROM item
                WHERE unique_identifier = \(identifier) AND expires_at > \(now)
                """
            ).first
        }

        func liveItems(after identifier: String?, limit: Int, now: Double) throws -> [IndexedItem] {
            try items(
                """
                SELECT \(unescaped: StoredItem.columns) FROM item
                WHERE expires_at > \(now) AND (\(identifier)::text IS NULL OR unique_identifier > \(identifier)::text)
                ORDER BY unique_identifier LIMIT \(limit)
                """)
        }

        func forEachLiveItem(now: Double, _ body: (IndexedItem) throws -> Void) throws {
            var after: String?
            while true {
                let batch = try liveItems(after: after, limit: 1000, now: now)
                for item in batch { try body(item) }
                guard let last = batch.last else { return }
                after = last.item.uniqueIdentifier
            }
        }

        func liveActivities(relatedTo identifier: String?, now: Double) throws -> [IndexedActivity] {
            guard let identifier else {
                var activities: [IndexedActivity] = []
                try forEachLiveActivity(now: now) { activities.append($0) }
                return activities
            }
            return try statements.rows(
                """
                SELECT \(unescaped: StoredActivity.columns) FROM activity
                WHERE related_unique_identifier = \(identifier) AND expires_at > \(now) ORDER BY id
                """
            ).map { try Self.activity($0.makeRandomAccess()) }
        }

        func forEachLiveActivity(now: Double, _ body: (IndexedActivity) throws -> Void) throws {
            var after: Int64 = 0
            while true {
                let batch = try statements.rows(
                    """
                    SELECT \(unescaped: StoredActivity.columns) FROM activity
                    WHERE expires_at > \(now) AND id > \(after) ORDER BY id LIMIT 1000
                    """
                ).map { try Self.activity($0.makeRandomAccess()) }
                for activity in batch { try body(activity) }
                guard let last = batch.last else { return }
                after = last.id
            }
        }

        func liveItems(expiringBy until: Double, now: Double) throws -> [IndexedItem] {
            try items(
                """
                SELECT \(unescaped: StoredItem.columns) FROM item WHERE expires_at > \(now) AND expires_at <= \(until)
                ORDER BY expires_at, unique_identifier
                """)
        }

        func clientStates() throws -> [(indexName: String, state: [UInt8])] {
            try statements.rows("SELECT index_name, state FROM client_state ORDER BY index_name").map { row in
                let (name, state) = try row.decode((String, ByteBuffer).self)
                return (indexName: name, state: Array(state.readableBytesView))
            }
        }

        func statistics(now: Double) throws -> IndexStatistics {
            var statistics = IndexStatistics()
            let counts = try statements.rows(
                """
                SELECT (SELECT count(*) FROM item WHERE expires_at > \(now)),
                    (SELECT count(*) FROM item WHERE expires_at <= \(now)),
                    (SELECT count(*) FROM activity WHERE expires_at > \(now)),
                    (SELECT count(*) FROM activity WHERE expires_at <= \(now)),
                    (SELECT pg_total_relation_size('item') + pg_total_relation_size('activity')
                        + pg_total_relation_size('client_state'))
                """
            ).first
            if let counts {
                let values = try counts.decode((Int, Int, Int, Int, Int64).self)
                (statistics.items, statistics.expiredItems, statistics.activities, statistics.expiredActivities) =
                    (values.0, values.1, values.2, values.3)
                statistics.fileBytes = values.4
            }
            for row in try statements.rows(
                "SELECT coalesce(domain_identifier, ''), count(*) FROM item WHERE expires_at > \(now) GROUP BY 1")
            {
                let (domain, count) = try row.decode((String, Int).self)
                statistics.itemsByDomain[domain] = count
            }
            for row in try statements.rows(
                "SELECT coalesce(content_type, ''), count(*) FROM item WHERE expires_at > \(now) GROUP BY 1")
            {
                let (type, count) = try row.decode((String, Int).self)
                statistics.itemsByContentType[type] = count
            }
            for (name, state) in try clientStates() { statistics.clientStates[name] = state }
            return statistics
        }

        func forEachHit(_ query: SearchQuery, now: Double, _ body: (SearchHit) throws -> Bool) throws {
            guard let match = PostgresIndexStorage.query(query) else { return }
            var binds = PostgresBindings()
            binds.append(match)
            binds.append(now)
            var filters = ""
            if let domain = query.domainIdentifier {
                binds.append(domain)
                binds.append(domain + ".")
                binds.append(domain + "/")
                let first = binds.count - 2
                filters +=
                    " AND (domain_identifier = $\(first) OR (domain_identifier >= $\(first + 1)"
                    + " AND domain_identifier < $\(first + 2)))"
            }
            if let type = query.contentType {
                binds.append(type)
                filters += " AND lower(content_type) = lower($\(binds.count)::text)"
            }
            // Results merge (an item and its activities are one), so a page holds twice the limit.
            let page = max(32, min(query.limit, 10_000) * 2)
            let itemColumns = StoredItem.columns.split(separator: ",").map { "i." + $0.trimmed }
            let activityColumns = StoredActivity.columns.split(separator: ",").map { "a." + $0.trimmed }
            let rank = "ts_rank(\(PostgresIndexStorage.rankWeights), search_vector, $1::tsquery, 1)"
            var offset = 0
            while true {
                let rows = try statements.rows(
                    PostgresQuery(
                        unsafeSQL: """
                            SELECT h.hit, h.score, \((itemColumns + activityColumns).joined(separator: ", "))
                            FROM (
                                SELECT id AS hit, \(rank) * (1.0 + coalesce(ranking_hint, 0) / 100.0) AS score
                                FROM item
                                WHERE search_vector @@ $1::tsquery AND expires_at > $2\(filters)
                                UNION ALL
                                SELECT -id, \(rank) * (1.0 + coalesce(ranking_hint, 0) / 100.0)
                                FROM activity
                                WHERE search_vector @@ $1::tsquery AND expires_at > $2 AND is_eligible_for_search\(filters)
                                ORDER BY score DESC, hit LIMIT \(page) OFFSET \(offset)
                            ) h
                            LEFT JOIN item i ON h.hit > 0 AND i.id = h.hit
                            LEFT JOIN activity a ON h.hit < 0 AND a.id = -h.hit
                            ORDER BY h.score DESC, h.hit
                            """, binds: binds))
                for row in rows {
                    let cells = row.makeRandomAccess()
                    let hit = try cells[0].decode(Int64.self)
                    let score = try cells[1].decode(Double.self)
                    let match: SearchHit.Match =
                        hit > 0
                        ? .item(try Self.item(cells, from: 2))
                        : .activity(try Self.activity(cells, from: 2 + itemColumns.count))
                    guard try body(SearchHit(match, score: score)) else { return }
                }
                guard rows.count == page else { return }
                offset += page
            }
        }

        func liveItem(describing webpageURL: String, key: String, now: Double) throws -> IndexedItem? {
            try items(
                """
                SELECT \(unescaped: StoredItem.columns) FROM item
                WHERE (unique_identifier IN (\(webpageURL), \(key)) OR url_key = \(key) OR content_url_key = \(key))
                    AND expires_at > \(now)
                ORDER BY id LIMIT 1
                """
            ).first
        }
    }
}

extension Substring {
    fileprivate var trimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }
}
