/// What the frontier reads of an entry (the crawl store's rows conform).
public protocol FrontierItem: Sendable {
    /// The de-duplication key, unique within a run.
    var key: String { get }
    /// The politeness unit (`host[:port]`).
    var host: String { get }
    /// Links followed from the seed (the seed is 0).
    var depth: Int { get }
    /// Fetch attempts made before this one.
    var attempts: Int { get }
}

/// How failed fetches are tried again.
public struct RetryPolicy: Sendable, Hashable {
    /// Attempts per entry in all (the first one included).
    public var maximumAttempts: Int
    /// The longest `Retry-After` waited, in seconds: asking for more ends the page (retrying
    /// earlier than asked would only earn another refusal).
    public var longestRetryAfter: Double

    public init(maximumAttempts: Int = 3, longestRetryAfter: Double = 3600) {
        self.maximumAttempts = maximumAttempts
        self.longestRetryAfter = longestRetryAfter
    }

    /// The wait before the next attempt when the server named none: 1, 2, 4, 8, 16, then 30 s.
    public func backoff(afterAttempts attempts: Int) -> Double {
        min(30, Double(1 << min(max(0, attempts), 5)))
    }
}

/// The crawl's frontier decisions as a pure state machine: which host's entries to claim from the
/// store, when to ask robots.txt again, which entries start now (politeness through
/// `HostScheduler`), when to wake, whether a link fits the depth and page budget (`CrawlBudget`),
/// and what becomes of an entry that failed (requeued with a not-before time, given up, skipped).
///
/// It does no I/O and has no clock: the caller passes the time with every event, does what an
/// `Action` says (claim from the store, ask robots.txt, start page tasks, wait) and reports back
/// (`claimed`, `exhausted`, `robotsAnswered`, `fetched`, `retryRequested`, `blocked`, `enqueued`,
/// `storing`, `stored`).
/// The entries themselves live in the store; this holds only the hosts that have work (with the
/// earliest time their work may start), the entries claimed and not started yet, and each host's
/// robots.txt refresh time.
public struct CrawlFrontier<Entry: FrontierItem>: Sendable {
    /// What the caller should do next.
    public enum Action: Sendable {
        /// Claim up to `limit` of `host`'s queued entries from the store (those whose not-before
        /// time has come), then report `claimed(_:for:)`, or `exhausted(_:hostsWithWork:now:)`
        /// when there were none.
        case claim(host: String, limit: Int)
        /// Ask for the robots.txt answer of `entry`'s origin (its first request, or its answer is
        /// due for a refresh), then report `robotsAnswered(host:crawlDelay:refreshAt:)`.
        case askRobots(host: String, entry: Entry)
        /// Start these entries now (counted in flight from here on).
        case start([Entry])
        /// Nothing may start now: wait for a page to finish, or until `until` (nil: a page only).
        case wait(until: Double?)
        /// Nothing in flight, nothing queued, no harvest or store pending: the crawl is over.
        case finished
    }

    /// What the robots.txt answer held for an entry's origin says of it, when robots.txt blocked it.
    public struct RobotsHold: Sendable, Hashable {
        /// robots.txt could not be fetched: everything is disallowed until `refreshAt`.
        public var isUnreachable: Bool
        /// The answer held now allows the entry (it was refreshed since the block).
        public var allowsEntry: Bool
        /// When robots.txt is asked for again.
        public var refreshAt: Double

        public init(isUnreachable: Bool, allowsEntry: Bool, refreshAt: Double) {
            self.isUnreachable = isUnreachable
            self.allowsEntry = allowsEntry
            self.refreshAt = refreshAt
        }
    }

    /// Why an entry is not tried again.
    public enum GiveUp: Sendable, Hashable {
        /// `maximumAttempts` were made.
        case attemptsSpent(Int)
        /// The server asked for a wait longer than `RetryPolicy.longestRetryAfter`.
        case retryAfterTooLong(seconds: Double, longest: Double)
    }

    /// What becomes of an entry whose fetch is worth another attempt.
    public enum RetryDecision: Sendable, Hashable {
        /// Back to the queue, not claimable before `notBefore`.
        case requeue(notBefore: Double)
        /// Kept as it is, as the entry's final page.
        case giveUp(GiveUp)
    }

    /// What becomes of an entry robots.txt kept from being fetched.
    public enum BlockDecision: Sendable, Hashable {
        /// robots.txt was unreachable (or allows it now): tried again from `notBefore`.
        case requeue(notBefore: Double)
        /// Recorded as skipped for robots.txt.
        case skip
    }

    private struct Dispatch: Sendable {
        var host: String
        var now: Double
        var robotsAsked: Bool
    }

    /// Politeness: per-host and global concurrency, delays, backoff.
    public private(set) var scheduler: HostScheduler
    public private(set) var budget: CrawlBudget
    public let retries: RetryPolicy
    /// Entries claimed from the store at once, per host.
    public let claimBatch: Int
    /// Hosts with queued entries in the store, and the earliest time one of them may start.
    public private(set) var hostsWithWork: [String: Double] = [:]
    /// Entries claimed and not started yet, per host (the next one last).
    private var claimed: [String: [Entry]] = [:]
    /// When each host's robots.txt answer (and its Crawl-delay) is due for a refresh.
    private var robotsRefreshAt: [String: Double] = [:]
    /// The host being dispatched while the caller claims or asks robots.txt for it.
    private var dispatching: Dispatch?
    /// A sitemap harvest is running: its entries may still come.
    public private(set) var harvestPending = false
    /// Pages handed to the store and not stored yet, per host: the links they add are not known
    /// until then (`storing`, `stored`).
    private var storesPending: [String: Int] = [:]

    public init(
        policy: PolitenessPolicy, budget: CrawlBudget, retries: RetryPolicy = RetryPolicy(), claimBatch: Int = 16
    ) {
        self.scheduler = HostScheduler(policy: policy)
        self.budget = budget
        self.retries = retries
        self.claimBatch = max(1, claimBatch)
    }

    /// Requests in flight.
    public var inFlight: Int { scheduler.inFlight }

    /// Whether `host` has anything here: requests in flight, entries claimed and not started,
    /// queued entries the store listed, or a page of it on its way to the store.
    public func hasWork(on host: String) -> Bool {
        scheduler.inFlight(on: host) > 0 || claimed[host]?.isEmpty == false || hostsWithWork[host] != nil
            || dispatching?.host == host || storesPending[host] != nil
    }

    /// Pages handed to the store and not stored yet. Each holds one of the global limit's slots
    /// until it is stored, as a request in flight does: a store slower than the fetches holds the
    /// crawl back instead of its memory growing, and a kill loses at most the global limit's
    /// worth of pages, fetched again by `--resume`.
    public var pendingStores: Int { storesPending.values.reduce(0, +) }

    // MARK: - Admission

    /// Admits one page found at `depth` into the budget, or says why not.
    public mutating func admit(depth: Int) -> String? {
        budget.admit(depth: depth)
    }

    /// What other processes sharing the crawl admitted (the store's count of the whole crawl):
    /// the page budget is the crawl's, not this process's.
    public mutating func admittedElsewhere(_ pagesAdmitted: Int) {
        budget.countAdmitted(atLeast: pagesAdmitted)
    }

    /// Sorts new frontier candidates: `known` keys (already in the run's frontier) and repeats
    /// within the batch are dropped, the others are admitted in order while the budget allows;
    /// the rest are refused with the budget's reason.
    public mutating func admit(_ candidates: [Entry], known: Set<String>) -> (
        admitted: [Entry], refused: [(entry: Entry, reason: String)]
    ) {
        var known = known
        var admitted: [Entry] = []
        var refused: [(entry: Entry, reason: String)] = []
        for candidate in candidates where known.insert(candidate.key).inserted {
            if let reason = budget.admit(depth: candidate.depth) {
                refused.append((candidate, reason))
            } else {
                admitted.append(candidate)
            }
        }
        return (admitted, refused)
    }

    // MARK: - Work in the store

    /// Hosts the store has queued entries for, with the earliest time each may start; hosts
    /// already known keep their time.
    public mutating func learn(hostsWithWork hosts: [(host: String, earliest: Double)]) {
        for (host, earliest) in hosts where hostsWithWork[host] == nil {
            hostsWithWork[host] = earliest
        }
    }

    /// Entries were added to the store's queue (links, sitemap entries): their hosts have work now.
    public mutating func enqueued(hosts: some Sequence<String>) {
        for host in hosts {
            hostsWithWork[host] = min(hostsWithWork[host] ?? 0, 0)
        }
    }

    /// A page of `host` went to the store, which stores it while the crawl goes on: the crawl is
    /// not over before it is stored (`stored`).
    public mutating func storing(host: String) {
        storesPending[host, default: 0] += 1
    }

    /// A page of `host` is stored, and the store queued entries on `addedHosts` with it.
    public mutating func stored(host: String, addedHosts: some Sequence<String>) {
        if let count = storesPending[host] { storesPending[host] = count > 1 ? count - 1 : nil }
        enqueued(hosts: addedHosts)
    }

    /// The store gave these entries of `host` (after `.claim`).
    public mutating func claimed(_ entries: [Entry], for host: String) {
        guard !entries.isEmpty else { return }
        claimed[host, default: []].insert(contentsOf: entries.reversed(), at: 0)
    }

    /// The store had no claimable entry of `host` (after `.claim`): the host leaves the work list
    /// until the store lists it again (`hostsWithWork`, read now). Listed again with work already
    /// due (entries the claim did not see, or a share of it not given yet), it is looked at again
    /// 50 ms later rather than at once.
    public mutating func exhausted(
        _ host: String, hostsWithWork listed: [(host: String, earliest: Double)], now: Double
    ) {
        if dispatching?.host == host { dispatching = nil }
        hostsWithWork[host] = nil
        learn(hostsWithWork: listed)
        if let earliest = hostsWithWork[host], earliest <= now { hostsWithWork[host] = now + 0.05 }
    }

    /// A shared crawl: this process holds `slots` of `host`'s requests in flight (other processes
    /// work on it too), or, nil, the whole host (after `.claim`).
    public mutating func holdSlots(_ slots: Int?, on host: String) {
        scheduler.holdSlots(slots, on: host)
    }

    /// A sitemap harvest started (`true`) or delivered its entries (`false`).
    public mutating func harvest(pending: Bool) {
        harvestPending = pending
    }

    // MARK: - Robots.txt

    /// robots.txt answered for `host`'s origin (after `.askRobots`): its Crawl-delay (nil: none)
    /// and when it is due again.
    public mutating func robotsAnswered(host: String, crawlDelay: Double?, refreshAt: Double) {
        scheduler.setCrawlDelay(crawlDelay, for: host)
        robotsRefreshAt[host] = refreshAt
    }

    // MARK: - Dispatch

    /// The next thing to do at `now`.
    public mutating func next(now: Double) -> Action {
        if let current = dispatching {
            dispatching = nil
            return dispatch(current)
        }
        var wakeAt: Double?
        if scheduler.inFlight + pendingStores < scheduler.policy.globalConcurrency {
            let ready = hostsWithWork.filter { $0.value <= now }.map(\.key)
            switch scheduler.next(hostsWithWork: ready, now: now) {
            case .dispatch(let host):
                return dispatch(Dispatch(host: host, now: now, robotsAsked: false))
            case .wait(let until):
                wakeAt = until
            case .idle:
                break
            }
        }
        if let future = hostsWithWork.values.filter({ $0 > now }).min() { wakeAt = min(wakeAt ?? future, future) }
        if scheduler.inFlight == 0, !harvestPending, hostsWithWork.isEmpty, storesPending.isEmpty { return .finished }
        return .wait(until: wakeAt)
    }

    /// A host the scheduler chose: its entries are claimed first, its robots.txt asked when due
    /// (once per dispatch), then as many start as politeness allows at once (every free global slot
    /// on a loopback host; on any other, the per-host limit and one per delay).
    private mutating func dispatch(_ current: Dispatch) -> Action {
        let host = current.host
        guard let next = claimed[host]?.last else {
            dispatching = current
            return .claim(host: host, limit: claimBatch)
        }
        if !current.robotsAsked, current.now >= robotsRefreshAt[host] ?? -Double.infinity {
            dispatching = Dispatch(host: host, now: current.now, robotsAsked: true)
            return .askRobots(host: host, entry: next)
        }
        var starting: [Entry] = []
        while scheduler.inFlight + pendingStores < scheduler.policy.globalConcurrency,
            scheduler.mayStart(host, now: current.now), let entry = claimed[host]?.popLast()
        {
            scheduler.started(host, at: current.now)
            starting.append(entry)
        }
        if claimed[host]?.isEmpty == true { claimed[host] = nil }
        return .start(starting)
    }

    // MARK: - Pages that finished

    /// A started entry ended with an answer (`status`, nil for a failure that is not retried) that
    /// took `seconds`: its page is stored.
    public mutating func fetched(_ entry: Entry, status: Int?, seconds: Double, now: Double) {
        scheduler.finished(
            entry.host, at: now,
            outcome: status.map { .answered(status: $0, seconds: seconds, retryAfter: nil) } ?? .failed)
    }

    /// A started entry failed in a way worth another attempt (429, 5xx: `status`; a timeout or a
    /// dropped connection: nil), the server asking for `retryAfter` seconds or not. Requeued
    /// after `retryAfter` or the backoff, while attempts remain and the wait is not too long; the
    /// host is held as long (429 and 503).
    public mutating func retryRequested(
        _ entry: Entry, status: Int?, seconds: Double, retryAfter: Double?, now: Double
    ) -> RetryDecision {
        if let retryAfter, retryAfter > retries.longestRetryAfter {
            fetched(entry, status: status, seconds: seconds, now: now)
            return .giveUp(.retryAfterTooLong(seconds: retryAfter, longest: retries.longestRetryAfter))
        }
        let wait = retryAfter ?? retries.backoff(afterAttempts: entry.attempts)
        let notBefore = now + wait
        scheduler.finished(
            entry.host, at: now,
            outcome: status.map { .answered(status: $0, seconds: seconds, retryAfter: wait) } ?? .failed)
        guard entry.attempts + 1 < retries.maximumAttempts else {
            return .giveUp(.attemptsSpent(retries.maximumAttempts))
        }
        requeued(entry.host, notBefore: notBefore)
        return .requeue(notBefore: notBefore)
    }

    /// A started entry was not fetched: robots.txt disallows it. `robots` is the answer held for
    /// its origin now (nil: none). An unreachable robots.txt disallows all for now and is asked for
    /// again later (RFC 9309 §2.3.1.3): the entry waits for that, up to the attempt limit; an answer
    /// refreshed since the block may allow it now.
    public mutating func blocked(_ entry: Entry, robots: RobotsHold?, now: Double) -> BlockDecision {
        scheduler.finished(entry.host, at: now, outcome: .answered(status: 200, seconds: 0, retryAfter: nil))
        guard let robots, entry.attempts + 1 < retries.maximumAttempts, robots.isUnreachable || robots.allowsEntry
        else { return .skip }
        let notBefore = robots.isUnreachable ? max(now, robots.refreshAt) : now
        requeued(entry.host, notBefore: notBefore)
        return .requeue(notBefore: notBefore)
    }

    private mutating func requeued(_ host: String, notBefore: Double) {
        hostsWithWork[host] = min(hostsWithWork[host] ?? notBefore, notBefore)
    }
}
