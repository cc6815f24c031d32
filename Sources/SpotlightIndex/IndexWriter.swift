import Foundation
import GRDB
import LenientJSON
public import SpotlightModel

/// The changes of one write transaction (`LocalIndex.write`): nothing is visible to readers, or
/// left in the file after a crash, until the transaction commits. Only usable inside the closure
/// it is passed to.
public struct IndexWriter: ~Copyable {
    let db: Database
    /// The transaction's clock reading: every row it writes has this `indexed_at`.
    public let now: Double
    let timeToLive: Double
    /// What the transaction did so far.
    public private(set) var report = IndexingReport()

    init(db: Database, now: Double, timeToLive: Double) {
        self.db = db
        self.now = now
        self.timeToLive = timeToLive
    }

    /// When something indexed now without an expiration date expires: the time to live later,
    /// in whole seconds (so an export, which writes it out, re-imports to the same instant).
    var defaultExpiry: Double { (now + timeToLive).rounded(.down) }

    // MARK: - Items

    /// Indexes items (Core Spotlight's `indexSearchableItems`): an item replaces the one with the
    /// same `uniqueIdentifier` (its related activities stay); an `isUpdate` item merges into it,
    /// and is ignored when there is none (or it has expired). Throws `.invalidItem` for an empty
    /// identifier or a `rankingHint` outside 0–100, which rolls the whole transaction back.
    public mutating func indexItems(_ items: some Sequence<SearchableItem>) throws {
        for item in items { _ = try indexItem(item) }
    }

    /// What became of one item.
    public enum ItemOutcome: Sendable, Hashable {
        case indexed, updated
        /// An `isUpdate` item for an identifier that is not indexed (or expired): ignored, as Core
        /// Spotlight does (AS014).
        case updateIgnored
    }

    @discardableResult
    public mutating func indexItem(_ item: SearchableItem) throws -> ItemOutcome {
        guard !item.uniqueIdentifier.isEmpty else {
            throw IndexFailure(.invalidItem, "an item has an empty uniqueIdentifier")
        }
        if let hint = item.attributeSet.rankingHint, !(0...100).contains(hint) {
            throw IndexFailure(.invalidItem, "\(item.uniqueIdentifier): rankingHint \(hint) is outside 0–100")
        }
        var stored = item
        var expirationText = item.expirationDate?.text
        var expiresAt = item.expirationDate?.secondsSince1970 ?? defaultExpiry
        if item.isUpdate {
            guard let existing = try liveItem(item.uniqueIdentifier) else {
                report.updatesIgnored.append(item.uniqueIdentifier)
                return .updateIgnored
            }
            stored.attributeSet = existing.item.attributeSet.merging(item.attributeSet)
            stored.domainIdentifier = item.domainIdentifier ?? existing.item.domainIdentifier
            if item.expirationDate == nil {
                // An update without an expiration date keeps the item's.
                expirationText = existing.item.expirationDate?.text
                expiresAt = existing.expiresAt
            }
            report.itemsUpdated += 1
        } else {
            report.itemsIndexed += 1
        }
        let attributes = stored.attributeSet
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO item (unique_identifier, domain_identifier, attribute_set_json, expiration_text,
                    expires_at, indexed_at, title, display_name, content_description, keywords_text, content_type,
                    ranking_hint, url_key, content_url_key)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (unique_identifier) DO UPDATE SET
                    domain_identifier = excluded.domain_identifier,
                    attribute_set_json = excluded.attribute_set_json,
                    expiration_text = excluded.expiration_text, expires_at = excluded.expires_at,
                    indexed_at = excluded.indexed_at, title = excluded.title, display_name = excluded.display_name,
                    content_description = excluded.content_description, keywords_text = excluded.keywords_text,
                    content_type = excluded.content_type, ranking_hint = excluded.ranking_hint,
                    url_key = excluded.url_key, content_url_key = excluded.content_url_key
                """)
        try statement.execute(arguments: [
            stored.uniqueIdentifier, stored.domainIdentifier ?? attributes.domainIdentifier,
            attributes.json.serialized(), expirationText, expiresAt, now,
            attributes.title, attributes.displayName, attributes.contentDescription,
            Self.keywordsText(attributes.keywords), attributes.contentType, attributes.rankingHint,
            attributes.url.map(URLNormalizer.normalize), attributes.contentURL.map(URLNormalizer.normalize),
        ])
        return item.isUpdate ? .updated : .indexed
    }

    /// The item if it is indexed and not expired.
    func liveItem(_ identifier: String) throws -> IndexedItem? {
        try Self.liveItem(db, identifier: identifier, now: now)
    }

    // MARK: - Activities

    /// Indexes activities. One whose `contentAttributeSet.relatedUniqueIdentifier` names no live
    /// item is not stored (reported in `report.activitiesRefused`). An activity replaces the one
    /// with the same key: its `persistentIdentifier`, else its type with its related identifier,
    /// `webpageURL` or title.
    public mutating func indexActivities(_ records: some Sequence<ActivityRecord>) throws {
        for record in records { _ = try indexActivity(record) }
    }

    /// Indexes one activity; returns why it was refused, or nil when it is stored.
    @discardableResult
    public mutating func indexActivity(_ record: ActivityRecord) throws -> RefusedActivity? {
        let activity = record.activity
        let attributes = activity.contentAttributeSet
        guard !activity.activityType.isEmpty else {
            throw IndexFailure(.invalidItem, "an activity has an empty activityType")
        }
        if let hint = attributes?.rankingHint, !(0...100).contains(hint) {
            throw IndexFailure(.invalidItem, "activity \(activity.activityType): rankingHint \(hint) is outside 0–100")
        }
        let related = attributes?.relatedUniqueIdentifier
        if let related, try liveItem(related) == nil {
            let refused = RefusedActivity(
                activityType: activity.activityType, title: activity.title ?? attributes?.title,
                reason: "relatedUniqueIdentifier \"\(related)\" names no indexed item, so the activity is not stored")
            report.activitiesRefused.append(refused)
            return refused
        }
        let webpageKey = activity.webpageURL.map(URLNormalizer.normalize)
        let key =
            activity.persistentIdentifier.map { "persistent:\($0)" }
            ?? "\(activity.activityType)\u{1F}\(related ?? webpageKey ?? activity.title ?? attributes?.title ?? "")"
        var keywords = activity.keywords
        for keyword in attributes?.keywords ?? [] where !keywords.contains(keyword) { keywords.append(keyword) }
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO activity (activity_key, activity_type, title, keywords_json, webpage_url, webpage_url_key,
                    persistent_identifier, is_eligible_for_search, is_eligible_for_public_indexing,
                    is_eligible_for_handoff, is_eligible_for_prediction, required_user_info_keys_json, user_info_json,
                    content_attribute_set_json, related_unique_identifier, domain_identifier, expiration_text,
                    expires_at, indexed_at, search_title, display_name, content_description, keywords_text,
                    content_type, ranking_hint)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (activity_key) DO UPDATE SET
                    activity_type = excluded.activity_type, title = excluded.title,
                    keywords_json = excluded.keywords_json, webpage_url = excluded.webpage_url,
                    webpage_url_key = excluded.webpage_url_key, persistent_identifier = excluded.persistent_identifier,
                    is_eligible_for_search = excluded.is_eligible_for_search,
                    is_eligible_for_public_indexing = excluded.is_eligible_for_public_indexing,
                    is_eligible_for_handoff = excluded.is_eligible_for_handoff,
                    is_eligible_for_prediction = excluded.is_eligible_for_prediction,
                    required_user_info_keys_json = excluded.required_user_info_keys_json,
                    user_info_json = excluded.user_info_json,
                    content_attribute_set_json = excluded.content_attribute_set_json,
                    related_unique_identifier = excluded.related_unique_identifier,
                    domain_identifier = excluded.domain_identifier, expiration_text = excluded.expiration_text,
                    expires_at = excluded.expires_at, indexed_at = excluded.indexed_at,
                    search_title = excluded.search_title, display_name = excluded.display_name,
                    content_description = excluded.content_description, keywords_text = excluded.keywords_text,
                    content_type = excluded.content_type, ranking_hint = excluded.ranking_hint
                """)
        try statement.execute(arguments: [
            key, activity.activityType, activity.title,
            JSONValue.array(activity.keywords.map(JSONValue.string)).serialized(), activity.webpageURL, webpageKey,
            activity.persistentIdentifier, activity.isEligibleForSearch, activity.isEligibleForPublicIndexing,
            activity.isEligibleForHandoff, activity.isEligibleForPrediction,
            activity.requiredUserInfoKeys.map { JSONValue.array($0.map(JSONValue.string)).serialized() },
            record.userInfo.map { JSONValue.object($0).serialized() }, attributes.map { $0.json.serialized() },
            related, attributes?.domainIdentifier, activity.expirationDate?.text,
            activity.expirationDate?.secondsSince1970 ?? defaultExpiry, now, activity.title ?? attributes?.title,
            attributes?.displayName, attributes?.contentDescription, Self.keywordsText(keywords),
            attributes?.contentType, attributes?.rankingHint,
        ])
        report.activitiesIndexed += 1
        return nil
    }

    // MARK: - Deletes

    /// Deletes the items with these identifiers and the activities related to them.
    public mutating func deleteItems(identifiers: some Sequence<String>) throws {
        let countActivities = try db.cachedStatement(
            sql: "SELECT count(*) FROM activity WHERE related_unique_identifier = ?")
        let delete = try db.cachedStatement(sql: "DELETE FROM item WHERE unique_identifier = ?")
        for identifier in identifiers {
            let activities = try Int.fetchOne(countActivities, arguments: [identifier]) ?? 0
            try delete.execute(arguments: [identifier])
            if db.changesCount > 0 {
                report.itemsDeleted += db.changesCount
                report.activitiesDeleted += activities
            }
        }
    }

    /// Deletes the items and activities of these domains and of their sub-domains: `a` deletes
    /// `a`, `a.b` and `a.b.c`, not `ab` (§5.2). Activities related to a deleted item go too.
    public mutating func deleteItems(domainIdentifiers: some Sequence<String>) throws {
        for domain in domainIdentifiers where !domain.isEmpty {
            let arguments: StatementArguments = [domain, domain + ".", domain + "/"]
            let condition = "(domain_identifier = ? OR (domain_identifier >= ? AND domain_identifier < ?))"
            let before = try Int.fetchOne(db, sql: "SELECT count(*) FROM activity") ?? 0
            try db.execute(sql: "DELETE FROM item WHERE \(condition)", arguments: arguments)
            report.itemsDeleted += db.changesCount
            try db.execute(sql: "DELETE FROM activity WHERE \(condition)", arguments: arguments)
            let after = try Int.fetchOne(db, sql: "SELECT count(*) FROM activity") ?? 0
            report.activitiesDeleted += before - after
        }
    }

    /// Deletes every item and activity, and every named index's client state
    /// (`deleteAllSearchableItems`).
    public mutating func deleteAll() throws {
        report.activitiesDeleted += try Int.fetchOne(db, sql: "SELECT count(*) FROM activity") ?? 0
        try db.execute(sql: "DELETE FROM activity")
        try db.execute(sql: "DELETE FROM item")
        report.itemsDeleted += db.changesCount
        try db.execute(sql: "DELETE FROM client_state")
    }

    /// Deletes the items and activities whose expiration date has passed.
    public mutating func purgeExpired() throws {
        let before = try Int.fetchOne(db, sql: "SELECT count(*) FROM activity") ?? 0
        try db.execute(sql: "DELETE FROM item WHERE expires_at <= ?", arguments: [now])
        report.itemsDeleted += db.changesCount
        try db.execute(sql: "DELETE FROM activity WHERE expires_at <= ?", arguments: [now])
        let after = try Int.fetchOne(db, sql: "SELECT count(*) FROM activity") ?? 0
        report.activitiesDeleted += before - after
    }

    // MARK: - Client state

    /// Records a named index's client state in this transaction. Throws `.invalidClientState` for
    /// 250 bytes or more and `.batchingUnsupported` for an empty name.
    public mutating func setClientState(_ state: [UInt8], index name: String) throws {
        guard !name.isEmpty else { throw IndexFailure(.batchingUnsupported, "an index name must not be empty") }
        guard state.count <= maximumClientStateBytes else {
            throw IndexFailure(
                .invalidClientState,
                "a client state of \(state.count) bytes; Core Spotlight takes less than 250 (AS016)")
        }
        try db.execute(
            sql: "INSERT OR REPLACE INTO client_state (index_name, state, updated_at) VALUES (?, ?, ?)",
            arguments: [name, Data(state), now])
    }

    /// Keywords as one text for the search table, one per line.
    static func keywordsText(_ keywords: [String]) -> String {
        keywords.joined(separator: "\n")
    }
}

/// Reading `item` rows.
enum ItemRow {
    static let columns =
        "unique_identifier, domain_identifier, attribute_set_json, expiration_text, expires_at, indexed_at"

    static func decode(_ row: Row) throws -> IndexedItem {
        let attributes =
            try JSONObject.stored(row.decode(atIndex: 2)).flatMap { try? AttributeSet(json: $0) } ?? AttributeSet()
        let expirationText: String? = try row.decode(atIndex: 3)
        let item = try SearchableItem(
            uniqueIdentifier: row.decode(atIndex: 0), domainIdentifier: row.decode(atIndex: 1),
            attributeSet: attributes,
            expirationDate: expirationText.flatMap(ISO8601.date))
        return try IndexedItem(item: item, indexedAt: row.decode(atIndex: 5), expiresAt: row.decode(atIndex: 4))
    }
}

/// Reading `activity` rows.
enum ActivityRow {
    static let columns = """
        id, activity_type, title, keywords_json, webpage_url, persistent_identifier, is_eligible_for_search,
        is_eligible_for_public_indexing, is_eligible_for_handoff, is_eligible_for_prediction,
        required_user_info_keys_json, user_info_json, content_attribute_set_json, expiration_text, expires_at,
        indexed_at
        """

    static func decode(_ row: Row) throws -> IndexedActivity {
        func strings(_ text: String?) -> [String]? {
            guard let text else { return nil }
            return JSONParser.parse(text, lenient: false).value?.arrayValue?.compactMap(\.stringValue)
        }
        let attributesText: String? = try row.decode(atIndex: 12)
        let userInfoText: String? = try row.decode(atIndex: 11)
        let expirationText: String? = try row.decode(atIndex: 13)
        let activity = try UserActivity(
            activityType: row.decode(atIndex: 1), title: row.decode(atIndex: 2),
            keywords: strings(row.decode(atIndex: 3)) ?? [], webpageURL: row.decode(atIndex: 4),
            persistentIdentifier: row.decode(atIndex: 5), isEligibleForSearch: row.decode(atIndex: 6),
            isEligibleForPublicIndexing: row.decode(atIndex: 7),
            isEligibleForHandoff: row.decode(atIndex: 8), isEligibleForPrediction: row.decode(atIndex: 9),
            expirationDate: expirationText.flatMap(ISO8601.date),
            requiredUserInfoKeys: strings(row.decode(atIndex: 10)),
            contentAttributeSet: attributesText.flatMap(JSONObject.stored).flatMap { try? AttributeSet(json: $0) })
        return try IndexedActivity(
            id: row.decode(atIndex: 0),
            record: ActivityRecord(activity: activity, userInfo: userInfoText.flatMap(JSONObject.stored)),
            indexedAt: row.decode(atIndex: 15), expiresAt: row.decode(atIndex: 14))
    }
}
