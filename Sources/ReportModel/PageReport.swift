import LenientJSON
public import MarkupExtraction
public import Rulebook
import SpotlightModel

/// One page as every output sees it: where it is (URL, and the file for a served folder or
/// `validate`), how it was served, its findings (the baseline's marks applied) and the analysis.
/// report.json's `pages[]` is its encoding (`json(includingMarkup:)`), for a crawl and for
/// `validate` alike.
public struct PageReport: Sendable, Hashable, Codable {
    /// The URL asked for, as the reports name it (the public URL of a served folder's page).
    public var url: String
    public var finalURL: String
    /// Where the page is in the folder it came from; nil for a site.
    public var location: PageLocation?
    /// The URL fetched when it differs from the one shown (a served folder, `--as`).
    public var fetchedURL: String?
    /// How it was served; nil for a file read from disk (`validate`).
    public var fetch: FetchFacts?
    public var findings: [Finding]
    public var analysis: MarkupAnalysis?
    /// The page's markup in full, shown with `--include-markup` (and always by `validate`); its
    /// links are those the crawl examined.
    public var markup: PageMarkup?

    public init(
        url: String, finalURL: String, location: PageLocation? = nil, fetchedURL: String? = nil,
        fetch: FetchFacts? = nil, findings: [Finding] = [], analysis: MarkupAnalysis? = nil, markup: PageMarkup? = nil
    ) {
        self.url = url
        self.finalURL = finalURL
        self.location = location
        self.fetchedURL = fetchedURL
        self.fetch = fetch
        self.findings = findings
        self.analysis = analysis
        self.markup = markup
    }

    /// Each failing candidacy condition with the page's findings of the rule that says why (their
    /// positions in `findings`), so a report can link the reason to the finding.
    public var candidacyReasons: [CandidacyReason] {
        (analysis?.failingConditions ?? []).map { condition in
            CandidacyReason(
                condition: condition,
                findings: findings.indices.filter { findings[$0].rule == condition.rule })
        }
    }
}

/// Where a page is in the folder it came from.
public enum PageLocation: Sendable, Hashable, Codable {
    /// The file that answered it, relative to the folder the outputs name files from.
    case file(String)
    /// A URL no file answers (a link that ends in a 404): the file, line and column of the link.
    case linkedFrom(file: String, line: Int, column: Int?)

    public var file: String {
        switch self {
        case .file(let file), .linkedFrom(let file, _, _): file
        }
    }
}

/// How a page was served: the final response and the way to it.
public struct FetchFacts: Sendable, Hashable, Codable {
    /// Links followed from the seed.
    public var depth: Int
    /// nil when there was no HTTP answer.
    public var status: Int?
    public var contentType: String?
    /// Why the page has no usable answer (`timeout`, `not-html`, `soft-404` …), in words too.
    public var problem: FetchProblem?
    public var redirects: [RedirectHop]
    public var timings: ResponseTimings
    public var bodyBytes: Int
    public var bodySHA256: String?
    /// A re-crawl got 304 and kept the previous analysis.
    public var notModified: Bool
    public var applebotAllowed: Bool?
    public var headers: [HeaderField]

    public init(
        depth: Int, status: Int? = nil, contentType: String? = nil, problem: FetchProblem? = nil,
        redirects: [RedirectHop] = [], timings: ResponseTimings = ResponseTimings(), bodyBytes: Int = 0,
        bodySHA256: String? = nil, notModified: Bool = false, applebotAllowed: Bool? = nil, headers: [HeaderField] = []
    ) {
        self.depth = depth
        self.status = status
        self.contentType = contentType
        self.problem = problem
        self.redirects = redirects
        self.timings = timings
        self.bodyBytes = bodyBytes
        self.bodySHA256 = bodySHA256
        self.notModified = notModified
        self.applebotAllowed = applebotAllowed
        self.headers = headers
    }
}

public struct FetchProblem: Sendable, Hashable, Codable {
    public var kind: String
    public var message: String

    public init(kind: String, message: String) {
        self.kind = kind
        self.message = message
    }
}

/// Why a page is not a public-index candidate: the condition, and the page's findings that say so.
public struct CandidacyReason: Sendable, Hashable, Codable {
    public var condition: CandidacyCondition
    /// Positions in the page's `findings` of the findings of `condition.rule`.
    public var findings: [Int]

    public init(condition: CandidacyCondition, findings: [Int]) {
        self.condition = condition
        self.findings = findings
    }
}
