/// "Fix first" (issue 15 §6): what a developer with five minutes should fix, at the top of the
/// report; and the severity symbols and labels every section shares.
extension HTMLReport {
    // MARK: - Fix first

    /// The errors grouped by rule, the rule that reaches most pages first: each with its title,
    /// how many pages (and site findings) it was found on, its fix, the first pages' numbers as
    /// links to their details, and a link that filters the page list to its pages. Without errors,
    /// the same for the warnings.
    func fixFirstSection(_ glossary: RuleGlossary) -> String {
        var html = "<section id=\"fix-first\">\n<h2>Fix first</h2>\n"
        var entries = glossary.errorsFirst
        let errors = entries.map(\.count).reduce(0, +)
        if entries.isEmpty {
            let warnings = glossary.sorted.filter { $0.severity == "warning" }
            guard !warnings.isEmpty else {
                return html + "<p>Nothing to fix: no errors and no warnings.</p>\n</section>\n"
            }
            html += "<p>No errors. The warnings, the most frequent first:</p>\n"
            entries = warnings
        } else {
            html +=
                "<p>\(errors) error\(errors == 1 ? "" : "s") of \(entries.count) rule\(entries.count == 1 ? "" : "s")"
            html += ", the rule found on most pages first. A count shows those pages in the page list; a number "
            html += "opens that page, its findings each with the fix.</p>\n"
        }
        html += "<table class=\"grid fixes\"><thead><tr><th>#</th><th>rule</th><th>found on</th><th>fix</th></tr>"
        html += "</thead><tbody>\n"
        for (position, entry) in entries.enumerated() { html += fixFirstRow(entry, position: position + 1) }
        return html + "</tbody></table>\n</section>\n"
    }

    /// One rule: its severity, id and title; the pages (a link that filters the page list, and
    /// the first pages' numbers as links to their details) and site findings; its fix.
    func fixFirstRow(_ entry: RuleGlossary.Entry, position: Int) -> String {
        let severity = Self.severityClass(entry.severity)
        let fragment = RuleGlossary.fragment(entry.rule)
        var html = "<tr class=\"fix \(severity)\" id=\"fix-\(fragment)\"><td class=\"pos\">\(position)</td>"
        html += "<td>\(badge(severity)) \(ruleLink(entry.rule)) \(ruleTitle(entry.rule))</td><td>"
        var reach: [String] = []
        if entry.pages > 0 {
            let pages = "\(entry.pages) page\(entry.pages == 1 ? "" : "s")"
            reach.append("<a href=\"#pages\" data-rule=\"\(entry.rule.htmlEscaped)\" class=\"reach\">\(pages)</a>")
        }
        if entry.siteFindings > 0 {
            let site = "\(entry.siteFindings) site finding\(entry.siteFindings == 1 ? "" : "s")"
            reach.append("<a href=\"#site-\(fragment)\" class=\"reach\">\(site)</a>")
        }
        html += reach.joined(separator: " + ")
        if entry.count > entry.pages + entry.siteFindings {
            html += " <span class=\"muted\">(\(entry.count) findings)</span>"
        }
        if !entry.pageNumbers.isEmpty {
            html += "<br><span class=\"where\">"
            html += entry.pageNumbers.map { "<a href=\"#p-\($0)\">#\($0)</a>" }.joined(separator: " ")
            if entry.pages > entry.pageNumbers.count {
                html += " <span class=\"muted\">+\(entry.pages - entry.pageNumbers.count)</span>"
            }
            html += "</span>"
        }
        return html + "</td><td>\(entry.fix.htmlEscaped)</td></tr>\n"
    }

    // MARK: - Severity

    /// A symbol per severity, so that severities differ by shape as well as colour: ✖ error,
    /// ▲ warning, ℹ info.
    static func icon(_ severity: String?) -> String {
        switch severity {
        case "error": "\u{2716}"
        case "warning": "\u{25B2}"
        default: "\u{2139}"
        }
    }

    /// `✖ error`, `▲ warning`, `ℹ info`.
    static func severityLabel(_ severity: String?) -> String {
        "\(icon(severity)) \(severityClass(severity))"
    }

    /// 0 for error, 1 for warning, 2 for info (and anything else).
    static func rank(_ severity: String?) -> Int { RuleGlossary.rank(severity) }

    /// The badge of a severity: its symbol and name, coloured by the style sheet.
    func badge(_ severity: String) -> String {
        let kind = Self.severityClass(severity)
        return "<span class=\"badge \(kind)\">\(Self.severityLabel(kind))</span>"
    }

    /// The rule's title (what it checks, in the catalogue's words), escaped, in a span; empty for
    /// an id the catalogue does not have.
    func ruleTitle(_ rule: String) -> String {
        let title = RuleGlossary.titleHTML(rule)
        return title.isEmpty ? "" : "<span class=\"rtitle\">\(title)</span>"
    }
}
