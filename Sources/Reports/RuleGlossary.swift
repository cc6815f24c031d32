import LenientJSON

/// The rules a report's findings name, each with its fix and source once: a finding links to its
/// rule's entry and repeats the fix only when its own differs (a 5,000-page report would
/// otherwise carry the same fix and citation thousands of times).
struct RuleGlossary: Sendable {
    struct Entry: Sendable {
        let rule: String
        var severity: String
        var fix: String
        var source: String
        var authority: String
        var count: Int
    }

    private(set) var entries: [String: Entry] = [:]

    init(_ findings: some Sequence<JSONValue>) {
        for finding in findings { add(finding) }
    }

    mutating func add(_ finding: JSONValue) {
        guard let rule = finding["rule"]?.stringValue else { return }
        if entries[rule] != nil {
            entries[rule]?.count += 1
            return
        }
        entries[rule] = Entry(
            rule: rule, severity: finding["severity"]?.stringValue ?? "info", fix: finding["fix"]?.stringValue ?? "",
            source: finding["source"]?.stringValue ?? "", authority: finding["authority"]?.stringValue ?? "", count: 1)
    }

    /// The entries, most findings first.
    var sorted: [Entry] {
        entries.values.sorted { $0.count != $1.count ? $0.count > $1.count : $0.rule < $1.rule }
    }

    /// `rule-<ID>` with anything but letters, digits, `-` and `_` dropped (rule IDs are short
    /// uppercase codes; a hostile one still makes a harmless fragment).
    static func anchor(_ rule: String) -> String {
        "rule-"
            + String(
                rule.unicodeScalars.filter {
                    $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_"
                }.prefix(40).map(Character.init))
    }
}
