import CrawlScheduling
import PageFetching
import Synchronization
import Testing

@testable import Crawling

/// The politeness of side requests (images, sitemaps): `--per-host` in flight, `--delay` or the
/// origin's `Crawl-delay` between starts on one origin, none for loopback origins, and a pause
/// after 429/503 that a side request either waits out or, when long, is not sent for.
@Suite("HostGate: side requests in flight and apart per origin")
struct HostGateTests {
    /// When each piece of work started, and the most that ran at once.
    actor Recorder {
        private(set) var starts: [ContinuousClock.Instant] = []
        private(set) var running = 0
        private(set) var mostRunning = 0

        func begin() {
            starts.append(.now)
            running += 1
            mostRunning = max(mostRunning, running)
        }

        func end() { running -= 1 }

        /// The gaps between consecutive starts.
        var gaps: [Duration] {
            let sorted = starts.sorted()
            return zip(sorted, sorted.dropFirst()).map { $1 - $0 }
        }
    }

    static func answer(status: Int = 200, headers: [HTTPHeader] = []) -> FetchResponse {
        FetchResponse(
            url: "https://www.example.com/a.png", status: status, httpVersion: "1.1", headers: headers, body: [],
            wireBytes: 0, timings: FetchTimings(), remoteAddress: nil)
    }

    /// Runs `count` side requests on one origin at once, each taking 20 ms.
    static func requests(_ count: Int, through gate: HostGate, recorder: Recorder) async {
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<count {
                group.addTask {
                    _ = try? await gate.run(host: "https://www.example.com") { () async throws(FetchError) in
                        await recorder.begin()
                        try? await Task.sleep(for: .milliseconds(20))
                        await recorder.end()
                        return answer()
                    }
                }
            }
        }
    }

    @Test func startsOnOneOriginAreDelayApartAndAtMostLimitRunAtOnce() async {
        let gate = HostGate(limit: 2, delay: 0.05)
        let recorder = Recorder()
        await Self.requests(5, through: gate, recorder: recorder)
        #expect(await recorder.starts.count == 5)
        // Sleeping never ends early: each start is at least the delay after the one before.
        for gap in await recorder.gaps { #expect(gap >= .milliseconds(49)) }
        #expect(await recorder.mostRunning <= 2)
    }

    @Test func aLongerCrawlDelayOfTheOriginSpacesTheStarts() async {
        let gate = HostGate(limit: 4, delay: 0.01) { origin in origin == "https://www.example.com" ? 0.12 : nil }
        let recorder = Recorder()
        await Self.requests(4, through: gate, recorder: recorder)
        #expect(await recorder.starts.count == 4)
        for gap in await recorder.gaps { #expect(gap >= .milliseconds(119)) }
    }

    @Test func aShortRetryAfterIsWaitedOut() async throws {
        let gate = HostGate(limit: 2, delay: 0)
        let first = try await gate.run(host: "https://www.example.com") { () async throws(FetchError) in
            Self.answer(status: 429, headers: [HTTPHeader("Retry-After", "1")])
        }
        #expect(first.status == 429)
        let asked = ContinuousClock.now
        let second = try await gate.run(host: "https://www.example.com") { () async throws(FetchError) in
            Self.answer()
        }
        #expect(second.status == 200)
        #expect(ContinuousClock.now - asked >= .milliseconds(990))
        // Other origins are not held.
        let other = ContinuousClock.now
        _ = try await gate.run(host: "https://cdn.example.net") { () async throws(FetchError) in Self.answer() }
        #expect(ContinuousClock.now - other < .milliseconds(500))
    }

    @Test func aLongRetryAfterLeavesTheOriginAloneWithoutWaiting() async throws {
        let gate = HostGate(limit: 2, delay: 0)
        _ = try await gate.run(host: "https://www.example.com") { () async throws(FetchError) in
            Self.answer(status: 503, headers: [HTTPHeader("Retry-After", "120")])
        }
        let sent = Mutex(false)
        let asked = ContinuousClock.now
        do {
            _ = try await gate.run(host: "https://www.example.com") { () async throws(FetchError) in
                sent.withLock { $0 = true }
                return Self.answer()
            }
            Issue.record("expected the request to be held back")
        } catch {
            #expect(error.kind == .throttled)
            #expect(error.message.contains("120 s"), "\(error.message)")
        }
        #expect(!sent.withLock { $0 })
        #expect(ContinuousClock.now - asked < .seconds(1))
    }

    @Test func failuresSlowTheOriginDownAndHealthyAnswersSpeedItUpAgain() async throws {
        let gate = HostGate(limit: 1, delay: 0.01)
        _ = try? await gate.run(host: "https://www.example.com") { () async throws(FetchError) -> FetchResponse in
            throw FetchError(kind: .timeout, url: "https://www.example.com/a.png", message: "timed out")
        }
        #expect(await gate.delay(forOrigin: "https://www.example.com") == 0.02)
        _ = try await gate.run(host: "https://www.example.com") { () async throws(FetchError) in Self.answer() }
        #expect(await gate.delay(forOrigin: "https://www.example.com") == 0.01)
        // An answer the crawl refused (too large) is not the host's distress.
        _ = try? await gate.run(host: "https://www.example.com") { () async throws(FetchError) -> FetchResponse in
            throw FetchError(kind: .tooLarge, url: "https://www.example.com/a.png", message: "over the cap")
        }
        #expect(await gate.delay(forOrigin: "https://www.example.com") == 0.01)
    }

    /// A request's turn counts the requests queued before it: with a Crawl-delay of 300 s (the
    /// longest spacing a scheduler keeps) and at most 350 s of waiting, the request after one
    /// already waiting its turn would wait nearly 600 s, so it is not sent, at once; the one
    /// waiting, cancelled, is not sent either and leaves the queue. (Only a machine that took over
    /// 250 s between the first request and the third could see otherwise: under AddressSanitizer on
    /// a loaded machine, 92 s once went by with a 100 s Crawl-delay.)
    @Test func requestsQueuedPastTheLongestWaitAreThrottledAtOnceAndACancelledWaiterIsNotSent() async throws {
        let origin = "https://www.example.com"
        let gate = HostGate(limit: 2, delay: 0, longestWait: 350) { _ in 300 }
        _ = try await gate.run(host: origin) { () async throws(FetchError) in Self.answer() }
        let sent = Mutex(false)
        let waiter = Task {
            try await gate.run(host: origin) { () async throws(FetchError) in
                sent.withLock { $0 = true }
                return Self.answer()
            }
        }
        while await gate.queued(forOrigin: origin) == 0 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(await gate.queued(forOrigin: origin) == 1)
        let asked = ContinuousClock.now
        do {
            _ = try await gate.run(host: origin) { () async throws(FetchError) in Self.answer() }
            Issue.record("expected the third request to be throttled")
        } catch {
            #expect(error.kind == .throttled)
            #expect(error.message.contains("side requests wait at most 350 s"), "\(error.message)")
        }
        #expect(ContinuousClock.now - asked < .seconds(30))
        waiter.cancel()
        let result = await waiter.result
        #expect(throws: FetchError.self) { try result.get() }
        #expect(!sent.withLock { $0 })
        #expect(await gate.queued(forOrigin: origin) == 0)
        #expect(await gate.delay(forOrigin: origin) == 300)
    }

    @Test(arguments: [
        ("http://127.0.0.1:8080", true), ("http://localhost:9", true), ("https://[::1]:443", true),
        ("https://www.example.com", false),
    ])
    func loopbackOriginsAreNotDelayed(origin: String, isLoopback: Bool) async {
        #expect(HostScheduler.isLoopback(HostGate.authority(of: origin)) == isLoopback)
        let gate = HostGate(limit: 1, delay: 5) { _ in 10 }
        #expect(await gate.delay(forOrigin: origin) == (isLoopback ? 0 : 5))
    }
}
