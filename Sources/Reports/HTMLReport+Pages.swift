import LenientJSON

/// The page table and each page's details.
extension HTMLReport {
    // MARK: - Page table

    func pageTableStart(pageCount: Int, rules: [String], hasLinking: Bool = false) -> String {
        var html = "<section id=\"pages\">\n<h2>Pages (\(pageCount))</h2>\n"
        // Without JavaScript the form stays hidden and the whole table shows.
        html += "<form id=\"filters\" class=\"filters\" hidden>"
        html += select(
            "severity", "Severity",
            [
                ("", "any"), ("error", "has errors"), ("warning", "has warnings"), ("info", "has info"),
                ("none", "no findings"),
            ])
        html += select("rule", "Rule", [("", "any")] + rules.map { ($0, $0) })
        html += select(
            "candidate", "Candidate", [("", "any"), ("yes", "yes"), ("no", "no"), ("unknown", "not analysed")])
        if hasLinking {
            html += select("linked", "Local item", [("", "any"), ("yes", "linked"), ("no", "none")])
        }
        html += "<label>URL contains <input type=\"search\" name=\"q\" autocomplete=\"off\"></label>"
        html += " <output id=\"shown\" aria-live=\"polite\"></output></form>\n"
        html += "<table id=\"page-table\" class=\"grid pages\"><thead><tr>"
        html += "<th data-sort=\"num\">#</th><th data-sort=\"text\">page</th><th data-sort=\"num\">HTTP</th>"
        html += "<th data-sort=\"num\">ms</th><th data-sort=\"num\">findings</th><th data-sort=\"text\">candidate</th>"
        html += "</tr></thead>\n<tbody>\n"
        return html
    }

    var pageTableEnd: String { "</tbody></table>\n</section>\n" }

    func select(_ name: String, _ label: String, _ options: [(value: String, text: String)]) -> String {
        let items = options.map { "<option value=\"\($0.value.htmlEscaped)\">\($0.text.htmlEscaped)</option>" }
        return "<label>\(label) <select name=\"\(name)\">\(items.joined())</select></label> "
    }

    /// A page's table row is `rowStart`, the linked attribute (local items), `rowRest`.
    func rowStart(_ page: ReportPage) -> String {
        let counts = page.counts
        return "<tr data-severities=\"\(counts.present.isEmpty ? "none" : counts.present)\""
    }

    func linkedAttribute(_ linked: [(entry: String, key: String)]?) -> String {
        guard let linked else { return "" }
        return " data-linked=\"\(linked.isEmpty ? "no" : "yes")\""
    }

    func rowRest(_ page: ReportPage) -> String {
        let counts = page.counts
        let candidate = page.isCandidate.map { $0 ? "yes" : "no" } ?? "unknown"
        var html = " data-rules=\"\(page.ruleIDs.joined(separator: " ").htmlEscaped)\" data-candidate=\"\(candidate)\""
        html += " data-url=\"\(page.url.lowercased().htmlEscaped)\">"
        html += "<td data-v=\"\(page.index + 1)\">\(page.index + 1)</td>"
        html += "<td><a href=\"#\(page.anchor)\">\(page.url.htmlEscaped)</a>"
        if let title = page.title {
            html += "<br><span class=\"muted\">\(title.prefix(140).description.htmlEscaped)</span>"
        }
        html += "</td><td data-v=\"\(page.status ?? 0)\">\(page.status.map(String.init) ?? "–")</td>"
        let milliseconds = page.totalSeconds.map { $0 * 1000 }
        html += "<td data-v=\"\(milliseconds.map(Self.decimal) ?? "-1")\">\(milliseconds.map(Self.decimal) ?? "–")</td>"
        let weight = counts.error * 1_000_000 + counts.warning * 1_000 + counts.info
        html += "<td data-v=\"\(weight)\">\(badges(counts))</td>"
        html += "<td class=\"cand \(candidate)\">\(candidate == "unknown" ? "–" : candidate)</td></tr>\n"
        return html
    }

    func badges(_ counts: SeverityCounts) -> String {
        guard counts.total > 0 else { return "<span class=\"muted\">no findings</span>" }
        return [("error", counts.error, "E"), ("warning", counts.warning, "W"), ("info", counts.info, "I")]
            .filter { $0.1 > 0 }
            .map {
                "<span class=\"badge \($0.0)\" title=\"\($0.1) \($0.0)\($0.1 == 1 ? "" : "s")\">\($0.1)\u{2009}\($0.2)</span>"
            }
            .joined(separator: " ")
    }

    /// One decimal, without Foundation's formatter.
    static func decimal(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(abs(tenths % 10))"
    }

    // MARK: - Page details

    /// A page's details are `detailsHead`, its local items (`linkedSection`), `detailsTail`.
    func detailsHead(_ page: ReportPage) -> String {
        let counts = page.counts
        var html = "<details class=\"page\" id=\"\(page.anchor)\"><summary>"
        html += "<span class=\"n\">\(page.index + 1)</span> \(badges(counts)) <code>\(page.url.htmlEscaped)</code>"
        if let candidate = page.isCandidate {
            html +=
                candidate
                ? " <span class=\"pill yes\">candidate</span>" : " <span class=\"pill no\">not a candidate</span>"
        }
        html += "</summary>\n<div class=\"body\">\n"
        html += pageFacts(page)
        if !page.attributeSet.isEmpty { html += preview(page) }
        html += candidacy(page)
        html += deepLinks(page)
        return html
    }

    func linkedSection(_ linked: [(entry: String, key: String)]?) -> String {
        guard let linked else { return "" }
        return "<h4>Local items (\(linked.count))</h4>\n"
            + (linked.isEmpty
                ? "<p class=\"muted\">No item or activity of the app has this page's URL.</p>\n"
                : "<ul>"
                    + linked.map { "<li><code>\($0.entry.htmlEscaped)</code> by \($0.key.htmlEscaped)</li>" }.joined()
                    + "</ul>\n")
    }

    func detailsTail(_ page: ReportPage, glossary: RuleGlossary) -> String {
        let counts = page.counts
        var html = "<h4>Findings (\(counts.total))</h4>\n"
        html +=
            page.findings.isEmpty
            ? "<p class=\"muted\">None.</p>\n" : page.findings.map { findingHTML($0, glossary: glossary) }.joined()
        html += attributeTable(page)
        return html + "<p><a href=\"#pages\">back to the table</a></p></div></details>\n"
    }

    func pageFacts(_ page: ReportPage) -> String {
        var facts: [(String, String)] = [("URL", link(page.url))]
        if page.finalURL != page.url { facts.append(("final URL", link(page.finalURL))) }
        if let status = page.status { facts.append(("HTTP", "\(status)")) }
        if let seconds = page.totalSeconds { facts.append(("time", "\(Self.decimal(seconds * 1000)) ms")) }
        if let problem = page.problem { facts.append(("problem", problem.htmlEscaped)) }
        let redirects = page.json["redirects"]?.arrayValue ?? []
        if !redirects.isEmpty { facts.append(("redirects", "\(redirects.count)")) }
        return "<dl class=\"facts\">" + facts.map { "<dt>\($0.0)</dt><dd>\($0.1)</dd>" }.joined() + "</dl>\n"
    }

    /// The search result as Spotlight would show it: thumbnail, title, description, where it goes,
    /// rating stars, and call and directions actions when the attribute set supports them.
    func preview(_ page: ReportPage) -> String {
        let attributes = page.attributeSet
        var html = "<div class=\"preview\" role=\"group\" aria-label=\"search result preview\"><div class=\"thumb\">"
        if let thumbnail = attributes["thumbnailURL"]?.stringValue {
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
        if let description = attributes["contentDescription"]?.stringValue {
            html += "<p class=\"pdesc\">\(description.htmlEscaped)</p>"
        }
        html += "<p class=\"purl\">\((attributes["url"]?.stringValue ?? page.finalURL).htmlEscaped)</p>"
        if let rating = attributes["rating"]?.numberValue {
            html += ratingHTML(rating, attributes["ratingDescription"]?.stringValue)
        }
        html += actions(attributes)
        return html + "</div></div>\n"
    }

    func ratingHTML(_ rating: Double, _ description: String?) -> String {
        let clamped = min(max(rating, 0), 5)
        let full = Int(clamped.rounded())
        let stars = String(repeating: "\u{2605}", count: full) + String(repeating: "\u{2606}", count: 5 - full)
        var html =
            "<p class=\"rating\"><span class=\"stars\" aria-hidden=\"true\">\(stars)</span> \(Self.decimal(rating))"
        if let description { html += " · \(description.htmlEscaped)" }
        return html + "</p>"
    }

    /// Call and Directions, as labels (never `tel:` or map links).
    func actions(_ attributes: JSONObject) -> String {
        var buttons: [String] = []
        let phones = attributes["phoneNumbers"]?.arrayValue?.compactMap(\.stringValue) ?? []
        if attributes["supportsPhoneCall"]?.boolValue == true || attributes["supportsPhoneCall"]?.intValue == 1 {
            buttons.append("<span class=\"action\">\u{260E} Call \((phones.first ?? "").htmlEscaped)</span>")
        }
        if attributes["supportsNavigation"]?.boolValue == true || attributes["supportsNavigation"]?.intValue == 1 {
            let place = [attributes["latitude"], attributes["longitude"]].compactMap { $0?.displayText }.joined(
                separator: ", ")
            buttons.append("<span class=\"action\">\u{27A4} Directions \(place.htmlEscaped)</span>")
        }
        return buttons.isEmpty ? "" : "<p class=\"actions\">\(buttons.joined(separator: " "))</p>"
    }

    func candidacy(_ page: ReportPage) -> String {
        guard let isCandidate = page.isCandidate else { return "" }
        if isCandidate { return "<p class=\"verdict yes\">A public-index candidate: every condition holds.</p>\n" }
        let failing = page.failingConditions.map { "<code>\($0.htmlEscaped)</code>" }.joined(separator: ", ")
        return
            "<p class=\"verdict no\">Not a public-index candidate: \(failing.isEmpty ? "no reason recorded" : failing).</p>\n"
    }

    func deepLinks(_ page: ReportPage) -> String {
        var html = "<h4>Deep links (\(page.deepLinks.count))</h4>\n"
        if page.deepLinks.isEmpty {
            html += "<p class=\"muted\">None.</p>\n"
        } else {
            html += "<table class=\"grid\"><thead><tr><th>link</th><th>from</th><th>line</th></tr></thead><tbody>"
            for link in page.deepLinks {
                html += "<tr><td><code>\((link["url"]?.stringValue ?? "").htmlEscaped)</code></td>"
                html +=
                    "<td>\((link["source"]?.stringValue ?? "").htmlEscaped)</td><td>\(link["line"]?.displayText.htmlEscaped ?? "")</td></tr>"
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
        let attributes = page.attributeSet
        guard !attributes.isEmpty else { return "" }
        var provenance: [String: JSONValue] = [:]
        for entry in page.provenance {
            if let field = entry["field"]?.stringValue { provenance[field] = entry }
        }
        var html = "<h4>Attribute set and provenance</h4>\n<table class=\"grid attrs\"><thead><tr><th>attribute</th>"
        html += "<th>value</th><th>from</th><th>also found</th></tr></thead><tbody>"
        for member in attributes {
            let entry = provenance[member.key]
            html += "<tr><th>\(member.key.htmlEscaped)</th><td>\(member.value.displayText.htmlEscaped)</td><td>"
            if let entry { html += origin(entry) }
            html += "</td><td>"
            let conflicting = entry?["conflicting"]?.arrayValue ?? []
            html += conflicting.map {
                "\(Self.shortened($0["value"]?.stringValue ?? "").htmlEscaped) <span class=\"muted\">(\(origin($0)))</span>"
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
    func origin(_ entry: JSONValue) -> String {
        let source = (entry["source"]?.stringValue ?? "").htmlEscaped
        guard let line = entry["line"]?.intValue, line > 0 else { return source }
        return "\(source), line \(line)"
    }
}
