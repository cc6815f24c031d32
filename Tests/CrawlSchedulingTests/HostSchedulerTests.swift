import CrawlScheduling
import Testing

@Suite("Host scheduler (politeness state machine)")
struct HostSchedulerTests {
    @Test("per-host delay: a host waits its delay between starts while another host goes")
    func perHostDelay() {
        var scheduler = HostScheduler(policy: PolitenessPolicy(perHostConcurrency: 2, delay: 1))
        #expect(scheduler.next(hostsWithWork: ["a.com", "b.com"], now: 0) == .dispatch("a.com"))
        scheduler.started("a.com", at: 0)
        #expect(scheduler.next(hostsWithWork: ["a.com", "b.com"], now: 0) == .dispatch("b.com"))
        scheduler.started("b.com", at: 0)
        #expect(scheduler.next(hostsWithWork: ["a.com", "b.com"], now: 0.5) == .wait(until: 1))
        #expect(scheduler.next(hostsWithWork: ["a.com", "b.com"], now: 1) == .dispatch("a.com"))
    }

    @Test("Crawl-delay raises the delay; per-host and global concurrency limits hold")
    func limits() {
        var scheduler = HostScheduler(policy: PolitenessPolicy(perHostConcurrency: 1, globalConcurrency: 2, delay: 0))
        scheduler.setCrawlDelay(10, for: "slow.com")
        #expect(scheduler.delay(for: "slow.com") == 10)
        scheduler.started("slow.com", at: 0)
        #expect(scheduler.next(hostsWithWork: ["slow.com"], now: 20) == .idle)
        scheduler.finished("slow.com", at: 1, outcome: .answered(status: 200, seconds: 1, retryAfter: nil))
        #expect(scheduler.next(hostsWithWork: ["slow.com"], now: 5) == .wait(until: 10))
        scheduler.started("a.com", at: 0)
        scheduler.started("b.com", at: 0)
        #expect(scheduler.inFlight == 2)
        #expect(scheduler.next(hostsWithWork: ["c.com"], now: 0) == .idle)
    }

    @Test("429 with Retry-After holds the host and doubles its pace; healthy answers bring it back")
    func backoff() {
        var scheduler = HostScheduler(policy: PolitenessPolicy(delay: 1))
        scheduler.started("a.com", at: 0)
        scheduler.finished("a.com", at: 1, outcome: .answered(status: 429, seconds: 0.1, retryAfter: 30))
        #expect(scheduler.delay(for: "a.com") == 2)
        #expect(scheduler.next(hostsWithWork: ["a.com"], now: 10) == .wait(until: 31))
        scheduler.started("a.com", at: 31)
        scheduler.finished("a.com", at: 32, outcome: .answered(status: 200, seconds: 0.1, retryAfter: nil))
        #expect(scheduler.delay(for: "a.com") == 1)
    }

    @Test("loopback hosts are not throttled")
    func loopback() {
        var scheduler = HostScheduler(policy: PolitenessPolicy(perHostConcurrency: 1, globalConcurrency: 8, delay: 5))
        for _ in 0..<4 { scheduler.started("127.0.0.1:8080", at: 0) }
        #expect(scheduler.next(hostsWithWork: ["127.0.0.1:8080"], now: 0) == .dispatch("127.0.0.1:8080"))
        #expect(HostScheduler.isLoopback("localhost"))
        #expect(HostScheduler.isLoopback("[::1]:80"))
        #expect(!HostScheduler.isLoopback("example.com"))
    }

    @Test("fairness: the host served least recently goes first")
    func fairness() {
        var scheduler = HostScheduler(policy: PolitenessPolicy(perHostConcurrency: 4, delay: 0))
        var served: [String] = []
        for step in 0..<6 {
            guard case .dispatch(let host) = scheduler.next(hostsWithWork: ["a", "b", "c"], now: Double(step)) else {
                Issue.record("expected a dispatch")
                return
            }
            served.append(host)
            scheduler.started(host, at: Double(step))
        }
        #expect(served == ["a", "b", "c", "a", "b", "c"])
    }

    @Test("budgets: depth and page limits say why a page is refused")
    func budgets() {
        var budget = CrawlBudget(maximumDepth: 2, maximumPages: 2)
        #expect(budget.admit(depth: 0) == nil)
        #expect(budget.admit(depth: 3) == "deeper than 2 links from the seed")
        #expect(budget.admit(depth: 1) == nil)
        #expect(budget.admit(depth: 1) == "page budget of 2 reached")
    }
}

@Suite("Host scheduler: how many requests start at once")
struct HostSchedulerBurstTests {
    /// Starts requests on `host` at `now` for as long as the scheduler allows (the crawler's
    /// dispatch loop), and returns how many started.
    static func burst(_ scheduler: inout HostScheduler, _ host: String, now: Double) -> Int {
        var started = 0
        while scheduler.mayStart(host, now: now), started < 100 {
            scheduler.started(host, at: now)
            started += 1
        }
        return started
    }

    @Test("a zero delay does not lift the per-host limit of a non-loopback host")
    func zeroDelayKeepsThePerHostLimit() {
        var scheduler = HostScheduler(policy: PolitenessPolicy(perHostConcurrency: 1, globalConcurrency: 8, delay: 0))
        #expect(scheduler.delay(for: "www.example.com") == 0)
        #expect(Self.burst(&scheduler, "www.example.com", now: 0) == 1)
        #expect(scheduler.next(hostsWithWork: ["www.example.com"], now: 0) == .idle)
        scheduler.finished("www.example.com", at: 1, outcome: .answered(status: 200, seconds: 0.1, retryAfter: nil))
        #expect(Self.burst(&scheduler, "www.example.com", now: 1) == 1)
    }

    @Test("per-host 3 with no delay: three at once, then none until one ends")
    func perHostThree() {
        var scheduler = HostScheduler(policy: PolitenessPolicy(perHostConcurrency: 3, globalConcurrency: 8, delay: 0))
        #expect(Self.burst(&scheduler, "a.com", now: 0) == 3)
        #expect(!scheduler.mayStart("a.com", now: 0))
        #expect(Self.burst(&scheduler, "b.com", now: 0) == 3)
        #expect(Self.burst(&scheduler, "c.com", now: 0) == 2)
        scheduler.finished("a.com", at: 1, outcome: .answered(status: 200, seconds: 0.1, retryAfter: nil))
        #expect(Self.burst(&scheduler, "a.com", now: 1) == 1)
    }

    @Test("with a delay, one start per delay even when the per-host limit is higher")
    func delayedHost() {
        var scheduler = HostScheduler(policy: PolitenessPolicy(perHostConcurrency: 4, globalConcurrency: 8, delay: 2))
        #expect(Self.burst(&scheduler, "a.com", now: 0) == 1)
        #expect(Self.burst(&scheduler, "a.com", now: 1) == 0)
        #expect(Self.burst(&scheduler, "a.com", now: 2) == 1)
    }

    @Test("loopback hosts take every free global slot")
    func loopbackBurst() {
        var scheduler = HostScheduler(policy: PolitenessPolicy(perHostConcurrency: 1, globalConcurrency: 8, delay: 1))
        #expect(Self.burst(&scheduler, "127.0.0.1:8080", now: 0) == 8)
        var throttled = HostScheduler(
            policy: PolitenessPolicy(perHostConcurrency: 1, globalConcurrency: 8, delay: 0, throttleLoopback: true))
        #expect(Self.burst(&throttled, "127.0.0.1:8080", now: 0) == 1)
    }

    @Test(
        "a host shared with other processes: this one starts only the slots it holds, and the whole limit again once it holds the host",
        arguments: [("127.0.0.1:8080", 8), ("a.com", 3)])
    func sharedHostSlots(host: String, policyLimit: Int) {
        var scheduler = HostScheduler(policy: PolitenessPolicy(perHostConcurrency: 3, globalConcurrency: 8, delay: 0))
        #expect(scheduler.policyLimit(for: host) == policyLimit)
        scheduler.holdSlots(2, on: host)
        #expect(scheduler.concurrencyLimit(for: host) == 2)
        #expect(Self.burst(&scheduler, host, now: 0) == 2)
        #expect(scheduler.next(hostsWithWork: [host], now: 0) == .idle)
        scheduler.holdSlots(0, on: host)
        scheduler.finished(host, at: 1, outcome: .answered(status: 200, seconds: 0.1, retryAfter: nil))
        #expect(Self.burst(&scheduler, host, now: 1) == 0)
        #expect(scheduler.next(hostsWithWork: [host], now: 1) == .idle)
        // With none of its slots and nothing of it running here, the host is dispatched, so that
        // the crawl claims again (and asks for slots), though no request may start.
        scheduler.finished(host, at: 1, outcome: .answered(status: 200, seconds: 0.1, retryAfter: nil))
        #expect(scheduler.next(hostsWithWork: [host], now: 1) == .dispatch(host))
        #expect(!scheduler.mayStart(host, now: 1))
        // More slots than the policy allows never lift its limit.
        scheduler.holdSlots(100, on: host)
        #expect(scheduler.concurrencyLimit(for: host) == policyLimit)
        scheduler.holdSlots(nil, on: host)
        #expect(Self.burst(&scheduler, host, now: 1) == policyLimit)
    }
}
