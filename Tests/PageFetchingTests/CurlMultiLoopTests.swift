import Foundation
import Synchronization
import Testing

@testable import PageFetching

/// The loop's bookkeeping of transfer IDs: bounded by the transfers in progress, whatever order
/// cancellations, completions and the shutdown come in.
@Suite("Curl multi loop: cancellations and shutdown")
struct CurlMultiLoopTests {
    static let configuration = FetcherConfiguration(
        userAgent: "spotcheck-tests",
        limits: FetchLimits(
            maximumBodyBytes: 1 << 20, maximumHeaderBytes: 128 << 10, connectTimeout: 5, timeout: 10))

    static func run(_ loop: CurlMultiLoop, _ request: FetchRequest) async -> Result<FetchResponse, FetchError> {
        let id = loop.makeTransferID()
        return await withCheckedContinuation { continuation in
            loop.submit(id: id, request: request) { continuation.resume(returning: $0) }
        }
    }

    @Test func cancellationsThatArriveAfterTheTransferEndedAreNotKept() async throws {
        let loop = try CurlMultiLoop(configuration: Self.configuration)
        defer { loop.shutdown() }
        let request = FetchRequest(url: try await TestSite.url("/about.html"))
        for _ in 0..<200 {
            let id = loop.makeTransferID()
            let result = await withCheckedContinuation { continuation in
                loop.submit(id: id, request: request) { continuation.resume(returning: $0) }
            }
            #expect((try? result.get())?.status == 200)
            // The calling task was cancelled just after its transfer ended.
            loop.cancel(id: id)
        }
        // One more transfer through the loop: it reads its inbox after those cancellations.
        #expect((try? await Self.run(loop, request).get())?.status == 200)
        #expect(loop.bookkeeping == CurlMultiLoop.Bookkeeping())
    }

    @Test func fetchesFromCancelledTasksLeaveNothingBehind() async throws {
        let fetcher = try makeFetcher()
        let url = try await TestSite.url("/about.html")
        for _ in 0..<200 {
            let task = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await fetcher.fetch(FetchRequest(url: url))
            }
            let result = await task.result
            guard case .failure(let error as FetchError) = result else {
                Issue.record("expected a cancellation, got \(result)")
                continue
            }
            #expect(error.kind == .cancelled)
        }
        #expect(try await fetcher.fetch(FetchRequest(url: url)).status == 200)
        #expect(fetcher.loop.bookkeeping == CurlMultiLoop.Bookkeeping())
    }

    /// `cancel`, `submit` and `shutdown` from several threads while the loop thread ends, and
    /// after it ended: none may touch the multi handle once the loop has cleaned it up (run under
    /// `--sanitize=address` to see a use after free), every submission completes once, and
    /// nothing is left queued.
    @Test(.timeLimit(.minutes(2)))
    func cancelAndShutdownRacingWithTheLoopsExit() async throws {
        let request = FetchRequest(url: "http://127.0.0.1:1/")
        for _ in 0..<100 {
            let loop = try CurlMultiLoop(configuration: Self.configuration)
            let completions = Tally()
            let ids = (0..<4).map { _ in loop.makeTransferID() }
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                let finished = Tally()
                for id in ids {
                    Thread {
                        for _ in 0..<50 { loop.cancel(id: id) }
                        loop.submit(id: id, request: request) { _ in completions.add() }
                        for _ in 0..<50 { loop.cancel(id: id) }
                        loop.shutdown()
                        if finished.add() == ids.count { done.resume() }
                    }.start()
                }
                loop.shutdown()
            }
            // Wait for the loop thread to end, then cancel and shut down again.
            while !loop.hasExited { try await Task.sleep(for: .milliseconds(1)) }
            for id in ids { loop.cancel(id: id) }
            loop.shutdown()
            #expect(completions.count == ids.count)
            #expect(loop.bookkeeping == CurlMultiLoop.Bookkeeping())
        }
    }
}

/// A count shared by threads.
final class Tally: Sendable {
    private let value = Mutex(0)

    /// Adds one and returns the new count.
    @discardableResult
    func add() -> Int {
        value.withLock { count in
            count += 1
            return count
        }
    }

    var count: Int { value.withLock { $0 } }
}
