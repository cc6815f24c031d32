import CrawlScheduling
import Testing

@testable import Crawling

/// The politeness of side requests (images, sitemaps): `--per-host` in flight, `--delay` between
/// starts on one origin, none for loopback origins.
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
    }

    @Test func startsOnOneOriginAreDelayApartAndAtMostLimitRunAtOnce() async {
        let gate = HostGate(limit: 2, delay: 0.05)
        let recorder = Recorder()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<5 {
                group.addTask {
                    await gate.run(host: "https://www.example.com") {
                        await recorder.begin()
                        try? await Task.sleep(for: .milliseconds(20))
                        await recorder.end()
                    }
                }
            }
        }
        let sorted = await recorder.starts.sorted()
        #expect(sorted.count == 5)
        // Sleeping never ends early: each start is at least the delay after the one before.
        for (earlier, later) in zip(sorted, sorted.dropFirst()) {
            #expect(later - earlier >= .milliseconds(49))
        }
        #expect(await recorder.mostRunning <= 2)
    }

    @Test(arguments: [
        ("http://127.0.0.1:8080", true), ("http://localhost:9", true), ("https://[::1]:443", true),
        ("https://www.example.com", false),
    ])
    func loopbackOriginsAreNotDelayed(origin: String, isLoopback: Bool) {
        #expect(HostScheduler.isLoopback(HostGate.authority(of: origin)) == isLoopback)
    }
}
