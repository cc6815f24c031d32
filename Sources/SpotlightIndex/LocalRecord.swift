public import LenientJSON
public import SpotlightModel
import URLNormalization

/// An `NSUserActivity` as an app indexes it: the search fields, plus its `userInfo` (kept as
/// JSON; `UserActivity` has no plist type to hold it).
public struct ActivityRecord: Sendable, Hashable {
    public var activity: UserActivity
    public var userInfo: JSONObject?

    public init(activity: UserActivity, userInfo: JSONObject? = nil) {
        self.activity = activity
        self.userInfo = userInfo
    }
}

/// One record of a local-items file (DESIGN.md, "Local items"): a searchable item, a user
/// activity (`{"activity": {…}}`), or a named index's client state
/// (`{"clientState": "…", "indexName": "…"}`, an addition of SpotCheck's so that an export keeps
/// the client states).
public enum LocalRecord: Sendable, Hashable {
    case item(SearchableItem)
    case activity(ActivityRecord)
    /// `indexName` nil: the index the import writes to (`--name`).
    case clientState(indexName: String?, state: [UInt8])
}

/// Where a record sits in its file: an element of a JSON array (0-based, as `jq` counts) or a
/// line of a JSON Lines file (1-based).
public enum RecordPosition: Sendable, Hashable, CustomStringConvertible {
    case arrayIndex(Int)
    case line(Int)

    public var description: String {
        switch self {
        case .arrayIndex(let index): "record [\(index)]"
        case .line(let line): "line \(line)"
        }
    }
}

/// Where a record starts in its file: the line and column (1-based) of its first character.
public struct RecordPlace: Sendable, Hashable {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
}

/// Why a record was refused: the field at fault and what is wrong with it.
public struct RecordProblem: Error, Sendable, Hashable, CustomStringConvertible {
    public var position: RecordPosition?
    public var message: String

    public init(position: RecordPosition? = nil, _ message: String) {
        self.position = position
        self.message = message
    }

    public var description: String { position.map { "\($0): \(message)" } ?? message }
}

/// The largest client state Core Spotlight accepts is 249 bytes ("< 250 bytes", §5.3).
public let maximumClientStateBytes = SearchableItem.maximumClientStateBytes

extension LocalRecord {
    /// Decodes one record. Types are checked strictly (a number where a string belongs is refused),
    /// except that Core Spotlight's `NSNumber` booleans may be written `0`/`1`; `null` counts as
    /// absent; unknown keys are ignored. URLs must parse (WHATWG), and `webpageURL` must be http(s).
    public init(json value: JSONValue) throws(RecordProblem) {
        guard let object = value.objectValue else {
            throw RecordProblem("a record must be a JSON object, not \(value.kindName)")
        }
        if let activity = object["activity"], !activity.isNull {
            guard let activityObject = activity.objectValue else {
                throw RecordProblem("activity: expected an object, found \(activity.kindName)")
            }
            self = .activity(try ActivityRecord(json: activityObject))
        } else if let state = object["clientState"], !state.isNull {
            let fields = Fields(object, path: "")
            guard let text = state.stringValue else {
                throw RecordProblem("clientState: expected a string, found \(state.kindName)")
            }
            // The size is judged where it matters: `index import` refuses 250 bytes or more, and a
            // crawl's `--items` reports it as AS016 beside the app's other entries.
            let bytes = Array(text.utf8)
            let name = try fields.string("indexName")
            if let name, name.isEmpty { throw RecordProblem("indexName: must not be empty") }
            self = .clientState(indexName: name, state: bytes)
        } else {
            self = .item(try SearchableItem(json: object))
        }
    }

    /// The record in the format `init(json:)` reads (an export line).
    public var json: JSONObject {
        switch self {
        case .item(let item): item.json
        case .activity(let record): ["activity": .object(record.json)]
        case .clientState(let name, let state):
            if let name {
                ["clientState": .string(String(decoding: state, as: UTF8.self)), "indexName": .string(name)]
            } else {
                ["clientState": .string(String(decoding: state, as: UTF8.self))]
            }
        }
    }
}

extension SearchableItem {
    /// Decodes an item record: `uniqueIdentifier` (required, non-empty), `domainIdentifier`,
    /// `expirationDate` (ISO 8601), `isUpdate`, `attributeSet`.
    public init(json object: JSONObject) throws(RecordProblem) {
        let fields = Fields(object, path: "")
        guard let identifier = try fields.string("uniqueIdentifier") else {
            throw RecordProblem("uniqueIdentifier: missing (every searchable item needs one)")
        }
        guard !identifier.isEmpty else { throw RecordProblem("uniqueIdentifier: must not be empty") }
        let attributes = try fields.object("attributeSet").map { object throws(RecordProblem) in
            try AttributeSet(json: object, path: "attributeSet.")
        }
        self.init(
            uniqueIdentifier: identifier, domainIdentifier: try fields.string("domainIdentifier"),
            attributeSet: attributes ?? AttributeSet(), expirationDate: try fields.date("expirationDate"),
            isUpdate: try fields.bool("isUpdate") ?? false)
    }

    /// The record as `init(json:)` reads it; `isUpdate` only when true.
    public var json: JSONObject {
        var object = JSONObject()
        object.append("uniqueIdentifier", .string(uniqueIdentifier))
        if let domainIdentifier { object.append("domainIdentifier", .string(domainIdentifier)) }
        if let expirationDate { object.append("expirationDate", .string(expirationDate.text)) }
        if isUpdate { object.append("isUpdate", true) }
        object.append("attributeSet", .object(attributeSet.json))
        return object
    }
}

extension ActivityRecord {
    /// Decodes the object under `"activity"`: `activityType` (required), `title`, `keywords`,
    /// `webpageURL` (http or https), `persistentIdentifier`, the four `isEligibleFor…` flags,
    /// `expirationDate`, `requiredUserInfoKeys`, `userInfo` (an object), `contentAttributeSet`.
    public init(json object: JSONObject) throws(RecordProblem) {
        let fields = Fields(object, path: "activity.")
        guard let type = try fields.string("activityType") else {
            throw RecordProblem("activity.activityType: missing (every activity needs one)")
        }
        guard !type.isEmpty else { throw RecordProblem("activity.activityType: must not be empty") }
        let webpageURL = try fields.url("webpageURL")
        if let webpageURL, let parsed = URLParser.parse(webpageURL), !parsed.isCrawlable {
            throw RecordProblem(
                "activity.webpageURL: \"\(webpageURL)\" is not http or https (NSUserActivity raises an exception)")
        }
        let attributes = try fields.object("contentAttributeSet").map { object throws(RecordProblem) in
            try AttributeSet(json: object, path: "activity.contentAttributeSet.")
        }
        let activity = UserActivity(
            activityType: type, title: try fields.string("title"), keywords: try fields.strings("keywords") ?? [],
            webpageURL: webpageURL, persistentIdentifier: try fields.string("persistentIdentifier"),
            isEligibleForSearch: try fields.bool("isEligibleForSearch") ?? false,
            isEligibleForPublicIndexing: try fields.bool("isEligibleForPublicIndexing") ?? false,
            isEligibleForHandoff: try fields.bool("isEligibleForHandoff") ?? true,
            isEligibleForPrediction: try fields.bool("isEligibleForPrediction") ?? false,
            expirationDate: try fields.date("expirationDate"),
            requiredUserInfoKeys: try fields.strings("requiredUserInfoKeys"), contentAttributeSet: attributes)
        self.init(activity: activity, userInfo: try fields.object("userInfo"))
    }

    /// The object `init(json:)` reads; defaults are written too, so a reader need not know them.
    public var json: JSONObject {
        var object = JSONObject()
        object.append("activityType", .string(activity.activityType))
        if let title = activity.title { object.append("title", .string(title)) }
        if !activity.keywords.isEmpty { object.append("keywords", .array(activity.keywords.map(JSONValue.string))) }
        if let url = activity.webpageURL { object.append("webpageURL", .string(url)) }
        if let userInfo { object.append("userInfo", .object(userInfo)) }
        if let keys = activity.requiredUserInfoKeys {
            object.append("requiredUserInfoKeys", .array(keys.map(JSONValue.string)))
        }
        object.append("isEligibleForSearch", .bool(activity.isEligibleForSearch))
        object.append("isEligibleForPublicIndexing", .bool(activity.isEligibleForPublicIndexing))
        object.append("isEligibleForHandoff", .bool(activity.isEligibleForHandoff))
        object.append("isEligibleForPrediction", .bool(activity.isEligibleForPrediction))
        if let identifier = activity.persistentIdentifier {
            object.append("persistentIdentifier", .string(identifier))
        }
        if let date = activity.expirationDate { object.append("expirationDate", .string(date.text)) }
        if let attributes = activity.contentAttributeSet {
            object.append("contentAttributeSet", .object(attributes.json))
        }
        return object
    }
}

extension AttributeSet {
    /// Decodes an attribute set written with Core Spotlight's property names (the format of
    /// `AttributeSet.json`). `path` prefixes field names in problems (`"attributeSet."`).
    public init(json object: JSONObject, path: String = "") throws(RecordProblem) {
        self.init()
        let fields = Fields(object, path: path)
        title = try fields.string("title")
        displayName = try fields.string("displayName")
        alternateNames = try fields.strings("alternateNames") ?? []
        contentDescription = try fields.string("contentDescription")
        thumbnailURL = try fields.url("thumbnailURL")
        contentURL = try fields.url("contentURL")
        url = try fields.url("url")
        relatedUniqueIdentifier = try fields.string("relatedUniqueIdentifier")
        weakRelatedUniqueIdentifier = try fields.string("weakRelatedUniqueIdentifier")
        domainIdentifier = try fields.string("domainIdentifier")
        contentType = try fields.string("contentType")
        keywords = try fields.strings("keywords") ?? []
        rankingHint = try fields.number("rankingHint")
        if let rankingHint, !(0...100).contains(rankingHint) {
            throw RecordProblem("\(path)rankingHint: \(rankingHint) is outside 0–100")
        }
        identifier = try fields.string("identifier")
        rating = try fields.number("rating")
        ratingDescription = try fields.string("ratingDescription")
        phoneNumbers = try fields.strings("phoneNumbers") ?? []
        emailAddresses = try fields.strings("emailAddresses") ?? []
        supportsPhoneCall = try fields.bool("supportsPhoneCall")
        supportsNavigation = try fields.bool("supportsNavigation")
        latitude = try fields.number("latitude")
        longitude = try fields.number("longitude")
        altitude = try fields.number("altitude")
        namedLocation = try fields.string("namedLocation")
        thoroughfare = try fields.string("thoroughfare")
        subThoroughfare = try fields.string("subThoroughfare")
        city = try fields.string("city")
        stateOrProvince = try fields.string("stateOrProvince")
        postalCode = try fields.string("postalCode")
        country = try fields.string("country")
        fullyFormattedAddress = try fields.string("fullyFormattedAddress")
        startDate = try fields.date("startDate")
        endDate = try fields.date("endDate")
        contentCreationDate = try fields.date("contentCreationDate")
        contentModificationDate = try fields.date("contentModificationDate")
        authorNames = try fields.strings("authorNames") ?? []
        publishers = try fields.strings("publishers") ?? []
        contributors = try fields.strings("contributors") ?? []
        organizations = try fields.strings("organizations") ?? []
        languages = try fields.strings("languages") ?? []
        genre = try fields.string("genre")
        director = try fields.string("director")
        performers = try fields.strings("performers") ?? []
        duration = try fields.number("duration")
        headline = try fields.string("headline")
        pixelWidth = try fields.integer("pixelWidth")
        pixelHeight = try fields.integer("pixelHeight")
        if let custom = try fields.object("customAttributes") {
            for (key, value) in custom {
                switch value {
                case .string(let text): customAttributes[key] = text
                case .number(let literal): customAttributes[key] = literal
                case .bool(let flag): customAttributes[key] = flag ? "1" : "0"
                case .null: continue
                default:
                    throw RecordProblem(
                        "\(path)customAttributes.\(key): expected a string or number, found \(value.kindName)")
                }
            }
        }
    }

    /// The attribute set with every field `update` sets replacing this one's: `isUpdate`'s merge.
    /// A field counts as set when it is non-nil (arrays: non-empty); custom attributes merge key by key.
    public func merging(_ update: AttributeSet) -> AttributeSet {
        var merged = json
        for (key, value) in update.json where key != "customAttributes" {
            merged.set(key, value)
        }
        var result = (try? AttributeSet(json: merged)) ?? update
        result.customAttributes.merge(update.customAttributes) { _, new in new }
        return result
    }
}

/// Typed reads of an object's members; every failure names the field.
struct Fields {
    var object: JSONObject
    var path: String

    init(_ object: JSONObject, path: String) {
        self.object = object
        self.path = path
    }

    /// The member's value; nil when absent or `null`.
    private func value(_ key: String) -> JSONValue? {
        guard let value = object[key], !value.isNull else { return nil }
        return value
    }

    private func mismatch(_ key: String, _ expected: String, _ value: JSONValue) -> RecordProblem {
        RecordProblem("\(path)\(key): expected \(expected), found \(value.kindName)")
    }

    func string(_ key: String) throws(RecordProblem) -> String? {
        guard let value = value(key) else { return nil }
        guard let text = value.stringValue else { throw mismatch(key, "a string", value) }
        return text
    }

    func strings(_ key: String) throws(RecordProblem) -> [String]? {
        guard let value = value(key) else { return nil }
        guard let array = value.arrayValue else { throw mismatch(key, "an array of strings", value) }
        var strings: [String] = []
        for element in array {
            guard let text = element.stringValue else { throw mismatch(key, "an array of strings", element) }
            strings.append(text)
        }
        return strings
    }

    func number(_ key: String) throws(RecordProblem) -> Double? {
        guard let value = value(key) else { return nil }
        guard let number = value.numberValue, number.isFinite else { throw mismatch(key, "a number", value) }
        return number
    }

    func integer(_ key: String) throws(RecordProblem) -> Int? {
        guard let value = value(key) else { return nil }
        guard let number = value.intValue else { throw mismatch(key, "an integer", value) }
        return number
    }

    /// `true`/`false`, or Core Spotlight's `NSNumber` flags `0`/`1`.
    func bool(_ key: String) throws(RecordProblem) -> Bool? {
        guard let value = value(key) else { return nil }
        if let flag = value.boolValue { return flag }
        if let number = value.intValue, number == 0 || number == 1 { return number == 1 }
        throw mismatch(key, "true, false, 0 or 1", value)
    }

    func object(_ key: String) throws(RecordProblem) -> JSONObject? {
        guard let value = value(key) else { return nil }
        guard let object = value.objectValue else { throw mismatch(key, "an object", value) }
        return object
    }

    /// An ISO 8601 date (`2027-01-01T00:00:00Z`, `2027-01-01`).
    func date(_ key: String) throws(RecordProblem) -> SpotlightDate? {
        guard let text = try string(key) else { return nil }
        guard let date = ISO8601.date(text) else {
            throw RecordProblem("\(path)\(key): \"\(text)\" is not an ISO 8601 date")
        }
        return date
    }

    /// An absolute URL of any scheme (`file:` thumbnails included) that the WHATWG parser accepts.
    func url(_ key: String) throws(RecordProblem) -> String? {
        guard let text = try string(key) else { return nil }
        guard URLParser.parse(text) != nil else {
            throw RecordProblem("\(path)\(key): \"\(text)\" is not an absolute URL")
        }
        return text
    }
}

extension JSONValue {
    /// "a string", "a number" … for problems.
    var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
