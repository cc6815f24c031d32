import CrawlScheduling

/// The politeness of a crawl's side requests (images, sitemaps) to one origin, whichever task
/// asks: at most `limit` in flight (`--per-host`) and `delay` seconds between two starts
/// (`--delay`; loopback origins are not delayed, as for pages). A page naming many images on one
/// host does not open many connections to it, and many pages naming images there do not either.
/// Waiters enter in order.
actor HostGate {
    private let limit: Int
    private let delay: Double
    private var inFlight: [String: Int] = [:]
    private var waiting: [String: [CheckedContinuation<Void, Never>]] = [:]
    private var nextStart: [String: ContinuousClock.Instant] = [:]

    init(limit: Int, delay: Double = 0) {
        self.limit = max(1, limit)
        self.delay = max(0, delay)
    }

    /// Runs `work` once a slot for `origin` (`scheme://host:port`) is free and its delay has
    /// passed, and frees the slot after, whether `work` returns or throws.
    func run<Output: Sendable, Failure: Error>(
        host origin: String, _ work: @Sendable () async throws(Failure) -> Output
    ) async throws(Failure) -> Output {
        await enter(origin)
        await waitForTurn(origin)
        defer { leave(origin) }
        return try await work()
    }

    /// Sleeps until `delay` after the previous start on `origin` (each caller takes the next turn).
    private func waitForTurn(_ origin: String) async {
        guard delay > 0, !HostScheduler.isLoopback(Self.authority(of: origin)) else { return }
        let now = ContinuousClock.now
        let start = max(now, nextStart[origin] ?? now)
        nextStart[origin] = start + .milliseconds(Int(delay * 1000))
        if start > now { try? await Task.sleep(until: start, clock: .continuous) }
    }

    /// `host:port` of `scheme://host:port`.
    static func authority(of origin: String) -> String {
        guard let separator = origin.range(of: "://") else { return origin }
        return String(origin[separator.upperBound...])
    }

    private func enter(_ host: String) async {
        if inFlight[host, default: 0] < limit {
            inFlight[host, default: 0] += 1
            return
        }
        await withCheckedContinuation { waiting[host, default: []].append($0) }
    }

    private func leave(_ host: String) {
        if var queue = waiting[host], !queue.isEmpty {
            // The slot passes to the first waiter: in flight stays the same.
            let next = queue.removeFirst()
            waiting[host] = queue.isEmpty ? nil : queue
            next.resume()
        } else {
            inFlight[host, default: 1] -= 1
            if inFlight[host] == 0 { inFlight[host] = nil }
        }
    }
}
