import LenientJSON
public import ReportModel
import Rulebook

/// The self-contained HTML report of a crawl (or `validate`) from its typed report: the
/// `PageReport` of each page and the `CrawlReport` or `ValidationReport` around them (issue 6 §1,
/// issue 15 §6, issue 30 §3): what to fix first (the errors by rule, with titles, pages and fixes), an overview
/// with SVG charts, the app's association files, coverage, and the pages, once each, most severe
/// first, sortable and filterable, each opening to a search-result preview, deep links, findings
/// with their fixes, candidacy and the provenance of every attribute-set value.
/// docs/html-report.md describes it.
///
/// Pages are hostile: every string from the report is escaped (``HTMLEscaping``), only http(s)
/// URLs reach `href`/`src`, no data reaches the script (it reads `data-*` attributes the DOM
/// already has), and a Content-Security-Policy admits only the report's own style and script by
/// their SHA-256.
public struct HTMLReport: Sendable {
    /// What the document shows around the pages: a crawl's report, or `validate`'s.
    public enum Source: Sendable {
        case crawl(CrawlReport)
        case validation(ValidationReport)
    }

    public let report: Source
    /// The pages `render` shows, in report order (`HTMLReportStream` is handed a crawl's one at a
    /// time instead).
    public let pages: [PageReport]

    /// At most this many URLs per coverage list; the rest are counted (report.json has them all).
    public var coverageListLimit = 200

    /// What changed since an earlier crawl (`crawl --baseline OLD`), shown after the overview.
    public var baseline: ReportDiff?

    /// A crawl's report: `report` around `pages` (report.json's `pages`, in order).
    public init(crawl report: CrawlReport, pages: [PageReport] = []) {
        self.report = .crawl(report)
        self.pages = pages
    }

    /// `validate`'s report, its pages included.
    public init(validation report: ValidationReport) {
        self.report = .validation(report)
        self.pages = report.pages
    }

    /// The whole document.
    public var html: String {
        var document = ""
        render { document += $0 }
        return document
    }

    /// Emits the document in pieces (the head, each section, each page), in order, so a 5,000-page
    /// report is written as it is made. A crawl writes the same document from its one report pass
    /// with `HTMLReportStream`.
    public func render(_ emit: (String) -> Void) {
        let pages = self.pages.enumerated().map { ReportPage(index: $0.offset, report: $0.element) }
        var tally = PageTally()
        var glossary = RuleGlossary()
        for page in pages {
            tally.add(page)
            for finding in page.findings { glossary.add(finding, page: page.number) }
        }
        let links = linkedEntries
        emitDocument(tally: tally, glossary: glossary, emit: emit) { emitPage in
            for page in pages.sorted(by: ReportPage.listedBefore) {
                let linked = links.map { $0[page.finalURL] ?? [] }
                emitPage(
                    pageStart(page) + linkedAttribute(linked) + pageMiddle(page) + linkedSection(linked)
                        + pageEnd(page, glossary: glossary))
            }
        }
    }

    /// The document around its pages: `pages` emits each page of the page list (open tag,
    /// summary, details), most severe first; `tally` and `glossary` were gathered from the pages
    /// (the site findings are added to the glossary here).
    func emitDocument(
        tally: PageTally, glossary: RuleGlossary, emit: (String) -> Void, pages: ((String) -> Void) throws -> Void
    ) rethrows {
        var glossary = glossary
        for finding in siteFindings { glossary.add(finding) }
        emit(head)
        emit(header(pageCount: tally.pages))
        emit("<main>\n")
        emit(fixFirstSection(glossary))
        emit(overview(tally, glossary: glossary))
        if let baseline { emit(baselineSection(baseline)) }
        emit(appSection(tally))
        emit(coverageSection)
        emit(siteFindingsSection(siteFindings, glossary: glossary))
        emit(rulesSection(glossary))
        emit(pageListStart(pageCount: tally.pages, glossary: glossary, hasLinking: linkedEntries != nil))
        try withoutActuallyEscaping(emit) { try pages($0) }
        emit(pageListEnd)
        emit("</main>\n")
        emit("<script>\(HTMLAssets.script)</script>\n</body>\n</html>\n")
    }

    /// The app's local entries linked to each page (`crawl --items`/`--index`): page URL → (entry,
    /// key that matched); nil when the report has no linking.
    var linkedEntries: [String: [(entry: String, key: String)]]? {
        guard let links = crawl?.linking?.links else { return nil }
        var byPage: [String: [(entry: String, key: String)]] = [:]
        for link in links { byPage[link.page, default: []].append((link.entry, link.key)) }
        return byPage
    }

    // MARK: - The report around the pages

    /// The crawl's report; nil for `validate`'s.
    var crawl: CrawlReport? {
        if case .crawl(let report) = report { report } else { nil }
    }

    /// The findings about the whole site (a crawl's site rules, `validate`'s rules over the pages).
    var siteFindings: [Finding] {
        switch report {
        case .crawl(let report): report.siteFindings
        case .validation(let report): report.siteFindings
        }
    }

    /// Every finding by severity, as the report's summary counts them.
    var findingTotals: FindingTotals {
        switch report {
        case .crawl(let report): report.summary.findings
        case .validation(let report): report.summary.findings
        }
    }

    /// The pages the report's summary counts.
    var pageTotal: Int {
        switch report {
        case .crawl(let report): report.summary.pages
        case .validation(let report): report.summary.pages
        }
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
        switch report {
        case .crawl(let report): report.crawl.publicOrigin ?? report.crawl.seed
        case .validation(let report): report.inputs.joined(separator: " ")
        }
    }

    func header(pageCount: Int) -> String {
        var facts: [String]
        switch report {
        case .crawl(let report): facts = ["crawl report", "generated \(report.generatedAt)"]
        case .validation(let report): facts = ["validate report", "generated \(report.generatedAt)"]
        }
        if let origin = crawledFrom { facts.append(origin) }
        facts.append("report.json schema \(ReportModel.ReportFormat.schemaVersion)")
        return """
            <header class="top">
            <h1>SpotCheck <span class="site">\(siteName.htmlEscaped)</span></h1>
            <p class="facts">\(facts.map(\.htmlEscaped).joined(separator: " · "))</p>
            <nav><a href="#fix-first">Fix first</a> <a href="#overview">Overview</a> <a href="#app">App</a> \
            <a href="#coverage">Coverage</a> <a href="#site-findings">Site findings</a> <a href="#rules">Rules</a> \
            <a href="#pages">Pages (\(pageCount))</a></nav>
            </header>

            """
    }

    /// Where the pages came from, when it is not the site's name: the folder a `crawl FOLDER`
    /// served, or a seed that differs from the public origin. A loopback seed (the embedded
    /// server's, or a test server's) says nothing the reader can use, so it is left out.
    var crawledFrom: String? {
        guard let run = crawl?.crawl else { return nil }
        if let folder = run.sourceFolder, !folder.isEmpty {
            return "pages from the folder \(folder)"
        }
        let seed = run.seed
        guard seed != siteName, !Self.isLoopback(seed) else {
            return nil
        }
        return "fetched from \(seed)"
    }

    /// Whether an http(s) URL names a loopback host (`localhost`, `127.x.x.x`, `[::1]`).
    static func isLoopback(_ url: String) -> Bool {
        let lowered = url.lowercased()
        guard let scheme = lowered.range(of: "://") else { return false }
        var authority = lowered[scheme.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        if authority.hasPrefix("[") { return authority.hasPrefix("[::1]") }
        let host = authority.prefix { $0 != ":" }
        return host == "localhost" || host.hasSuffix(".localhost") || host.hasPrefix("127.")
    }

    // MARK: - Overview

    func overview(_ tally: PageTally, glossary: RuleGlossary) -> String {
        // validate's summary counts neither candidates nor statuses, rules or skipped URLs.
        let summary = crawl?.summary
        let counts = SeverityCounts(findingTotals)
        let candidates = summary?.candidates ?? tally.candidates
        var tiles = [
            Tile(label: "pages", value: pageTotal, kind: "pages"),
            Tile(label: "candidates", value: candidates, kind: "candidate"),
            Tile(label: "\(Self.icon("error")) errors", value: counts.error, kind: "error"),
            Tile(label: "\(Self.icon("warning")) warnings", value: counts.warning, kind: "warning"),
            Tile(label: "\(Self.icon("info")) info", value: counts.info, kind: "info"),
        ]
        if let skipped = summary?.skipped {
            tiles.append(Tile(label: "not crawled", value: skipped.values.reduce(0, +), kind: "skipped"))
        }
        var html = "<section id=\"overview\">\n<h2>Overview</h2>\n<div class=\"tiles\">"
        html += tiles.map(\.html).joined()
        html += "</div>\n<div class=\"charts\">\n"
        html += figure(
            "Findings by severity",
            SVGChart.bars(
                ["error", "warning", "info"].map {
                    .init(
                        label: Self.severityLabel($0),
                        value: [counts.error, counts.warning, counts.info][Self.rank($0)], kind: $0)
                }))
        html += figure("Response time", SVGChart.histogram(ResponseTimeBins(tally.responseSeconds)))
        html += figure(
            "Findings by rule (most severe first)",
            SVGChart.bars(
                ruleBars(summary?.findings.byRule ?? [:], glossary: glossary), width: SVGChart.wideWidth,
                labelWidth: SVGChart.wideLabelWidth),
            wide: true)
        html += figure("HTTP status", SVGChart.bars(countBars(summary?.byStatus ?? [:], kind: "status")))
        if let reasons = summary?.notCandidatesBecause, !reasons.isEmpty {
            html += figure("Not candidates because", SVGChart.bars(countBars(reasons, kind: "warning")))
        }
        html += "</div>\n</section>\n"
        return html
    }

    func figure(_ caption: String, _ svg: String, wide: Bool = false) -> String {
        "<figure class=\"chart\(wide ? " wide" : "")\"><figcaption>\(caption.htmlEscaped)</figcaption>\(svg)</figure>\n"
    }

    /// The rules of `summary.findings.byRule`, errors first, then warnings, then info, each
    /// level most findings first, at most `shownRules` bars (the others summed in a last bar);
    /// each labelled with its severity's symbol, its id and its title, and coloured by severity
    /// (from the findings, else the catalogue).
    func ruleBars(_ byRule: [String: Int], glossary: RuleGlossary) -> [SVGChart.Bar] {
        let counted = byRule.map { (rule: $0.key, count: $0.value, severity: severity(of: $0.key, glossary)) }
        let sorted = counted.sorted { a, b in
            let (rankA, rankB) = (Self.rank(a.severity), Self.rank(b.severity))
            if rankA != rankB { return rankA < rankB }
            return a.count != b.count ? a.count > b.count : a.rule < b.rule
        }
        var bars = sorted.prefix(Self.shownRules).map {
            let title = RuleGlossary.title($0.rule)
            let label = "\(Self.icon($0.severity)) \($0.rule)" + (title.isEmpty ? "" : " \(title)")
            return SVGChart.Bar(label: label, value: $0.count, kind: $0.severity, shortLabel: 78)
        }
        if sorted.count > Self.shownRules {
            let rest = sorted.dropFirst(Self.shownRules)
            bars.append(
                SVGChart.Bar(label: "\(rest.count) other rules", value: rest.map(\.count).reduce(0, +), kind: "status"))
        }
        return bars
    }

    /// A rule's severity: its findings', else the catalogue's, else info.
    func severity(of rule: String, _ glossary: RuleGlossary) -> String {
        Self.severityClass(glossary.entries[rule]?.severity ?? RuleCatalogue.rule(rule)?.severity.rawValue)
    }

    /// Bars in the findings-by-rule chart; the page list's rule filter lists every rule found on a page.
    static let shownRules = 40

    /// One bar per key, in key order (report.json's order).
    func countBars(_ counts: [String: Int], kind: String) -> [SVGChart.Bar] {
        counts.sorted { $0.key < $1.key }.map { SVGChart.Bar(label: $0.key, value: $0.value, kind: kind) }
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

/// How many items of each coverage list (skipped URLs, sitemap locations not crawled, pages in no
/// sitemap, stale pages) a crawl's report.json lists; its summary counts them all, and the crawl's
/// store keeps them all (issue 35 §2: ten sitemaps of 50,000 URLs made a 978 MB report.json).
public enum CoverageListing {
    public static let limit = 1_000
}
