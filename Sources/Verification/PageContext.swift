/// What is known about a page beyond its markup: how it was served (a crawl) or read (a file).
/// Every field is optional; a rule that needs a missing fact is not checked on that page.
public struct PageContext: Sendable, Hashable {
    /// The final response's HTTP status; nil for a file.
    public var status: Int?
    /// The final response's media type (`text/html`, lower-cased, no parameters); nil for a file.
    public var mediaType: String?
    /// `X-Robots-Tag` response header values, in order.
    public var robotsHeaders: [String]
    /// Targets of `Link: <…>; rel="canonical"` response headers, as written.
    public var headerCanonicals: [String]
    /// The size of the page's HTML, in bytes, as served (decoded) or as read.
    public var bodyBytes: Int?
    /// Whether robots.txt lets Applebot fetch the page (Apple's Googlebot fallback applied); nil
    /// when unknown (a file).
    public var applebotAllowed: Bool?
    /// How the app's universal links treat the page's canonical URL, when the app and its host's
    /// `apple-app-site-association` are known.
    public var canonicalLink: UniversalLinkVerdict?
    /// The same for the Smart App Banner's https `app-argument`, against its own host's file.
    public var appArgumentLink: UniversalLinkVerdict?
    /// What each consumer `crawl --consumers` names got when it fetched the page (IX010).
    public var consumerViews: [ConsumerView] = []
    /// The page rendered in headless Chromium (`crawl --render`: DL005, IX015, IX016).
    public var rendered: RenderedView?

    public init(
        status: Int? = nil, mediaType: String? = nil, robotsHeaders: [String] = [], headerCanonicals: [String] = [],
        bodyBytes: Int? = nil, applebotAllowed: Bool? = nil, canonicalLink: UniversalLinkVerdict? = nil,
        appArgumentLink: UniversalLinkVerdict? = nil
    ) {
        self.status = status
        self.mediaType = mediaType
        self.robotsHeaders = robotsHeaders
        self.headerCanonicals = headerCanonicals
        self.bodyBytes = bodyBytes
        self.applebotAllowed = applebotAllowed
        self.canonicalLink = canonicalLink
        self.appArgumentLink = appArgumentLink
    }
}

/// What an `apple-app-site-association` file says of one URL for the configured app.
public enum UniversalLinkVerdict: Sendable, Hashable {
    /// Opens the app: `rule` describes the matching pattern.
    case handled(rule: String)
    /// A rule excludes it (`exclude: true` or `NOT `): `rule` describes it, with its comment.
    case excluded(rule: String)
    /// No rule of the app's entries matches.
    case notMatched
    /// The host serves no usable file (missing, redirected, invalid): nothing opens the app.
    case noFile(reason: String)
}

extension PageContext {
    /// Whether the app's AASA handles the canonical URL (a universal link counts as a deep link).
    var canonicalIsUniversalLink: Bool {
        if case .handled = canonicalLink { return true }
        return false
    }
}

extension UniversalLinkVerdict {
    /// One line for reports: `handled: <rule>`, `excluded: <rule>`, `not matched`, `no file: <why>`.
    public var summary: String {
        switch self {
        case .handled(let rule): "handled: \(rule)"
        case .excluded(let rule): "excluded: \(rule)"
        case .notMatched: "not matched"
        case .noFile(let reason): "no file: \(reason)"
        }
    }
}
