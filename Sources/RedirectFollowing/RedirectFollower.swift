public import URLNormalization

/// One URL's redirect chain, followed hop by hop as a value: the caller fetches, hands each answer's
/// status and `Location` to `receive(status:location:judge:)`, and is told whether that answer is the
/// chain's answer, which URL to fetch next, or why the chain stops. Nothing is fetched here and
/// there is no clock; scope, robots and "is the target crawled on its own" are the caller's
/// (through the `judge` callback, or before each fetch).
///
/// A redirect is a 3xx other than 304 with a `Location` header (the statuses libcurl's
/// `FOLLOWLOCATION` follows; 304 Not Modified and a 3xx without `Location` are answers).
/// `Location` is resolved against the URL that answered. A chain stops on a `Location` that does
/// not parse, on a target the judge refuses, on a target already visited in the chain (by
/// de-duplication key: a loop), or when it would take more than `maximumHops` hops (0: every
/// redirect stops the chain, as Apple's fetch of `apple-app-site-association` does).
public struct RedirectFollower: Sendable, Hashable {
    /// One redirect answered on the way.
    public struct Hop: Sendable, Hashable {
        /// The URL that answered with the redirect.
        public var url: String
        public var status: Int
        /// `Location`, as sent.
        public var location: String

        public init(url: String, status: Int, location: String) {
            self.url = url
            self.status = status
            self.location = location
        }
    }

    /// Where a redirect points, resolved against the URL that answered it.
    public struct Target: Sendable, Hashable {
        public var parsed: ParsedURL
        /// The fetch URL (serialized without its fragment).
        public var url: String
        /// The de-duplication key (the URL itself for a URL that has none).
        public var key: String

        public init(_ parsed: ParsedURL) {
            self.parsed = parsed
            self.url = parsed.serialized(includingFragment: false)
            self.key = parsed.deduplicationKey ?? url
        }
    }

    /// What the caller says of a redirect's target before it is followed.
    public enum Verdict: Sendable, Hashable {
        /// Follow it (if it is no loop and the hop limit allows).
        case follow
        /// The chain ends at the target without fetching it (it is crawled on its own).
        case endChain
        /// The target may not be fetched: `reason` and `detail` say why (a scope rule).
        case outOfScope(reason: String, detail: String)
    }

    /// Why a chain stopped on the redirect it just received.
    public enum Stop: Sendable, Hashable {
        /// `Location` does not parse as a URL (against the URL that answered).
        case unparsableLocation(String)
        /// The judge refused the target.
        case outOfScope(Target, reason: String, detail: String)
        /// The target was already visited in this chain.
        case loop(Target)
        /// Following the target would take more than `maximumHops` hops.
        case tooManyHops(Target)
    }

    /// What to do after an answer.
    public enum Step: Sendable, Hashable {
        /// The answer is the chain's answer: not a redirect.
        case answer
        /// Fetch `target.url` next (the hop is counted; `url` and `current` are the target now).
        case follow(Target)
        /// The chain ends at `target`, which is not fetched (the judge's `.endChain`).
        case endsAt(Target)
        /// The chain stops on this redirect.
        case stopped(Stop)
    }

    /// The most hops followed from the first URL.
    public let maximumHops: Int
    /// The URL to fetch now (the first URL, then each target followed).
    public private(set) var current: ParsedURL
    /// `current`, serialized without its fragment.
    public private(set) var url: String
    /// The de-duplication key of `current`.
    public private(set) var key: String
    /// Every redirect received, in order (the one that stopped the chain too).
    public private(set) var hops: [Hop] = []
    private var visited: Set<String>

    /// Starts a chain at `start`; `key` is its de-duplication key when the caller has one (the
    /// frontier's), else the URL's own.
    public init(start: ParsedURL, key: String? = nil, maximumHops: Int) {
        let first = Target(start)
        self.maximumHops = max(0, maximumHops)
        self.current = start
        self.url = first.url
        self.key = key ?? first.key
        self.visited = [key ?? first.key]
    }

    /// Whether an answer is a redirect to follow: a 3xx but 304, with a `Location`.
    public static func isRedirect(status: Int, location: String?) -> Bool {
        (300..<400).contains(status) && status != 304 && location != nil
    }

    /// Where an answer redirects to, without taking it (nil: not a redirect, or a `Location` that
    /// does not parse); lets a caller look the target up before `receive` judges it.
    public func target(status: Int, location: String?) -> Target? {
        guard Self.isRedirect(status: status, location: location), let location,
            let parsed = URLParser.parse(location, base: current)
        else { return nil }
        return Target(parsed)
    }

    /// Takes the answer to a fetch of `url`. `judge` is asked about a parsed target before the
    /// loop and hop checks (its `.outOfScope` wins over both; its `.endChain` over the hop limit).
    public mutating func receive(status: Int, location: String?, judge: (Target) -> Verdict = { _ in .follow })
        -> Step
    {
        guard Self.isRedirect(status: status, location: location), let location else { return .answer }
        hops.append(Hop(url: url, status: status, location: location))
        guard let parsed = URLParser.parse(location, base: current) else {
            return .stopped(.unparsableLocation(location))
        }
        let target = Target(parsed)
        let verdict = judge(target)
        if case .outOfScope(let reason, let detail) = verdict {
            return .stopped(.outOfScope(target, reason: reason, detail: detail))
        }
        guard !visited.contains(target.key) else { return .stopped(.loop(target)) }
        if verdict == .endChain { return .endsAt(target) }
        guard hops.count <= maximumHops else { return .stopped(.tooManyHops(target)) }
        visited.insert(target.key)
        current = target.parsed
        url = target.url
        key = target.key
        return .follow(target)
    }
}
