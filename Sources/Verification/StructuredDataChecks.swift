import MarkupExtraction

/// The structured-data rules (apple-markup-rules.md §7.6): JSON-LD, Microdata and RDFa.
struct StructuredDataChecks {
    let page: PageMarkup

    static let implemented: Set<String> = []

    /// Calls `report(ruleID, line, excerpt, message)` for each broken rule.
    func run(_ report: (String, Int, String, String) -> Void) {}
}

extension RuleCatalogue {
    static let structuredDataFixHints: [String: String] = [:]
}
