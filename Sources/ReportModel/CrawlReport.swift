public import LenientJSON
public import Rulebook

/// A crawl's report.json around its pages (which the report pass streams between `header` and
/// `tail`): how the crawl ran, its totals, the findings about the whole site, the local-item
/// linking, the association files and what the crawl did not reach.
public struct CrawlReport: Sendable, Hashable, Codable {
    public var generatedAt: String
    public var crawl: CrawlRunFacts
    public var summary: CrawlSummary
    /// The site rules' and the association files' findings, the baseline's marks applied.
    public var siteFindings: [Finding]
    /// The file of a site finding about no page, by the finding's `url`: a local entry's record
    /// in the items file (`local item NAME`), for a served folder crawled with `--items`.
    public var siteFindingFiles: [String: String] = [:]
    /// `--items`/`--index`: how the app's local entries were joined to the pages.
    public var linking: LocalItemLinking?
    /// Each host's apple-app-site-association summary, as the crawl stored it.
    public var universalLinks: [AssociationFileSummary]
    public var coverage: CrawlCoverage

    public init(
        generatedAt: String, crawl: CrawlRunFacts, summary: CrawlSummary, siteFindings: [Finding] = [],
        linking: LocalItemLinking? = nil, universalLinks: [AssociationFileSummary] = [],
        coverage: CrawlCoverage = CrawlCoverage()
    ) {
        self.generatedAt = generatedAt
        self.crawl = crawl
        self.summary = summary
        self.siteFindings = siteFindings
        self.linking = linking
        self.universalLinks = universalLinks
        self.coverage = coverage
    }
}

/// The crawl as it ran: its seed, the public origin it reported, its generation, when it ran and
/// the settings it stored for `--resume`.
public struct CrawlRunFacts: Sendable, Hashable, Codable {
    public var seed: String
    public var publicOrigin: String?
    public var generation: Int
    public var startedAt: String?
    public var finishedAt: String?
    public var settings: JSONValue?

    /// `crawl FOLDER`: the folder the crawl served (the stored settings' `source`); nil for a site.
    public var sourceFolder: String? { settings?["source"]?.stringValue }

    public init(
        seed: String, publicOrigin: String? = nil, generation: Int, startedAt: String? = nil,
        finishedAt: String? = nil, settings: JSONValue? = nil
    ) {
        self.seed = seed
        self.publicOrigin = publicOrigin
        self.generation = generation
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.settings = settings
    }
}

/// The crawl's totals: pages by status and problem, candidates and why the others are not,
/// findings by severity and rule, and what the crawl did not reach, counted.
public struct CrawlSummary: Sendable, Hashable, Codable {
    public var pages = 0
    public var byStatus: [String: Int] = [:]
    public var problems: [String: Int] = [:]
    public var notModified = 0
    public var candidates = 0
    public var notCandidatesBecause: [String: Int] = [:]
    public var applebotBlocked = 0
    public var bodyBytes = 0
    public var findings = FindingTotals()
    /// Skipped URLs by reason.
    public var skipped: [String: Int] = [:]
    public var sitemapLocationsNotCrawled = 0
    public var pagesNotInSitemaps = 0
    public var stalePages = 0
    /// `--baseline`: what it suppressed and what is new.
    public var baseline: BaselineSummary?

    public init() {}
}

public struct FindingTotals: Sendable, Hashable, Codable {
    public var errors = 0
    public var warnings = 0
    public var infos = 0
    public var byRule: [String: Int] = [:]

    public init() {}
}

/// What the crawl did not reach, as report.json lists it: the first items of each list (the
/// summary counts them all).
public struct CrawlCoverage: Sendable, Hashable, Codable {
    public var skipped: [SkippedLink] = []
    public var sitemapLocationsNotCrawled: [SitemapLocation] = []
    public var pagesNotInSitemaps: [String] = []
    public var stalePages: [String] = []

    public init() {}
}

/// The app's local items and activities joined to the crawled pages (`--items`, `--index`):
/// each link, the entries no page answers and why, and the candidate pages no entry names.
public struct LocalItemLinking: Sendable, Hashable, Codable {
    public var links: [LocalItemLink]
    public var unmatched: [UnmatchedEntry]
    public var pagesWithoutEntries: [String]

    public init(links: [LocalItemLink] = [], unmatched: [UnmatchedEntry] = [], pagesWithoutEntries: [String] = []) {
        self.links = links
        self.unmatched = unmatched
        self.pagesWithoutEntries = pagesWithoutEntries
    }
}

/// A local entry joined to a page: the entry, the page's URL and the key they share.
public struct LocalItemLink: Sendable, Hashable, Codable {
    public var entry: String
    public var page: String
    public var key: String

    public init(entry: String, page: String, key: String) {
        self.entry = entry
        self.page = page
        self.key = key
    }
}

/// A local entry no crawled page answers, and why.
public struct UnmatchedEntry: Sendable, Hashable, Codable {
    public var entry: String
    public var reason: String

    public init(entry: String, reason: String) {
        self.entry = entry
        self.reason = reason
    }
}

/// A URL the crawl did not fetch, why, and the page that linked it.
public struct SkippedLink: Sendable, Hashable, Codable {
    public var url: String
    public var reason: String
    public var detail: String
    public var foundOn: String?

    public init(url: String, reason: String, detail: String, foundOn: String? = nil) {
        self.url = url
        self.reason = reason
        self.detail = detail
        self.foundOn = foundOn
    }
}

/// A sitemap's `<loc>` the crawl did not fetch, with the sitemap and line that list it.
public struct SitemapLocation: Sendable, Hashable, Codable {
    public var location: String
    public var sitemap: String
    public var line: Int

    public init(location: String, sitemap: String, line: Int) {
        self.location = location
        self.sitemap = sitemap
        self.line = line
    }
}

/// `summary.baseline` (`--baseline`): the baseline file, what it is, how many findings it accepts,
/// how many of this run's it suppressed, how many are new (by severity), and how many it accepts
/// that this run did not find (`gone`: fixed, or on pages not checked).
public struct BaselineSummary: Sendable, Hashable, Codable {
    public var file: String?
    /// The baseline's format: a baseline file or an earlier report.json.
    public var format: String
    public var known: Int
    public var suppressed: Int
    public var newBySeverity: [Severity: Int]

    public var new: Int { newBySeverity.values.reduce(0, +) }
    public var gone: Int { known - suppressed }

    public init(file: String?, format: String, known: Int, suppressed: Int, newBySeverity: [Severity: Int]) {
        self.file = file
        self.format = format
        self.known = known
        self.suppressed = suppressed
        self.newBySeverity = newBySeverity
    }
}
