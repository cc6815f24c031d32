/// How a URL entered the frontier.
public enum Discovery: String, Sendable, Codable {
    case seed, link, sitemap, redirect
}

/// Where a frontier entry is in its life. The raw values are stored in the database.
public enum FrontierState: Int, Sendable {
    case queued = 0
    case inFlight = 1
    case done = 2
    case skipped = 3
}

/// A URL to fetch, as the frontier keeps it.
public struct FrontierEntry: Sendable, Hashable {
    /// Assigned by the store (`nil` until the entry is enqueued).
    public var id: Int64?
    /// The fetch URL.
    public var url: String
    /// The de-duplication key, unique within a run.
    public var key: String
    /// The scheduling host (`host[:port]`).
    public var host: String
    /// Links followed from the seed (the seed is 0).
    public var depth: Int
    public var discovery: Discovery
    /// The URL of the page (or sitemap) that linked it.
    public var foundOn: String?
    /// Fetch attempts so far (retries).
    public var attempts: Int
    /// Seconds since 1970 before which the entry is not claimable (retry backoff).
    public var notBefore: Double

    public init(
        url: String, key: String, host: String, depth: Int, discovery: Discovery, foundOn: String? = nil,
        attempts: Int = 0, notBefore: Double = 0
    ) {
        self.id = nil
        self.url = url
        self.key = key
        self.host = host
        self.depth = depth
        self.discovery = discovery
        self.foundOn = foundOn
        self.attempts = attempts
        self.notBefore = notBefore
    }
}

/// A URL the crawl did not fetch, and why.
public struct SkippedURL: Sendable, Hashable, Codable {
    public var url: String
    /// The de-duplication key, when one could be computed.
    public var key: String?
    /// A short machine-readable reason: "robots", "scope", "budget", "scheme", "error", "duplicate-redirect" …
    public var reason: String
    /// Human-readable detail (the robots rule, the budget reached …).
    public var detail: String
    /// The URL of the page (or sitemap) that linked it.
    public var foundOn: String?

    public init(url: String, key: String? = nil, reason: String, detail: String = "", foundOn: String? = nil) {
        self.url = url
        self.key = key
        self.reason = reason
        self.detail = detail
        self.foundOn = foundOn
    }
}

/// What the reports compare across pages, as typed columns (canonical URL, app-argument, title,
/// description, thumbnail, candidacy, finding counts), so a report over 20,000 pages never parses
/// every page's analysis to read them.
public struct PageVerdict: Sendable, Hashable, Codable {
    public var uniqueIdentifier: String?
    public var canonical: String?
    public var appArgument: String?
    public var title: String?
    public var contentDescription: String?
    public var thumbnailURL: String?
    /// nil when the page was not analysed (not 200 HTML).
    public var isCandidate: Bool?
    /// The candidacy conditions that fail (`Candidacy.Condition` raw values), in order.
    public var failingConditions: [String]

    public init(
        uniqueIdentifier: String? = nil, canonical: String? = nil, appArgument: String? = nil, title: String? = nil,
        contentDescription: String? = nil, thumbnailURL: String? = nil, isCandidate: Bool? = nil,
        failingConditions: [String] = []
    ) {
        self.uniqueIdentifier = uniqueIdentifier
        self.canonical = canonical
        self.appArgument = appArgument
        self.title = title
        self.contentDescription = contentDescription
        self.thumbnailURL = thumbnailURL
        self.isCandidate = isCandidate
        self.failingConditions = failingConditions
    }
}

/// A page's findings counted by severity (typed columns).
public struct FindingCounts: Sendable, Hashable, Codable {
    public var errors: Int
    public var warnings: Int
    public var infos: Int

    public init(errors: Int = 0, warnings: Int = 0, infos: Int = 0) {
        self.errors = errors
        self.warnings = warnings
        self.infos = infos
    }
}

/// What a fetch of one frontier entry produced: typed columns for what the crawl and the reports
/// query, and the rest as two binary values the crawler encodes (ReportModel's `PagePayload` and
/// the page's `PageMarkup`, versioned by `payloadVersion`): the store never reads them.
public struct PageRecord: Sendable, Hashable, Codable {
    /// The current payload version (ReportModel's `PagePayload.version`). 5 (since 2026-11-29):
    /// `payload` and `markup` in a binary encoding; 1-4 kept JSON text in columns of their own,
    /// which the reports no longer read. 6: `--render` and `--consumers` results typed too.
    public static let currentPayloadVersion = 6

    /// The frontier entry this page completes.
    public var frontierID: Int64
    public var requestedURL: String
    public var finalURL: String
    /// The de-duplication key of the requested URL (the frontier entry's key).
    public var key: String
    /// The de-duplication key of `finalURL`, when the caller computed it. Used to match sitemap
    /// locations against redirected pages; when `nil`, `finalURL` itself is compared with the locations.
    public var finalKey: String?
    public var depth: Int
    /// `nil` when there was no HTTP answer.
    public var status: Int?
    public var contentType: String?
    public var bodyBytes: Int
    public var bodySHA256: String?
    public var etag: String?
    public var lastModified: String?
    /// A re-crawl got 304 and kept the previous markup.
    public var notModified: Bool
    public var errorKind: String?
    public var errorMessage: String?
    /// The page's `PagePayload`, encoded: its headers, redirects, timings, findings and analysis;
    /// nil for a page stored by a version before 5.
    public var payload: [UInt8]?
    /// The page's full `PageMarkup`, encoded; nil when the store was read without it, or for a
    /// page that was not parsed.
    public var markup: [UInt8]?
    public var applebotAllowed: Bool?
    /// Seconds since 1970.
    public var fetchedAt: Double
    /// The typed verdict of an analysed page; nil when it was not analysed.
    public var verdict: PageVerdict?
    /// The page's findings by severity.
    public var findingCounts: FindingCounts
    public var payloadVersion: Int

    public init(
        frontierID: Int64, requestedURL: String, finalURL: String, key: String, finalKey: String? = nil, depth: Int,
        status: Int? = nil, contentType: String? = nil, bodyBytes: Int = 0, bodySHA256: String? = nil,
        etag: String? = nil,
        lastModified: String? = nil, notModified: Bool = false, errorKind: String? = nil, errorMessage: String? = nil,
        payload: [UInt8]? = nil, markup: [UInt8]? = nil, applebotAllowed: Bool? = nil, fetchedAt: Double,
        verdict: PageVerdict? = nil,
        findingCounts: FindingCounts = FindingCounts(), payloadVersion: Int = PageRecord.currentPayloadVersion
    ) {
        self.frontierID = frontierID
        self.requestedURL = requestedURL
        self.finalURL = finalURL
        self.key = key
        self.finalKey = finalKey
        self.depth = depth
        self.status = status
        self.contentType = contentType
        self.bodyBytes = bodyBytes
        self.bodySHA256 = bodySHA256
        self.etag = etag
        self.lastModified = lastModified
        self.notModified = notModified
        self.errorKind = errorKind
        self.errorMessage = errorMessage
        self.payload = payload
        self.markup = markup
        self.applebotAllowed = applebotAllowed
        self.fetchedAt = fetchedAt
        self.verdict = verdict
        self.findingCounts = findingCounts
        self.payloadVersion = payloadVersion
    }
}

/// One crawl of a site. Each run has the next generation number.
public struct CrawlRun: Sendable, Hashable {
    public var seed: String
    /// The crawl settings, as JSON text written by the caller.
    public var settingsJSON: String
    public var generation: Int
    /// Seconds since 1970.
    public var startedAt: Double
    /// `nil` while the run is unfinished.
    public var finishedAt: Double?

    public init(seed: String, settingsJSON: String, generation: Int, startedAt: Double, finishedAt: Double? = nil) {
        self.seed = seed
        self.settingsJSON = settingsJSON
        self.generation = generation
        self.startedAt = startedAt
        self.finishedAt = finishedAt
    }

    /// Whether `finishRun` was called for this run.
    public var isFinished: Bool { finishedAt != nil }
}

/// How many frontier entries are in each state.
public struct FrontierCounts: Sendable, Hashable {
    public var queued: Int
    public var inFlight: Int
    public var done: Int
    public var skipped: Int

    public init(queued: Int = 0, inFlight: Int = 0, done: Int = 0, skipped: Int = 0) {
        self.queued = queued
        self.inFlight = inFlight
        self.done = done
        self.skipped = skipped
    }

    /// All entries of the run's frontier.
    public var total: Int { queued + inFlight + done + skipped }

    /// Counts `count` entries in the state stored as `state` (`FrontierState`'s raw value); an
    /// unknown state is not counted.
    public mutating func add(_ count: Int, inState state: Int) {
        switch FrontierState(rawValue: state) {
        case .queued: queued += count
        case .inFlight: inFlight += count
        case .done: done += count
        case .skipped: skipped += count
        case nil: break
        }
    }
}

extension CrawlStore {
    /// A cached robots.txt fetch, per origin (`"http://host:port"`).
    public struct RobotsRecord: Sendable, Hashable {
        public var origin: String
        /// `nil` when there was no HTTP answer.
        public var status: Int?
        public var body: [UInt8]
        /// Seconds since 1970.
        public var fetchedAt: Double
        public var finalURL: String?
        public var error: String?

        public init(
            origin: String, status: Int?, body: [UInt8], fetchedAt: Double, finalURL: String? = nil,
            error: String? = nil
        ) {
            self.origin = origin
            self.status = status
            self.body = body
            self.fetchedAt = fetchedAt
            self.finalURL = finalURL
            self.error = error
        }
    }

    /// One `<loc>` read from a sitemap during this run.
    public struct SitemapEntryRecord: Sendable, Hashable {
        public var sitemapURL: String
        public var location: String
        /// The location's de-duplication key.
        public var key: String
        /// The line of the sitemap the location was read on.
        public var line: Int

        public init(sitemapURL: String, location: String, key: String, line: Int) {
            self.sitemapURL = sitemapURL
            self.location = location
            self.key = key
            self.line = line
        }
    }
}
