import CrawlStore
import Dispatch

/// The crawl's store, awaited: every call runs on one serial queue of its own, so SQLite's
/// blocking work never occupies Swift's cooperative pool (two threads here, shared with
/// extraction and the embedded server), and store writes keep their order.
struct StoreQueue: Sendable {
    let store: any CrawlStoring
    private let queue = DispatchQueue(label: "spotcheck.crawl-store")
    /// Marks the store queues, so code (and tests) can tell where they run.
    static let marker = DispatchSpecificKey<Bool>()

    init(_ store: any CrawlStoring) {
        self.store = store
        queue.setSpecific(key: Self.marker, value: true)
    }

    /// Whether the caller runs on a crawl's store queue.
    static var isCurrent: Bool { DispatchQueue.getSpecific(key: marker) == true }

    /// Runs `work` with the store on the queue and resumes with its result (the store's errors are
    /// `CrawlStoreError`s).
    func run<T: Sendable>(_ work: @escaping @Sendable (any CrawlStoring) throws -> T) async throws -> T {
        let store = self.store
        return try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try work(store) }) }
        }
    }
}
