import LenientJSON
import SpotlightModel

/// Where a `LocalIndex` keeps its rows: one SQLite file (`SQLiteIndexStorage`, the default) or a
/// PostgreSQL database (`PostgresIndexStorage` in the PostgresStorage module).
///
/// The division of labour: `LocalIndex` and `IndexWriter` hold every Core Spotlight rule (what
/// `isUpdate` merges, which activities are refused, the default time to live, what a domain
/// delete takes, how activities merge into search results), so both storages behave the same by
/// construction; a storage stores and finds rows, each call one transaction or one snapshot.
public protocol IndexStorage: Sendable {
    /// The index in messages: a file path, or a database URL without its password.
    var location: String { get }

    /// Runs `body` in one transaction: all of its changes or none. The body may run again from
    /// the start (a PostgreSQL connection lost and made again), so it must not keep state across
    /// runs.
    func write<T>(_ body: (any IndexStorageWriter) throws -> T) throws -> T

    /// Runs `body` on one consistent snapshot of the index. With `rerunnable` true the body may
    /// run again from the start (a PostgreSQL connection lost and made again); false for a body
    /// that hands rows to the caller as it goes (an export), which then fails instead.
    func read<T>(rerunnable: Bool, _ body: (any IndexStorageReader) throws -> T) throws -> T

    /// After a write of many rows (an import): refreshes what the storage derives from all of its
    /// rows for searches, in a transaction of its own.
    func refreshAfterBulkWrite() throws
}

extension IndexStorage {
    /// Nothing to refresh (PostgreSQL); SQLite recounts its common words
    /// (`FullTextRanking.recountWords`).
    public func refreshAfterBulkWrite() throws {}

    /// A read whose body may run again.
    public func read<T>(_ body: (any IndexStorageReader) throws -> T) throws -> T {
        try read(rerunnable: true, body)
    }
}

/// The values of one item row (everything a search or a lookup reads), computed by `IndexWriter`.
public struct ItemColumns: Sendable, Hashable {
    public var uniqueIdentifier: String
    public var domainIdentifier: String?
    /// The attribute set in Core Spotlight's property names (`AttributeSet.json`).
    public var attributeSetJSON: String
    /// The `expirationDate` as given; nil when the time to live applies.
    public var expirationText: String?
    public var expiresAt: Double
    public var indexedAt: Double
    public var searchText: SearchableText
    public var contentType: String?
    public var rankingHint: Double?
    /// The `url` and `contentURL`, normalised: what an activity's `webpageURL` is matched with.
    public var urlKey: String?
    public var contentURLKey: String?
}

/// The values of one activity row.
public struct ActivityColumns: Sendable, Hashable {
    /// What identifies the activity: `persistent:` and its `persistentIdentifier`, else its type
    /// with its related identifier, `webpageURL` or title. Indexing the same key replaces it.
    public var key: String
    public var activityType: String
    public var title: String?
    public var keywordsJSON: String
    public var webpageURL: String?
    public var webpageURLKey: String?
    public var persistentIdentifier: String?
    public var isEligibleForSearch: Bool
    public var isEligibleForPublicIndexing: Bool
    public var isEligibleForHandoff: Bool
    public var isEligibleForPrediction: Bool
    public var requiredUserInfoKeysJSON: String?
    public var userInfoJSON: String?
    public var contentAttributeSetJSON: String?
    public var relatedUniqueIdentifier: String?
    public var domainIdentifier: String?
    public var expirationText: String?
    public var expiresAt: Double
    public var indexedAt: Double
    public var searchText: SearchableText
    public var contentType: String?
    public var rankingHint: Double?
}

extension ItemColumns {
    /// The item columns both storages keep, the conflict key first; each storage adds the columns
    /// it searches (SQLite the four texts, PostgreSQL a `tsvector`).
    public static let sharedColumns = [
        "unique_identifier", "domain_identifier", "attribute_set_json", "expiration_text", "expires_at", "indexed_at",
        "content_type", "ranking_hint", "url_key", "content_url_key",
    ]
}

extension ActivityColumns {
    /// The activity columns both storages keep, the conflict key first (see `ItemColumns.sharedColumns`).
    public static let sharedColumns = [
        "activity_key", "activity_type", "title", "keywords_json", "webpage_url", "webpage_url_key",
        "persistent_identifier", "is_eligible_for_search", "is_eligible_for_public_indexing",
        "is_eligible_for_handoff", "is_eligible_for_prediction", "required_user_info_keys_json", "user_info_json",
        "content_attribute_set_json", "related_unique_identifier", "domain_identifier", "expiration_text",
        "expires_at", "indexed_at", "content_type", "ranking_hint",
    ]
}

/// The SQL both storages' upserts share (SQLite and PostgreSQL spell `ON CONFLICT` alike).
public enum Upsert {
    /// `INSERT INTO table (columns) VALUES rows ON CONFLICT (first column) DO UPDATE SET` every
    /// other column to the inserted value: a row with the same key is replaced (its id kept).
    public static func statement(into table: String, columns: [String], values rows: String) -> String {
        let assignments = columns.dropFirst().map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        return """
            INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES \(rows)
            ON CONFLICT (\(columns[0])) DO UPDATE SET \(assignments)
            """
    }
}

/// The four searched texts of an item or activity, weighted title 10, display name 6, keywords 4,
/// description 2 (`SearchQuery.columnWeights`).
public struct SearchableText: Sendable, Hashable {
    public var title: String
    public var displayName: String
    public var contentDescription: String
    /// One keyword per line.
    public var keywords: String
}

/// What a delete removed.
public struct Removal: Sendable, Hashable {
    public var items: Int
    public var activities: Int

    public init(items: Int, activities: Int) {
        self.items = items
        self.activities = activities
    }
}

/// A storage's side of one write transaction.
public protocol IndexStorageWriter {
    /// The item if it is indexed and does not expire before `now`.
    func liveItem(identifier: String, now: Double) throws -> IndexedItem?
    /// Inserts the item, or replaces the one with its identifier (its activities stay).
    func upsertItem(_ columns: ItemColumns) throws
    /// Inserts the activity, or replaces the one with its key.
    func upsertActivity(_ columns: ActivityColumns) throws
    /// Deletes these items and the activities related to them.
    func deleteItems(identifiers: [String]) throws -> Removal
    /// Deletes the items and activities of the domain and its sub-domains (`a` takes `a`, `a.b`,
    /// `a.b.c`, not `ab`), and the activities related to a deleted item.
    func deleteItems(domain: String) throws -> Removal
    /// Deletes the items and activities that expired at or before `now`, and the activities
    /// related to a deleted item.
    func deleteExpired(now: Double) throws -> Removal
    /// Deletes every item, activity and client state.
    func deleteAll() throws -> Removal
    /// Records (replaces) a named index's client state.
    func setClientState(_ state: [UInt8], index name: String, now: Double) throws
}

/// A storage's side of one read snapshot. "Live" means not expired at `now`.
public protocol IndexStorageReader {
    func liveItem(identifier: String, now: Double) throws -> IndexedItem?
    /// Up to `limit` live items after `identifier` (from the first when nil), in identifier order.
    func liveItems(after identifier: String?, limit: Int, now: Double) throws -> [IndexedItem]
    /// Every live item in identifier order, without holding them all in memory.
    func forEachLiveItem(now: Double, _ body: (IndexedItem) throws -> Void) throws
    /// The live activities in the order they were first indexed; only those related to the item
    /// when `relatedTo` is given.
    func liveActivities(relatedTo identifier: String?, now: Double) throws -> [IndexedActivity]
    /// Every live activity in the order they were first indexed, without holding them all in memory.
    func forEachLiveActivity(now: Double, _ body: (IndexedActivity) throws -> Void) throws
    /// The live items expiring at or before `until`, soonest first (ties by identifier).
    func liveItems(expiringBy until: Double, now: Double) throws -> [IndexedItem]
    /// Every named index's client state, by name.
    func clientStates() throws -> [(indexName: String, state: [UInt8])]
    /// The counts of `IndexStatistics` and the bytes the index takes.
    func statistics(now: Double) throws -> IndexStatistics
    /// The live items and live searchable activities matching every word of the query (its last
    /// word as a prefix for type-ahead), in its domain and content type, best first (ties by
    /// item id, activities before items); `body` returns false to stop.
    func forEachHit(_ query: SearchQuery, now: Double, _ body: (SearchHit) throws -> Bool) throws
    /// The first live item (by when it was first indexed) whose identifier is `webpageURL` or
    /// `key`, or whose normalised `url` or `contentURL` is `key`.
    func liveItem(describing webpageURL: String, key: String, now: Double) throws -> IndexedItem?
}

/// One search match before items and their activities are merged.
public struct SearchHit: Sendable {
    public enum Match: Sendable {
        case item(IndexedItem)
        case activity(IndexedActivity)
    }

    public var match: Match
    /// Higher is better: the relevance × (1 + rankingHint / 100).
    public var score: Double

    public init(_ match: Match, score: Double) {
        self.match = match
        self.score = score
    }
}

/// The raw values of a stored item, as both storages read them back.
public struct StoredItem: Sendable {
    public var uniqueIdentifier: String
    public var domainIdentifier: String?
    public var attributeSetJSON: String
    public var expirationText: String?
    public var expiresAt: Double
    public var indexedAt: Double

    public init(
        uniqueIdentifier: String, domainIdentifier: String?, attributeSetJSON: String, expirationText: String?,
        expiresAt: Double, indexedAt: Double
    ) {
        self.uniqueIdentifier = uniqueIdentifier
        self.domainIdentifier = domainIdentifier
        self.attributeSetJSON = attributeSetJSON
        self.expirationText = expirationText
        self.expiresAt = expiresAt
        self.indexedAt = indexedAt
    }

    /// The columns both storages select, in this order.
    public static let columns =
        "unique_identifier, domain_identifier, attribute_set_json, expiration_text, expires_at, indexed_at"

    public var indexed: IndexedItem {
        let attributes = JSONObject.stored(attributeSetJSON).flatMap { try? AttributeSet(json: $0) } ?? AttributeSet()
        let item = SearchableItem(
            uniqueIdentifier: uniqueIdentifier, domainIdentifier: domainIdentifier, attributeSet: attributes,
            expirationDate: expirationText.flatMap(ISO8601.date))
        return IndexedItem(item: item, indexedAt: indexedAt, expiresAt: expiresAt)
    }
}

/// The raw values of a stored activity, as both storages read them back.
public struct StoredActivity: Sendable {
    public var id: Int64
    public var activityType: String
    public var title: String?
    public var keywordsJSON: String
    public var webpageURL: String?
    public var persistentIdentifier: String?
    public var isEligibleForSearch: Bool
    public var isEligibleForPublicIndexing: Bool
    public var isEligibleForHandoff: Bool
    public var isEligibleForPrediction: Bool
    public var requiredUserInfoKeysJSON: String?
    public var userInfoJSON: String?
    public var contentAttributeSetJSON: String?
    public var expirationText: String?
    public var expiresAt: Double
    public var indexedAt: Double

    public init(
        id: Int64, activityType: String, title: String?, keywordsJSON: String, webpageURL: String?,
        persistentIdentifier: String?, isEligibleForSearch: Bool, isEligibleForPublicIndexing: Bool,
        isEligibleForHandoff: Bool, isEligibleForPrediction: Bool, requiredUserInfoKeysJSON: String?,
        userInfoJSON: String?, contentAttributeSetJSON: String?, expirationText: String?, expiresAt: Double,
        indexedAt: Double
    ) {
        self.id = id
        self.activityType = activityType
        self.title = title
        self.keywordsJSON = keywordsJSON
        self.webpageURL = webpageURL
        self.persistentIdentifier = persistentIdentifier
        self.isEligibleForSearch = isEligibleForSearch
        self.isEligibleForPublicIndexing = isEligibleForPublicIndexing
        self.isEligibleForHandoff = isEligibleForHandoff
        self.isEligibleForPrediction = isEligibleForPrediction
        self.requiredUserInfoKeysJSON = requiredUserInfoKeysJSON
        self.userInfoJSON = userInfoJSON
        self.contentAttributeSetJSON = contentAttributeSetJSON
        self.expirationText = expirationText
        self.expiresAt = expiresAt
        self.indexedAt = indexedAt
    }

    /// The columns both storages select, in this order.
    public static let columns = """
        id, activity_type, title, keywords_json, webpage_url, persistent_identifier, is_eligible_for_search,
        is_eligible_for_public_indexing, is_eligible_for_handoff, is_eligible_for_prediction,
        required_user_info_keys_json, user_info_json, content_attribute_set_json, expiration_text, expires_at,
        indexed_at
        """

    public var indexed: IndexedActivity {
        func strings(_ text: String?) -> [String]? {
            guard let text else { return nil }
            return JSONParser.parse(text, lenient: false).value?.arrayValue?.compactMap(\.stringValue)
        }
        let activity = UserActivity(
            activityType: activityType, title: title, keywords: strings(keywordsJSON) ?? [], webpageURL: webpageURL,
            persistentIdentifier: persistentIdentifier, isEligibleForSearch: isEligibleForSearch,
            isEligibleForPublicIndexing: isEligibleForPublicIndexing, isEligibleForHandoff: isEligibleForHandoff,
            isEligibleForPrediction: isEligibleForPrediction, expirationDate: expirationText.flatMap(ISO8601.date),
            requiredUserInfoKeys: strings(requiredUserInfoKeysJSON),
            contentAttributeSet: contentAttributeSetJSON.flatMap(JSONObject.stored).flatMap {
                try? AttributeSet(json: $0)
            })
        return IndexedActivity(
            id: id, record: ActivityRecord(activity: activity, userInfo: userInfoJSON.flatMap(JSONObject.stored)),
            indexedAt: indexedAt, expiresAt: expiresAt)
    }
}
