import Dispatch
import Synchronization

/// Runs `work` for indices `0..<count` on `jobs` threads and hands each result to `emit` in index
/// order, as soon as it and all earlier ones are done. `emit` runs under a lock, one call at a
/// time, so it may print. CPU-bound work only: the threads are Dispatch's, not Swift's
/// cooperative pool.
public enum OrderedParallel {
    private struct State<Output> {
        var nextToStart = 0
        var nextToEmit = 0
        var finished: [Int: Output] = [:]
    }

    public static func run<Output: Sendable>(
        count: Int, jobs: Int, work: @Sendable (Int) -> Output, emit: @Sendable (Int, Output) -> Void
    ) {
        guard count > 0 else { return }
        let state = Mutex(State<Output>())
        let workers = max(1, min(jobs, count))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while true {
                let index: Int? = state.withLock { state in
                    guard state.nextToStart < count else { return nil }
                    defer { state.nextToStart += 1 }
                    return state.nextToStart
                }
                guard let index else { return }
                let output = work(index)
                state.withLock { state in
                    state.finished[index] = output
                    while let ready = state.finished.removeValue(forKey: state.nextToEmit) {
                        emit(state.nextToEmit, ready)
                        state.nextToEmit += 1
                    }
                }
            }
        }
    }
}
