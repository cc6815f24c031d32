import Foundation
import LenientJSON
public import SpotlightModel

/// The changes of one write transaction (`LocalIndex.write`): nothing is visible to readers, or
/// left in the file after a crash, until the transaction commits. Only usable inside the closure
/// it is passed to.
public struct IndexWriter: ~Copyable {
    let storage: any IndexStorageWriter
    /// The transaction's clock reading: every row it writes has this `indexed_at`.
    public let now: Double
    let timeToLive: Double
    /// What the transaction did so far.
    public private(set) var report = IndexingReport()

    init(storage: any IndexStorageWriter, now: Double, timeToLive: Double) {
        self.storage = storage
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
        try indexItem(item, stored: nil)
    }

    /// `indexItem`, with what the index stores of the item's attribute set made beforehand
    /// (`StoredAttributes(item.attributeSet)`, on the import's reading thread). An `isUpdate` item
    /// merges into the indexed one, so its own is not used.
    mutating func indexItem(_ item: SearchableItem, stored prepared: StoredAttributes?) throws -> ItemOutcome {
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
        assert(prepared == nil || prepared == StoredAttributes(item.attributeSet), "prepared for another item")
        let derived = item.isUpdate ? StoredAttributes(attributes) : prepared ?? StoredAttributes(attributes)
        try storage.upsertItem(
            ItemColumns(
                uniqueIdentifier: stored.uniqueIdentifier,
                domainIdentifier: stored.domainIdentifier ?? attributes.domainIdentifier,
                attributeSetJSON: derived.json, expirationText: expirationText, expiresAt: expiresAt,
                indexedAt: now,
                searchText: SearchableText(
                    title: attributes.title ?? "", displayName: attributes.displayName ?? "",
                    contentDescription: attributes.contentDescription ?? "", keywords: derived.keywordsText),
                contentType: attributes.contentType, rankingHint: attributes.rankingHint,
                urlKey: derived.urlKey, contentURLKey: derived.contentURLKey))
        return item.isUpdate ? .updated : .indexed
    }

    /// The item if it is indexed and not expired.
    func liveItem(_ identifier: String) throws -> IndexedItem? {
        try storage.liveItem(identifier: identifier, now: now)
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
        try storage.upsertActivity(
            ActivityColumns(
                key: key, activityType: activity.activityType, title: activity.title,
                keywordsJSON: JSONValue.array(activity.keywords.map(JSONValue.string)).serialized(),
                webpageURL: activity.webpageURL, webpageURLKey: webpageKey,
                persistentIdentifier: activity.persistentIdentifier, isEligibleForSearch: activity.isEligibleForSearch,
                isEligibleForPublicIndexing: activity.isEligibleForPublicIndexing,
                isEligibleForHandoff: activity.isEligibleForHandoff,
                isEligibleForPrediction: activity.isEligibleForPrediction,
                requiredUserInfoKeysJSON: activity.requiredUserInfoKeys.map {
                    JSONValue.array($0.map(JSONValue.string)).serialized()
                },
                userInfoJSON: record.userInfo.map { JSONValue.object($0).serialized() },
                contentAttributeSetJSON: attributes.map { $0.json.serialized() }, relatedUniqueIdentifier: related,
                domainIdentifier: attributes?.domainIdentifier, expirationText: activity.expirationDate?.text,
                expiresAt: activity.expirationDate?.secondsSince1970 ?? defaultExpiry, indexedAt: now,
                searchText: SearchableText(
                    title: activity.title ?? attributes?.title ?? "", displayName: attributes?.displayName ?? "",
                    contentDescription: attributes?.contentDescription ?? "", keywords: Self.keywordsText(keywords)),
                contentType: attributes?.contentType, rankingHint: attributes?.rankingHint))
        report.activitiesIndexed += 1
        return nil
    }

    // MARK: - Deletes

    /// Deletes the items with these identifiers and the activities related to them.
    public mutating func deleteItems(identifiers: some Sequence<String>) throws {
        add(try storage.deleteItems(identifiers: Array(identifiers)))
    }

    /// Deletes the items and activities of these domains and of their sub-domains: `a` deletes
    /// `a`, `a.b` and `a.b.c`, not `ab` (§5.2). Activities related to a deleted item go too.
    public mutating func deleteItems(domainIdentifiers: some Sequence<String>) throws {
        for domain in domainIdentifiers where !domain.isEmpty {
            add(try storage.deleteItems(domain: domain))
        }
    }

    /// Deletes every item and activity, and every named index's client state
    /// (`deleteAllSearchableItems`).
    public mutating func deleteAll() throws {
        add(try storage.deleteAll())
    }

    /// Deletes the items and activities whose expiration date has passed.
    public mutating func purgeExpired() throws {
        add(try storage.deleteExpired(now: now))
    }

    private mutating func add(_ removal: Removal) {
        report.itemsDeleted += removal.items
        report.activitiesDeleted += removal.activities
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
        try storage.setClientState(state, index: name, now: now)
    }

    /// Keywords as one text for the search table, one per line.
    static func keywordsText(_ keywords: [String]) -> String {
        keywords.joined(separator: "\n")
    }
}

/// What the index stores of an attribute set beside its own values: its JSON, its keywords as one
/// text, its URLs normalised. A function of the attribute set alone, so an import makes it on the
/// thread that decodes the file (`ReadAheadRecords`): serialising and normalising took a tenth of
/// the importing thread's time.
struct StoredAttributes: Sendable, Hashable {
    /// `AttributeSet.json`, serialised.
    let json: String
    /// The keywords, one per line (`IndexWriter.keywordsText`).
    let keywordsText: String
    /// The `url` and `contentURL`, normalised (`ItemColumns.urlKey`, `contentURLKey`).
    let urlKey: String?
    let contentURLKey: String?

    init(_ attributes: AttributeSet) {
        json = attributes.json.serialized()
        keywordsText = IndexWriter.keywordsText(attributes.keywords)
        urlKey = attributes.url.map(URLNormalizer.normalize)
        contentURLKey = attributes.contentURL.map(URLNormalizer.normalize)
    }
}
