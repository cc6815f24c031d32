import Foundation
import Synchronization

/// Standard output through one buffered writer, flushed at the end (stdout is a pipe for scorers).
final class StandardOutput: Sendable {
    private let buffer = Mutex<[UInt8]>([])

    func write(_ text: String) {
        buffer.withLock { buffer in
            buffer.append(contentsOf: text.utf8)
            if buffer.count > 1 << 16 {
                FileHandle.standardOutput.write(Data(buffer))
                buffer.removeAll(keepingCapacity: true)
            }
        }
    }

    func flush() {
        buffer.withLock { buffer in
            guard !buffer.isEmpty else { return }
            FileHandle.standardOutput.write(Data(buffer))
            buffer.removeAll(keepingCapacity: true)
        }
    }
}
