/// How bad a finding is (apple-markup-rules.md §7): an error breaks an Apple requirement (the item
/// is not a candidate, or a feature is broken); a warning is a likely degraded result or
/// ambiguous markup; info is advice.
public enum Severity: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    case info, warning, error

    public static func < (lhs: Severity, rhs: Severity) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// Where a rule comes from, as the reference tags it (apple-markup-rules.md §0).
public enum SourceKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// Apple's current documentation.
    case apple = "A"
    /// Apple's archived material (guides, technotes, WWDC transcripts): Apple's word, maybe stale.
    case appleArchive = "A-arch"
    /// The owner of another spec (ogp.me, schema.org, W3C/WHATWG, IETF, Meta, X).
    case specOwner = "S"
    /// A third party, for behaviour Apple does not document.
    case thirdParty = "3P"
    /// SpotCheck's own inference or design choice, read nowhere.
    case inference = "I"
}

/// One rule of the catalogue: its id, default severity and citation are the reference's, word
/// for word (generated from it); `consumer` says whose behaviour it protects.
public struct Rule: Sendable, Hashable, Identifiable {
    /// `SAB003`, `OG005`, … (new rules get new ids in the same scheme, in the catalogue's data).
    public var id: RuleID
    /// The id's letters: `SAB`, `DL`, `UL`, `OG`, `TW`, `AL`, `SD`, `CT`, `IX`, `AS`.
    public var group: String
    /// The reference section, e.g. `7.1 Smart App Banner (SAB)`.
    public var section: String
    public var severity: Severity
    /// What is checked, as the reference words it.
    public var check: String
    /// The citation, as the reference gives it (tags and document).
    public var source: String
    /// The tags found in `source`.
    public var sourceKinds: [SourceKind]
    /// Who is affected when the rule fails.
    public var consumer: String
    /// Whether SpotCheck checks it yet (rules not checked yet are listed, never left out).
    public var isImplemented: Bool
    /// Whether the rule is one of the reference's 153 (false: one of SpotCheck's own, tagged [I]).
    public var isFromReference: Bool

    /// Whether the rule cites Apple (current or archived); otherwise it is presented as a spec
    /// owner's, a third party's or SpotCheck's own.
    public var citesApple: Bool { sourceKinds.contains(.apple) || sourceKinds.contains(.appleArchive) }

    /// Who stands behind the rule, for reports: "Apple", "Apple (archived)", "spec", "third party", "SpotCheck".
    public var authority: String {
        if sourceKinds.contains(.apple) { return "Apple" }
        if sourceKinds.contains(.appleArchive) { return "Apple (archived)" }
        if sourceKinds.contains(.specOwner) { return "spec" }
        if sourceKinds.contains(.thirdParty) { return "third party" }
        return "SpotCheck"
    }
}

extension RuleID {
    /// The rule an id's text names, in any case (`SAB003`, `sab003`); nil when the catalogue has no
    /// such rule.
    public init?(text: String) {
        self.init(rawValue: text.uppercased())
    }
}

extension Rule {
    /// A short name for people (SARIF's rule `name`), taken from the catalogue's own words: the
    /// check's first sentence without its parenthetical asides, e.g. SAB003's "`app-id` not all
    /// ASCII digits". Parentheses inside code spans (`` `$(name)` ``) or words (`http(s)`) stay.
    public var title: String {
        var kept = ""
        var depth = 0
        var inCode = false
        for character in check {
            if character == "`", depth == 0 { inCode.toggle() }
            if !inCode, character == "(", depth > 0 || kept.last == " " {
                depth += 1
                continue
            }
            if depth > 0 {
                if character == ")" { depth -= 1 }
                continue
            }
            kept.append(character)
        }
        var words = kept.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        words = words.split(separator: " ,", omittingEmptySubsequences: false).joined(separator: ",")
        if let end = words.firstRange(of: ". ") { words = String(words[..<end.lowerBound]) }
        while words.last == "." || words.last == " " { words.removeLast() }
        return words.isEmpty ? id.rawValue : words
    }

    /// The rule's anchor in docs/rules.md (`sab003`), where reports link for its documentation.
    public var anchor: String { id.rawValue.lowercased() }
}
