/// Politeness settings (DESIGN.md "Defaults"; crawler-notes §2b).
public struct PolitenessPolicy: Sendable, Hashable {
    /// Requests in flight to one host at once.
    public var perHostConcurrency: Int
    /// Requests in flight in all.
    public var globalConcurrency: Int
    /// Seconds between the starts of two requests to one host (raised by `Crawl-delay`).
    public var delay: Double
    /// Loopback hosts (127.0.0.0/8, ::1, localhost) get no delay and the global limit only.
    public var throttleLoopback: Bool
    /// Responses slower than this double the host's delay (adaptive politeness).
    public var slowResponse: Double
    /// The largest delay backoff reaches, in seconds.
    public var maximumDelay: Double

    public init(
        perHostConcurrency: Int = 2, globalConcurrency: Int = 16, delay: Double = 1, throttleLoopback: Bool = false,
        slowResponse: Double = 5, maximumDelay: Double = 300
    ) {
        self.perHostConcurrency = perHostConcurrency
        self.globalConcurrency = globalConcurrency
        self.delay = delay
        self.throttleLoopback = throttleLoopback
        self.slowResponse = slowResponse
        self.maximumDelay = maximumDelay
    }
}

/// Which host the crawler may fetch from next, and when: a pure state machine (the clock is
/// passed in, nothing is fetched here). Per-host concurrency and delay (with `Crawl-delay` and
/// `Retry-After`), a global concurrency limit, adaptive backoff on 429/503 and slow answers that
/// decays on healthy ones, and fairness: among the hosts that may go now, the one served least
/// recently goes first. The URLs themselves live elsewhere (the crawl store); callers name the
/// hosts that have work.
public struct HostScheduler: Sendable {
    public enum Decision: Sendable, Hashable {
        /// Start a request to this host now.
        case dispatch(String)
        /// Nothing may start before this time (seconds, the caller's clock).
        case wait(until: Double)
        /// Every request slot is busy, or no host has work: wait for a completion.
        case idle
    }

    public enum Outcome: Sendable, Hashable {
        /// An answer, with how long it took.
        case answered(status: Int, seconds: Double, retryAfter: Double?)
        /// No answer (timeout, refused …).
        case failed
    }

    struct HostState: Sendable {
        var inFlight = 0
        var nextStart: Double = 0
        var lastDispatch: Double = -Double.infinity
        var crawlDelay: Double?
        var backoff: Double = 1
        /// The requests in flight this process may have on a host it shares with other processes.
        var slots: Int?
    }

    public let policy: PolitenessPolicy
    private var hosts: [String: HostState] = [:]
    public private(set) var inFlight = 0

    public init(policy: PolitenessPolicy = PolitenessPolicy()) {
        self.policy = policy
    }

    /// Applies a robots.txt `Crawl-delay` (seconds) to a host.
    public mutating func setCrawlDelay(_ seconds: Double?, for host: String) {
        hosts[host, default: HostState()].crawlDelay = seconds
    }

    /// The delay between two starts on `host` now (policy delay, crawl delay, backoff).
    public func delay(for host: String) -> Double {
        if Self.isLoopback(host), !policy.throttleLoopback { return 0 }
        let state = hosts[host] ?? HostState()
        let base = max(policy.delay, state.crawlDelay ?? 0)
        return min(policy.maximumDelay, base * state.backoff)
    }

    /// Requests the policy lets `host` have in flight at once: the per-host limit, or the global
    /// one for an unthrottled loopback host. A host shared by several processes has this many
    /// across all of them.
    public func policyLimit(for host: String) -> Int {
        Self.isLoopback(host) && !policy.throttleLoopback ? policy.globalConcurrency : policy.perHostConcurrency
    }

    /// Requests `host` may have in flight here: the policy's limit, or fewer while this process
    /// holds only some of a shared host's slots (`holdSlots`).
    public func concurrencyLimit(for host: String) -> Int {
        min(policyLimit(for: host), hosts[host]?.slots ?? .max)
    }

    /// This process now holds `slots` of `host`'s requests in flight (another process works on it
    /// too), or, nil, the whole host.
    public mutating func holdSlots(_ slots: Int?, on host: String) {
        hosts[host, default: HostState()].slots = slots.map { max(0, $0) }
    }

    /// Requests to `host` in flight now.
    public func inFlight(on host: String) -> Int {
        hosts[host]?.inFlight ?? 0
    }

    /// The earliest time the next request to `host` may start (its delay, Crawl-delay and back-off
    /// counted from the last start), what a crawl sharing the host with other processes hands on.
    public func nextStart(for host: String) -> Double {
        hosts[host]?.nextStart ?? 0
    }

    /// The next step, given the hosts that have URLs waiting.
    public func next(hostsWithWork: some Sequence<String>, now: Double) -> Decision {
        guard inFlight < policy.globalConcurrency else { return .idle }
        var best: (host: String, lastDispatch: Double)?
        var earliest: Double?
        for host in hostsWithWork {
            let state = hosts[host] ?? HostState()
            // A shared host of which this process holds no slot is still dispatched once nothing
            // of it runs here: its next claim is how the process asks for slots again.
            let asksForSlots = state.slots == 0 && state.inFlight == 0
            if state.inFlight >= concurrencyLimit(for: host), !asksForSlots { continue }
            if state.nextStart > now {
                earliest = min(earliest ?? state.nextStart, state.nextStart)
                continue
            }
            if let current = best,
                (current.lastDispatch, current.host) <= (state.lastDispatch, host)
            {
                continue
            }
            best = (host, state.lastDispatch)
        }
        if let best { return .dispatch(best.host) }
        if let earliest { return .wait(until: earliest) }
        return .idle
    }

    /// Whether one more request to `host` may start at `now`: a free global slot, a free slot on
    /// the host (`concurrencyLimit`: loopback hosts, unless throttled, have only the global limit)
    /// and the host's delay elapsed. A dispatch loop may start requests on one host while this
    /// holds: with no delay a host still gets at most its limit at once.
    public func mayStart(_ host: String, now: Double) -> Bool {
        guard inFlight < policy.globalConcurrency else { return false }
        let state = hosts[host] ?? HostState()
        return state.inFlight < concurrencyLimit(for: host) && state.nextStart <= now
    }

    /// Records that a request to `host` started at `now`.
    public mutating func started(_ host: String, at now: Double) {
        var state = hosts[host] ?? HostState()
        state.inFlight += 1
        state.lastDispatch = now
        state.nextStart = max(state.nextStart, now + delay(for: host))
        hosts[host] = state
        inFlight += 1
    }

    /// Records that a request to `host` ended without saying anything about the host (it was
    /// cancelled): its slot is free, its pace unchanged.
    public mutating func abandoned(_ host: String) {
        hosts[host, default: HostState()].inFlight = max(0, (hosts[host]?.inFlight ?? 1) - 1)
        inFlight = max(0, inFlight - 1)
    }

    /// Records a finished request and adapts the host's pace: 429/503 (and failures) double the
    /// backoff, `Retry-After` holds the host until then, a slow answer doubles it too, a healthy
    /// answer halves it back towards 1.
    public mutating func finished(_ host: String, at now: Double, outcome: Outcome) {
        var state = hosts[host] ?? HostState()
        state.inFlight = max(0, state.inFlight - 1)
        inFlight = max(0, inFlight - 1)
        switch outcome {
        case .answered(let status, let seconds, let retryAfter):
            if status == 429 || status == 503 {
                state.backoff = min(state.backoff * 2, 64)
                if let retryAfter { state.nextStart = max(state.nextStart, now + min(retryAfter, policy.maximumDelay)) }
            } else if seconds > policy.slowResponse {
                state.backoff = min(state.backoff * 2, 64)
            } else {
                state.backoff = max(1, state.backoff / 2)
            }
        case .failed:
            state.backoff = min(state.backoff * 2, 64)
        }
        hosts[host] = state
        // After backoff, the next start also waits the (longer) delay counted from this completion.
        let throttled = !(Self.isLoopback(host) && !policy.throttleLoopback)
        if throttled, state.backoff > 1 {
            state.nextStart = max(state.nextStart, now + delay(for: host))
            hosts[host] = state
        }
    }

    /// 127.0.0.0/8, ::1 and localhost (ports ignored).
    public static func isLoopback(_ host: String) -> Bool {
        var name = host.lowercased()
        if name.hasPrefix("[") {
            return name.hasPrefix("[::1]")
        }
        if let colon = name.lastIndex(of: ":") { name = String(name[..<colon]) }
        return name == "localhost" || name.hasPrefix("127.")
    }
}

/// Depth and page budgets of a crawl.
public struct CrawlBudget: Sendable, Hashable {
    public var maximumDepth: Int
    public var maximumPages: Int
    public private(set) var pagesAdmitted = 0

    /// `pagesAdmitted`: pages already admitted (a resumed crawl counts what its store holds).
    public init(maximumDepth: Int = 10, maximumPages: Int = 10_000, pagesAdmitted: Int = 0) {
        self.maximumDepth = maximumDepth
        self.maximumPages = maximumPages
        self.pagesAdmitted = pagesAdmitted
    }

    /// Pages admitted by others too (the other processes of a shared crawl): the count never
    /// goes down.
    public mutating func countAdmitted(atLeast pages: Int) {
        pagesAdmitted = max(pagesAdmitted, pages)
    }

    /// Admits a page found at `depth` (the seed is depth 0), or says why not.
    public mutating func admit(depth: Int) -> String? {
        if depth > maximumDepth { return "deeper than \(maximumDepth) links from the seed" }
        if pagesAdmitted >= maximumPages { return "page budget of \(maximumPages) reached" }
        pagesAdmitted += 1
        return nil
    }
}
