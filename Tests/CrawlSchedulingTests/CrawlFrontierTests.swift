import CrawlScheduling
import Testing

/// A frontier entry for the tests.
struct Item: FrontierItem, Hashable {
    var key: String
    var host: String
    var depth = 1
    var attempts = 0
}

/// Drives a `CrawlFrontier` the way `Crawler.run` does, on a virtual clock, against an in-memory
/// queue standing for the crawl store (claims in id order, not-before times, attempts). Pages take
/// `pageSeconds`; `answer` says how each attempt ends.
struct Simulation {
    enum Answer {
        case page(status: Int)
        case retry(status: Int?, retryAfter: Double?)
    }

    var frontier: CrawlFrontier<Item>
    var pageSeconds = 1.0
    /// Each host's Crawl-delay, given when the frontier asks for robots.txt.
    var crawlDelays: [String: Double] = [:]
    /// How long a robots.txt answer is fresh.
    var robotsFreshness = 86_400.0
    var answer: (Item) -> Answer = { _ in .page(status: 200) }

    private(set) var now = 0.0
    /// Queued entries with their not-before times, in id order.
    private var queue: [(item: Item, notBefore: Double)] = []
    private var running: [(item: Item, endsAt: Double)] = []
    /// Every start: which entry (with its attempts), on which host, when.
    private(set) var starts: [(item: Item, at: Double)] = []
    private(set) var peakInFlight: [String: Int] = [:]
    private(set) var robotsAsked: [String: Int] = [:]
    private(set) var gaveUp: [String: CrawlFrontier<Item>.GiveUp] = [:]
    private(set) var stored: [String] = []

    init(_ frontier: CrawlFrontier<Item>, items: [Item]) {
        self.frontier = frontier
        queue = items.map { ($0, 0) }
        self.frontier.learn(hostsWithWork: hostsWithWork())
    }

    func hostsWithWork() -> [(host: String, earliest: Double)] {
        var earliest: [String: Double] = [:]
        for (item, notBefore) in queue { earliest[item.host] = min(earliest[item.host] ?? notBefore, notBefore) }
        return earliest.sorted { $0.key < $1.key }.map { (host: $0.key, earliest: $0.value) }
    }

    func starts(on host: String) -> [Double] { starts.filter { $0.item.host == host }.map(\.at) }

    /// Runs to the end; false when it did not end within `steps` actions.
    mutating func run(steps: Int = 100_000) -> Bool {
        for _ in 0..<steps {
            switch frontier.next(now: now) {
            case .claim(let host, let limit):
                let claimable = queue.indices.filter { queue[$0].item.host == host && queue[$0].notBefore <= now }
                let taken = Array(claimable.prefix(limit))
                let batch = taken.map { queue[$0].item }
                queue = queue.indices.filter { !taken.contains($0) }.map { queue[$0] }
                if batch.isEmpty {
                    frontier.exhausted(host, hostsWithWork: hostsWithWork(), now: now)
                } else {
                    frontier.claimed(batch, for: host)
                }
            case .askRobots(let host, _):
                robotsAsked[host, default: 0] += 1
                frontier.robotsAnswered(host: host, crawlDelay: crawlDelays[host], refreshAt: now + robotsFreshness)
            case .start(let items):
                for item in items {
                    starts.append((item, now))
                    running.append((item, now + pageSeconds))
                }
                for host in Set(items.map(\.host)) {
                    let count = running.filter { $0.item.host == host }.count
                    peakInFlight[host] = max(peakInFlight[host] ?? 0, count)
                }
            case .finished:
                return true
            case .wait(let until):
                // The next completion, or the wake-up time, whichever comes first.
                let nextEnd = running.map(\.endsAt).min()
                guard let next = [nextEnd, until].compactMap({ $0 }).min() else { return false }
                now = max(now, next)
                guard let index = running.indices.min(by: { running[$0].endsAt < running[$1].endsAt }),
                    running[index].endsAt <= now
                else { continue }
                finish(running.remove(at: index).item)
            }
        }
        return false
    }

    private mutating func finish(_ item: Item) {
        switch answer(item) {
        case .page(let status):
            frontier.fetched(item, status: status, seconds: pageSeconds, now: now)
            stored.append(item.key)
        case .retry(let status, let retryAfter):
            switch frontier.retryRequested(
                item, status: status, seconds: pageSeconds, retryAfter: retryAfter, now: now)
            {
            case .requeue(let notBefore):
                var again = item
                again.attempts += 1
                queue.append((again, notBefore))
            case .giveUp(let reason):
                gaveUp[item.key] = reason
                stored.append(item.key)
            }
        }
    }
}

func items(_ host: String, _ count: Int) -> [Item] {
    (0..<count).map { Item(key: "\(host)/\($0)", host: host) }
}

@Suite("Crawl frontier (a state machine, no I/O): politeness")
struct CrawlFrontierPolitenessTests {
    @Test("per-host concurrency holds at --delay 0, whatever the global limit", arguments: [1, 2, 3])
    func perHostConcurrency(perHost: Int) {
        let frontier = CrawlFrontier<Item>(
            policy: PolitenessPolicy(perHostConcurrency: perHost, globalConcurrency: 8, delay: 0),
            budget: CrawlBudget())
        var simulation = Simulation(frontier, items: items("a.example", 20) + items("b.example", 20))
        let ended = simulation.run()
        #expect(ended)
        #expect(simulation.peakInFlight == ["a.example": perHost, "b.example": perHost])
        #expect(simulation.stored.count == 40)
        #expect(simulation.frontier.inFlight == 0)
        // Pages take a second: each host gets through `perHost` of them a second.
        let lastStart = simulation.starts(on: "a.example").max() ?? 0
        #expect(lastStart == Double((20 + perHost - 1) / perHost - 1))
    }

    @Test("the global limit holds across hosts")
    func globalConcurrency() {
        let frontier = CrawlFrontier<Item>(
            policy: PolitenessPolicy(perHostConcurrency: 2, globalConcurrency: 3, delay: 0), budget: CrawlBudget())
        var simulation = Simulation(frontier, items: ["a", "b", "c", "d"].flatMap { items("\($0).example", 4) })
        let ended = simulation.run()
        #expect(ended)
        var peak = 0
        for (_, at) in simulation.starts {
            peak = max(peak, simulation.starts.filter { $0.at <= at && at < $0.at + 1 }.count)
        }
        #expect(peak == 3)
        #expect(simulation.stored.count == 16)
    }

    @Test(
        "starts on one host are spaced by the delay, or by robots.txt's Crawl-delay when longer",
        arguments: [
            (delay: 1.0, crawlDelay: nil, spacing: 1.0),
            (delay: 0.5, crawlDelay: 2.0, spacing: 2.0),
            (delay: 3.0, crawlDelay: 1.0, spacing: 3.0),
            (delay: 0.0, crawlDelay: 5.0, spacing: 5.0),
        ] as [(delay: Double, crawlDelay: Double?, spacing: Double)])
    func delaySpacing(delay: Double, crawlDelay: Double?, spacing: Double) {
        let frontier = CrawlFrontier<Item>(
            policy: PolitenessPolicy(perHostConcurrency: 4, globalConcurrency: 8, delay: delay), budget: CrawlBudget())
        var simulation = Simulation(frontier, items: items("a.example", 6))
        simulation.pageSeconds = 0.1
        if let crawlDelay { simulation.crawlDelays["a.example"] = crawlDelay }
        let ended = simulation.run()
        #expect(ended)
        let starts = simulation.starts(on: "a.example")
        #expect(starts.count == 6)
        #expect(zip(starts, starts.dropFirst()).allSatisfy { $1 - $0 == spacing }, "\(starts)")
        // robots.txt was asked for once, before the first start.
        #expect(simulation.robotsAsked == ["a.example": 1])
    }

    @Test(
        "loopback hosts are not throttled: every free global slot, no delay",
        arguments: ["127.0.0.1:8080", "localhost:3000", "[::1]:80", "127.1.2.3"])
    func loopbackHosts(host: String) {
        let frontier = CrawlFrontier<Item>(
            policy: PolitenessPolicy(perHostConcurrency: 1, globalConcurrency: 4, delay: 5), budget: CrawlBudget())
        var simulation = Simulation(frontier, items: items(host, 10))
        simulation.crawlDelays[host] = 10
        let ended = simulation.run()
        #expect(ended)
        #expect(simulation.peakInFlight[host] == 4)
        #expect(simulation.starts(on: host) == [0, 0, 0, 0, 1, 1, 1, 1, 2, 2])
    }

    @Test("a host that is not loopback gets the per-host limit and the delay")
    func notLoopback() {
        let frontier = CrawlFrontier<Item>(
            policy: PolitenessPolicy(perHostConcurrency: 1, globalConcurrency: 4, delay: 5), budget: CrawlBudget())
        // The IPv4-mapped IPv6 form of 127.0.0.1 is not loopback to the scheduler.
        var simulation = Simulation(frontier, items: items("[::ffff:7f00:1]:8080", 3))
        let ended = simulation.run()
        #expect(ended)
        #expect(simulation.peakInFlight["[::ffff:7f00:1]:8080"] == 1)
        #expect(simulation.starts(on: "[::ffff:7f00:1]:8080") == [0, 5, 10])
    }

    @Test("robots.txt is asked for again once its answer is due, before the next start")
    func robotsRefresh() {
        let frontier = CrawlFrontier<Item>(
            policy: PolitenessPolicy(perHostConcurrency: 1, globalConcurrency: 4, delay: 1), budget: CrawlBudget())
        var simulation = Simulation(frontier, items: items("a.example", 10))
        simulation.robotsFreshness = 3.5
        simulation.pageSeconds = 0.5
        let ended = simulation.run()
        #expect(ended)
        // Starts at 0 … 9; answers at 0 (due 3.5), 4 (due 7.5) and 8.
        #expect(simulation.robotsAsked == ["a.example": 3])
    }

    @Test("the crawl ends only when nothing is in flight, queued or harvesting")
    func finishing() {
        var frontier = CrawlFrontier<Item>(policy: PolitenessPolicy(), budget: CrawlBudget())
        frontier.harvest(pending: true)
        guard case .wait(until: nil) = frontier.next(now: 0) else {
            Issue.record("did not wait for the harvest")
            return
        }
        frontier.harvest(pending: false)
        guard case .finished = frontier.next(now: 0) else {
            Issue.record("did not finish")
            return
        }
        frontier.enqueued(hosts: ["a.example"])
        guard case .claim(host: "a.example", limit: 16) = frontier.next(now: 0) else {
            Issue.record("did not claim")
            return
        }
    }

    @Test("a page on its way to the store keeps the crawl going until the links it adds are known")
    func pendingStores() {
        var frontier = CrawlFrontier<Item>(policy: PolitenessPolicy(), budget: CrawlBudget())
        frontier.storing(host: "a.example")
        frontier.storing(host: "a.example")
        #expect(frontier.pendingStores == 2)
        #expect(frontier.hasWork(on: "a.example"))
        guard case .wait(until: nil) = frontier.next(now: 0) else {
            Issue.record("finished with pages not stored")
            return
        }
        frontier.stored(host: "a.example", addedHosts: [])
        guard case .wait(until: nil) = frontier.next(now: 0) else {
            Issue.record("finished with a page not stored")
            return
        }
        frontier.stored(host: "a.example", addedHosts: ["b.example"])
        #expect(frontier.pendingStores == 0)
        #expect(!frontier.hasWork(on: "a.example"))
        guard case .claim(host: "b.example", limit: 16) = frontier.next(now: 0) else {
            Issue.record("did not claim the host the stored page added")
            return
        }
    }

    @Test("a page waiting for the store holds a slot of the global limit")
    func aStoreBehindHoldsTheCrawlBack() {
        var frontier = CrawlFrontier<Item>(
            policy: PolitenessPolicy(perHostConcurrency: 2, globalConcurrency: 2, delay: 0), budget: CrawlBudget())
        frontier.enqueued(hosts: ["a.example"])
        frontier.storing(host: "a.example")
        frontier.storing(host: "a.example")
        guard case .wait(until: nil) = frontier.next(now: 0) else {
            Issue.record("went on with every slot held by pages waiting for the store")
            return
        }
        frontier.stored(host: "a.example", addedHosts: [])
        guard case .claim(host: "a.example", limit: 16) = frontier.next(now: 0) else {
            Issue.record("did not go on once a slot was free")
            return
        }
        frontier.claimed([Item(key: "a", host: "a.example"), Item(key: "b", host: "a.example")], for: "a.example")
        guard case .askRobots = frontier.next(now: 0) else {
            Issue.record("did not ask robots.txt")
            return
        }
        frontier.robotsAnswered(host: "a.example", crawlDelay: nil, refreshAt: 1000)
        guard case .start(let started) = frontier.next(now: 0) else {
            Issue.record("did not start")
            return
        }
        // Two would start (two per host, two in all, no delay): one slot is the stored page's.
        #expect(started.count == 1)
    }
}

@Suite("Crawl frontier (a state machine, no I/O): retries and budgets")
struct CrawlFrontierRetryTests {
    @Test("the backoff doubles from 1 s and stays at 30 s")
    func backoff() {
        let policy = RetryPolicy()
        #expect((0..<8).map(policy.backoff(afterAttempts:)) == [1, 2, 4, 8, 16, 30, 30, 30])
    }

    @Test("retries back off and stop after maximumAttempts", arguments: [1, 2, 3, 5])
    func attempts(maximumAttempts: Int) {
        let frontier = CrawlFrontier<Item>(
            policy: PolitenessPolicy(delay: 0), budget: CrawlBudget(),
            retries: RetryPolicy(maximumAttempts: maximumAttempts))
        var simulation = Simulation(frontier, items: items("a.example", 1))
        simulation.answer = { _ in .retry(status: nil, retryAfter: nil) }
        let ended = simulation.run()
        #expect(ended)
        let starts = simulation.starts.map(\.at)
        #expect(simulation.starts.map(\.item.attempts) == Array(0..<maximumAttempts))
        // Each attempt waits its backoff after the last one ended (pages take 1 s).
        var expected: [Double] = [0]
        for attempt in 0..<(maximumAttempts - 1) {
            expected.append(expected[attempt] + 1 + RetryPolicy().backoff(afterAttempts: attempt))
        }
        #expect(starts == expected)
        #expect(simulation.gaveUp == ["a.example/0": .attemptsSpent(maximumAttempts)])
    }

    @Test(
        "a retry's not-before time is honoured (Retry-After, or the backoff)",
        arguments: [
            (status: 503, retryAfter: 30.0, secondStart: 31.0),
            (status: 429, retryAfter: 7.0, secondStart: 8.0),
            (status: 429, retryAfter: 0.0, secondStart: 1.0),
            (status: 500, retryAfter: nil, secondStart: 2.0),
            (status: nil, retryAfter: nil, secondStart: 2.0),
        ] as [(status: Int?, retryAfter: Double?, secondStart: Double)])
    func notBefore(status: Int?, retryAfter: Double?, secondStart: Double) {
        let frontier = CrawlFrontier<Item>(policy: PolitenessPolicy(delay: 0), budget: CrawlBudget())
        // Another host keeps the crawl busy meanwhile: the retried entry still waits its turn.
        var simulation = Simulation(frontier, items: items("a.example", 1) + items("b.example", 40))
        simulation.answer = { item in
            item.host == "a.example" && item.attempts == 0
                ? .retry(status: status, retryAfter: retryAfter) : .page(status: 200)
        }
        let ended = simulation.run()
        #expect(ended)
        #expect(simulation.starts(on: "a.example") == [0, secondStart])
        #expect(simulation.stored.contains("a.example/0"))
    }

    @Test("a 503's Retry-After holds the whole host, not just the entry")
    func retryAfterHoldsTheHost() {
        let frontier = CrawlFrontier<Item>(
            policy: PolitenessPolicy(perHostConcurrency: 1, delay: 0), budget: CrawlBudget())
        var simulation = Simulation(frontier, items: items("a.example", 3))
        simulation.answer = { item in
            item.key == "a.example/0" && item.attempts == 0 ? .retry(status: 503, retryAfter: 20) : .page(status: 200)
        }
        let ended = simulation.run()
        #expect(ended)
        #expect(simulation.starts(on: "a.example") == [0, 21, 22, 23])
    }

    @Test("a Retry-After over the longest honoured gives up at once and does not hold the host")
    func retryAfterTooLong() {
        var frontier = CrawlFrontier<Item>(
            policy: PolitenessPolicy(delay: 0), budget: CrawlBudget(), retries: RetryPolicy(maximumAttempts: 3))
        let item = Item(key: "a", host: "a.example")
        let tooLong = frontier.retryRequested(item, status: 503, seconds: 0.1, retryAfter: 7200, now: 10)
        #expect(tooLong == .giveUp(.retryAfterTooLong(seconds: 7200, longest: 3600)))
        #expect(frontier.scheduler.mayStart("a.example", now: 10))
        let anHour = frontier.retryRequested(item, status: 503, seconds: 0.1, retryAfter: 3600, now: 10)
        #expect(anHour == .requeue(notBefore: 3610))
        // The entry waits the hour; the host's other entries wait at most the longest delay (300 s).
        #expect(!frontier.scheduler.mayStart("a.example", now: 309))
        #expect(frontier.scheduler.mayStart("a.example", now: 310))
    }

    @Test(
        "an entry robots.txt blocked waits for an unreachable robots.txt, or goes at once when it is allowed now",
        arguments: [
            (
                hold: (unreachable: true, allows: false, refreshAt: 600.0), attempts: 0,
                expected: .requeue(notBefore: 600)
            ),
            (hold: (unreachable: true, allows: false, refreshAt: 5.0), attempts: 0, expected: .requeue(notBefore: 10)),
            (
                hold: (unreachable: false, allows: true, refreshAt: 900.0), attempts: 1,
                expected: .requeue(notBefore: 10)
            ),
            (hold: (unreachable: false, allows: false, refreshAt: 900.0), attempts: 0, expected: .skip),
            (hold: (unreachable: true, allows: false, refreshAt: 600.0), attempts: 2, expected: .skip),
        ]
            as [(
                hold: (unreachable: Bool, allows: Bool, refreshAt: Double), attempts: Int,
                expected: CrawlFrontier<Item>.BlockDecision
            )])
    func blocked(
        hold: (unreachable: Bool, allows: Bool, refreshAt: Double), attempts: Int,
        expected: CrawlFrontier<Item>.BlockDecision
    ) {
        var frontier = CrawlFrontier<Item>(
            policy: PolitenessPolicy(), budget: CrawlBudget(), retries: RetryPolicy(maximumAttempts: 3))
        let robots = CrawlFrontier<Item>.RobotsHold(
            isUnreachable: hold.unreachable, allowsEntry: hold.allows, refreshAt: hold.refreshAt)
        let item = Item(key: "a", host: "a.example", attempts: attempts)
        let decision = frontier.blocked(item, robots: robots, now: 10)
        #expect(decision == expected)
        // Without an answer held, the entry is skipped.
        let unanswered = frontier.blocked(item, robots: nil, now: 10)
        #expect(unanswered == .skip)
        if case .requeue(let notBefore) = expected {
            #expect(frontier.hostsWithWork["a.example"] == notBefore)
        }
    }

    @Test(
        "the budget admits exactly maximumPages, and nothing deeper than maximumDepth",
        arguments: [(pages: 1, depth: 0), (pages: 5, depth: 1), (pages: 12, depth: 3), (pages: 100, depth: 2)])
    func budget(pages: Int, depth: Int) {
        var frontier = CrawlFrontier<Item>(
            policy: PolitenessPolicy(), budget: CrawlBudget(maximumDepth: depth, maximumPages: pages))
        // Links at every depth up to two past the limit, ten of each, in two batches.
        let candidates = (0...(depth + 2)).flatMap { level in
            (0..<10).map { Item(key: "\(level)/\($0)", host: "a.example", depth: level) }
        }
        let half = candidates.count / 2
        let first = frontier.admit(Array(candidates[..<half]), known: [])
        let second = frontier.admit(Array(candidates[half...]), known: [])
        let admitted = first.admitted + second.admitted
        let refused = first.refused + second.refused
        let withinDepth = 10 * (depth + 1)
        #expect(admitted.count == min(pages, withinDepth))
        #expect(admitted.allSatisfy { $0.depth <= depth })
        #expect(frontier.budget.pagesAdmitted == min(pages, withinDepth))
        #expect(refused.count == candidates.count - admitted.count)
        #expect(
            refused.filter { $0.entry.depth > depth }.allSatisfy {
                $0.reason == "deeper than \(depth) links from the seed"
            })
        #expect(
            refused.filter { $0.entry.depth <= depth }.allSatisfy { $0.reason == "page budget of \(pages) reached" })
        let seed = frontier.admit(depth: 0)
        #expect(seed == (pages > withinDepth ? nil : "page budget of \(pages) reached"))
    }

    @Test("known keys and repeats within a batch are neither admitted nor counted")
    func knownKeys() {
        var frontier = CrawlFrontier<Item>(
            policy: PolitenessPolicy(), budget: CrawlBudget(maximumDepth: 5, maximumPages: 3))
        let batch = ["a", "b", "a", "c", "b", "d", "e"].map { Item(key: $0, host: "h") }
        let (admitted, refused) = frontier.admit(batch, known: ["b"])
        #expect(admitted.map(\.key) == ["a", "c", "d"])
        #expect(refused.map(\.entry.key) == ["e"])
        #expect(frontier.budget.pagesAdmitted == 3)
    }

    @Test("a resumed crawl's budget starts from what the store admitted")
    func resumedBudget() {
        var frontier = CrawlFrontier<Item>(
            policy: PolitenessPolicy(), budget: CrawlBudget(maximumDepth: 5, maximumPages: 15, pagesAdmitted: 13))
        let (admitted, refused) = frontier.admit((0..<4).map { Item(key: "\($0)", host: "h") }, known: [])
        #expect(admitted.count == 2)
        #expect(refused.count == 2)
    }
}
