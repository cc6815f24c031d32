import MarkupExtraction

/// The Open Graph rules (apple-markup-rules.md §7.4).
struct OpenGraphChecks {
    let page: PageMarkup

    static let implemented: Set<String> = []

    /// Calls `report(ruleID, line, excerpt, message)` for each broken rule.
    func run(_ report: (String, Int, String, String) -> Void) {}
}

extension RuleCatalogue {
    static let openGraphFixHints: [String: String] = [:]
}
