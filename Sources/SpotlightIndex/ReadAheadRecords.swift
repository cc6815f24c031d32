import Foundation
import Synchronization

/// A local-items file read and decoded on a thread of its own, a few batches of records ahead of
/// the import that applies them: decoding the JSON is a fifth of an import's time, and applying
/// the records is SQLite's work on the importing thread, so the two run side by side on two cores.
/// The records come in file order, exactly as `LocalItemsFile.read` gives them.
///
/// Call `next()` until it returns `.end` or `.failed`, and `finish()` in every case (a `defer`):
/// it stops the reading thread if it is still going and waits for it, so no thread outlives the
/// import and at most `depth` batches are ever held.
final class ReadAheadRecords: Sendable {
    typealias Record = (position: RecordPosition, result: Result<LocalRecord, RecordProblem>)

    enum Batch: Sendable {
        case records([Record])
        /// The whole file was read; its format.
        case end(LocalItemsFile.Format)
        /// The file could not be read, or is not JSON at all (`LocalItemsFile.read`).
        case failed(LocalItemsFileError)
    }

    /// Thrown inside the reading thread's record callback once `finish()` asked it to stop.
    private struct Stopped: Error {}

    private let ready = Mutex<[Batch]>([])
    /// Counts the batches in `ready`.
    private let filled = DispatchSemaphore(value: 0)
    /// Counts the free places for batches: the reading thread waits for one before it adds one.
    private let free: DispatchSemaphore
    private let stopping = Atomic<Bool>(false)
    private let ended = DispatchSemaphore(value: 0)

    /// Starts reading `path` in batches of `batchSize` records, at most `depth` batches ahead.
    init(path: String, batchSize: Int = 256, depth: Int = 8) {
        free = DispatchSemaphore(value: depth)
        let thread = Thread { [self] in
            read(path: path, batchSize: batchSize)
            ended.signal()
        }
        thread.name = "spotcheck-read-records"
        // The main thread's stack: decoded values are compared and hashed recursively.
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// The next batch, waiting for it if needed.
    func next() -> Batch {
        filled.wait()
        let batch = ready.withLock { $0.removeFirst() }
        free.signal()
        return batch
    }

    /// Stops the reading thread if it still runs (it stops at its next record) and waits for it.
    func finish() {
        stopping.store(true, ordering: .releasing)
        // A reading thread waiting for a free place gets one, sees `stopping` and ends.
        free.signal()
        ended.wait()
    }

    private func read(path: String, batchSize: Int) {
        var batch: [Record] = []
        batch.reserveCapacity(batchSize)
        do {
            let format = try LocalItemsFile.read(path: path) { position, result in
                guard !stopping.load(ordering: .acquiring) else { throw Stopped() }
                batch.append((position, result))
                if batch.count == batchSize {
                    try add(.records(batch))
                    batch.removeAll(keepingCapacity: true)
                }
            }
            if !batch.isEmpty { try add(.records(batch)) }
            try add(.end(format))
        } catch let error as LocalItemsFileError {
            try? add(.failed(error))
        } catch {
            // Stopped: nobody reads what is left.
        }
    }

    private func add(_ batch: Batch) throws {
        free.wait()
        guard !stopping.load(ordering: .acquiring) else { throw Stopped() }
        ready.withLock { $0.append(batch) }
        filled.signal()
    }
}
