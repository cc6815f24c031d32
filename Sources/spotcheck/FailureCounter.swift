import PageAnalysis
import Synchronization

/// Collects the input problems met by parallel workers.
final class FailureCounter: Sendable {
    private let storage = Mutex<[InputProblem]>([])

    func add(_ problem: InputProblem) {
        storage.withLock { $0.append(problem) }
    }

    var problems: [InputProblem] { storage.withLock { $0 } }
}
