import CrawlStore
import Dispatch
import Synchronization

/// The crawl's store, awaited: every call runs on one serial queue of its own, so SQLite's
/// blocking work never occupies Swift's cooperative pool (two threads here, shared with
/// extraction and the embedded server), and store writes keep their order; pages completed while
/// the queue is busy are written together (`complete(_:)`).
struct StoreQueue: Sendable {
    let store: any CrawlStoring
    private let queue = DispatchQueue(label: "spotcheck.crawl-store")
    /// Where the seen-keys question runs when the store answers it on a connection of its own.
    private let questions = DispatchQueue(label: "spotcheck.crawl-store.questions")
    private let waiting = WaitingCompletions()
    /// Marks the store queues, so code (and tests) can tell where they run.
    static let marker = DispatchSpecificKey<Bool>()

    init(_ store: any CrawlStoring) {
        self.store = store
        queue.setSpecific(key: Self.marker, value: true)
        questions.setSpecific(key: Self.marker, value: true)
    }

    /// Whether the caller runs on a crawl's store queue.
    static var isCurrent: Bool { DispatchQueue.getSpecific(key: marker) == true }

    /// Runs `work` with the store on the queue and resumes with its result (the store's errors are
    /// `CrawlStoreError`s).
    func run<T: Sendable>(_ work: @escaping @Sendable (any CrawlStoring) throws -> T) async throws -> T {
        try await run(on: queue, work)
    }

    private func run<T: Sendable>(
        on queue: DispatchQueue, _ work: @escaping @Sendable (any CrawlStoring) throws -> T
    ) async throws -> T {
        let store = self.store
        return try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try work(store) }) }
        }
    }

    /// `knownKeysAndAdmittedCount`, on a queue of its own when the store answers it on a
    /// connection of its own: on PostgreSQL the crawl loop waited for it behind the page writes
    /// queued before it (40 % of a one-process crawl's time on the scale-out benchmark).
    func knownKeysAndAdmittedCount(_ keys: [String]) async throws -> (known: Set<String>, admitted: Int) {
        try await run(on: store.asksSeenKeysOnItsOwnConnection ? questions : queue) {
            try $0.knownKeysAndAdmittedCount(keys)
        }
    }

    /// Stores a finished page (`CrawlStoring.complete`) and returns the entries it added. Pages
    /// that arrive while an earlier one waits for the queue join it, and the store writes them
    /// together, in one transaction where it can (a group commit); each gets its own result.
    /// A page is never written later than it would be on its own, only sometimes sooner.
    func complete(_ completion: PageCompletion) async throws -> [FrontierEntry] {
        let (store, waiting) = (self.store, self.waiting)
        return try await withCheckedThrowingContinuation { continuation in
            let first = waiting.list.withLock { list in
                list.append((completion, continuation))
                return list.count == 1
            }
            guard first else { return }
            queue.async {
                let batch = waiting.list.withLock { list in
                    defer { list.removeAll() }
                    return list
                }
                for ((_, continuation), result) in zip(batch, store.complete(batch.map(\.completion))) {
                    continuation.resume(with: result.mapError { $0 as any Error })
                }
            }
        }
    }
}

/// Pages waiting for the store queue to write them (`StoreQueue.complete`).
private final class WaitingCompletions: Sendable {
    let list = Mutex<[(completion: PageCompletion, continuation: CheckedContinuation<[FrontierEntry], any Error>)]>([])
}
