import LenientJSON
import NumericClamping
public import SpotlightModel

/// A searchable item as the index holds it.
public struct IndexedItem: Sendable, Hashable {
    /// The item as indexed (merged, for `isUpdate`); `expirationDate` as given, nil when defaulted.
    public var item: SearchableItem
    /// Seconds since 1970 when the item was last indexed.
    public var indexedAt: Double
    /// Seconds since 1970 when the item expires (its `expirationDate`, or the default time to live
    /// after `indexedAt`).
    public var expiresAt: Double

    public init(item: SearchableItem, indexedAt: Double, expiresAt: Double) {
        self.item = item
        self.indexedAt = indexedAt
        self.expiresAt = expiresAt
    }

    /// The item with the expiration it has in the index (a defaulted one written out), as an
    /// export writes it: importing it again gives the same item, expiring at the same time.
    public var exportedItem: SearchableItem {
        var item = item
        item.isUpdate = false
        if item.expirationDate == nil { item.expirationDate = SpotlightDate(utcSeconds: expiresAt) }
        return item
    }
}

/// A user activity as the index holds it.
public struct IndexedActivity: Sendable, Hashable {
    /// The row id (stable while the activity stays indexed).
    public var id: Int64
    public var record: ActivityRecord
    public var indexedAt: Double
    public var expiresAt: Double

    public init(id: Int64, record: ActivityRecord, indexedAt: Double, expiresAt: Double) {
        self.id = id
        self.record = record
        self.indexedAt = indexedAt
        self.expiresAt = expiresAt
    }

    /// The activity with its expiration written out (see `IndexedItem.exportedItem`).
    public var exportedRecord: ActivityRecord {
        var record = record
        if record.activity.expirationDate == nil {
            record.activity.expirationDate = SpotlightDate(utcSeconds: expiresAt)
        }
        return record
    }
}

/// What an indexing call did with each value it was given.
public struct IndexingReport: Sendable, Hashable {
    /// Items inserted or replaced (`isUpdate` false).
    public var itemsIndexed = 0
    /// Items merged into an existing one (`isUpdate` true).
    public var itemsUpdated = 0
    /// `isUpdate` items whose identifier is not in the index: ignored, as Core Spotlight ignores
    /// them (AS014).
    public var updatesIgnored: [String] = []
    public var activitiesIndexed = 0
    /// Activities not stored, with the reason (a `relatedUniqueIdentifier` naming no indexed item).
    public var activitiesRefused: [RefusedActivity] = []
    public var itemsDeleted = 0
    public var activitiesDeleted = 0

    public init() {}

    mutating func add(_ other: IndexingReport) {
        itemsIndexed += other.itemsIndexed
        itemsUpdated += other.itemsUpdated
        updatesIgnored += other.updatesIgnored
        activitiesIndexed += other.activitiesIndexed
        activitiesRefused += other.activitiesRefused
        itemsDeleted += other.itemsDeleted
        activitiesDeleted += other.activitiesDeleted
    }
}

/// An activity the index did not store, and why.
public struct RefusedActivity: Sendable, Hashable, CustomStringConvertible {
    public var activityType: String
    public var title: String?
    public var reason: String

    public var description: String {
        "activity \(activityType)\(title.map { " \"\($0)\"" } ?? ""): \(reason)"
    }
}

/// Counts for `spotcheck index stats`.
public struct IndexStatistics: Sendable, Hashable {
    /// Items not expired.
    public var items = 0
    /// Items past their expiration date, kept in the file until purged but never returned.
    public var expiredItems = 0
    public var activities = 0
    public var expiredActivities = 0
    /// Live items per domain identifier (items without one under `""`).
    public var itemsByDomain: [String: Int] = [:]
    /// Live items per content type (items without one under `""`).
    public var itemsByContentType: [String: Int] = [:]
    /// The named indexes with a client state.
    public var clientStates: [String: [UInt8]] = [:]
    /// The bytes the index takes: an SQLite file with its WAL and shared-memory files; a PostgreSQL
    /// index's tables with their indexes.
    public var fileBytes: Int64 = 0

    public init() {}
}

extension SpotlightDate {
    /// The UTC instant written as `YYYY-MM-DDThh:mm:ssZ` (seconds truncated).
    public init(utcSeconds: Double) {
        // Years 1 to 9999 (a tampered `expires_at` of 1e300 or NaN must not trap, issue 35);
        // nothing stored by SpotCheck lies outside.
        let whole = clampedInt(min(max(utcSeconds, -62_135_596_800), 253_402_300_799).rounded(.down))
        var days = whole / 86_400
        var seconds = whole % 86_400
        if seconds < 0 {
            seconds += 86_400
            days -= 1
        }
        let (year, month, day) = Self.civil(fromDays: days)
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let text =
            "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(seconds / 3600, 2)):\(pad(seconds / 60 % 60, 2)):\(pad(seconds % 60, 2))Z"
        self.init(text: text, secondsSince1970: Double(whole), timeZoneOffset: 0, hasTime: true)
    }

    /// Year, month, day of a day count since 1970-01-01 (Howard Hinnant's `civil_from_days`).
    static func civil(fromDays days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

extension JSONObject {
    /// Parses a JSON object stored by the index (always written by it, so always valid).
    static func stored(_ text: String) -> JSONObject? {
        JSONParser.parse(text, lenient: false).value?.objectValue
    }
}
