import Dispatch
import Foundation
import Synchronization

/// Ctrl-C (SIGINT) during `validate` (issue 31: it printed nothing and left an empty folder): says
/// what was interrupted, removes the output folder when this run made it and it is still empty
/// (`rmdir` removes nothing else), and exits 130.
final class ValidateInterruption: Sendable {
    private struct State {
        /// The output folder, once made, and whether this run made it.
        var folder: (path: String, created: Bool)?
        /// Whether the pages are read (false: the reports are being written).
        var writing = false
        var source: (any DispatchSourceSignal)?
    }

    private let state = Mutex(State())

    /// Takes over SIGINT for the rest of the process.
    init() {
        signal(SIGINT, SIG_IGN)
        state.withLock { state in
            let source = DispatchSource.makeSignalSource(
                signal: SIGINT, queue: DispatchQueue(label: "spotcheck.sigint"))
            source.setEventHandler { [self] in interrupted() }
            source.resume()
            state.source = source
        }
    }

    /// The output folder is there (`created`: made by this run).
    func madeFolder(_ path: String, created: Bool) {
        state.withLock { $0.folder = (path, created) }
    }

    /// The pages are read; the reports are being written.
    func writingReports() {
        state.withLock { $0.writing = true }
    }

    /// The line for a person who pressed Ctrl-C, given where the run was and whether the empty
    /// folder it made was removed.
    static func message(folder: String?, writing: Bool, removed: Bool) -> String {
        guard let folder else { return "spotcheck: interrupted before any page was read; nothing was written\n" }
        if writing {
            return "spotcheck: interrupted while writing the reports into \(folder); they may be incomplete\n"
        }
        let left = removed ? "the empty output folder \(folder) was removed" : "nothing was written into \(folder)"
        return "spotcheck: interrupted while checking the pages; no report was written (\(left))\n"
    }

    private func interrupted() {
        let (folder, writing) = state.withLock { ($0.folder, $0.writing) }
        var removed = false
        if let folder, folder.created, !writing { removed = rmdir(folder.path) == 0 }
        FileHandle.standardError.write(
            Data(Self.message(folder: folder?.path, writing: writing, removed: removed).utf8))
        _exit(ExitStatus.interrupted.rawValue)
    }
}
