package import CrawlStore
import PageFetching
package import RobotsExclusion

/// robots.txt per origin for one crawl: fetched once (concurrent askers wait for the same fetch),
/// kept in the crawl store so a resumed crawl reuses it while it is fresh, and read for two
/// agents: SpotCheck's own token (obeyed) and Applebot (recorded, with Apple's Googlebot
/// fallback). An answer is asked for again when its `RobotsCacheEntry` says so (RFC 9309 §2.4,
/// §2.3.1.3), on the injected clock: 24 h after a fetch, `retryWait` (`--robots-retry`, 10 minutes
/// unless set) after an unreachable one (5xx or no answer: disallow all meanwhile, or the last
/// good rules when there were some).
package actor RobotsBook {
    package struct Answer: Sendable {
        package var policy: RobotsPolicy
        /// `Sitemap:` lines (absolute URLs as written).
        var sitemaps: [String]
        var crawlDelay: Double?
        /// When robots.txt is asked for again (crawl clock).
        var refreshAt: Double

        /// robots.txt was unreachable and no earlier rules apply: nothing may be fetched until
        /// `refreshAt`.
        var isUnreachable: Bool { policy.isUnreachable }

        /// Whether `url` may be fetched by `productToken` (then `*`).
        func allows(_ url: String, productToken: String) -> Bool {
            policy.isAllowed(productTokens: [productToken], url: url)
        }
    }

    private struct Cached: Sendable {
        var entry: RobotsCacheEntry
        var answer: Answer
    }

    private let fetcher: any PageFetcher
    private let store: StoreQueue
    private let productToken: String
    private let clock: @Sendable () -> Double
    /// Seconds before an unreachable robots.txt is asked for again.
    private let retryWait: Double
    private var cache: [String: Cached] = [:]
    private var pending: [String: Task<Cached, Never>] = [:]

    package static let applebotTokens = ["applebot", "googlebot"]

    init(
        fetcher: any PageFetcher, store: StoreQueue, productToken: String, retryWait: Double? = nil,
        clock: @escaping @Sendable () -> Double
    ) {
        self.fetcher = fetcher
        self.store = store
        self.productToken = productToken
        self.retryWait = max(0, retryWait ?? RobotsCacheEntry.unreachableRetry)
        self.clock = clock
    }

    /// The answer for `origin` (`scheme://host[:port]`), fetching robots.txt when there is none
    /// yet or the one held is due for a refresh.
    func answer(forOrigin origin: String) async -> Answer {
        if let cached = cache[origin], !cached.entry.needsRefresh(at: clock()) { return cached.answer }
        if let task = pending[origin] { return await task.value.answer }
        let fetcher = fetcher
        let store = store
        let clock = clock
        let productToken = productToken
        let retryWait = retryWait
        let previous = cache[origin]?.entry
        let task = Task {
            await Self.load(
                origin: origin, previous: previous, fetcher: fetcher, store: store, productToken: productToken,
                retryWait: retryWait, clock: clock)
        }
        pending[origin] = task
        let loaded = await task.value
        cache[origin] = loaded
        pending[origin] = nil
        return loaded.answer
    }

    /// The answer held for `origin` now, without fetching (nil before the first one).
    func heldAnswer(forOrigin origin: String) -> Answer? {
        cache[origin]?.answer
    }

    /// Whether Applebot may fetch `url` (its group, else Googlebot's, else `*`).
    func allowsApplebot(_ url: String, origin: String) async -> Bool {
        await answer(forOrigin: origin).policy.isAllowed(productTokens: Self.applebotTokens, url: url)
    }

    /// `previous`: the cache entry held so far in this crawl (its last good rules outlive an
    /// unreachable refresh); nil on the first ask, when the store's record is reused if fresh.
    private static func load(
        origin: String, previous: RobotsCacheEntry?, fetcher: any PageFetcher, store: StoreQueue, productToken: String,
        retryWait: Double, clock: @Sendable () -> Double
    ) async -> Cached {
        if previous == nil, let record = try? await store.run({ try $0.robots(origin: origin) }) {
            let answer = answer(from: record, productToken: productToken, retryWait: retryWait)
            let entry = RobotsCacheEntry(policy: answer.policy, at: record.fetchedAt, retryWait: retryWait)
            if !entry.needsRefresh(at: clock()) { return Cached(entry: entry, answer: answer) }
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
        guard case .done(let outcome) = step else { preconditionFailure("RobotsFetch ended without a policy") }
        var entry = previous ?? RobotsCacheEntry(policy: outcome, at: record.fetchedAt, retryWait: retryWait)
        let applied = previous == nil ? outcome : entry.record(outcome, at: record.fetchedAt)
        // An unreachable refresh does not replace good rules in the store: a resumed crawl asks again.
        if !outcome.isUnreachable || applied.isUnreachable {
            let saved = record
            _ = try? await store.run { try $0.saveRobots(saved) }
        }
        var answer = answer(policy: applied, productToken: productToken)
        answer.refreshAt = record.fetchedAt + refreshInterval(outcome, retryWait: retryWait)
        return Cached(entry: entry, answer: answer)
    }

    /// How long an outcome is reused: 24 h, or `retryWait` when robots.txt was unreachable.
    static func refreshInterval(_ outcome: RobotsPolicy, retryWait: Double) -> Double {
        outcome.isUnreachable ? retryWait : RobotsCacheEntry.freshness
    }

    package static func answer(
        from record: CrawlStore.RobotsRecord, productToken: String,
        retryWait: Double = RobotsCacheEntry.unreachableRetry
    ) -> Answer {
        let policy: RobotsPolicy
        switch record.status {
        case .some(200..<300): policy = .rules(RobotsTxt(bytes: record.body))
        case .some(300..<400):
            policy = .allowAll(reason: "robots.txt redirected without an answer (HTTP \(record.status ?? 0))")
        case .some(400..<500): policy = .allowAll(reason: "robots.txt unavailable (HTTP \(record.status ?? 0))")
        case .some(let status): policy = .disallowAll(reason: "robots.txt unreachable (HTTP \(status))")
        case nil: policy = .disallowAll(reason: "robots.txt unreachable: \(record.error ?? "no answer")")
        }
        var answer = answer(policy: policy, productToken: productToken)
        answer.refreshAt = record.fetchedAt + refreshInterval(policy, retryWait: retryWait)
        return answer
    }

    private static func answer(policy: RobotsPolicy, productToken: String) -> Answer {
        guard case .rules(let robots) = policy else {
            return Answer(policy: policy, sitemaps: [], crawlDelay: nil, refreshAt: 0)
        }
        return Answer(
            policy: policy, sitemaps: robots.sitemaps, crawlDelay: robots.crawlDelay(for: productToken), refreshAt: 0)
    }
}

extension RobotsPolicy {
    /// Why robots.txt counts as unreachable ("robots.txt unreachable (HTTP 503)"), as the
    /// fetch recorded it.
    var unreachableReason: String {
        if case .disallowAll(let reason) = self { return reason }
        return summary
    }

    /// A short text for reports: "rules", or why everything is allowed or disallowed.
    var summary: String {
        switch self {
        case .rules: "rules"
        case .allowAll(let reason): "allow all: \(reason)"
        case .disallowAll(let reason): "disallow all: \(reason)"
        }
    }
}
