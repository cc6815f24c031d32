import Foundation
import PageAnalysis
import Synchronization
import Testing

@Suite("Ordered parallel runner")
struct OrderedParallelTests {
    @Test("results are emitted in index order, once each, whatever the work time", arguments: [1, 4])
    func orderedEmission(_ jobs: Int) {
        let count = 200
        let emitted = Mutex<[(Int, String)]>([])
        let running = Mutex((now: 0, peak: 0))
        let emitting = Mutex(false)
        let overlap = Mutex(false)
        OrderedParallel.run(count: count, jobs: jobs) { index in
            running.withLock {
                $0.now += 1
                $0.peak = max($0.peak, $0.now)
            }
            // Uneven work: later indices often finish before earlier ones.
            usleep(UInt32((index * 7919) % 13) * 200)
            running.withLock { $0.now -= 1 }
            return "result \(index)"
        } emit: { index, output in
            if emitting.withLock({
                let was = $0; $0 = true; return was
            }) {
                overlap.withLock { $0 = true }
            }
            emitted.withLock { $0.append((index, output)) }
            emitting.withLock { $0 = false }
        }
        let results = emitted.withLock { $0 }
        #expect(results.map(\.0) == Array(0..<count))
        #expect(results.allSatisfy { $0.1 == "result \($0.0)" })
        #expect(!overlap.withLock { $0 })
        let peak = running.withLock { $0.peak }
        #expect(peak <= jobs)
        if jobs == 1 { #expect(peak == 1) }
    }

    @Test("no work for count 0; jobs below 1 still run everything")
    func edgeCounts() {
        let calls = Mutex(0)
        OrderedParallel.run(count: 0, jobs: 4) { _ in
            calls.withLock { $0 += 1 }
        } emit: { _, _ in
        }
        #expect(calls.withLock { $0 } == 0)
        let emitted = Mutex<[Int]>([])
        OrderedParallel.run(count: 5, jobs: 0) {
            $0 * 2
        } emit: { _, value in
            emitted.withLock { $0.append(value) }
        }
        #expect(emitted.withLock { $0 } == [0, 2, 4, 6, 8])
    }
}
