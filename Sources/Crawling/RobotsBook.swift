import CrawlStore
import PageFetching
import RobotsExclusion

/// robots.txt per origin for one crawl: fetched once (concurrent askers wait for the same fetch),
/// kept in the crawl store so a resumed crawl reuses it while it is fresh (24 h), and read for
/// two agents: SpotCheck's own token (obeyed) and Applebot (recorded, with Apple's Googlebot
/// fallback).
actor RobotsBook {
    struct Answer: Sendable {
        var policy: RobotsPolicy
        /// `Sitemap:` lines (absolute URLs as written).
        var sitemaps: [String]
        var crawlDelay: Double?
    }

    private let fetcher: Fetcher
    private let store: CrawlStore
    private let productToken: String
    private let clock: @Sendable () -> Double
    private var answers: [String: Answer] = [:]
    private var pending: [String: Task<Answer, Never>] = [:]

    static let applebotTokens = ["applebot", "googlebot"]

    init(fetcher: Fetcher, store: CrawlStore, productToken: String, clock: @escaping @Sendable () -> Double) {
        self.fetcher = fetcher
        self.store = store
        self.productToken = productToken
        self.clock = clock
    }

    /// The answer for `origin` (`scheme://host[:port]`), fetching robots.txt when needed.
    func answer(forOrigin origin: String) async -> Answer {
        if let answer = answers[origin] { return answer }
        if let task = pending[origin] { return await task.value }
        let fetcher = fetcher
        let store = store
        let clock = clock
        let productToken = productToken
        let task = Task {
            await Self.load(origin: origin, fetcher: fetcher, store: store, productToken: productToken, clock: clock)
        }
        pending[origin] = task
        let answer = await task.value
        answers[origin] = answer
        pending[origin] = nil
        return answer
    }

    /// Whether Applebot may fetch `url` (its group, else Googlebot's, else `*`).
    func allowsApplebot(_ url: String, origin: String) async -> Bool {
        await answer(forOrigin: origin).policy.isAllowed(productTokens: Self.applebotTokens, url: url)
    }

    private static func load(
        origin: String, fetcher: Fetcher, store: CrawlStore, productToken: String, clock: @Sendable () -> Double
    ) async -> Answer {
        if let record = try? store.robots(origin: origin) {
            // Rules are reused for 24 h; an unreachable robots.txt is asked for again after 10 minutes.
            let unreachable = record.status.map { $0 >= 500 } ?? true
            let freshness = unreachable ? RobotsCacheEntry.unreachableRetry : RobotsCacheEntry.freshness
            if clock() - record.fetchedAt < freshness { return answer(from: record, productToken: productToken) }
        }
        var machine = RobotsFetch(url: origin + "/robots.txt")
        var step = machine.firstStep
        var record = CrawlStore.RobotsRecord(
            origin: origin, status: nil, body: [], fetchedAt: clock(), finalURL: nil, error: nil)
        while case .fetch(let url) = step {
            record.finalURL = url
            do {
                // RFC 9309 §2.5: at least 500 KiB parsed, the rest ignored, whatever --max-body says.
                let response = try await fetcher.fetch(FetchRequest(url: url, bodyCap: .robotsTxt))
                record.status = response.status
                record.body = (200..<300).contains(response.status) ? response.body : []
                record.error = nil
                step = machine.receive(
                    .http(status: response.status, location: response.header("Location"), body: response.body))
            } catch {
                record.status = nil
                record.error = "\(error.kind.rawValue): \(error.message)"
                step = machine.receive(.failure(record.error ?? ""))
            }
        }
        guard case .done(let policy) = step else { preconditionFailure("RobotsFetch ended without a policy") }
        try? store.saveRobots(record)
        return answer(policy: policy, productToken: productToken)
    }

    static func answer(from record: CrawlStore.RobotsRecord, productToken: String) -> Answer {
        let policy: RobotsPolicy
        switch record.status {
        case .some(200..<300): policy = .rules(RobotsTxt(bytes: record.body))
        case .some(300..<400):
            policy = .allowAll(reason: "robots.txt redirected without an answer (HTTP \(record.status ?? 0))")
        case .some(400..<500): policy = .allowAll(reason: "robots.txt unavailable (HTTP \(record.status ?? 0))")
        case .some(let status): policy = .disallowAll(reason: "robots.txt unreachable (HTTP \(status))")
        case nil: policy = .disallowAll(reason: "robots.txt unreachable: \(record.error ?? "no answer")")
        }
        return answer(policy: policy, productToken: productToken)
    }

    private static func answer(policy: RobotsPolicy, productToken: String) -> Answer {
        guard case .rules(let robots) = policy else { return Answer(policy: policy, sitemaps: [], crawlDelay: nil) }
        return Answer(policy: policy, sitemaps: robots.sitemaps, crawlDelay: robots.crawlDelay(for: productToken))
    }
}

extension RobotsPolicy {
    /// A short text for reports: "rules", or why everything is allowed or disallowed.
    var summary: String {
        switch self {
        case .rules: "rules"
        case .allowAll(let reason): "allow all: \(reason)"
        case .disallowAll(let reason): "disallow all: \(reason)"
        }
    }
}
