import Rulebook

/// The rules a report's findings name, each with its title (the catalogue's `check`), fix and
/// source once, and where it was found: the pages (how many, and the first few numbers) and the
/// site findings. A finding links to its rule's entry; the "Fix first" list, the rules table,
/// the charts and the page list's rule filter are made from it.
struct RuleGlossary: Sendable {
    struct Entry: Sendable {
        let rule: String
        var severity: String
        var fix: String
        var source: String
        var authority: String
        /// Findings, on pages and over the site.
        var count: Int
        /// Pages with at least one finding of the rule, and the first `listedPages` of their numbers.
        var pages = 0
        var pageNumbers: [Int] = []
        /// Site findings of the rule (their URLs are not pages of the page list).
        var siteFindings = 0

        /// The catalogue's wording of what the rule checks, as text; empty for an id the
        /// catalogue does not have.
        var title: String { RuleGlossary.title(rule) }
    }

    /// Page numbers kept per rule for the "Fix first" links (the page list's filter shows them all).
    static let listedPages = 12

    private(set) var entries: [String: Entry] = [:]
    /// The last page counted per rule: a page's findings come together, so a page with several
    /// findings of a rule counts once.
    private var lastPage: [String: Int] = [:]

    init() {}

    /// Adds a finding of page `page` (its number), or a site finding when `page` is nil.
    mutating func add(_ finding: Finding, page: Int? = nil) {
        let rule = finding.ruleID
        let catalogued = RuleCatalogue.rule(finding.rule)
        var entry =
            entries[rule]
            ?? Entry(
                rule: rule, severity: finding.severity.rawValue,
                fix: finding.fixHint.isEmpty ? Self.catalogueFix(rule) : finding.fixHint,
                source: catalogued.source, authority: catalogued.authority, count: 0)
        entry.count += 1
        if let page {
            if lastPage[rule] != page {
                lastPage[rule] = page
                entry.pages += 1
                if entry.pageNumbers.count < Self.listedPages { entry.pageNumbers.append(page) }
            }
        } else {
            entry.siteFindings += 1
        }
        entries[rule] = entry
    }

    /// The entries by severity (errors first), then most findings first, then by id.
    var sorted: [Entry] {
        entries.values.sorted { a, b in
            let (rankA, rankB) = (Self.rank(a.severity), Self.rank(b.severity))
            if rankA != rankB { return rankA < rankB }
            return a.count != b.count ? a.count > b.count : a.rule < b.rule
        }
    }

    /// The errors, the rule that reaches most pages (and site findings) first, then most
    /// findings, then by id: the "Fix first" list.
    var errorsFirst: [Entry] {
        entries.values.filter { $0.severity == "error" }.sorted { a, b in
            let (reachA, reachB) = (a.pages + a.siteFindings, b.pages + b.siteFindings)
            if reachA != reachB { return reachA > reachB }
            return a.count != b.count ? a.count > b.count : a.rule < b.rule
        }
    }

    /// 0 for error, 1 for warning, 2 for anything else.
    static func rank(_ severity: String?) -> Int {
        switch severity {
        case "error": 0
        case "warning": 1
        default: 2
        }
    }

    /// `rule-<ID>` with anything but letters, digits, `-` and `_` dropped (rule IDs are short
    /// uppercase codes; a hostile one still makes a harmless fragment).
    static func anchor(_ rule: String) -> String {
        "rule-" + fragment(rule)
    }

    /// The catalogue's fix hint for a rule (`RuleCatalogue.fixHints`); empty when it has none.
    static func catalogueFix(_ rule: String) -> String {
        RuleCatalogue.rule(rule).flatMap { RuleCatalogue.fixHints[$0.id] } ?? ""
    }

    /// The rule id reduced to letters, digits, `-` and `_`, at most 40 of them.
    static func fragment(_ rule: String) -> String {
        String(
            rule.unicodeScalars.filter {
                $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_"
            }.prefix(40).map(Character.init))
    }

    /// What the rule checks, as the catalogue words it (`RuleCatalogue.rule(id).check`), as text:
    /// code spans lose their backticks. Empty for an id the catalogue does not have.
    static func title(_ rule: String) -> String {
        guard let check = RuleCatalogue.rule(rule)?.check else { return "" }
        return check.replacingBackslashPipes.filter { $0 != "`" }
    }

    /// The title as HTML: escaped, its code spans in `<code>`.
    static func titleHTML(_ rule: String) -> String {
        guard let check = RuleCatalogue.rule(rule)?.check else { return "" }
        return check.replacingBackslashPipes.split(separator: "`", omittingEmptySubsequences: false).enumerated().map {
            $0.offset % 2 == 1 ? "<code>\(String($0.element).htmlEscaped)</code>" : String($0.element).htmlEscaped
        }
        .joined()
    }
}

extension String {
    /// `\|` (a pipe escaped for a Markdown table, as the catalogue's source has it) as `|`.
    fileprivate var replacingBackslashPipes: String {
        var text = ""
        var rest = Substring(self)
        while let range = rest.range(of: "\\|") {
            text += rest[..<range.lowerBound] + "|"
            rest = rest[range.upperBound...]
        }
        return text + rest
    }
}
