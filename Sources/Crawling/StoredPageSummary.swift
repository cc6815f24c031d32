import LenientJSON

/// The few values the reports compare across pages (canonical URL, app-argument, title,
/// description, thumbnail, candidacy), stored as the first member of each page's markup JSON so
/// that a report over 20,000 pages reads them without parsing every page's whole markup.
struct StoredPageSummary: Sendable {
    static let key = "summary"

    var uniqueIdentifier: String?
    var canonical: String?
    var appArgument: String?
    var title: String?
    var contentDescription: String?
    var thumbnailURL: String?
    var isCandidate: Bool?
    var failing: [String]

    /// Reads the summary at the start of a stored markup JSON (`{"summary":{…},…`); nil when the
    /// markup has none (an older store, or no markup).
    init?(markup: String) {
        let prefix = "{\"\(Self.key)\":"
        guard markup.hasPrefix(prefix), let object = Self.leadingObject(markup.utf8.dropFirst(prefix.utf8.count)),
            let value = JSONParser.parse(String(decoding: object, as: UTF8.self), lenient: false).value
        else { return nil }
        uniqueIdentifier = value["uniqueIdentifier"]?.stringValue
        canonical = value["canonical"]?.stringValue
        appArgument = value["appArgument"]?.stringValue
        title = value["title"]?.stringValue
        contentDescription = value["description"]?.stringValue
        thumbnailURL = value["thumbnailURL"]?.stringValue
        isCandidate = value["candidate"]?["isCandidate"]?.boolValue
        failing = value["candidate"]?["failing"]?.arrayValue?.compactMap(\.stringValue) ?? []
    }

    /// The bytes of the JSON object `bytes` starts with, through its matching `}` (strings and
    /// their escapes are skipped, so braces inside them do not count).
    static func leadingObject(_ bytes: Substring.UTF8View.SubSequence) -> Substring.UTF8View.SubSequence? {
        guard bytes.first == UInt8(ascii: "{") else { return nil }
        var depth = 0
        var inString = false
        var escaped = false
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == UInt8(ascii: "{") {
                depth += 1
            } else if byte == UInt8(ascii: "}") {
                depth -= 1
                if depth == 0 { return bytes[bytes.startIndex...index] }
            }
            index = bytes.index(after: index)
        }
        return nil
    }
}
