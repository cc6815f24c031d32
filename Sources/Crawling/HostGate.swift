import CrawlScheduling
import NumericClamping
import PageFetching

/// The politeness of a crawl's side requests (images, sitemaps) to one origin, whichever task
/// asks: at most `limit` in flight (`--per-host`), and starts paced as pages are, by a
/// `HostScheduler` of their own: `--delay` apart, or the origin's robots.txt `Crawl-delay` when
/// longer; a 429 or 503 holds the origin until its `Retry-After` and, like failures and slow
/// answers, doubles the spacing, which healthy answers halve back (loopback origins are not
/// delayed, as for pages). A page naming many images on one host does not open many connections
/// to it, and many pages naming images there do not either. Waiters enter in order. A side
/// request whose turn is more than `longestWait` away is not sent (`throttled`): a host that asks
/// for minutes between requests is left alone, and the pages naming its images do not wait on it.
actor HostGate {
    /// The longest a side request waits for its turn, in seconds.
    static let defaultLongestWait: Double = 30
    private let longestWait: Double

    private let limit: Int
    /// The origin's robots.txt `Crawl-delay` (the crawl's `RobotsBook`, which fetches it once).
    private let crawlDelay: (@Sendable (_ origin: String) async -> Double?)?
    private var pace: HostScheduler
    private var inFlight: [String: Int] = [:]
    private var waiting: [String: [CheckedContinuation<Void, Never>]] = [:]
    /// Requests per origin that have asked and not started yet (queued for a slot or their turn).
    private var notStarted: [String: Int] = [:]
    private let epoch = ContinuousClock.now

    init(
        limit: Int, delay: Double = 0, longestWait: Double = HostGate.defaultLongestWait,
        crawlDelay: (@Sendable (_ origin: String) async -> Double?)? = nil
    ) {
        self.limit = max(1, limit)
        self.longestWait = longestWait
        self.crawlDelay = crawlDelay
        pace = HostScheduler(
            policy: PolitenessPolicy(perHostConcurrency: .max, globalConcurrency: .max, delay: max(0, delay)))
    }

    /// Runs `work` once a slot for `origin` (`scheme://host:port`) is free and its turn has come,
    /// frees the slot after, whether `work` returns or throws, and paces the origin's next starts
    /// by the answer.
    func run(
        host origin: String, _ work: @Sendable () async throws(FetchError) -> FetchResponse
    ) async throws(FetchError) -> FetchResponse {
        let host = Self.authority(of: origin)
        if let crawlDelay { pace.setCrawlDelay(await crawlDelay(origin), for: host) }
        // The turn this request would get behind those already queued for the origin: each start
        // comes a delay after the one before.
        let ahead = notStarted[origin] ?? 0
        let turn = max(0, pace.nextStart(for: host) - now) + Double(ahead) * pace.delay(for: host)
        if turn > longestWait { throw throttled(origin, wait: turn) }
        notStarted[origin, default: 0] += 1
        await enter(origin)
        defer { leave(origin) }
        do {
            try await waitForTurn(host, origin: origin)
            notStarted[origin, default: 1] -= 1
        } catch {
            notStarted[origin, default: 1] -= 1
            throw error
        }
        let started = now
        do {
            let response = try await work()
            let retryAfter = response.header("Retry-After").flatMap(PageProcessor.retryAfterSeconds)
            pace.finished(
                host, at: now,
                outcome: .answered(status: response.status, seconds: now - started, retryAfter: retryAfter))
            return response
        } catch {
            // No answer (a timeout, a dropped connection) slows the origin down; an answer the
            // crawl refused (too large, not HTTP) does not; a cancelled request says nothing.
            if error.kind == .cancelled {
                pace.abandoned(host)
            } else {
                pace.finished(
                    host, at: now,
                    outcome: error.isTransient ? .failed : .answered(status: 0, seconds: now - started, retryAfter: nil)
                )
            }
            throw error
        }
    }

    /// Requests to `origin` that have asked and not started yet (tests).
    func queued(forOrigin origin: String) -> Int { notStarted[origin] ?? 0 }

    /// The spacing between two side requests to `origin` now (tests).
    func delay(forOrigin origin: String) -> Double { pace.delay(for: Self.authority(of: origin)) }

    /// Seconds since the gate was made.
    private var now: Double {
        let elapsed = ContinuousClock.now - epoch
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// Sleeps until the host's pace lets one more start, then records the start. Callers woken
    /// together check again in turn, so each start keeps the spacing from the one before.
    private func waitForTurn(_ host: String, origin: String) async throws(FetchError) {
        while true {
            if Task.isCancelled {
                throw FetchError(kind: .cancelled, url: origin, message: "cancelled while waiting for its turn")
            }
            let wait = pace.nextStart(for: host) - now
            if wait <= 0 { break }
            guard wait <= longestWait else { throw throttled(origin, wait: wait) }
            try? await Task.sleep(for: .nanoseconds(clampedNanoseconds(seconds: wait)), clock: .continuous)
        }
        pace.started(host, at: now)
    }

    private func throttled(_ origin: String, wait: Double) -> FetchError {
        FetchError(
            kind: .throttled, url: origin,
            message:
                "\(origin) asked to wait \(clampedInt(wait.rounded(.up))) s more (Crawl-delay, Retry-After or back-off "
                + "after 429/503, behind the requests queued for it); side requests wait at most \(clampedInt(longestWait)) s"
        )
    }

    /// `host:port` of `scheme://host:port`.
    static func authority(of origin: String) -> String {
        guard let separator = origin.range(of: "://") else { return origin }
        return String(origin[separator.upperBound...])
    }

    private func enter(_ origin: String) async {
        if inFlight[origin, default: 0] < limit {
            inFlight[origin, default: 0] += 1
            return
        }
        await withCheckedContinuation { waiting[origin, default: []].append($0) }
    }

    private func leave(_ origin: String) {
        if var queue = waiting[origin], !queue.isEmpty {
            // The slot passes to the first waiter: in flight stays the same.
            let next = queue.removeFirst()
            waiting[origin] = queue.isEmpty ? nil : queue
            next.resume()
        } else {
            inFlight[origin, default: 1] -= 1
            if inFlight[origin] == 0 { inFlight[origin] = nil }
        }
    }
}
