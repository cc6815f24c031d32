import URLNormalization

/// What applies to an authority once its robots.txt was (or could not be) fetched (RFC 9309
/// §2.3.1): the parsed rules, everything allowed (the file is unavailable), or nothing allowed
/// (the file is unreachable).
public enum RobotsPolicy: Sendable, Hashable {
    case rules(RobotsTxt)
    /// Unavailable (4xx, too many redirects, a loop): every URL may be crawled.
    case allowAll(reason: String)
    /// Unreachable (5xx, network failure): no URL may be crawled until a later fetch succeeds.
    case disallowAll(reason: String)

    public func isAllowed(productToken: String, url: String) -> Bool {
        switch self {
        case .rules(let robots): robots.isAllowed(productToken: productToken, url: url)
        case .allowAll: true
        case .disallowAll: false
        }
    }

    /// Whether the first of `productTokens` named by a group (else `*`) may fetch `url`.
    public func isAllowed(productTokens: [String], url: String) -> Bool {
        switch self {
        case .rules(let robots): robots.decide(productTokens: productTokens, url: url).allowed
        case .allowAll: true
        case .disallowAll: false
        }
    }

    public var isUnreachable: Bool {
        if case .disallowAll = self { true } else { false }
    }
}

/// The fetch of one robots.txt as a pure state machine: it says which URL to request next and,
/// given each answer, either asks for the next one (a redirect) or gives the policy. The fetcher
/// does the I/O (and decodes content codings); this type holds the rules (§2.3.1): 2xx → parse;
/// 3xx → follow at most `maximumRedirects` hops, loops ending as unavailable; 4xx → allow all;
/// 5xx or a network failure → disallow all.
public struct RobotsFetch: Sendable {
    public enum Answer: Sendable, Hashable {
        /// An HTTP answer; `body` after content decoding; `location` the raw header value.
        case http(status: Int, location: String?, body: [UInt8])
        /// No HTTP answer: DNS, connection, TLS, timeout, a truncated body …
        case failure(String)
    }

    public enum Step: Sendable, Hashable {
        case fetch(String)
        case done(RobotsPolicy)
    }

    public let maximumRedirects: Int
    public let mode: RobotsTxt.Mode
    public private(set) var currentURL: String
    public private(set) var redirects: [String] = []
    private var visited: Set<String>

    public init(url: String, maximumRedirects: Int = 5, mode: RobotsTxt.Mode = .rfc9309) {
        self.currentURL = url
        self.maximumRedirects = maximumRedirects
        self.mode = mode
        self.visited = [url]
    }

    /// The first request.
    public var firstStep: Step { .fetch(currentURL) }

    public mutating func receive(_ answer: Answer) -> Step {
        switch answer {
        case .failure(let reason):
            return .done(.disallowAll(reason: "robots.txt unreachable: \(reason)"))
        case .http(let status, let location, let body):
            switch status {
            case 200..<300:
                return .done(.rules(RobotsTxt(bytes: body, mode: mode)))
            case 300..<400:
                guard let location, !location.isEmpty,
                    let target = URLParser.parse(location, base: URLParser.parse(currentURL))?.description
                else {
                    return .done(.allowAll(reason: "robots.txt redirect (\(status)) without a usable Location"))
                }
                guard redirects.count < maximumRedirects else {
                    return .done(.allowAll(reason: "robots.txt redirected more than \(maximumRedirects) times"))
                }
                guard visited.insert(target).inserted else {
                    return .done(.allowAll(reason: "robots.txt redirect loop at \(target)"))
                }
                redirects.append(target)
                currentURL = target
                return .fetch(target)
            case 400..<500:
                return .done(.allowAll(reason: "robots.txt unavailable (HTTP \(status))"))
            default:
                return .done(.disallowAll(reason: "robots.txt unreachable (HTTP \(status))"))
            }
        }
    }
}

/// The robots.txt cache of one authority, with the clock passed in (§2.4): rules are reused for
/// 24 hours; while the file is unreachable the last good rules keep applying (or, without them,
/// nothing is allowed) until it has been unreachable for 30 days, after which it counts as
/// unavailable.
public struct RobotsCacheEntry: Sendable {
    public static let freshness: Double = 24 * 3600
    public static let unreachableLimit: Double = 30 * 24 * 3600
    /// How soon an unreachable robots.txt is asked for again, unless the crawl says otherwise.
    public static let unreachableRetry: Double = 600

    public private(set) var policy: RobotsPolicy
    public private(set) var fetchedAt: Double
    /// How soon an unreachable robots.txt is asked for again (`--robots-retry`).
    public let retryWait: Double
    private var lastGoodRules: RobotsPolicy?
    private var unreachableSince: Double?

    public init(policy: RobotsPolicy, at time: Double, retryWait: Double = RobotsCacheEntry.unreachableRetry) {
        self.policy = policy
        self.fetchedAt = time
        self.retryWait = retryWait
        if !policy.isUnreachable { lastGoodRules = policy } else { unreachableSince = time }
    }

    /// Whether robots.txt must be fetched again before crawling at `time`.
    public func needsRefresh(at time: Double) -> Bool {
        time - fetchedAt >= (unreachableSince == nil ? Self.freshness : retryWait)
    }

    /// Records a new fetch's outcome and returns the policy that now applies.
    @discardableResult
    public mutating func record(_ outcome: RobotsPolicy, at time: Double) -> RobotsPolicy {
        fetchedAt = time
        guard outcome.isUnreachable else {
            unreachableSince = nil
            lastGoodRules = outcome
            policy = outcome
            return policy
        }
        let since = unreachableSince ?? time
        unreachableSince = since
        if time - since >= Self.unreachableLimit {
            policy = .allowAll(reason: "robots.txt unreachable for 30 days")
        } else {
            policy = lastGoodRules ?? outcome
        }
        return policy
    }
}
