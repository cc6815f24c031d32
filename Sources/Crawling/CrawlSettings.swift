import BrowserRendering
import MarkupExtraction
public import Rulebook
public import Verification

/// Everything that shapes a crawl; stored with the crawl so `--resume` continues the same one.
public struct CrawlSettings: Sendable, Hashable, Codable {
    /// The first URL (the fetch URL: for a served folder, the loopback one).
    public var seed: String
    /// What the user named: the seed URL, or the absolute path of the served folder (how
    /// `--resume` finds the crawl again).
    public var source: String = ""
    /// `--as`: the public origin a served folder stands for.
    public var publicOrigin: String?
    /// Hosts crawled besides the seed's (`--allow-host`).
    public var allowedHosts: [String]
    public var include: [String]
    public var exclude: [String]
    /// The project's ignore list (`"ignore"` in `.spotcheck.json`, `--ignore`; nil: none, and the
    /// key is left out of the stored settings, as crawls before it stored them).
    public var ignore: [String]?
    /// Requests in flight in all (`--concurrency`).
    public var concurrency: Int
    /// Requests in flight per host (`--per-host`).
    public var perHost: Int
    /// Seconds between two requests to one host (`--delay`; raised by Crawl-delay; loopback hosts are not throttled).
    public var delay: Double
    /// Links followed from the seed (`--depth`; the seed is 0, sitemap URLs count as 1).
    public var maximumDepth: Int
    /// Pages fetched at most (`--max-pages`).
    public var maximumPages: Int
    /// The User-Agent header (`--user-agent`).
    public var userAgent: String
    /// The robots.txt product token SpotCheck obeys (then `*`).
    public var productToken: String
    /// Body bytes kept per response, after decoding (`--max-body`).
    public var maximumBodyBytes: Int
    /// Seconds per request (`--timeout`).
    public var timeout: Double
    /// Redirect hops followed from one URL.
    public var maximumRedirects: Int
    /// Attempts per URL on timeouts, dropped connections, 429 and 5xx.
    public var maximumAttempts: Int
    /// Read robots.txt `Sitemap:` lines and `/sitemap.xml`, and crawl what they list.
    public var useSitemaps: Bool
    /// `--microdata-content-anywhere`: a `content` attribute read on any Microdata element, as
    /// Google and extruct do (`MarkupExtractor.Options`). False by default, as WHATWG HTML says.
    /// Crawls stored before it was an option read it so, and keep their reading on resume.
    public var microdataContentOnAnyElement: Bool
    /// `--microdata-whatwg`: orphan items (an `itemscope` with an `itemprop` no item claims)
    /// dropped, as WHATWG HTML says, instead of extracted as items marked orphan. Nil: false.
    public var microdataDropsOrphanItems: Bool?
    /// Seconds before an unreachable robots.txt (5xx, timeout) is asked for again while its
    /// host's pages wait (`--robots-retry`; nil: `RobotsCacheEntry.unreachableRetry`, 600). 0: ask
    /// once, and report the host's pages as not fetched.
    public var robotsRetryWait: Double?
    /// The hosts of the seeds after the first (several seeds, `--urls-from`): crawled like the
    /// first seed's host. Nil: one seed.
    public var seedHosts: [String]?
    /// `--urls-from`: the seeds are checked (their redirects, images and association files too)
    /// and no link is followed, no sitemap read. Nil or false: links are followed.
    public var listMode: Bool?
    /// `--header`/`--basic-auth`: the header names sent and the origins they went to. The values
    /// are never stored (nor reported): `--resume` needs them passed again.
    public var credentials: CredentialRecord?
    /// `--ca-file`: a PEM file of certificate authorities trusted instead of the system's (a
    /// staging site's own CA), as an absolute path; nil: the system's.
    public var certificateAuthorities: String?
    /// `--max-images`: distinct images fetched for the image rules in one run (nil:
    /// `defaultMaximumImages`, and left out of the stored settings).
    public var maximumImages: Int?
    /// `--throttle-loopback`: loopback hosts get the per-host limit and delay too (tests of the
    /// politeness of a cluster on one machine); nil: not (and left out of the stored settings).
    public var throttleLoopback: Bool?
    /// `--render`: every HTML page also rendered in headless Chromium; nil: not.
    public var render: RenderSettings?
    /// `--consumers`: the consumers (`Consumer.all` names) every HTML page is fetched again as, for
    /// IX010; nil: none.
    public var consumers: [String]?
    /// A crawl shared with workers (`--store postgres://…`): the page rules every worker applies;
    /// nil for a crawl of one process.
    public var pageRules: SharedPageRules?

    /// `--max-images` unless given: distinct images checked in one run.
    public static let defaultMaximumImages = 10_000
    /// Images checked per page: the first ones in the page's order (`og:image`, `twitter:image`,
    /// the thumbnail). Real pages name a handful; consumers show the first.
    public static let imagesCheckedPerPage = 10
    /// `--marketing-url`: the app's marketing and support URLs in App Store Connect, where Applebot
    /// learns of the site (IX011). Nil or empty: not checked.
    public var marketingURLs: [String]?

    /// SpotCheck's version: what `--version` prints, the default User-Agent sends and SARIF's
    /// driver names.
    public static let toolVersion = "0.4.0"

    /// The User-Agent sent unless `--user-agent` says otherwise: SpotCheck and its version. It
    /// names no contact of its own (SpotCheck is run by its users, not by a service): a crawl of
    /// someone else's site should add the team's, e.g. `--user-agent "Mozilla/5.0 (compatible;
    /// spotcheck/0.4.0; +mailto:web@example.com)"` (docs/crawl.md).
    public static let defaultUserAgent = "Mozilla/5.0 (compatible; spotcheck/\(toolVersion))"

    public init(
        seed: String, publicOrigin: String? = nil, allowedHosts: [String] = [], include: [String] = [],
        exclude: [String] = [], concurrency: Int = 16, perHost: Int = 2, delay: Double = 1, maximumDepth: Int = 10,
        maximumPages: Int = 10_000, userAgent: String = CrawlSettings.defaultUserAgent,
        productToken: String = "spotcheck",
        maximumBodyBytes: Int = 10 << 20, timeout: Double = 30, maximumRedirects: Int = 10, maximumAttempts: Int = 3,
        useSitemaps: Bool = true, microdataContentOnAnyElement: Bool = false
    ) {
        self.seed = seed
        self.publicOrigin = publicOrigin
        self.allowedHosts = allowedHosts
        self.include = include
        self.exclude = exclude
        self.concurrency = concurrency
        self.perHost = perHost
        self.delay = delay
        self.maximumDepth = maximumDepth
        self.maximumPages = maximumPages
        self.userAgent = userAgent
        self.productToken = productToken
        self.maximumBodyBytes = maximumBodyBytes
        self.timeout = timeout
        self.maximumRedirects = maximumRedirects
        self.maximumAttempts = maximumAttempts
        self.useSitemaps = useSitemaps
        self.microdataContentOnAnyElement = microdataContentOnAnyElement
    }
}

/// The page rules as a crawl shared with workers stores them in its settings (`pageRules`), so
/// that every worker checks pages exactly as the process that started the crawl would: each
/// rule's setting (`off`, `error`, `warning`, `info`) where the project changed it, and the app's
/// identity.
public struct SharedPageRules: Sendable, Hashable, Codable {
    /// Rule id → `off`, `error`, `warning` or `info`.
    public var rules: [String: String]
    public var appStoreID: String?
    public var appIDs: [String]

    public init(_ verifier: PageVerifier) {
        var rules: [String: String] = [:]
        for (rule, setting) in verifier.configuration.settings {
            switch setting {
            case .off: rules[rule.rawValue] = "off"
            case .severity(let severity): rules[rule.rawValue] = severity.rawValue
            }
        }
        self.rules = rules
        appStoreID = verifier.appStoreID
        appIDs = verifier.appIDs
    }

    /// The verifier these settings describe; throws when a stored rule is unknown to this
    /// SpotCheck (a worker older than the crawl's starter).
    public func verifier() throws(RuleConfigurationError) -> PageVerifier {
        var configuration = RuleConfiguration()
        for (rule, level) in rules.sorted(by: { $0.key < $1.key }) {
            try configuration.set(rule, level, origin: "the crawl's stored settings")
        }
        return PageVerifier(configuration: configuration, appStoreID: appStoreID, appIDs: appIDs)
    }
}

/// `crawl --render`: how pages are rendered in headless Chromium.
public struct RenderSettings: Sendable, Hashable, Codable {
    /// `--render-concurrency`: tabs rendering at once.
    public var concurrency: Int
    /// `--render-timeout`: seconds per page, from navigation to the DOM read.
    public var timeout: Double

    /// The Chromium executable (`SPOTCHECK_CHROMIUM`); nil: where Debian's package puts it (or
    /// another usual place).
    public var executable: String?

    public static let defaultConcurrency = 4
    public static let defaultTimeout = 15.0

    public init(
        concurrency: Int = RenderSettings.defaultConcurrency, timeout: Double = RenderSettings.defaultTimeout,
        executable: String? = nil
    ) {
        self.concurrency = concurrency
        self.timeout = timeout
        self.executable = executable
    }

    /// Why these settings cannot render, before any work starts: no Chromium where it is looked
    /// for (the message names the package to install); nil when one is there.
    public var missingBrowser: String? {
        ChromiumRenderer.browserExecutable(executable) == nil
            ? RenderError.chromiumMissing(searched: executable.map { [$0] } ?? ChromiumRenderer.searchedPlaces)
                .description
            : nil
    }
}

extension CrawlSettings {
    /// How the crawl reads each page's markup.
    var extractorOptions: MarkupExtractor.Options {
        MarkupExtractor.Options(
            microdataContentOnAnyElement: microdataContentOnAnyElement,
            microdataOrphanItems: microdataDropsOrphanItems != true)
    }
}
