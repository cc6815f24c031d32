import Foundation

/// A report file written through a 1 MiB buffer under `<path>.partial` and moved to `path` by
/// `commit()`, so a reader never sees half a report. A path that already ends in `.partial` is a
/// scratch file: it is written where it is (and removed by its owner).
public final class PartialFile {
    public let path: String
    public let partialPath: String
    private let handle: FileHandle
    private var buffer: [UInt8] = []

    public init(_ path: String) throws(ReportFileError) {
        self.path = path
        partialPath = path.hasSuffix(".partial") ? path : path + ".partial"
        guard FileManager.default.createFile(atPath: partialPath, contents: nil),
            let handle = FileHandle(forWritingAtPath: partialPath)
        else { throw ReportFileError(path: partialPath, message: "cannot be written") }
        self.handle = handle
        buffer.reserveCapacity(1 << 20)
    }

    public func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 20 { flush() }
    }

    /// Copies another file's bytes in, a megabyte at a time.
    public func append(contentsOf file: String) throws(ReportFileError) {
        flush()
        guard let source = FileHandle(forReadingAtPath: file) else {
            throw ReportFileError(path: file, message: "cannot be read")
        }
        defer { try? source.close() }
        do {
            while let chunk = try source.read(upToCount: 1 << 20), !chunk.isEmpty { handle.write(chunk) }
        } catch {
            throw ReportFileError(path: file, message: "cannot be read (\(error.localizedDescription))")
        }
    }

    private func flush() {
        guard !buffer.isEmpty else { return }
        handle.write(Data(buffer))
        buffer.removeAll(keepingCapacity: true)
    }

    public func close() throws(ReportFileError) {
        flush()
        do {
            try handle.close()
        } catch {
            throw ReportFileError(path: partialPath, message: "cannot be written (\(error.localizedDescription))")
        }
    }

    /// Closes the file and moves it to `path`.
    public func commit() throws(ReportFileError) {
        try close()
        do {
            if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
            try FileManager.default.moveItem(atPath: partialPath, toPath: path)
        } catch {
            throw ReportFileError(path: path, message: "cannot be written (\(error.localizedDescription))")
        }
    }
}
