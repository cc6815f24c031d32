import Foundation
import Synchronization

/// A local-items file read and decoded on a thread of its own, a few batches of records ahead of
/// the import that applies them: decoding the JSON (and preparing what the index stores of each
/// item, `StoredAttributes`) is a quarter of an import's time, and applying the records is
/// SQLite's work on the importing thread, so the two run side by side on two cores.
/// The records come in file order, exactly as `LocalItemsFile.read` gives them.
///
/// Call `next()` until it returns `.end` or `.failed` (every later call returns that again), and
/// `finish()` in every case (a `defer`): it stops the reading thread if it is still going and
/// waits for it, so no thread outlives the import. At most `depth` batches wait, beside the one
/// being filled and the one being applied. A JSON array is parsed whole before its first record,
/// so stopping during that parse waits for its end.
final class ReadAheadRecords: Sendable {
    /// A record as `LocalItemsFile.read` gives it, and for an item what the index stores of its
    /// attribute set (`StoredAttributes`), made on the reading thread too.
    typealias Record = (
        position: RecordPosition, result: Result<LocalRecord, RecordProblem>, stored: StoredAttributes?
    )

    enum Batch: Sendable {
        case records([Record])
        /// The whole file was read; its format.
        case end(LocalItemsFile.Format)
        /// The file could not be read, or is not JSON at all (`LocalItemsFile.read`).
        case failed(LocalItemsFileError)
    }

    /// Thrown inside the reading thread's record callback once `finish()` asked it to stop.
    private struct Stopped: Error {}

    private struct Queue {
        var ready: [Batch] = []
        /// `.end` or `.failed` once `next()` returned it: every later call returns it again.
        var last: Batch?
        var finished = false
    }

    private let queue = Mutex(Queue())
    /// Counts the batches in `queue.ready`.
    private let filled = DispatchSemaphore(value: 0)
    /// Counts the free places for batches: the reading thread waits for one before it adds one.
    /// It starts at 0 and is raised to `depth` by signals: libdispatch stops the process when a
    /// semaphore is released below the value it was created with, which an import that stops with
    /// batches waiting would otherwise do.
    private let free = DispatchSemaphore(value: 0)
    private let stopping = Atomic<Bool>(false)
    private let ended = DispatchSemaphore(value: 0)

    /// Starts reading `path` in batches of `batchSize` records, at most `depth` batches ahead.
    init(path: String, batchSize: Int = 256, depth: Int = 8) {
        precondition(batchSize > 0 && depth > 0, "ReadAheadRecords needs a batch size and a depth of 1 or more")
        for _ in 0..<depth { free.signal() }
        let thread = Thread { [self] in
            read(path: path, batchSize: batchSize)
            ended.signal()
        }
        thread.name = "spotcheck-read-records"
        // The main thread's stack: decoded values are compared and hashed recursively.
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// The next batch, waiting for it if needed; after `.end` or `.failed`, that again.
    func next() -> Batch {
        if let last = queue.withLock({ $0.last }) { return last }
        filled.wait()
        let batch = queue.withLock { queue in
            let batch = queue.ready.removeFirst()
            if case .records = batch {} else { queue.last = batch }
            return batch
        }
        free.signal()
        return batch
    }

    /// Stops the reading thread if it still runs (at its next record) and waits for it. Calling it
    /// again does nothing.
    func finish() {
        let isFirstCall = queue.withLock { queue in
            defer { queue.finished = true }
            return !queue.finished
        }
        guard isFirstCall else { return }
        stopping.store(true, ordering: .releasing)
        // A reading thread waiting for a free place gets one, sees `stopping` and ends.
        free.signal()
        ended.wait()
    }

    private func read(path: String, batchSize: Int) {
        var batch: [Record] = []
        batch.reserveCapacity(batchSize)
        let outcome: Batch
        do {
            let format = try LocalItemsFile.read(path: path) { position, result in
                guard !stopping.load(ordering: .acquiring) else { throw Stopped() }
                var stored: StoredAttributes?
                if case .success(.item(let item)) = result, !item.isUpdate {
                    stored = StoredAttributes(item.attributeSet)
                }
                batch.append((position, result, stored))
                if batch.count == batchSize {
                    try add(.records(batch))
                    batch.removeAll(keepingCapacity: true)
                }
            }
            if !batch.isEmpty { try add(.records(batch)) }
            outcome = .end(format)
        } catch is Stopped {
            return
        } catch let error as LocalItemsFileError {
            outcome = .failed(error)
        } catch {
            outcome = .failed(LocalItemsFileError(path: path, message: "read failed: \(error)"))
        }
        try? add(outcome)
    }

    private func add(_ batch: Batch) throws {
        free.wait()
        guard !stopping.load(ordering: .acquiring) else { throw Stopped() }
        queue.withLock { $0.ready.append(batch) }
        filled.signal()
    }
}
