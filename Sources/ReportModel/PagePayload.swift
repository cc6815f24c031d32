import LenientJSON
public import MarkupExtraction
public import Rulebook
public import SpotlightModel
import URLNormalization

/// What the crawl store keeps of one page besides its typed columns (URL, status, verdict, finding
/// counts …): how it was served and what the page pipeline made of it, as typed values. The store
/// keeps it in a binary encoding (`PagePayload.encoded()`), never as JSON text.
public struct PagePayload: Sendable, Hashable, Codable {
    /// The payload version a store's `payload_version` column names. 5 (2026-11-29): the first
    /// binary payload; pages stored by versions 1-4 held JSON text and are refused by the reports.
    /// 6 (2026-11-29): `--render` and `--consumers` results typed, where 5 held them as JSON.
    public static let version = 6
    /// The versions the reports read: a version 5 page decodes unless it holds `--render` or
    /// `--consumers` results.
    public static let readableVersions = 5...6

    /// The final response's headers, in order.
    public var headers: [HeaderField]
    /// The redirects followed to the final URL.
    public var redirects: [RedirectHop]
    public var timings: ResponseTimings
    /// The page's findings, ordered by line, rule, message (the response rules' for a page that
    /// was not parsed).
    public var findings: [Finding]
    /// What the page pipeline made of an HTML page; nil for anything not parsed.
    public var analysis: MarkupAnalysis?

    public init(
        headers: [HeaderField] = [], redirects: [RedirectHop] = [], timings: ResponseTimings = ResponseTimings(),
        findings: [Finding] = [], analysis: MarkupAnalysis? = nil
    ) {
        self.headers = headers
        self.redirects = redirects
        self.timings = timings
        self.findings = findings
        self.analysis = analysis
    }
}

public struct HeaderField: Sendable, Hashable, Codable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// One hop of a redirect chain: the URL asked, its status and where it sent the crawler.
public struct RedirectHop: Sendable, Hashable, Codable {
    public var url: String
    public var status: Int
    public var location: String

    public init(url: String, status: Int, location: String) {
        self.url = url
        self.status = status
        self.location = location
    }
}

/// Seconds from the request's start to each phase of the final response (libcurl's timers).
public struct ResponseTimings: Sendable, Hashable, Codable {
    public var dns: Double
    public var connect: Double
    /// TLS handshake done (0 for plain HTTP).
    public var tls: Double
    public var firstByte: Double
    public var total: Double

    public init(dns: Double = 0, connect: Double = 0, tls: Double = 0, firstByte: Double = 0, total: Double = 0) {
        self.dns = dns
        self.connect = connect
        self.tls = tls
        self.firstByte = firstByte
        self.total = total
    }
}

/// An HTML page as the pipeline judged it: its attribute set with provenance, what the reports
/// show of its markup, whether it can reach the public index, and what the crawl looked up for it.
public struct MarkupAnalysis: Sendable, Hashable, Codable {
    public var attributes: PageAttributes
    public var summary: MarkupSummary
    /// The candidacy conditions that fail, in `CandidacyCondition`'s order; empty for a candidate.
    public var failingConditions: [CandidacyCondition]
    /// The universal-link verdict for the canonical URL, in words.
    public var universalLink: String?
    /// Images the page names that the image rules did not see (per-page and per-run limits).
    public var imagesNotChecked: Int
    /// `crawl --render`: the page as headless Chromium built it, compared with the served page.
    public var rendered: RenderingReport?
    /// `crawl --consumers`: what each consumer got.
    public var consumers: [ConsumerReport]
    /// Links of the page past what the crawl examines, counted, not stored.
    public var linksNotStored: Int

    public init(
        attributes: PageAttributes, summary: MarkupSummary, failingConditions: [CandidacyCondition],
        universalLink: String? = nil, imagesNotChecked: Int = 0, rendered: RenderingReport? = nil,
        consumers: [ConsumerReport] = [], linksNotStored: Int = 0
    ) {
        // Provenance values as the reports show them: a 2 MB description is kept once, in the set.
        var attributes = attributes
        attributes.provenance = attributes.provenance.map { entry in
            var entry = entry
            entry.chosen.value = entry.chosen.value.abbreviated(toScalars: PageAttributes.provenanceValueLength)
            entry.conflicting = entry.conflicting.map { candidate in
                var candidate = candidate
                candidate.value = candidate.value.abbreviated(toScalars: PageAttributes.provenanceValueLength)
                return candidate
            }
            return entry
        }
        self.attributes = attributes
        self.summary = summary
        self.failingConditions = failingConditions
        self.universalLink = universalLink
        self.imagesNotChecked = imagesNotChecked
        self.rendered = rendered
        self.consumers = consumers
        self.linksNotStored = linksNotStored
    }

    public var isCandidate: Bool { failingConditions.isEmpty }
}

/// What every report shows of a page's markup (the `extract` contract's page facts); the rest of
/// the markup (JSON-LD, Microdata, RDFa, tags, links) is shown with `--include-markup` only.
public struct MarkupSummary: Sendable, Hashable, Codable {
    public var url: String
    public var smartAppBanner: SmartAppBanner?
    public var title: String?
    public var description: String?
    public var canonicals: [String]
    /// As the contract writes them: the content for `robots`, `agent: content` for the others.
    public var robots: [String]
    public var lang: String?
    public var baseURL: String
    public var encoding: String
    public var diagnostics: [ExtractionDiagnostic]

    public init(_ markup: PageMarkup) {
        url = markup.url
        smartAppBanner = markup.smartAppBanner
        title = markup.title?.text
        description = markup.descriptions.first?.content
        canonicals = markup.canonicals.map(\.content)
        robots = markup.robotsDirectives
        lang = markup.lang?.text
        baseURL = markup.baseURL
        encoding = markup.encoding
        diagnostics = markup.diagnostics
    }
}

/// report.json's format: what `schemaVersion` says for a crawl's report and `validate`'s alike.
public enum ReportFormat {
    /// 3 (2026-11-29): a page's `markup.candidate` gives `reasons`, each failing condition with the
    /// positions of the findings that say why; `validate`'s pages have a crawl page's shape (the
    /// analysis under `markup`). 2: `kind` added; a crawl page's markup holds its analysis.
    public static let schemaVersion = 3

    /// The members every report.json begins with: `tool`, `kind`, `schemaVersion`, `generatedAt`.
    static func header(kind: String, generatedAt: String) -> JSONObject {
        [
            "tool": "spotcheck", "kind": .string(kind), "schemaVersion": JSONValue(schemaVersion),
            "generatedAt": .string(generatedAt),
        ]
    }
}
