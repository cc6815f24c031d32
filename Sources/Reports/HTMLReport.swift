public import LenientJSON

/// The self-contained HTML report of a crawl (or `validate`) from its `report.json` (issue 6 §1):
/// an overview with SVG charts, the app's association files, coverage, a sortable and filterable
/// page table and, per page, a search-result preview, deep links, findings, candidacy and the
/// provenance of every attribute-set value. docs/html-report.md describes it.
///
/// Pages are hostile: every string from the report is escaped (``HTMLEscaping``), only http(s)
/// URLs reach `href`/`src`, no data reaches the script (it reads `data-*` attributes the DOM
/// already has), and a Content-Security-Policy admits only the report's own style and script by
/// their SHA-256.
public struct HTMLReport: Sendable {
    public let report: JSONValue

    /// At most this many URLs per coverage list; the rest are counted (report.json has them all).
    public var coverageListLimit = 200

    /// What changed since an earlier crawl (`crawl --baseline OLD`), shown after the overview.
    public var baseline: ReportDiff?

    public init(report: JSONValue) {
        self.report = report
    }

    /// The whole document.
    public var html: String {
        var document = ""
        render { document += $0 }
        return document
    }

    /// Emits the document in pieces (the head, each overview section, each page), in order, so
    /// a 5,000-page report is written as it is made. A crawl writes the same document from its one
    /// report pass with `HTMLReportStream`.
    public func render(_ emit: (String) -> Void) {
        let pages = (report["pages"]?.arrayValue ?? []).enumerated().map {
            ReportPage(index: $0.offset, json: $0.element)
        }
        var tally = PageTally()
        var glossary = RuleGlossary([])
        for page in pages {
            tally.add(page)
            for finding in page.findings { glossary.add(finding) }
        }
        let links = linkedEntries
        emitDocument(tally: tally, glossary: glossary, emit: emit) { emitRow in
            for page in pages {
                let linked = links.map { $0[page.finalURL] ?? [] }
                emitRow(rowStart(page) + linkedAttribute(linked) + rowRest(page))
            }
        } details: { emitDetails in
            for page in pages {
                let linked = links.map { $0[page.finalURL] ?? [] }
                emitDetails(detailsHead(page) + linkedSection(linked) + detailsTail(page, glossary: glossary))
            }
        }
    }

    /// The document around its pages: `rows` and `details` emit each page's table row and details,
    /// in order; `tally` and `glossary` were gathered from the pages (the glossary before the site
    /// findings are added to it here, as the page findings come first).
    func emitDocument(
        tally: PageTally, glossary: RuleGlossary, emit: (String) -> Void, rows: ((String) -> Void) throws -> Void,
        details: ((String) -> Void) throws -> Void
    ) rethrows {
        emit(head)
        emit(header(pageCount: tally.pages))
        emit("<main>\n")
        emit(overview(tally))
        if let baseline { emit(baselineSection(baseline)) }
        emit(appSection(tally))
        emit(coverageSection)
        let siteFindings = report["siteFindings"]?.arrayValue ?? []
        var glossary = glossary
        for finding in siteFindings { glossary.add(finding) }
        emit(siteFindingsSection(siteFindings))
        emit(rulesSection(glossary))
        emit(pageTableStart(pageCount: tally.pages, rules: tally.ruleIDs.sorted(), hasLinking: linkedEntries != nil))
        try withoutActuallyEscaping(emit) { try rows($0) }
        emit(pageTableEnd)
        emit("<section id=\"details\">\n<h2>Pages in detail</h2>\n")
        try withoutActuallyEscaping(emit) { try details($0) }
        emit("</section>\n</main>\n")
        emit("<script>\(HTMLAssets.script)</script>\n</body>\n</html>\n")
    }

    /// The app's local entries linked to each page (`crawl --items`/`--index`): page URL → (entry,
    /// key that matched); nil when the report has no linking.
    var linkedEntries: [String: [(entry: String, key: String)]]? {
        guard let links = report["linking"]?["links"]?.arrayValue else { return nil }
        var byPage: [String: [(entry: String, key: String)]] = [:]
        for link in links {
            guard let page = link["page"]?.stringValue else { continue }
            byPage[page, default: []].append((link["entry"]?.stringValue ?? "", link["key"]?.stringValue ?? ""))
        }
        return byPage
    }

    // MARK: - Head and header

    var head: String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta http-equiv="Content-Security-Policy" content="\(HTMLAssets.contentSecurityPolicy)">
        <meta name="referrer" content="no-referrer">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>SpotCheck report – \(siteName.htmlEscaped)</title>
        <style>\(HTMLAssets.style)</style>
        </head>
        <body>

        """
    }

    /// The public origin, else the seed, else the validated inputs.
    var siteName: String {
        report["crawl"]?["publicOrigin"]?.stringValue ?? report["crawl"]?["seed"]?.stringValue
            ?? report["inputs"]?.arrayValue?.compactMap(\.stringValue).joined(separator: " ") ?? "pages"
    }

    func header(pageCount: Int) -> String {
        var facts = ["\(report["kind"]?.stringValue ?? "validate") report"]
        if let generated = report["generatedAt"]?.stringValue { facts.append("generated \(generated)") }
        if let seed = report["crawl"]?["seed"]?.stringValue, seed != siteName { facts.append("fetched from \(seed)") }
        if let version = report["schemaVersion"]?.intValue { facts.append("report.json schema \(version)") }
        return """
            <header class="top">
            <h1>SpotCheck <span class="site">\(siteName.htmlEscaped)</span></h1>
            <p class="facts">\(facts.map(\.htmlEscaped).joined(separator: " · "))</p>
            <nav><a href="#overview">Overview</a> <a href="#app">App</a> <a href="#coverage">Coverage</a> \
            <a href="#site-findings">Site findings</a> <a href="#rules">Rules</a> <a href="#pages">Pages (\(pageCount))</a></nav>
            </header>

            """
    }

    // MARK: - Overview

    func overview(_ tally: PageTally) -> String {
        let summary = report["summary"]
        let findings = summary?["findings"]
        let counts = SeverityCounts(
            error: findings?["error"]?.intValue ?? 0, warning: findings?["warning"]?.intValue ?? 0,
            info: findings?["info"]?.intValue ?? 0)
        let candidates = summary?["candidates"]?.intValue ?? tally.candidates
        var tiles = [
            Tile(label: "pages", value: summary?["pages"]?.intValue ?? tally.pages, kind: "pages"),
            Tile(label: "candidates", value: candidates, kind: "candidate"),
            Tile(label: "errors", value: counts.error, kind: "error"),
            Tile(label: "warnings", value: counts.warning, kind: "warning"),
            Tile(label: "info", value: counts.info, kind: "info"),
        ]
        if let skipped = summary?["skipped"]?.objectValue {
            tiles.append(
                Tile(label: "not crawled", value: skipped.values.compactMap(\.intValue).reduce(0, +), kind: "skipped"))
        }
        var html = "<section id=\"overview\">\n<h2>Overview</h2>\n<div class=\"tiles\">"
        html += tiles.map(\.html).joined()
        html += "</div>\n<div class=\"charts\">\n"
        html += figure(
            "Findings by severity",
            SVGChart.bars([
                .init(label: "error", value: counts.error, kind: "error"),
                .init(label: "warning", value: counts.warning, kind: "warning"),
                .init(label: "info", value: counts.info, kind: "info"),
            ]))
        html += figure("Response time", SVGChart.histogram(ResponseTimeBins(tally.responseSeconds)))
        html += figure("Findings by rule", SVGChart.bars(ruleBars(findings?["byRule"]?.objectValue)))
        html += figure("HTTP status", SVGChart.bars(countBars(summary?["byStatus"]?.objectValue, kind: "status")))
        if let reasons = summary?["notCandidatesBecause"]?.objectValue, !reasons.isEmpty {
            html += figure("Not candidates because", SVGChart.bars(countBars(reasons, kind: "warning")))
        }
        html += "</div>\n</section>\n"
        return html
    }

    func figure(_ caption: String, _ svg: String) -> String {
        "<figure class=\"chart\"><figcaption>\(caption.htmlEscaped)</figcaption>\(svg)</figure>\n"
    }

    /// The rules, most findings first, at most `shownRules` bars; the others summed in a last bar.
    func ruleBars(_ byRule: JSONObject?) -> [SVGChart.Bar] {
        let sorted = (byRule ?? JSONObject()).compactMap { member in member.value.intValue.map { (member.key, $0) } }
            .sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }
        var bars = sorted.prefix(Self.shownRules).map { SVGChart.Bar(label: $0.0, value: $0.1, kind: "rule") }
        if sorted.count > Self.shownRules {
            let rest = sorted.dropFirst(Self.shownRules)
            bars.append(
                SVGChart.Bar(label: "\(rest.count) other rules", value: rest.map(\.1).reduce(0, +), kind: "status"))
        }
        return bars
    }

    /// Bars in the findings-by-rule chart; the page table's rule filter lists every rule.
    static let shownRules = 15

    func countBars(_ counts: JSONObject?, kind: String) -> [SVGChart.Bar] {
        (counts ?? JSONObject()).compactMap { member in
            member.value.intValue.map { SVGChart.Bar(label: member.key, value: $0, kind: kind) }
        }
    }

    struct Tile {
        let label: String
        let value: Int
        let kind: String

        var html: String {
            "<div class=\"tile \(kind)\"><span class=\"n\">\(value)</span> <span class=\"l\">\(label.htmlEscaped)</span></div>"
        }
    }
}

extension String {
    /// The string escaped for HTML text and quoted attribute values.
    var htmlEscaped: String { HTMLEscaping.escape(self) }
}

extension JSONValue {
    /// The value as text for the report: strings as they are, arrays joined with ", ", numbers as
    /// written, booleans as yes/no, objects as compact JSON. Not escaped.
    var displayText: String {
        switch self {
        case .null: ""
        case .bool(let value): value ? "yes" : "no"
        case .number(let literal): literal
        case .string(let string): string
        case .array(let values): values.map(\.displayText).joined(separator: ", ")
        case .object: serialized(pretty: false)
        }
    }
}
