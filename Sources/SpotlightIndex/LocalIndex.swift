import Foundation
public import SpotlightModel

/// A local index with Core Spotlight's semantics (reference §5.2–5.5): searchable items, user
/// activities, the client states of named indexes, and full-text search, kept in an
/// `IndexStorage`: one SQLite file (`init(path:)`) or a PostgreSQL database.
///
/// Every method is one transaction, so a process killed at any point leaves either all or none
/// of a call's changes; a batch (`beginBatch` … `endBatch`) and `write` are one transaction too.
///
/// Time comes from the injected clock (seconds since 1970), so expiration is testable. Expired
/// items and activities stay stored until `purgeExpired()` but are never returned.
public final class LocalIndex: Sendable {
    /// Core Spotlight's default time to live, "1 month" (§5.2), taken as 30 days.
    public static let defaultTimeToLive: Double = 30 * 86_400

    /// The wall clock, seconds since 1970.
    public static let systemClock: @Sendable () -> Double = { Date().timeIntervalSince1970 }

    /// Where the rows are.
    public let storage: any IndexStorage
    /// How long an item or activity without an `expirationDate` lives after it is indexed.
    public let timeToLive: Double
    private let clock: @Sendable () -> Double

    /// The index in messages: its file, or its database URL without the password.
    public var location: String { storage.location }

    /// Opens the SQLite index at `path`, creating it if needed (see `SQLiteIndexStorage`).
    public convenience init(
        path: String, timeToLive: Double = defaultTimeToLive,
        clock: @escaping @Sendable () -> Double = LocalIndex.systemClock
    ) throws(LocalIndexError) {
        self.init(storage: try SQLiteIndexStorage(path: path), timeToLive: timeToLive, clock: clock)
    }

    /// An index kept in `storage`.
    public init(
        storage: any IndexStorage, timeToLive: Double = defaultTimeToLive,
        clock: @escaping @Sendable () -> Double = LocalIndex.systemClock
    ) {
        self.storage = storage
        self.timeToLive = timeToLive
        self.clock = clock
    }

    /// The clock's current reading.
    public var now: Double { clock() }

    // MARK: - Transactions

    /// Runs `body` in one write transaction: all of its changes or none. On PostgreSQL, a
    /// connection lost before the commit runs `body` again from the start on a new one, so it must
    /// not keep state across runs. With `index` and
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
            return try storage.write { storage in
                var writer = IndexWriter(storage: storage, now: now, timeToLive: timeToLive)
                let value = try body(&writer)
                if let clientState, let name { try writer.setClientState(clientState, index: name) }
                return value
            }
        } catch {
            throw LocalIndexError(wrapping: error, path: location, operation: operation)
        }
    }

    private func validate(clientState: [UInt8], index name: String?) throws(LocalIndexError) {
        try validate(indexName: name)
        guard clientState.count <= maximumClientStateBytes else {
            throw LocalIndexError(
                path: location, kind: .invalidClientState,
                message:
                    "a client state of \(clientState.count) bytes; Core Spotlight takes less than 250 (AS016); nothing was written"
            )
        }
    }

    func validate(indexName name: String?) throws(LocalIndexError) {
        guard let name else {
            throw LocalIndexError(
                path: location, kind: .batchingUnsupported,
                message: "the default index does not support batches or client states; use a named index (AS016)")
        }
        guard !name.isEmpty else {
            throw LocalIndexError(
                path: location, kind: .batchingUnsupported, message: "an index name must not be empty")
        }
    }

    func read<T>(_ operation: String, _ body: (any IndexStorageReader) throws -> T) throws(LocalIndexError) -> T {
        do {
            return try storage.read(body)
        } catch {
            throw LocalIndexError(wrapping: error, path: location, operation: operation)
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
        return try clientStates().first { $0.indexName == name }?.state
    }

    /// Every named index's client state, by name.
    public func clientStates() throws(LocalIndexError) -> [(indexName: String, state: [UInt8])] {
        try read("clientStates") { try $0.clientStates() }
    }

    // MARK: - Reading

    /// The item, unless it is absent or expired.
    public func item(identifier: String) throws(LocalIndexError) -> IndexedItem? {
        let now = clock()
        return try read("item") { try $0.liveItem(identifier: identifier, now: now) }
    }

    /// The live activities whose `relatedUniqueIdentifier` is this item.
    public func activities(relatedTo identifier: String) throws(LocalIndexError) -> [IndexedActivity] {
        let now = clock()
        return try read("activities") { try $0.liveActivities(relatedTo: identifier, now: now) }
    }

    /// Calls `body` with the live items in identifier order, `batchSize` at a time (memory stays
    /// flat however large the index).
    public func forEachItem(
        batchSize: Int = 1000, _ body: ([IndexedItem]) throws -> Void
    ) throws(LocalIndexError) {
        let now = clock()
        var after: String? = nil
        while true {
            let batch = try read("items") { try $0.liveItems(after: after, limit: max(1, batchSize), now: now) }
            guard let last = batch.last else { return }
            do { try body(batch) } catch {
                throw LocalIndexError(wrapping: error, path: location, operation: "items")
            }
            after = last.item.uniqueIdentifier
        }
    }

    /// Calls `body` with every live record as `export` writes it, from one read transaction (a
    /// consistent snapshot even while another process writes): the items in identifier order
    /// (expiration written out), then the activities, then every named index's client state.
    public func forEachRecord(_ body: (LocalRecord) throws -> Void) throws(LocalIndexError) {
        let now = clock()
        do {
            try storage.read(rerunnable: false) { reader in
                try reader.forEachLiveItem(now: now) { try body(.item($0.exportedItem)) }
                try reader.forEachLiveActivity(now: now) { try body(.activity($0.exportedRecord)) }
                for (name, state) in try reader.clientStates() {
                    try body(.clientState(indexName: name, state: state))
                }
            }
        } catch {
            throw LocalIndexError(wrapping: error, path: location, operation: "export")
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
        return try read("activities") { try $0.liveActivities(relatedTo: nil, now: now) }
    }

    /// The live items that expire within `seconds` from now, soonest first: what an index
    /// delegate would be asked to re-index.
    public func reindexDue(within seconds: Double) throws(LocalIndexError) -> [IndexedItem] {
        let now = clock()
        return try read("reindexDue") { try $0.liveItems(expiringBy: now + seconds, now: now) }
    }

    /// Counts of what the index holds.
    public func statistics() throws(LocalIndexError) -> IndexStatistics {
        let now = clock()
        return try read("statistics") { try $0.statistics(now: now) }
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
