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
    /// Where a local entry is in the items file, by its name: the AS findings about an entry
    /// are placed there (a served folder crawled with `--items`).
    var localEntrySource: (@Sendable (String) -> PageLocation?)?

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
        /// report.json around its pages: the header, summary, site findings, linking, universal
        /// links and coverage.
        public var report: CrawlReport

        /// report.json without its pages (what `index.html` shows around them).
        public var reportWithoutPages: JSONValue { .object(report.jsonWithoutPages) }

        /// The site findings the baseline does not know (all of them without a baseline).
        public var newSiteFindings: [Finding] { siteFindings.filter { !$0.isSuppressed } }
    }

    /// One page as the report pass hands it on: its public URL, its findings and, for a
    /// candidate, the searchable item written to candidates.jsonl.
    public struct StreamedPage: Sendable {
        /// The page as every output sees it.
        public var report: PageReport
        /// The page as report.json has it (`PageReport.json`), for the baseline comparison, which
        /// compares report.json pages (`ReportDiff`): built once, never parsed back.
        public var json: JSONObject
        public var candidateItem: JSONObject?

        /// The page's public URL (its final one).
        public var url: String { report.finalURL }
        /// The file a served folder answered the page from, as the outputs name it.
        public var file: String? { report.location?.file }
        /// The page's findings, those the baseline knows marked `isSuppressed`.
        public var findings: [Finding] { report.findings }
        /// The candidacy conditions that fail; none for a page that was not analysed.
        public var failingConditions: [CandidacyCondition] { report.analysis?.failingConditions ?? [] }
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
                let item = candidateItem(record, page, attributeSet: json["markup"]?["attributeSet"]?.objectValue)
                if let item { candidates.write(JSONValue.object(item).serialized(pretty: false) + "\n") }
                onPage(StreamedPage(report: page, json: json, candidateItem: item))
            }
        }
        try candidates.commit()
        try pagesOutput.close()
        var linking = try linking(pass.linkablePages)
        var entryFiles: [String: String] = [:]
        if let localEntrySource, let findings = linking?.findings {
            linking?.findings = findings.map { finding in
                guard let name = LocalEntry.name(inLabel: finding.url), let place = localEntrySource(name)
                else { return finding }
                entryFiles[finding.url] = place.file
                return Self.placed([finding], at: place)[0]
            }
        }
        pass.sourcePaths.merge(entryFiles) { page, _ in page }
        let siteFindings = try siteFindings(pass.sitePages, linking: linking)
        var totals = pass.totals
        totals.add(siteFindings)
        let markedSiteFindings = pass.marked(siteFindings)
        var report = try crawlReport(
            totals: totals, siteFindings: markedSiteFindings, linking: linking, baseline: pass.match?.summary)
        report.siteFindingFiles = entryFiles
        try assemble(path, pagesFile: pagesOutput.partialPath, pageCount: totals.pages, report: report)
        return Written(
            path: path, totals: totals, siteFindings: markedSiteFindings, pageFindings: pass.pageFindings,
            sourcePaths: pass.sourcePaths, baselineMatch: pass.match, report: report)
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
    private func assemble(_ path: String, pagesFile: String, pageCount: Int, report: CrawlReport) throws {
        let output = try PartialFile(path)
        var text = JSONValue.object(report.header).serialized(pretty: true)
        text.removeLast()  // "}": the header object is left open for "pages".
        while text.last == "\n" || text.last == " " { text.removeLast() }
        output.write(text + ",\n  \"pages\": [")
        try output.append(contentsOf: pagesFile)
        try FileManager.default.removeItem(atPath: pagesFile)
        output.write(pageCount == 0 ? "],\n" : "\n  ],\n")
        // One finding, linking and association file per line; the coverage as the header is.
        output.write("  \"siteFindings\": [")
        for (index, finding) in report.siteFindings.enumerated() {
            output.write(
                (index == 0 ? "\n    " : ",\n    ")
                    + JSONValue.object(report.siteFindingJSON(finding)).serialized(pretty: false))
        }
        output.write(report.siteFindings.isEmpty ? "],\n" : "\n  ],\n")
        if let linking = report.linking {
            output.write("  \"linking\": " + JSONValue.object(linking.json).serialized(pretty: false) + ",\n")
        }
        output.write("  \"universalLinks\": [")
        for (index, file) in report.universalLinks.enumerated() {
            output.write((index == 0 ? "\n    " : ",\n    ") + JSONValue.object(file.json).serialized(pretty: false))
        }
        output.write(report.universalLinks.isEmpty ? "],\n" : "\n  ],\n")
        var tail = JSONValue.object(["coverage": .object(report.tail["coverage"]?.objectValue ?? [:])])
            .serialized(pretty: true)
        tail.removeFirst()  // "{"
        output.write(tail + "\n")
        try output.commit()
    }

    /// The report around the pages, from the pass's totals and what the store says of the run.
    private func crawlReport(
        totals: Totals, siteFindings: [Finding], linking: LinkReport?, baseline: BaselineSummary?
    ) throws -> CrawlReport {
        let run = try store.currentRun()
        let limit = CoverageListing.limit
        var summary = CrawlSummary()
        summary.pages = totals.pages
        summary.byStatus = totals.byStatus
        summary.problems = totals.problems
        summary.notModified = totals.notModified
        summary.candidates = totals.candidates
        summary.notCandidatesBecause = totals.notCandidates
        summary.applebotBlocked = totals.applebotBlocked
        summary.bodyBytes = totals.bytes
        summary.findings.errors = totals.findingsBySeverity["error"] ?? 0
        summary.findings.warnings = totals.findingsBySeverity["warning"] ?? 0
        summary.findings.infos = totals.findingsBySeverity["info"] ?? 0
        summary.findings.byRule = totals.findingsByRule
        summary.skipped = try store.skippedCountsByReason()
        let notCrawled = try store.sitemapLocationsNotCrawled(first: limit)
        let notInSitemaps = try store.pagesNotInSitemaps(first: limit)
        let stale = try store.stalePageURLs(first: limit)
        summary.sitemapLocationsNotCrawled = notCrawled.total
        summary.pagesNotInSitemaps = notInSitemaps.total
        summary.stalePages = stale.total
        summary.baseline = baseline
        var coverage = CrawlCoverage()
        coverage.skipped = try store.skippedURLs(first: limit).map {
            SkippedLink(url: shown($0.url), reason: $0.reason, detail: $0.detail, foundOn: $0.foundOn.map(shown))
        }
        coverage.sitemapLocationsNotCrawled = notCrawled.first.map {
            SitemapLocation(location: $0.location, sitemap: $0.sitemapURL, line: $0.line)
        }
        coverage.pagesNotInSitemaps = notInSitemaps.first.map(shown)
        coverage.stalePages = stale.first.map(shown)
        let crawl = CrawlRunFacts(
            seed: run?.seed ?? "", publicOrigin: mapping?.publicOrigin, generation: run?.generation ?? 0,
            startedAt: run.map { Self.timestamp($0.startedAt) }, finishedAt: run?.finishedAt.map(Self.timestamp),
            settings: run.flatMap { JSONParser.parse($0.settingsJSON, lenient: false).value })
        // Site files checked once per host (apple-app-site-association).
        let files = try store.siteFiles().filter { $0.kind == "aasa" }
        return CrawlReport(
            generatedAt: ISO8601DateFormatter().string(from: Date()), crawl: crawl, summary: summary,
            siteFindings: siteFindings, linking: linking.map(Self.linkingSummary),
            universalLinks: try files.map(Self.associationFile), coverage: coverage)
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
        let earlier = StoredPageUnreadable(
            url: record.requestedURL,
            reason:
                "it was stored by an earlier spotcheck (payload version \(record.payloadVersion), this one reads \(PagePayload.version)); crawl again into a new --output folder to report it"
        )
        guard let bytes = record.payload, PagePayload.readableVersions.contains(record.payloadVersion) else {
            throw earlier
        }
        let payload: PagePayload
        var markup: PageMarkup?
        do {
            payload = try PagePayload(stored: bytes)
            if includesMarkup, let stored = record.markup { markup = try PageMarkup(stored: stored) }
        } catch {
            // An older version's payload that does not decode holds what this one stores otherwise.
            if record.payloadVersion != PagePayload.version { throw earlier }
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
    /// `domainIdentifier`. `attributeSet` is the page's, as report.json's page has it.
    func candidateItem(_ record: PageRecord, _ page: PageReport, attributeSet: JSONObject?) -> JSONObject? {
        guard let verdict = record.verdict, verdict.isCandidate == true, var attributeSet else { return nil }
        let identifier = verdict.uniqueIdentifier ?? page.finalURL
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

    /// A stored association file's summary (the JSON text `AssociationFileSummary.json` wrote).
    static func associationFile(_ record: CrawlStore.SiteFileRecord) throws -> AssociationFileSummary {
        do {
            return try JSONDecoder().decode(AssociationFileSummary.self, from: Data(record.summaryJSON.utf8))
        } catch {
            throw StoredPageUnreadable(url: record.url, reason: "its stored summary is damaged (\(error))")
        }
    }

    static func parsed(_ json: String) -> JSONValue {
        JSONParser.parse(json, lenient: false).value ?? .null
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
