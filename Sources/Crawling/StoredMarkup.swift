package import LenientJSON

/// How a page's analysis is split for the store (payload version 3): the analysis report.json
/// shows, and the raw markup dump it shows only with `--include-markup`.
package enum StoredMarkup {
    /// The members of a page's analysis that are the raw markup dump. `summary` was the payload-1
    /// copy of what are now typed columns: stored by old versions, never shown.
    package static let dumpKeys: Set<String> = [
        "jsonLD", "jsonLDScripts", "microdata", "rdfa", "openGraph", "twitter", "appLinks", "smartAppBanners",
        "links", "linksNotStored", "sources", "summary",
    ]

    /// The analysis member stored in a column of its own (payload version 4): the attribute set,
    /// which the index feed and the candidates read without the rest of the analysis.
    static let attributeSetKey = "attributeSet"

    /// `page` split into the analysis (its other members, in order, without the attribute set) and
    /// the dump (in order).
    static func split(_ page: JSONObject) -> (analysis: JSONObject, dump: JSONObject) {
        var analysis = JSONObject()
        var dump = JSONObject()
        for member in page.members where member.key != attributeSetKey {
            if dumpKeys.contains(member.key) {
                dump.append(member.key, member.value)
            } else {
                analysis.append(member.key, member.value)
            }
        }
        return (analysis, dump)
    }
}

extension StoredMarkup {
    /// The analysis report.json shows, as compact JSON text: from payload version 4 the stored
    /// analysis with the attribute set spliced back in as its first member (the store keeps one
    /// copy of it, issue 17 §2.10); earlier payloads stored it inside the analysis.
    package static func shownAnalysisText(_ analysis: String, attributeSet: String?, payloadVersion: Int) -> String {
        guard payloadVersion >= 4, let attributeSet else { return analysis }
        var text = "{\"\(attributeSetKey)\":" + attributeSet
        let rest = analysis.utf8.dropFirst()
        if rest.first != UInt8(ascii: "}") { text += "," }
        return text + String(Substring(rest))
    }
}

/// A JSON object written member by member as compact text, the way `JSONValue.serialized()`
/// writes it, where some members are JSON text already serialized by it (stored in the crawl
/// store) and copied as they are.
package struct CompactObjectText {
    private var bytes: [UInt8] = [UInt8(ascii: "{")]

    package init() {}

    package mutating func append(_ key: String, _ value: JSONValue) {
        appendKey(key)
        value.write(into: &bytes)
    }

    /// A member whose value is JSON text as `JSONValue.serialized()` wrote it.
    package mutating func append(_ key: String, verbatim json: String) {
        appendKey(key)
        bytes.append(contentsOf: json.utf8)
    }

    private mutating func appendKey(_ key: String) {
        if bytes.count > 1 { bytes.append(UInt8(ascii: ",")) }
        JSONValue.string(key).write(into: &bytes)
        bytes.append(UInt8(ascii: ":"))
    }

    /// The object's text.
    package func closed() -> String {
        String(decoding: bytes + [UInt8(ascii: "}")], as: UTF8.self)
    }
}
