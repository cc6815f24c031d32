public import CrawlStore
import Foundation
import LenientJSON
import URLNormalization
public import Verification

/// Writes a crawl's `report.json` from its store, streaming: pages are read in batches and written
/// as they come, so a 20,000-page crawl does not sit in memory. Every page carries its status,
/// redirects, timings, markup summary and attribute set; `coverage` lists every URL that was not
/// fetched and why. Documented in docs/crawl-report.md.
public struct CrawlReportWriter: Sendable {
    public static let schemaVersion = 1

    public let store: CrawlStore
    public let mapping: OriginMapping?
    /// The rules over the whole crawl, with the project's rule configuration.
    public let siteVerifier: SiteVerifier
    /// The app's local items and activities (`--items`, `--index`), joined to the pages.
    public let localEntries: [LocalEntry]?
    /// The instant expiration dates are compared with (seconds since 1970).
    public let now: Double

    public init(
        store: CrawlStore, mapping: OriginMapping?, siteVerifier: SiteVerifier = SiteVerifier(),
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
        /// Findings by severity (`error`, `warning`, `info`) and by rule id.
        public var findingsBySeverity: [String: Int] = [:]
        public var findingsByRule: [String: Int] = [:]
    }

    /// Counts over the stored pages (one pass), with the site-level findings.
    public func totals(siteFindings: [Finding]? = nil) throws -> Totals {
        var totals = Totals()
        try store.forEachPage { pages in
            for page in pages {
                totals.pages += 1
                totals.byStatus[page.status.map(String.init) ?? "none", default: 0] += 1
                if let kind = page.errorKind { totals.problems[kind, default: 0] += 1 }
                if page.notModified { totals.notModified += 1 }
                if let markup = page.markupJSON, let candidacy = Self.candidacy(inMarkup: markup) {
                    if candidacy.isEmpty { totals.candidates += 1 }
                    for condition in candidacy { totals.notCandidates[condition, default: 0] += 1 }
                }
                if page.applebotAllowed == false { totals.applebotBlocked += 1 }
                totals.bytes += page.bodyBytes
                for finding in Self.parsed(page.findingsJSON ?? "[]").arrayValue ?? [] {
                    if let severity = finding["severity"]?.stringValue {
                        totals.findingsBySeverity[severity, default: 0] += 1
                    }
                    if let rule = finding["rule"]?.stringValue { totals.findingsByRule[rule, default: 0] += 1 }
                }
            }
        }
        for finding in try siteFindings ?? self.siteFindings() {
            totals.findingsBySeverity[finding.severity.rawValue, default: 0] += 1
            totals.findingsByRule[finding.ruleID, default: 0] += 1
        }
        return totals
    }

    /// What `write(into:)` wrote: the report's path, its totals and the site-level findings (so
    /// callers need not compute them again).
    public struct Written: Sendable {
        public var path: String
        public var totals: Totals
        public var siteFindings: [Finding]
    }

    /// Writes `report.json` (and `candidates.jsonl`) into `folder`.
    @discardableResult
    public func write(into folder: String) throws -> Written {
        let generatedAt = Date()
        let path = (folder as NSString).appendingPathComponent("report.json")
        let temporary = path + ".partial"
        guard FileManager.default.createFile(atPath: temporary, contents: nil),
            let handle = FileHandle(forWritingAtPath: temporary)
        else {
            throw CrawlError("\(temporary): cannot be written")
        }
        var output = BufferedOutput(handle: handle)
        let run = try store.currentRun()
        let linking = try linking()
        let siteFindings = try siteFindings(linking: linking)
        let totals = try totals(siteFindings: siteFindings)
        let skipped = try store.skippedURLs()
        let notCrawled = try store.sitemapLocationsNotCrawled()
        let notInSitemaps = try store.sitemapEntries().isEmpty ? [] : try store.pagesNotInSitemaps()
        let stale = try store.stalePages()

        var header = JSONObject()
        header.append("tool", "spotcheck")
        header.append("kind", "crawl")
        header.append("schemaVersion", JSONValue(Self.schemaVersion))
        header.append("generatedAt", .string(ISO8601DateFormatter().string(from: generatedAt)))
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
        summary.append("skipped", .object(Self.counts(Dictionary(grouping: skipped, by: \.reason).mapValues(\.count))))
        summary.append("sitemapLocationsNotCrawled", JSONValue(notCrawled.count))
        summary.append("pagesNotInSitemaps", JSONValue(notInSitemaps.count))
        summary.append("stalePages", JSONValue(stale.count))
        header.append("summary", .object(summary))

        // The header object, left open for "pages".
        var text = JSONValue.object(header).serialized(pretty: true)
        text.removeLast()  // "}"
        while text.last == "\n" || text.last == " " { text.removeLast() }
        output.write(text + ",\n  \"pages\": [")
        var first = true
        let candidatesPath = (folder as NSString).appendingPathComponent("candidates.jsonl")
        guard FileManager.default.createFile(atPath: candidatesPath + ".partial", contents: nil),
            let candidatesHandle = FileHandle(forWritingAtPath: candidatesPath + ".partial")
        else {
            throw CrawlError("\(candidatesPath): cannot be written")
        }
        var candidates = BufferedOutput(handle: candidatesHandle)
        try store.forEachPage { pages in
            for page in pages {
                output.write(first ? "\n    " : ",\n    ")
                first = false
                output.write(pageJSON(page))
                if let item = candidateItem(page) { candidates.write(item.serialized(pretty: false) + "\n") }
            }
        }
        try candidates.close()
        if FileManager.default.fileExists(atPath: candidatesPath) {
            try FileManager.default.removeItem(atPath: candidatesPath)
        }
        try FileManager.default.moveItem(atPath: candidatesPath + ".partial", toPath: candidatesPath)
        output.write(first ? "],\n" : "\n  ],\n")

        output.write("  \"siteFindings\": [")
        for (index, finding) in siteFindings.enumerated() {
            output.write((index == 0 ? "\n    " : ",\n    ") + JSONValue.object(finding.json).serialized(pretty: false))
        }
        output.write(siteFindings.isEmpty ? "],\n" : "\n  ],\n")
        if let linking {
            output.write("  \"linking\": " + Self.linkingJSON(linking).serialized(pretty: false) + ",\n")
        }

        // Site files checked once per host (apple-app-site-association).
        let associationFiles = try store.siteFiles().filter { $0.kind == "aasa" }
        output.write("  \"universalLinks\": [")
        for (index, file) in associationFiles.enumerated() {
            output.write((index == 0 ? "\n    " : ",\n    ") + file.summaryJSON)
        }
        output.write(associationFiles.isEmpty ? "],\n" : "\n  ],\n")

        var coverage = JSONObject()
        coverage.append(
            "skipped",
            .array(
                skipped.map { item in
                    var object: JSONObject = [
                        "url": .string(shown(item.url)), "reason": .string(item.reason), "detail": .string(item.detail),
                    ]
                    if let foundOn = item.foundOn { object.append("foundOn", .string(shown(foundOn))) }
                    return .object(object)
                }))
        coverage.append(
            "sitemapLocationsNotCrawled",
            .array(
                notCrawled.map {
                    ["location": .string($0.location), "sitemap": .string($0.sitemapURL), "line": JSONValue($0.line)]
                }))
        coverage.append("pagesNotInSitemaps", .array(notInSitemaps.map { .string(shown($0)) }))
        coverage.append("stalePages", .array(stale.map { .string(shown($0.finalURL)) }))
        var tail = JSONValue.object(["coverage": .object(coverage)]).serialized(pretty: true)
        tail.removeFirst()  // "{"
        output.write(tail + "\n")
        try output.close()
        if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
        try FileManager.default.moveItem(atPath: temporary, toPath: path)
        return Written(path: path, totals: totals, siteFindings: siteFindings)
    }

    func shown(_ url: String) -> String { mapping?.publicURL(url) ?? url }

    private func pageJSON(_ page: PageRecord) -> String {
        var object = JSONObject()
        object.append("url", .string(shown(page.requestedURL)))
        object.append("finalURL", .string(shown(page.finalURL)))
        if mapping != nil { object.append("fetchedURL", .string(page.finalURL)) }
        object.append("depth", JSONValue(page.depth))
        object.append("status", page.status.map { JSONValue($0) } ?? .null)
        object.append("contentType", page.contentType.map { .string($0) } ?? .null)
        if let kind = page.errorKind {
            object.append("problem", ["kind": .string(kind), "message": .string(page.errorMessage ?? "")])
        }
        object.append("redirects", Self.parsed(page.redirectsJSON))
        object.append("timings", Self.parsed(page.timingsJSON))
        object.append("bodyBytes", JSONValue(page.bodyBytes))
        object.append("bodySHA256", page.bodySHA256.map { .string($0) } ?? .null)
        object.append("notModified", JSONValue(page.notModified))
        object.append("applebotAllowed", page.applebotAllowed.map { JSONValue($0) } ?? .null)
        object.append("headers", Self.parsed(page.headersJSON))
        if let findings = page.findingsJSON { object.append("findings", Self.parsed(findings)) }
        var text = JSONValue.object(object).serialized(pretty: false)
        // The stored page analysis is spliced in as written (it is JSON we produced).
        if let markup = page.markupJSON {
            text.removeLast()
            text += ",\"markup\":" + markup + "}"
        }
        return text
    }

    /// The failing candidacy conditions a page's stored markup records (empty: a candidate); nil
    /// when it records none (a page that was not parsed). Read from the stored summary, without
    /// parsing the whole page.
    static func candidacy(inMarkup markup: String) -> [String]? {
        guard let summary = StoredPageSummary(markup: markup), summary.isCandidate != nil else { return nil }
        return summary.failing
    }

    /// A candidate page as a searchable item (`index import` takes it): the canonical URL as
    /// `uniqueIdentifier` (reference §5.5) and in `attributeSet.url`, `web-<host with dashes>` as
    /// `domainIdentifier`.
    func candidateItem(_ page: PageRecord) -> JSONValue? {
        guard let summary = page.markupJSON.flatMap(StoredPageSummary.init(markup:)), summary.isCandidate == true,
            let attributes = page.attributeSetJSON.map(Self.parsed)?.objectValue
        else { return nil }
        let identifier = summary.uniqueIdentifier ?? shown(page.finalURL)
        var attributeSet = attributes
        if attributeSet["url"] == nil { attributeSet.append("url", .string(identifier)) }
        var item = JSONObject()
        item.append("uniqueIdentifier", .string(identifier))
        if let host = URLParser.parse(identifier)?.host {
            // No dots: a dotted domain identifier is a hierarchy to Core Spotlight (AS010).
            item.append("domainIdentifier", .string("web-" + String(host.map { $0 == "." ? "-" : $0 })))
        }
        item.append("attributeSet", .object(attributeSet))
        return .object(item)
    }

    private static func parsed(_ json: String) -> JSONValue {
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

/// Appends to a file through a 1 MiB buffer.
struct BufferedOutput {
    let handle: FileHandle
    var buffer: [UInt8] = []

    init(handle: FileHandle) {
        self.handle = handle
        buffer.reserveCapacity(1 << 20)
    }

    mutating func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 20 { flush() }
    }

    mutating func flush() {
        guard !buffer.isEmpty else { return }
        handle.write(Data(buffer))
        buffer.removeAll(keepingCapacity: true)
    }

    mutating func close() throws {
        flush()
        try handle.close()
    }
}
