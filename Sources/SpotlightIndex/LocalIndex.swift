import DatabaseOpening
import Foundation
import GRDB
public import SpotlightModel

/// A local index with Core Spotlight's semantics (reference §5.2–5.5) in one SQLite file:
/// searchable items, user activities, the client states of named indexes, and a full-text search
/// table (FTS5).
///
/// The file is opened in WAL mode through a GRDB `DatabasePool`. Every method is one transaction,
/// so a process killed at any point leaves either all or none of a call's changes; a batch
/// (`beginBatch` … `endBatch`) and `write` are one transaction too.
///
/// Time comes from the injected clock (seconds since 1970), so expiration is testable. Expired
/// items and activities stay in the file until `purgeExpired()` but are never returned.
public final class LocalIndex: Sendable {
    /// Core Spotlight's default time to live, "1 month" (§5.2), taken as 30 days.
    public static let defaultTimeToLive: Double = 30 * 86_400

    /// The wall clock, seconds since 1970.
    public static let systemClock: @Sendable () -> Double = { Date().timeIntervalSince1970 }

    /// The database file.
    public let path: String
    /// How long an item or activity without an `expirationDate` lives after it is indexed.
    public let timeToLive: Double
    private let clock: @Sendable () -> Double
    private let pool: DatabasePool

    /// Opens the index at `path`, creating it if needed. Throws `.cannotOpen` for a file that is
    /// not a readable SQLite database (or was written by a newer version) and
    /// `.fullTextSearchUnavailable` when SQLite lacks FTS5.
    public init(
        path: String, timeToLive: Double = defaultTimeToLive,
        clock: @escaping @Sendable () -> Double = LocalIndex.systemClock
    ) throws(LocalIndexError) {
        self.path = path
        self.timeToLive = timeToLive
        self.clock = clock
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
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

    /// The clock's current reading.
    public var now: Double { clock() }

    // MARK: - Transactions

    /// Runs `body` in one write transaction: all of its changes or none. With `index` and
    /// `clientState`, the state is recorded for that named index in the same transaction (a
    /// batch). Throws `.batchingUnsupported` for a client state without an index name and
    /// `.invalidClientState` for one of 250 bytes or more, before writing anything.
    public func write<T>(
        _ operation: String = "write", index name: String? = nil, clientState: [UInt8]? = nil,
        _ body: (inout IndexWriter) throws -> T
    ) throws(LocalIndexError) -> T {
        if let clientState { try validate(clientState: clientState, index: name) }
        let now = clock()
        do {
            return try pool.write { db in
                var writer = IndexWriter(db: db, now: now, timeToLive: timeToLive)
                let value = try body(&writer)
                if let clientState, let name { try writer.setClientState(clientState, index: name) }
                return value
            }
        } catch {
            throw LocalIndexError(wrapping: error, path: path, operation: operation)
        }
    }

    private func validate(clientState: [UInt8], index name: String?) throws(LocalIndexError) {
        try validate(indexName: name)
        guard clientState.count <= maximumClientStateBytes else {
            throw LocalIndexError(
                path: path, kind: .invalidClientState,
                message:
                    "a client state of \(clientState.count) bytes; Core Spotlight takes less than 250 (AS016); nothing was written"
            )
        }
    }

    private func validate(indexName name: String?) throws(LocalIndexError) {
        guard let name else {
            throw LocalIndexError(
                path: path, kind: .batchingUnsupported,
                message: "the default index does not support batches or client states; use a named index (AS016)")
        }
        guard !name.isEmpty else {
            throw LocalIndexError(path: path, kind: .batchingUnsupported, message: "an index name must not be empty")
        }
    }

    private func read<T>(_ operation: String, _ body: (Database) throws -> T) throws(LocalIndexError) -> T {
        do {
            return try pool.read(body)
        } catch {
            throw LocalIndexError(wrapping: error, path: path, operation: operation)
        }
    }

    // MARK: - Indexing and deleting

    /// Indexes items in one transaction (see `IndexWriter.indexItem`).
    @discardableResult
    public func indexItems(_ items: [SearchableItem]) throws(LocalIndexError) -> IndexingReport {
        try write("indexItems") { writer in
            try writer.indexItems(items)
            return writer.report
        }
    }

    /// Indexes activities in one transaction; those whose related item is not indexed are refused.
    @discardableResult
    public func indexActivities(_ activities: [ActivityRecord]) throws(LocalIndexError) -> IndexingReport {
        try write("indexActivities") { writer in
            try writer.indexActivities(activities)
            return writer.report
        }
    }

    /// Deletes items by identifier, with their related activities.
    @discardableResult
    public func deleteItems(identifiers: [String]) throws(LocalIndexError) -> IndexingReport {
        try write("deleteItems") { writer in
            try writer.deleteItems(identifiers: identifiers)
            return writer.report
        }
    }

    /// Deletes the items and activities of these domains and their sub-domains.
    @discardableResult
    public func deleteItems(domainIdentifiers: [String]) throws(LocalIndexError) -> IndexingReport {
        try write("deleteItems") { writer in
            try writer.deleteItems(domainIdentifiers: domainIdentifiers)
            return writer.report
        }
    }

    /// Deletes everything, client states included.
    @discardableResult
    public func deleteAll() throws(LocalIndexError) -> IndexingReport {
        try write("deleteAll") { writer in
            try writer.deleteAll()
            return writer.report
        }
    }

    /// Deletes what has expired (it is never returned anyway; this reclaims the space).
    @discardableResult
    public func purgeExpired() throws(LocalIndexError) -> IndexingReport {
        try write("purgeExpired") { writer in
            try writer.purgeExpired()
            return writer.report
        }
    }

    // MARK: - Batches

    /// Starts a batch on a named index. Throws `.batchingUnsupported` for the default index (nil).
    public func beginBatch(index name: String?) throws(LocalIndexError) -> IndexBatch {
        try validate(indexName: name)
        return IndexBatch(indexName: name ?? "")
    }

    /// Applies the batch's operations, in order, and records its client state, in one
    /// transaction. A client state of 250 bytes or more is rejected and nothing is applied.
    @discardableResult
    public func endBatch(_ batch: IndexBatch, clientState: [UInt8]) throws(LocalIndexError) -> IndexingReport {
        try write("endBatch", index: batch.indexName, clientState: clientState) { writer in
            for operation in batch.operations {
                switch operation {
                case .indexItems(let items): try writer.indexItems(items)
                case .indexActivities(let activities): try writer.indexActivities(activities)
                case .deleteIdentifiers(let identifiers): try writer.deleteItems(identifiers: identifiers)
                case .deleteDomains(let domains): try writer.deleteItems(domainIdentifiers: domains)
                case .deleteAll: try writer.deleteAll()
                }
            }
            return writer.report
        }
    }

    /// The client state of the named index's last batch; nil before its first batch (or after
    /// `deleteAll`). Throws `.batchingUnsupported` for the default index.
    public func lastClientState(index name: String?) throws(LocalIndexError) -> [UInt8]? {
        try validate(indexName: name)
        return try read("lastClientState") { db in
            try Data.fetchOne(db, sql: "SELECT state FROM client_state WHERE index_name = ?", arguments: [name])
                .map { [UInt8]($0) }
        }
    }

    /// Every named index's client state, by name.
    public func clientStates() throws(LocalIndexError) -> [(indexName: String, state: [UInt8])] {
        try read("clientStates") { db in
            try Row.fetchAll(db, sql: "SELECT index_name, state FROM client_state ORDER BY index_name").map { row in
                try (indexName: row.decode(String.self, atIndex: 0), state: [UInt8](row.decode(Data.self, atIndex: 1)))
            }
        }
    }

    // MARK: - Reading

    /// The item, unless it is absent or expired.
    public func item(identifier: String) throws(LocalIndexError) -> IndexedItem? {
        let now = clock()
        return try read("item") { db in
            try IndexWriter.liveItem(db, identifier: identifier, now: now)
        }
    }

    /// The live activities whose `relatedUniqueIdentifier` is this item.
    public func activities(relatedTo identifier: String) throws(LocalIndexError) -> [IndexedActivity] {
        let now = clock()
        return try read("activities") { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT \(ActivityRow.columns) FROM activity
                    WHERE related_unique_identifier = ? AND expires_at > ? ORDER BY id
                    """, arguments: [identifier, now]
            ).map(ActivityRow.decode)
        }
    }

    /// Calls `body` with the live items in identifier order, `batchSize` at a time (memory stays
    /// flat however large the index).
    public func forEachItem(
        batchSize: Int = 1000, _ body: ([IndexedItem]) throws -> Void
    ) throws(LocalIndexError) {
        let now = clock()
        var after: String? = nil
        while true {
            let batch = try read("items") { db in
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT \(ItemRow.columns) FROM item
                        WHERE expires_at > ? AND (?2 IS NULL OR unique_identifier > ?2)
                        ORDER BY unique_identifier LIMIT ?
                        """, arguments: [now, after, max(1, batchSize)]
                ).map(ItemRow.decode)
            }
            guard let last = batch.last else { return }
            do { try body(batch) } catch {
                throw LocalIndexError(wrapping: error, path: path, operation: "items")
            }
            after = last.item.uniqueIdentifier
        }
    }

    /// Calls `body` with every live record as `export` writes it, from one read transaction (a
    /// consistent snapshot even while another process writes): the items in identifier order
    /// (expiration written out), then the activities, then every named index's client state.
    public func forEachRecord(_ body: (LocalRecord) throws -> Void) throws(LocalIndexError) {
        let now = clock()
        try read("export") { db in
            let items = try Row.fetchCursor(
                db, sql: "SELECT \(ItemRow.columns) FROM item WHERE expires_at > ? ORDER BY unique_identifier",
                arguments: [now])
            while let row = try items.next() { try body(.item(ItemRow.decode(row).exportedItem)) }
            let activities = try Row.fetchCursor(
                db, sql: "SELECT \(ActivityRow.columns) FROM activity WHERE expires_at > ? ORDER BY id",
                arguments: [now])
            while let row = try activities.next() { try body(.activity(ActivityRow.decode(row).exportedRecord)) }
            for row in try Row.fetchAll(db, sql: "SELECT index_name, state FROM client_state ORDER BY index_name") {
                try body(
                    .clientState(indexName: row.decode(atIndex: 0), state: [UInt8](row.decode(Data.self, atIndex: 1))))
            }
        }
    }

    /// The live items, in identifier order.
    public func items() throws(LocalIndexError) -> [IndexedItem] {
        var items: [IndexedItem] = []
        try forEachItem { items += $0 }
        return items
    }

    /// The live activities, in the order they were first indexed.
    public func activities() throws(LocalIndexError) -> [IndexedActivity] {
        let now = clock()
        return try read("activities") { db in
            try Row.fetchAll(
                db, sql: "SELECT \(ActivityRow.columns) FROM activity WHERE expires_at > ? ORDER BY id",
                arguments: [now]
            ).map(ActivityRow.decode)
        }
    }

    /// The live items that expire within `seconds` from now, soonest first: what an index
    /// delegate would be asked to re-index.
    public func reindexDue(within seconds: Double) throws(LocalIndexError) -> [IndexedItem] {
        let now = clock()
        return try read("reindexDue") { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT \(ItemRow.columns) FROM item WHERE expires_at > ? AND expires_at <= ?
                    ORDER BY expires_at, unique_identifier
                    """, arguments: [now, now + seconds]
            ).map(ItemRow.decode)
        }
    }

    /// Counts of what the index holds.
    public func statistics() throws(LocalIndexError) -> IndexStatistics {
        let now = clock()
        var statistics = try read("statistics") { db in
            var statistics = IndexStatistics()
            statistics.items =
                try Int.fetchOne(db, sql: "SELECT count(*) FROM item WHERE expires_at > ?", arguments: [now]) ?? 0
            statistics.expiredItems =
                try Int.fetchOne(db, sql: "SELECT count(*) FROM item WHERE expires_at <= ?", arguments: [now]) ?? 0
            statistics.activities =
                try Int.fetchOne(db, sql: "SELECT count(*) FROM activity WHERE expires_at > ?", arguments: [now]) ?? 0
            statistics.expiredActivities =
                try Int.fetchOne(db, sql: "SELECT count(*) FROM activity WHERE expires_at <= ?", arguments: [now]) ?? 0
            for row in try Row.fetchAll(
                db,
                sql: "SELECT coalesce(domain_identifier, ''), count(*) FROM item WHERE expires_at > ? GROUP BY 1",
                arguments: [now])
            {
                try statistics.itemsByDomain[row.decode(String.self, atIndex: 0)] = row.decode(Int.self, atIndex: 1)
            }
            for row in try Row.fetchAll(
                db, sql: "SELECT coalesce(content_type, ''), count(*) FROM item WHERE expires_at > ? GROUP BY 1",
                arguments: [now])
            {
                try statistics.itemsByContentType[row.decode(String.self, atIndex: 0)] = row.decode(
                    Int.self, atIndex: 1)
            }
            for row in try Row.fetchAll(db, sql: "SELECT index_name, state FROM client_state") {
                try statistics.clientStates[row.decode(String.self, atIndex: 0)] = [UInt8](
                    row.decode(Data.self, atIndex: 1))
            }
            return statistics
        }
        for suffix in ["", "-wal", "-shm"] {
            let attributes = try? FileManager.default.attributesOfItem(atPath: path + suffix)
            statistics.fileBytes += (attributes?[.size] as? NSNumber)?.int64Value ?? 0
        }
        return statistics
    }

    /// Runs a read-only query on the index's connection pool (the search code's door).
    func readDatabase<T>(_ operation: String, _ body: (Database) throws -> T) throws(LocalIndexError) -> T {
        try read(operation, body)
    }
}

extension IndexWriter {
    /// The item if it is indexed and not expired at `now`.
    static func liveItem(_ db: Database, identifier: String, now: Double) throws -> IndexedItem? {
        let statement = try db.cachedStatement(
            sql: "SELECT \(ItemRow.columns) FROM item WHERE unique_identifier = ? AND expires_at > ?")
        return try Row.fetchOne(statement, arguments: [identifier, now]).map(ItemRow.decode)
    }
}

/// The operations of a batch on a named index, applied atomically by `LocalIndex.endBatch`.
/// A value: building it touches nothing; Core Spotlight's "batch mode is not thread-safe" caveat
/// does not arise.
public struct IndexBatch: Sendable, Hashable {
    public enum Operation: Sendable, Hashable {
        case indexItems([SearchableItem])
        case indexActivities([ActivityRecord])
        case deleteIdentifiers([String])
        case deleteDomains([String])
        case deleteAll
    }

    /// The named index the batch belongs to.
    public let indexName: String
    public private(set) var operations: [Operation] = []

    init(indexName: String) {
        self.indexName = indexName
    }

    public mutating func indexItems(_ items: [SearchableItem]) { operations.append(.indexItems(items)) }
    public mutating func indexActivities(_ activities: [ActivityRecord]) {
        operations.append(.indexActivities(activities))
    }
    public mutating func deleteItems(identifiers: [String]) { operations.append(.deleteIdentifiers(identifiers)) }
    public mutating func deleteItems(domainIdentifiers: [String]) {
        operations.append(.deleteDomains(domainIdentifiers))
    }
    public mutating func deleteAll() { operations.append(.deleteAll) }
}
