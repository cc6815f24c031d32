public import CrawlStore
public import Crawling
import Foundation
public import ItemLinking
public import LenientJSON
import MarkupExtraction
public import ReportModel
public import Reports
public import Rulebook
import URLNormalization
public import Verification

/// Writes a crawl's reports from its store in one pass: the stored pages are read once, in order,
/// a batch at a time, and every output consumes that one stream as it goes — report.json's pages,
/// candidates.jsonl, the totals, the pages the site rules and the local-item linking compare, the
/// page findings for SARIF/JUnit/HTML and the console. The site-level results are computed after
/// the pass from what it gathered, and report.json is assembled from its header, the pages written
/// during the pass and its tail. Documented in docs/crawl.md.
public struct CrawlReportWriter: Sendable {
    /// report.json's format version, shared with `validate`'s report.
    public static let schemaVersion = ReportFormat.schemaVersion

    public let store: any CrawlRecordSource
    public let mapping: OriginMapping?
    /// The rules over the whole crawl, with the project's rule configuration.
    public let siteVerifier: SiteVerifier
    /// The app's local items and activities (`--items`, `--index`), joined to the pages.
    public let localEntries: [LocalEntry]?
    /// The instant expiration dates are compared with (seconds since 1970).
    public let now: Double
    /// `--include-markup`: keep every page's full markup dump (JSON-LD, Microdata, RDFa, Open
    /// Graph, links …) in report.json.
    public var includesMarkup = false
    /// `--baseline`: the findings it knows are matched in report order (pages, then the site's),
    /// counted in `summary.baseline`, and left out of `StreamedPage.newFindings` and
    /// `Written.newSiteFindings`; report.json keeps every finding.
    public var baseline: FindingBaseline?
    /// For a served folder: where each page is in it (`PageLocation`), as the outputs name it;
    /// report.json gives it as the page's `file`, or `linkedFrom` for a URL no file answers.
    var pageSource: (@Sendable (PageRecord) -> PageLocation?)?

    public init(
        store: any CrawlRecordSource, mapping: OriginMapping?, siteVerifier: SiteVerifier = SiteVerifier(),
        localEntries: [LocalEntry]? = nil, now: Double = Crawler.wallClock()
    ) {
        self.store = store
        self.mapping = mapping
        self.siteVerifier = siteVerifier
        self.localEntries = localEntries
        self.now = now
    }

    public struct Totals: Sendable, Hashable {
        public var pages = 0
        public var byStatus: [String: Int] = [:]
        public var problems: [String: Int] = [:]
        public var notModified = 0
        public var applebotBlocked = 0
        public var bytes = 0
        /// Pages that are public-index candidates, and the others by failing condition.
        public var candidates = 0
        public var notCandidates: [String: Int] = [:]
        /// Pages never analysed (no HTTP 200 HTML answer), so not candidates either.
        public var notAnalysed = 0
        /// Findings by severity (`error`, `warning`, `info`) and by rule id.
        public var findingsBySeverity: [String: Int] = [:]
        public var findingsByRule: [String: Int] = [:]
        /// The severity each rule was reported with (its configured one).
        public var ruleSeverities: [String: Severity] = [:]
        /// Pages with at least one finding.
        public var pagesWithFindings = 0

        mutating func add(_ page: PageRecord, findings: [Finding]) {
            pages += 1
            byStatus[page.status.map(String.init) ?? "none", default: 0] += 1
            if let kind = page.errorKind { problems[kind, default: 0] += 1 }
            if page.notModified { notModified += 1 }
            if let verdict = page.verdict, verdict.isCandidate != nil {
                if verdict.failingConditions.isEmpty { candidates += 1 }
                for condition in verdict.failingConditions { notCandidates[condition, default: 0] += 1 }
            } else {
                notAnalysed += 1
            }
            if page.applebotAllowed == false { applebotBlocked += 1 }
            bytes += page.bodyBytes
            if !findings.isEmpty { pagesWithFindings += 1 }
            add(findings)
        }

        mutating func add(_ findings: [Finding]) {
            for finding in findings {
                findingsBySeverity[finding.severity.rawValue, default: 0] += 1
                findingsByRule[finding.ruleID, default: 0] += 1
                ruleSeverities[finding.ruleID] = finding.severity
            }
        }
    }

    /// What `write(into:)` wrote: the report's path, its totals, the site-level findings and,
    /// when asked for, every page's findings (for SARIF, JUnit, HTML).
    public struct Written: Sendable {
        public var path: String
        public var totals: Totals
        public var siteFindings: [Finding]
        public var pageFindings: [(url: String, findings: [Finding])]
        /// Page URL → its file, for the pages of a served folder.
        public var sourcePaths: [String: String]
        /// How the findings matched the baseline (nil without one).
        public var baselineMatch: BaselineMatch?
        /// report.json without its pages: the header, summary, site findings, linking, universal
        /// links and coverage (what `index.html` shows around the pages).
        public var reportWithoutPages: JSONValue

        /// The site findings the baseline does not know (all of them without a baseline).
        public var newSiteFindings: [Finding] { siteFindings.filter { !$0.isSuppressed } }
    }

    /// One page as the report pass hands it on: its public URL, its findings and, for a
    /// candidate, the searchable item written to candidates.jsonl.
    public struct StreamedPage: Sendable {
        public var url: String
        /// The file a served folder answered the page from, as the outputs name it.
        public var file: String?
        /// The page's findings, those the baseline knows marked `isSuppressed`.
        public var findings: [Finding]
        public var candidateItem: JSONObject?
        /// The candidacy conditions that fail (`Candidacy.Condition` raw values).
        public var failingConditions: [String]
        /// The page as report.json has it (`PageReport.json`), for the outputs that read its
        /// members (the HTML report, the baseline comparison): built once, never parsed back.
        public var json: JSONObject
        /// The page as every output sees it.
        public var report: PageReport

        /// The findings the baseline does not know (all of them without a baseline).
        public var newFindings: [Finding] { findings.filter { !$0.isSuppressed } }
    }

    /// Writes `report.json` and `candidates.jsonl` into `folder`, reading the store's pages once.
    /// `onPage` hears each page as the pass reaches it; with `collectingFindings`,
    /// `Written.pageFindings` has every page's findings.
    @discardableResult
    public func write(
        into folder: String, collectingFindings: Bool = false, onPage: (StreamedPage) -> Void = { _ in }
    ) throws -> Written {
        let path = (folder as NSString).appendingPathComponent("report.json")
        let pagesOutput = try PartialFile(path + ".pages.partial")
        let candidates = try PartialFile((folder as NSString).appendingPathComponent("candidates.jsonl"))
        var pass = Pass(
            collectingFindings: collectingFindings, linking: localEntries != nil,
            match: baseline.map(BaselineMatch.init))
        try store.forEachPage(batchSize: 64, includingMarkupDump: includesMarkup) { records in
            for record in records {
                var page = try pageReport(record, location: pageSource?(record))
                // The baseline is applied here, once: report.json and every output read the marks.
                page.findings = pass.marked(page.findings)
                pass.add(record, page: page, shown: shown)
                let json = page.json(includingMarkup: includesMarkup)
                pagesOutput.write(
                    (pass.totals.pages == 1 ? "\n    " : ",\n    ") + JSONValue.object(json).serialized(pretty: false))
                let item = candidateItem(record, page)
                if let item { candidates.write(JSONValue.object(item).serialized(pretty: false) + "\n") }
                onPage(
                    StreamedPage(
                        url: page.finalURL, file: page.location?.file, findings: page.findings,
                        candidateItem: item, failingConditions: record.verdict?.failingConditions ?? [],
                        json: json, report: page))
            }
        }
        try candidates.commit()
        try pagesOutput.close()
        let linking = try linking(pass.linkablePages)
        let siteFindings = try siteFindings(pass.sitePages, linking: linking)
        var totals = pass.totals
        totals.add(siteFindings)
        let markedSiteFindings = pass.marked(siteFindings)
        let rest = try assemble(
            path, pagesFile: pagesOutput.partialPath, totals: totals, siteFindings: markedSiteFindings,
            linking: linking,
            baseline: pass.match?.summaryJSON)
        return Written(
            path: path, totals: totals, siteFindings: markedSiteFindings, pageFindings: pass.pageFindings,
            sourcePaths: pass.sourcePaths, baselineMatch: pass.match, reportWithoutPages: rest)
    }

    /// What the pass gathers for the outputs that need every page first.
    struct Pass {
        let collectingFindings: Bool
        let linking: Bool
        var totals = Totals()
        var sitePages: [SitePage] = []
        var linkablePages: [LinkablePage] = []
        var pageFindings: [(url: String, findings: [Finding])] = []
        var sourcePaths: [String: String] = [:]
        var match: BaselineMatch?

        mutating func add(_ record: PageRecord, page: PageReport, shown: (String) -> String) {
            totals.add(record, findings: page.findings)
            if let file = page.location?.file { sourcePaths[page.finalURL] = file }
            sitePages.append(CrawlReportWriter.sitePage(record, shown: shown))
            if linking { linkablePages.append(CrawlReportWriter.linkablePage(record, page: page)) }
            if collectingFindings { pageFindings.append((page.finalURL, page.findings)) }
        }

        /// The findings with those the baseline knows marked, matched in the order they come.
        mutating func marked(_ findings: [Finding]) -> [Finding] {
            guard var match, !findings.isEmpty else { return findings }
            defer { self.match = match }
            return match.marked(findings)
        }
    }

    /// report.json: the header with the totals, the pages the pass wrote, the site-level results.
    /// Returns the report without its pages.
    private func assemble(
        _ path: String, pagesFile: String, totals: Totals, siteFindings: [Finding], linking: LinkReport?,
        baseline: JSONValue?
    ) throws -> JSONValue {
        let output = try PartialFile(path)
        let coverage = try Coverage(store, listing: CoverageListing.limit)
        var headerValue = try header(totals: totals, coverage: coverage)
        if let baseline, case .object(var header) = headerValue, var summary = header["summary"]?.objectValue {
            summary.append("baseline", baseline)
            header.set("summary", .object(summary))
            headerValue = .object(header)
        }
        var rest = headerValue.objectValue ?? JSONObject()
        var text = headerValue.serialized(pretty: true)
        text.removeLast()  // "}": the header object is left open for "pages".
        while text.last == "\n" || text.last == " " { text.removeLast() }
        output.write(text + ",\n  \"pages\": [")
        try output.append(contentsOf: pagesFile)
        try FileManager.default.removeItem(atPath: pagesFile)
        output.write(totals.pages == 0 ? "],\n" : "\n  ],\n")
        output.write("  \"siteFindings\": [")
        for (index, finding) in siteFindings.enumerated() {
            output.write((index == 0 ? "\n    " : ",\n    ") + JSONValue.object(finding.json).serialized(pretty: false))
        }
        output.write(siteFindings.isEmpty ? "],\n" : "\n  ],\n")
        rest.append("siteFindings", .array(siteFindings.map { .object($0.json) }))
        if let linking {
            output.write("  \"linking\": " + Self.linkingJSON(linking).serialized(pretty: false) + ",\n")
            rest.append("linking", Self.linkingJSON(linking))
        }
        // Site files checked once per host (apple-app-site-association).
        let files = try store.siteFiles().filter { $0.kind == "aasa" }
        output.write("  \"universalLinks\": [")
        for (index, file) in files.enumerated() {
            output.write((index == 0 ? "\n    " : ",\n    ") + file.summaryJSON)
        }
        output.write(files.isEmpty ? "],\n" : "\n  ],\n")
        rest.append("universalLinks", .array(files.map { Self.parsed($0.summaryJSON) }))
        let coverageValue = coverageJSON(coverage)
        var tail = JSONValue.object(["coverage": coverageValue]).serialized(pretty: true)
        tail.removeFirst()  // "{"
        output.write(tail + "\n")
        try output.commit()
        rest.append("coverage", coverageValue)
        return .object(rest)
    }

    private func header(totals: Totals, coverage: Coverage) throws -> JSONValue {
        let run = try store.currentRun()
        var header = JSONObject()
        header.append("tool", "spotcheck")
        header.append("kind", "crawl")
        header.append("schemaVersion", JSONValue(Self.schemaVersion))
        header.append("generatedAt", .string(ISO8601DateFormatter().string(from: Date())))
        var crawl = JSONObject()
        crawl.append("seed", .string(run?.seed ?? ""))
        if let mapping { crawl.append("publicOrigin", .string(mapping.publicOrigin)) }
        crawl.append("generation", JSONValue(run?.generation ?? 0))
        crawl.append("startedAt", run.map { .string(Self.timestamp($0.startedAt)) } ?? .null)
        crawl.append("finishedAt", run?.finishedAt.map { .string(Self.timestamp($0)) } ?? .null)
        if let settings = run?.settingsJSON, let value = JSONParser.parse(settings, lenient: false).value {
            crawl.append("settings", value)
        }
        header.append("crawl", .object(crawl))
        var summary = JSONObject()
        summary.append("pages", JSONValue(totals.pages))
        summary.append("byStatus", .object(Self.counts(totals.byStatus)))
        summary.append("problems", .object(Self.counts(totals.problems)))
        summary.append("notModified", JSONValue(totals.notModified))
        summary.append("candidates", JSONValue(totals.candidates))
        summary.append("notCandidatesBecause", .object(Self.counts(totals.notCandidates)))
        summary.append("applebotBlocked", JSONValue(totals.applebotBlocked))
        summary.append("bodyBytes", JSONValue(totals.bytes))
        var findings = JSONObject()
        for severity in ["error", "warning", "info"] {
            findings.append(severity, JSONValue(totals.findingsBySeverity[severity] ?? 0))
        }
        findings.append("byRule", .object(Self.counts(totals.findingsByRule)))
        summary.append("findings", .object(findings))
        summary.append("skipped", .object(Self.counts(coverage.skippedByReason)))
        summary.append("sitemapLocationsNotCrawled", JSONValue(coverage.notCrawled.total))
        summary.append("pagesNotInSitemaps", JSONValue(coverage.notInSitemaps.total))
        summary.append("stalePages", JSONValue(coverage.stale.total))
        header.append("summary", .object(summary))
        return .object(header)
    }

    /// What the crawl did not reach, as report.json lists it: the first `listing` items of each
    /// list, with their counts.
    struct Coverage {
        var skippedByReason: [String: Int]
        var skipped: [SkippedURL]
        var notCrawled: ListSample<CrawlStore.SitemapEntryRecord>
        var notInSitemaps: ListSample<String>
        var stale: ListSample<String>

        init(_ store: any CrawlRecordSource, listing limit: Int) throws {
            skippedByReason = try store.skippedCountsByReason()
            skipped = try store.skippedURLs(first: limit)
            notCrawled = try store.sitemapLocationsNotCrawled(first: limit)
            notInSitemaps = try store.pagesNotInSitemaps(first: limit)
            stale = try store.stalePageURLs(first: limit)
        }
    }

    private func coverageJSON(_ coverage: Coverage) -> JSONValue {
        var object = JSONObject()
        object.append(
            "skipped",
            .array(
                coverage.skipped.map { item in
                    var object: JSONObject = [
                        "url": .string(shown(item.url)), "reason": .string(item.reason), "detail": .string(item.detail),
                    ]
                    if let foundOn = item.foundOn { object.append("foundOn", .string(shown(foundOn))) }
                    return .object(object)
                }))
        object.append(
            "sitemapLocationsNotCrawled",
            .array(
                coverage.notCrawled.first.map {
                    ["location": .string($0.location), "sitemap": .string($0.sitemapURL), "line": JSONValue($0.line)]
                }))
        object.append("pagesNotInSitemaps", .array(coverage.notInSitemaps.first.map { .string(shown($0)) }))
        object.append("stalePages", .array(coverage.stale.first.map { .string(shown($0)) }))
        return .object(object)
    }

    func shown(_ url: String) -> String { mapping?.publicURL(url) ?? url }

    /// A page's findings placed where its location says: for a URL no file answers, the findings
    /// about the page as a whole (line 0) are at the link to it.
    static func placed(_ findings: [Finding], at location: PageLocation?) -> [Finding] {
        guard case .linkedFrom(_, let line, let column) = location, line > 0 else { return findings }
        return findings.map { finding in
            guard finding.line == 0 else { return finding }
            var placed = finding
            placed.line = line
            placed.column = column
            return placed
        }
    }

    /// A stored page as every output sees it: its typed columns and its payload, decoded once.
    func pageReport(_ record: PageRecord, location: PageLocation?) throws -> PageReport {
        guard let bytes = record.payload, record.payloadVersion == PagePayload.version else {
            throw StoredPageUnreadable(
                url: record.requestedURL,
                reason:
                    "it was stored by an earlier spotcheck (payload version \(record.payloadVersion), this one reads \(PagePayload.version)); crawl again into a new --output folder to report it"
            )
        }
        let payload: PagePayload
        var markup: PageMarkup?
        do {
            payload = try PagePayload(stored: bytes)
            if includesMarkup, let stored = record.markup { markup = try PageMarkup(stored: stored) }
        } catch {
            throw StoredPageUnreadable(url: record.requestedURL, reason: "its stored payload is damaged (\(error))")
        }
        let fetch = FetchFacts(
            depth: record.depth, status: record.status, contentType: record.contentType,
            problem: record.errorKind.map { FetchProblem(kind: $0, message: record.errorMessage ?? "") },
            redirects: payload.redirects, timings: payload.timings, bodyBytes: record.bodyBytes,
            bodySHA256: record.bodySHA256, notModified: record.notModified, applebotAllowed: record.applebotAllowed,
            headers: payload.headers)
        return PageReport(
            url: shown(record.requestedURL), finalURL: shown(record.finalURL), location: location,
            fetchedURL: mapping != nil ? record.finalURL : nil, fetch: fetch,
            findings: Self.placed(payload.findings, at: location), analysis: payload.analysis, markup: markup)
    }

    /// A candidate page as a searchable item (`index import` takes it): the canonical URL as
    /// `uniqueIdentifier` (reference §5.5) and in `attributeSet.url`, `web-<host with dashes>` as
    /// `domainIdentifier`.
    func candidateItem(_ record: PageRecord, _ page: PageReport) -> JSONObject? {
        guard let verdict = record.verdict, verdict.isCandidate == true,
            let attributes = page.analysis?.attributes.attributeSet.json
        else { return nil }
        let identifier = verdict.uniqueIdentifier ?? page.finalURL
        var attributeSet = attributes
        if attributeSet["url"] == nil { attributeSet.append("url", .string(identifier)) }
        var item = JSONObject()
        item.append("uniqueIdentifier", .string(identifier))
        if let host = URLParser.parse(identifier)?.host {
            // No dots: a dotted domain identifier is a hierarchy to Core Spotlight (AS010).
            item.append("domainIdentifier", .string("web-" + String(host.map { $0 == "." ? "-" : $0 })))
        }
        item.append("attributeSet", .object(attributeSet))
        return item
    }

    static func parsed(_ json: String) -> JSONValue {
        JSONParser.parse(json, lenient: false).value ?? .null
    }

    private static func counts(_ counts: [String: Int]) -> JSONObject {
        var object = JSONObject()
        for (key, value) in counts.sorted(by: { $0.key < $1.key }) { object.append(key, JSONValue(value)) }
        return object
    }

    static func timestamp(_ seconds: Double) -> String {
        ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: seconds))
    }
}

/// A stored page the reports cannot read: written by an earlier spotcheck, or damaged.
struct StoredPageUnreadable: Error, CustomStringConvertible {
    var url: String
    var reason: String

    var description: String { "\(url): \(reason)" }
}
