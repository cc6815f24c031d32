import LenientJSON
import NumericClamping
import ReportModel
import Rulebook
import SpotlightModel

/// The page list: one `<details>` per page, its summary a row of the list (number, findings,
/// URL and title, HTTP status, time, candidate), its body the page's details.
extension HTMLReport {
    // MARK: - Page list

    /// The section's heading, the filters (hidden until the script shows them) and the list's
    /// column headings (sort buttons, enabled by the script).
    func pageListStart(pageCount: Int, glossary: RuleGlossary, hasLinking: Bool = false) -> String {
        var html = "<section id=\"pages\">\n<h2>Pages (\(pageCount))</h2>\n"
        html += "<p class=\"muted\">Most severe first (errors, then warnings, then info); a heading sorts by its "
        html += "column. Open a page for its search-result preview, its findings with their fixes, its deep links "
        html += "and where each attribute-set value came from.</p>\n"
        // Without JavaScript the form stays hidden and the whole list shows.
        html += "<form id=\"filters\" class=\"filters\" hidden>"
        html += select(
            "severity", "Severity",
            [
                ("", "any"), ("error", "\(Self.icon("error")) has errors"),
                ("warning", "\(Self.icon("warning")) has warnings"), ("info", "\(Self.icon("info")) has info"),
                ("none", "no findings"),
            ])
        let rules = glossary.sorted.filter { $0.pages > 0 }.map { entry in
            let title = entry.title
            let text =
                "\(Self.icon(entry.severity)) \(entry.rule) (\(entry.pages))" + (title.isEmpty ? "" : " \(title)")
            return (entry.rule, Self.shortened(text, limit: 90))
        }
        html += select("rule", "Rule", [("", "any")] + rules)
        html += select(
            "candidate", "Candidate", [("", "any"), ("yes", "yes"), ("no", "no"), ("unknown", "not analysed")])
        if hasLinking {
            html += select("linked", "Local item", [("", "any"), ("yes", "linked"), ("no", "none")])
        }
        html += "<label>URL contains <input type=\"search\" name=\"q\" autocomplete=\"off\"></label>"
        html += " <output id=\"shown\" aria-live=\"polite\"></output></form>\n"
        html += "<div id=\"page-list\" class=\"plist\">\n<div class=\"plist-head\">"
        for (key, label, current) in [
            ("n", "#", false), ("findings", "findings", true), ("url", "page", false), ("status", "HTTP", false),
            ("ms", "ms", false), ("candidate", "candidate", false),
        ] {
            html += "<button type=\"button\" class=\"c-\(key)\" data-sort=\"\(key)\" disabled"
            html += current ? " aria-pressed=\"true\" data-dir=\"desc\">" : " aria-pressed=\"false\">"
            html += "\(label)</button>"
        }
        return html + "</div>\n"
    }

    var pageListEnd: String { "</div>\n</section>\n" }

    func select(_ name: String, _ label: String, _ options: [(value: String, text: String)]) -> String {
        let items = options.map { "<option value=\"\($0.value.htmlEscaped)\">\($0.text.htmlEscaped)</option>" }
        return "<label>\(label) <select name=\"\(name)\">\(items.joined())</select></label> "
    }

    /// A page is `pageStart` (the open tag's first attributes), the linked attribute (local items),
    /// `pageMiddle` (the rest of the open tag, the summary and the details up to the deep links),
    /// the linked section, `pageEnd` (findings, attribute set, close).
    func pageStart(_ page: ReportPage) -> String {
        let counts = page.counts
        let candidate = page.isCandidate.map { $0 ? "yes" : "no" } ?? "unknown"
        let milliseconds = page.totalSeconds.map { $0 * 1000 }
        var html = "<details class=\"page\" id=\"\(page.anchor)\" data-n=\"\(page.number)\""
        html += " data-severities=\"\(counts.present.isEmpty ? "none" : counts.present)\""
        html += " data-e=\"\(counts.error)\" data-w=\"\(counts.warning)\" data-i=\"\(counts.info)\""
        html += " data-rules=\"\(page.ruleIDs.joined(separator: " ").htmlEscaped)\" data-candidate=\"\(candidate)\""
        html += " data-url=\"\(page.url.lowercased().htmlEscaped)\" data-status=\"\(page.status ?? 0)\""
        html += " data-ms=\"\(milliseconds.map(Self.decimal) ?? "-1")\""
        return html
    }

    func linkedAttribute(_ linked: [(entry: String, key: String)]?) -> String {
        guard let linked else { return "" }
        return " data-linked=\"\(linked.isEmpty ? "no" : "yes")\""
    }

    func pageMiddle(_ page: ReportPage) -> String {
        let counts = page.counts
        let candidate = page.isCandidate.map { $0 ? "yes" : "no" } ?? "unknown"
        var html =
            "><summary><span class=\"c-n\">\(page.number)</span><span class=\"c-findings\">\(badges(counts))</span>"
        html += "<span class=\"c-url\"><code>\(page.url.htmlEscaped)</code>"
        if let title = page.title {
            html += "<span class=\"ttl muted\">\(title.prefix(140).description.htmlEscaped)</span>"
        }
        html += "</span><span class=\"c-status\">\(page.status.map(String.init) ?? "–")</span>"
        html += "<span class=\"c-ms\">\(page.totalSeconds.map { Self.decimal($0 * 1000) } ?? "–")</span>"
        html += "<span class=\"c-candidate cand \(candidate)\">"
        html += candidate == "unknown" ? "–" : candidate == "yes" ? "\u{2713} yes" : "\u{2717} no"
        html += "</span></summary>\n<div class=\"body\">\n"
        html += pageFacts(page)
        if let attributes = page.attributeSet, attributes != AttributeSet() { html += preview(page, attributes) }
        html += candidacy(page)
        html += deepLinks(page)
        return html
    }

    /// The findings by severity (errors first), each with its fix.
    func pageEnd(_ page: ReportPage, glossary: RuleGlossary) -> String {
        let findings = page.findings.enumerated().sorted { a, b in
            let (rankA, rankB) = (Self.rank(a.element.severity.rawValue), Self.rank(b.element.severity.rawValue))
            return rankA != rankB ? rankA < rankB : a.offset < b.offset
        }
        var html = "<h4>Findings (\(findings.count))</h4>\n"
        // The first finding of each rule is the anchor the page's candidacy links to.
        var anchored: Set<String> = []
        html +=
            findings.isEmpty
            ? "<p class=\"muted\">None.</p>\n"
            : findings.map { entry in
                let rule = entry.element.ruleID
                let anchor = anchored.insert(rule).inserted ? Self.findingAnchor(page, rule: rule) : nil
                return findingHTML(entry.element, glossary: glossary, anchor: anchor)
            }.joined()
        html += attributeTable(page)
        html += renderedSection(page)
        html += consumersSection(page)
        return html + "<p><a href=\"#pages\">back to the list</a></p></div></details>\n"
    }

    /// `crawl --render`: the served attribute set beside the rendered one (differences marked),
    /// what only JavaScript added, and the requests robots.txt kept from Applebot.
    func renderedSection(_ page: ReportPage) -> String {
        guard let rendered = page.analysis?.rendered else { return "" }
        var html = "<h4>Served and rendered (headless Chromium)</h4>\n"
        if let failure = rendered.failure {
            return html + "<p class=\"muted\">Not rendered: \(failure.htmlEscaped)</p>\n"
        }
        if rendered.timedOut {
            html +=
                "<p class=\"muted\">The network was still busy at the render timeout: the DOM is what there was then.</p>\n"
        }
        if !rendered.onlyAfterJavaScript.isEmpty {
            let fields = rendered.onlyAfterJavaScript.map { "<code>\($0.htmlEscaped)</code>" }
            html += "<p>Only after JavaScript: \(fields.joined(separator: ", "))</p>\n"
        }
        let served = page.attributeSet?.json ?? JSONObject()
        let after = rendered.attributeSet?.json ?? JSONObject()
        var keys = served.map(\.key)
        keys += after.map(\.key).filter { !keys.contains($0) }
        html +=
            "<table class=\"grid attrs\"><thead><tr><th>attribute</th><th>served</th><th>rendered</th></tr></thead><tbody>"
        for key in keys {
            let before = served[key]?.displayText ?? "—"
            let later = after[key]?.displayText ?? "—"
            let mark = before == later ? "" : " \u{2260}"
            html += "<tr><th>\(key.htmlEscaped)\(mark)</th><td>\(Self.shortened(before).htmlEscaped)</td>"
            html += "<td>\(Self.shortened(later).htmlEscaped)</td></tr>"
        }
        html += "</tbody></table>\n"
        if !rendered.blockedForApplebot.isEmpty {
            html += "<p>Requests robots.txt keeps from Applebot (not made while rendering):</p><ul>"
            for request in rendered.blockedForApplebot {
                html += "<li><code>\(request.url.htmlEscaped)</code> "
                html += "<span class=\"muted\">(\(request.resourceType.htmlEscaped))</span></li>"
            }
            html += "</ul>\n"
        }
        return html
    }

    /// `crawl --consumers`: what each consumer got, the fields it reads side by side.
    func consumersSection(_ page: ReportPage) -> String {
        guard let views = page.analysis?.consumers, !views.isEmpty else { return "" }
        var html = "<h4>As each consumer gets it</h4>\n<table class=\"grid attrs\"><thead><tr><th>consumer</th>"
        html += "<th>answer</th><th>what it reads</th></tr></thead><tbody>"
        for view in views {
            var answer: String
            var reads: [ConsumerReport.FieldValue] = []
            switch view.outcome {
            case .disallowedByRobots:
                answer = "robots.txt disallows it"
            case .failed(let reason):
                answer = "no answer: " + reason
            case .answered(let status, let finalURL, let fields):
                answer = "HTTP \(status)"
                if finalURL != page.finalURL { answer += " at " + finalURL }
                reads = fields ?? []
            }
            let shown = reads.map { read in
                "\(read.field.htmlEscaped): \(Self.shortened(read.value ?? "none", limit: 80).htmlEscaped)"
            }
            html += "<tr><th title=\"\(view.userAgent.htmlEscaped)\">\(view.consumer.htmlEscaped)</th>"
            html += "<td>\(answer.htmlEscaped)</td><td>\(shown.joined(separator: "<br>"))</td></tr>"
        }
        return html + "</tbody></table>\n"
    }

    /// The finding counts as badges: the severity's symbol and the count (the title says it in words).
    func badges(_ counts: SeverityCounts) -> String {
        guard counts.total > 0 else { return "<span class=\"muted\">no findings</span>" }
        let levels: [(kind: String, count: Int)] = [
            ("error", counts.error), ("warning", counts.warning), ("info", counts.info),
        ]
        return levels.filter { $0.count > 0 }.map { level -> String in
            let plural = level.kind == "info" || level.count == 1 ? "" : "s"
            let words = "\(level.count) \(level.kind)\(plural)"
            return
                "<span class=\"badge \(level.kind)\" title=\"\(words)\">\(Self.icon(level.kind))\u{2009}\(level.count)</span>"
        }
        .joined(separator: " ")
    }

    /// One decimal, without Foundation's formatter.
    static func decimal(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let tenths = clampedInt((value * 10).rounded())
        return "\(tenths / 10).\(abs(tenths % 10))"
    }

    // MARK: - Page details

    func linkedSection(_ linked: [(entry: String, key: String)]?) -> String {
        guard let linked else { return "" }
        return "<h4>Local items (\(linked.count))</h4>\n"
            + (linked.isEmpty
                ? "<p class=\"muted\">No item or activity of the app has this page's URL.</p>\n"
                : "<ul>"
                    + linked.map { "<li><code>\($0.entry.htmlEscaped)</code> by \($0.key.htmlEscaped)</li>" }.joined()
                    + "</ul>\n")
    }

    func pageFacts(_ page: ReportPage) -> String {
        var facts: [(String, String)] = [("URL", link(page.url))]
        if page.finalURL != page.url { facts.append(("final URL", link(page.finalURL))) }
        if let status = page.status { facts.append(("HTTP", "\(status)")) }
        if let seconds = page.totalSeconds { facts.append(("time", "\(Self.decimal(seconds * 1000)) ms")) }
        if let problem = page.problem { facts.append(("problem", problem.htmlEscaped)) }
        if page.redirectCount > 0 { facts.append(("redirects", "\(page.redirectCount)")) }
        return "<dl class=\"facts\">" + facts.map { "<dt>\($0.0)</dt><dd>\($0.1)</dd>" }.joined() + "</dl>\n"
    }

    /// The search result as Spotlight would show it: thumbnail, title, description, where it goes,
    /// rating stars, and call and directions actions when the attribute set supports them.
    func preview(_ page: ReportPage, _ attributes: AttributeSet) -> String {
        var html = "<div class=\"preview\" role=\"group\" aria-label=\"search result preview\"><div class=\"thumb\">"
        if let thumbnail = attributes.thumbnailURL {
            if let source = HTMLEscaping.safeURL(thumbnail) {
                // Loaded by the script when the details open: opening the report fetches nothing.
                html +=
                    "<img data-src=\"\(source)\" alt=\"\" referrerpolicy=\"no-referrer\" width=\"96\" height=\"96\">"
            } else {
                html += "<span class=\"nothumb\" title=\"not an http(s) URL\">thumbnail not shown</span>"
            }
        } else {
            html += "<span class=\"nothumb\">no thumbnail</span>"
        }
        html += "</div><div class=\"text\"><p class=\"ptitle\">\((page.title ?? "(no title)").htmlEscaped)</p>"
        if let description = attributes.contentDescription {
            html += "<p class=\"pdesc\">\(description.htmlEscaped)</p>"
        }
        html += "<p class=\"purl\">\((attributes.url ?? page.finalURL).htmlEscaped)</p>"
        if let rating = attributes.rating, rating.isFinite {
            html += ratingHTML(rating, attributes.ratingDescription)
        }
        html += actions(attributes)
        return html + "</div></div>\n"
    }

    func ratingHTML(_ rating: Double, _ description: String?) -> String {
        let clamped = min(max(rating, 0), 5)
        let full = clampedInt(clamped.rounded())
        let stars = String(repeating: "\u{2605}", count: full) + String(repeating: "\u{2606}", count: 5 - full)
        var html =
            "<p class=\"rating\"><span class=\"stars\" aria-hidden=\"true\">\(stars)</span> \(Self.decimal(rating))"
        if let description { html += " · \(description.htmlEscaped)" }
        return html + "</p>"
    }

    /// Call and Directions, as labels (never `tel:` or map links).
    func actions(_ attributes: AttributeSet) -> String {
        var buttons: [String] = []
        if attributes.supportsPhoneCall == true {
            buttons.append(
                "<span class=\"action\">\u{260E} Call \((attributes.phoneNumbers.first ?? "").htmlEscaped)</span>")
        }
        if attributes.supportsNavigation == true {
            let place = [attributes.latitude, attributes.longitude].compactMap { $0.map(Self.number) }.joined(
                separator: ", ")
            buttons.append("<span class=\"action\">\u{27A4} Directions \(place.htmlEscaped)</span>")
        }
        return buttons.isEmpty ? "" : "<p class=\"actions\">\(buttons.joined(separator: " "))</p>"
    }

    /// Whether the page can reach the public index; for a non-candidate, each failing condition
    /// in words, linked to the finding that reports it.
    func candidacy(_ page: ReportPage) -> String {
        guard let isCandidate = page.isCandidate else { return "" }
        if isCandidate { return "<p class=\"verdict yes\">A public-index candidate: every condition holds.</p>\n" }
        let rules = Set(page.ruleIDs)
        let failing = page.failingConditions.map { condition -> String in
            let words = condition.explanation.htmlEscaped
            let rule = condition.rule.rawValue
            guard rules.contains(rule) else { return words }
            return "<a href=\"#\(Self.findingAnchor(page, rule: rule))\">\(words)</a>"
        }
        return
            "<p class=\"verdict no\">Not a public-index candidate: \(failing.isEmpty ? "no reason recorded" : failing.joined(separator: "; ")).</p>\n"
    }

    /// `f3-IX006`: page 3's first finding of a rule.
    static func findingAnchor(_ page: ReportPage, rule: String) -> String {
        "f\(page.number)-\(String(rule.filter { $0.isLetter || $0.isNumber }))"
    }

    func deepLinks(_ page: ReportPage) -> String {
        var html = "<h4>Deep links (\(page.deepLinks.count))</h4>\n"
        if page.deepLinks.isEmpty {
            html += "<p class=\"muted\">None.</p>\n"
        } else {
            html += "<table class=\"grid\"><thead><tr><th>link</th><th>from</th><th>line</th></tr></thead><tbody>"
            for link in page.deepLinks {
                html += "<tr><td><code>\(link.url.htmlEscaped)</code></td>"
                html += "<td>\(link.source.source.htmlEscaped)</td><td>\(link.source.line)</td></tr>"
            }
            html += "</tbody></table>\n"
        }
        if let verdict = page.universalLink {
            html += "<p class=\"ul\"><b>Canonical URL as a universal link:</b> \(verdict.htmlEscaped)</p>\n"
        }
        return html
    }

    /// Every attribute-set value with where it came from and the values it won over.
    func attributeTable(_ page: ReportPage) -> String {
        // The set's fields as Core Spotlight names them, in its order, absent ones left out.
        let attributes = page.attributeSet?.json ?? JSONObject()
        guard !attributes.isEmpty else { return "" }
        var provenance: [String: Provenance] = [:]
        for entry in page.provenance { provenance[entry.field] = entry }
        var html = "<h4>Attribute set and provenance</h4>\n<table class=\"grid attrs\"><thead><tr><th>attribute</th>"
        html += "<th>value</th><th>from</th><th>also found</th></tr></thead><tbody>"
        for member in attributes {
            let entry = provenance[member.key]
            html += "<tr><th>\(member.key.htmlEscaped)</th><td>\(member.value.displayText.htmlEscaped)</td><td>"
            if let entry { html += origin(entry.chosen.source) }
            html += "</td><td>"
            let conflicting = entry?.conflicting ?? []
            html += conflicting.map {
                "\(Self.shortened($0.value).htmlEscaped) <span class=\"muted\">(\(origin($0.source)))</span>"
            }
            .joined(separator: "<br>")
            html += "</td></tr>"
        }
        return html + "</tbody></table>\n"
    }

    /// At most `limit` characters, with an ellipsis when cut (report.json has the whole value).
    static func shortened(_ text: String, limit: Int = 160) -> String {
        text.count <= limit ? text : text.prefix(limit) + "\u{2026}"
    }

    /// `source, line N`, escaped.
    func origin(_ value: ValueSource) -> String {
        let source = value.source.htmlEscaped
        guard value.line > 0 else { return source }
        return "\(source), line \(value.line)"
    }

    /// A number as report.json writes it (`2` for 2.0, `1.5`).
    static func number(_ value: Double) -> String {
        JSONValue(value).displayText
    }
}
