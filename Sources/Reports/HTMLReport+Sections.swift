import LenientJSON
import ReportModel
import Rulebook

/// The app, coverage and site-findings sections.
extension HTMLReport {
    // MARK: - App

    func appSection(_ tally: PageTally) -> String {
        // Each host's apple-app-site-association summary.
        let files = crawl?.universalLinks ?? []
        var configured: [String] = []
        for file in files {
            for id in file.configuredAppIDs where !configured.contains(id) {
                configured.append(id)
            }
        }
        let storeIDs = tally.storeIDs
        let verdicts = tally.verdicts
        var html = "<section id=\"app\">\n<h2>App</h2>\n<dl class=\"facts\">"
        html += "<dt>Configured app IDs</dt><dd>\(list(configured, empty: "none given (--app)"))</dd>"
        let ids = storeIDs.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value) page\($0.value == 1 ? "" : "s"))" }
        html += "<dt>App Store IDs in the pages</dt><dd>\(list(ids, empty: "none"))</dd>"
        let verdictText = verdicts.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
        html += "<dt>Canonical URLs as universal links</dt><dd>\(list(verdictText, empty: "not checked"))</dd>"
        html += "</dl>\n"
        html +=
            files.isEmpty
            ? "<p class=\"muted\">No apple-app-site-association file was checked.</p>\n" : aasaTable(files)
        return html + "</section>\n"
    }

    /// `handled: …` → `handled`.
    static func verdictKind(_ verdict: String) -> String {
        String(verdict.prefix { $0 != ":" }.prefix(60))
    }

    func list(_ items: [String], empty: String) -> String {
        items.isEmpty
            ? "<span class=\"muted\">\(empty.htmlEscaped)</span>"
            : items.map { "<code>\($0.htmlEscaped)</code>" }.joined(separator: " ")
    }

    func aasaTable(_ files: [AssociationFileSummary]) -> String {
        var html = "<table class=\"grid\"><thead><tr><th>apple-app-site-association</th><th>HTTP</th><th>usable</th>"
        html += "<th>apps</th><th>notes</th></tr></thead><tbody>\n"
        for file in files {
            var notes = file.error.map { [$0] } ?? []
            if file.onlyAtRootPath == true { notes.append("served only at /apple-app-site-association") }
            for skipped in file.notApplicable ?? [] {
                let title = RuleGlossary.title(skipped.rule)
                notes.append("\(skipped.rule)\(title.isEmpty ? "" : " (\(title))") not checked: \(skipped.reason)")
            }
            let status = file.status.map(String.init) ?? ""
            html += "<tr><td>\(link(file.url))</td><td>\(status.htmlEscaped)</td>"
            html += "<td class=\"\(file.usable ? "ok" : "bad")\">\(file.usable ? "yes" : "no")</td>"
            html += "<td>\(list(file.apps ?? [], empty: "none"))</td>"
            html += "<td>\(notes.map(\.htmlEscaped).joined(separator: "<br>"))</td></tr>\n"
        }
        return html + "</tbody></table>\n"
    }

    /// An http(s) URL as a link that opens elsewhere without a referrer; anything else as text.
    func link(_ url: String) -> String {
        guard let href = HTMLEscaping.safeURL(url) else { return "<code>\(url.htmlEscaped)</code>" }
        return "<a href=\"\(href)\" rel=\"noopener noreferrer nofollow\" target=\"_blank\">\(url.htmlEscaped)</a>"
    }

    // MARK: - Coverage

    var coverageSection: String {
        var html = "<section id=\"coverage\">\n<h2>Coverage</h2>\n"
        guard let crawl else {
            return html + "<p class=\"muted\">This report has no coverage data (a validate report).</p>\n</section>\n"
        }
        // report.json lists the first items of each list; the summary counts them all.
        let coverage = crawl.coverage
        let summary = crawl.summary
        let skipped = coverage.skipped
        let skippedTotals = summary.skipped
        if skipped.isEmpty && skippedTotals.values.allSatisfy({ $0 == 0 }) {
            html += "<p>Every URL found was crawled.</p>\n"
        }
        var byReason: [String: [SkippedLink]] = [:]
        for item in skipped { byReason[item.reason, default: []].append(item) }
        for reason in Set(byReason.keys).union(skippedTotals.keys).sorted() {
            let items = byReason[reason] ?? []
            let total = max(skippedTotals[reason] ?? 0, items.count)
            html +=
                "<details class=\"coverage\"><summary>Not crawled: <b>\(reason.htmlEscaped)</b> (\(total))</summary><ul>"
            for item in items.prefix(coverageListLimit) {
                html += "<li><code>\(item.url.htmlEscaped)</code> – \(item.detail.htmlEscaped)"
                if let foundOn = item.foundOn {
                    html += " <span class=\"muted\">(on \(foundOn.htmlEscaped))</span>"
                }
                html += "</li>"
            }
            html += more(shown: min(items.count, coverageListLimit), of: total) + "</ul></details>\n"
        }
        html += urlList(
            "Sitemap locations not crawled",
            coverage.sitemapLocationsNotCrawled.map { "\($0.location) (\($0.sitemap) line \($0.line))" },
            total: summary.sitemapLocationsNotCrawled)
        html += urlList("Pages in no sitemap", coverage.pagesNotInSitemaps, total: summary.pagesNotInSitemaps)
        html += urlList("Stale pages (gone since the last crawl)", coverage.stalePages, total: summary.stalePages)
        return html + "</section>\n"
    }

    /// `items`, the first of a list of `total` (report.json's count, when it has one).
    func urlList(_ title: String, _ items: [String], total: Int? = nil) -> String {
        let total = max(total ?? 0, items.count)
        guard total > 0 else { return "" }
        var html = "<details class=\"coverage\"><summary>\(title.htmlEscaped) (\(total))</summary><ul>"
        for item in items.prefix(coverageListLimit) { html += "<li><code>\(item.htmlEscaped)</code></li>" }
        return html + more(shown: min(items.count, coverageListLimit), of: total) + "</ul></details>\n"
    }

    /// What a list leaves out: the rest of report.json's items, and what only the store has.
    func more(shown: Int, of total: Int) -> String {
        guard total > shown else { return "" }
        guard total > CoverageListing.limit else { return more(total) }
        return "<li class=\"muted\">and \(total - shown) more (report.json lists the first "
            + "\(CoverageListing.limit); the crawl's store has them all)</li>"
    }

    func more(_ count: Int) -> String {
        count > coverageListLimit ? "<li class=\"muted\">and \(count - coverageListLimit) more in report.json</li>" : ""
    }

    // MARK: - Site findings and rules

    /// Site findings grouped by rule (errors first, then the most findings), each group listing
    /// at most `coverageListLimit` findings.
    func siteFindingsSection(_ findings: [Finding], glossary: RuleGlossary) -> String {
        var html = "<section id=\"site-findings\">\n<h2>Site findings (\(findings.count))</h2>\n"
        if findings.isEmpty { html += "<p>No rule over the whole site found anything.</p>\n" }
        var rules: [String] = []
        var byRule: [String: [Finding]] = [:]
        for finding in findings {
            let rule = finding.ruleID
            if byRule[rule] == nil { rules.append(rule) }
            byRule[rule, default: []].append(finding)
        }
        let order = Dictionary(uniqueKeysWithValues: rules.enumerated().map { ($0.element, $0.offset) })
        rules.sort { a, b in
            let (rankA, rankB) = (
                Self.rank(byRule[a]?.first?.severity.rawValue),
                Self.rank(byRule[b]?.first?.severity.rawValue)
            )
            if rankA != rankB { return rankA < rankB }
            let (countA, countB) = (byRule[a]?.count ?? 0, byRule[b]?.count ?? 0)
            return countA != countB ? countA > countB : (order[a] ?? 0) < (order[b] ?? 0)
        }
        for rule in rules {
            let group = byRule[rule] ?? []
            let severity = Self.severityClass(group.first?.severity.rawValue)
            html +=
                "<details class=\"site\" id=\"site-\(RuleGlossary.fragment(rule))\"\(group.count <= 3 ? " open" : "")>"
            html += "<summary>\(badge(severity)) \(ruleLink(rule)) \(ruleTitle(rule)) (\(group.count))</summary>"
            html += "<ul class=\"site-findings\">"
            for finding in group.prefix(coverageListLimit) {
                html += "<li><code>\(finding.url.htmlEscaped)</code>"
                if finding.line > 0 { html += " line \(finding.line)" }
                html += ": \(finding.message.htmlEscaped)"
                if !finding.excerpt.isEmpty {
                    let excerpt = finding.excerpt
                    html += " <code class=\"excerpt\">\(Self.shortened(excerpt).htmlEscaped)</code>"
                }
                html += "</li>"
            }
            html += more(group.count) + "</ul>"
            if let fix = glossary.entries[rule]?.fix, !fix.isEmpty {
                html += "<p class=\"fix\"><b>Fix:</b> \(fix.htmlEscaped)</p>"
            }
            html += "</details>\n"
        }
        return html + "</section>\n"
    }

    /// Every rule the findings name, errors first, then the most findings: its title, how many
    /// findings and pages, its fix and source once.
    func rulesSection(_ glossary: RuleGlossary) -> String {
        var html = "<section id=\"rules\">\n<h2>Rules found (\(glossary.entries.count))</h2>\n"
        guard !glossary.entries.isEmpty else { return html + "<p>No findings.</p>\n</section>\n" }
        html += "<table class=\"grid rules\"><thead><tr><th>rule</th><th>findings</th><th>pages</th><th>fix</th>"
        html += "<th>source</th></tr></thead><tbody>\n"
        for entry in glossary.sorted {
            let severity = Self.severityClass(entry.severity)
            html += "<tr id=\"\(RuleGlossary.anchor(entry.rule))\"><td>\(badge(severity)) "
            html += "<b>\(entry.rule.htmlEscaped)</b> \(ruleTitle(entry.rule))</td><td>\(entry.count)</td><td>"
            if entry.pages > 0 {
                html += "<a href=\"#pages\" data-rule=\"\(entry.rule.htmlEscaped)\">\(entry.pages)</a>"
            }
            if entry.siteFindings > 0 {
                html += "\(entry.pages > 0 ? " + " : "")<a href=\"#site-\(RuleGlossary.fragment(entry.rule))\">"
                html += "\(entry.siteFindings) site</a>"
            }
            html += "</td><td>\(entry.fix.htmlEscaped)</td>"
            let authority = entry.authority.isEmpty ? "" : " (\(entry.authority))"
            html += "<td>\((entry.source + authority).htmlEscaped)</td></tr>\n"
        }
        return html + "</tbody></table>\n</section>\n"
    }

    static func severityClass(_ severity: String?) -> String {
        ["error", "warning", "info"].first { $0 == severity } ?? "info"
    }

    func ruleLink(_ rule: String) -> String {
        "<a class=\"rule\" href=\"#\(RuleGlossary.anchor(rule))\">\(rule.htmlEscaped)</a>"
    }

    /// A page finding: severity, rule (linked to its entry in the rules table) and title, line,
    /// message, excerpt, and its fix; the source only when it differs from the rule's.
    /// One finding: severity, rule, title, where, message, markup, fix; `anchor` gives it an id
    /// (the page's candidacy links to it); one the baseline accepted says so.
    func findingHTML(_ finding: Finding, glossary: RuleGlossary, anchor: String? = nil) -> String {
        let rule = finding.ruleID
        let kind = Self.severityClass(finding.severity.rawValue)
        let id = anchor.map { " id=\"\($0.htmlEscaped)\"" } ?? ""
        var html =
            "<div class=\"finding \(kind)\"\(id)><p class=\"head\">\(badge(kind)) \(ruleLink(rule)) \(ruleTitle(rule))"
        if finding.line > 0 {
            let column = finding.column.map { $0 > 0 ? ", column \($0)" : "" } ?? ""
            html += " <span class=\"line\">line \(finding.line)\(column)</span>"
        }
        if finding.isSuppressed { html += " <span class=\"line\">accepted in the baseline</span>" }
        html += "</p><p class=\"message\">\(finding.message.htmlEscaped)</p>"
        if !finding.excerpt.isEmpty {
            html += "<pre class=\"excerpt\"><code>\(finding.excerpt.htmlEscaped)</code></pre>"
        }
        let entry = glossary.entries[rule]
        if let fix = finding.fixHint.isEmpty ? entry?.fix : finding.fixHint, !fix.isEmpty {
            html += "<p class=\"fix\"><b>Fix:</b> \(fix.htmlEscaped)</p>"
        }
        let source = RuleCatalogue.rule(finding.rule).source
        if !source.isEmpty, source != entry?.source {
            html += "<p class=\"cite\">Source: \(source.htmlEscaped)</p>"
        }
        return html + "</div>\n"
    }
}
