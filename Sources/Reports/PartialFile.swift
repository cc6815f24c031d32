import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A report file written through a 1 MiB buffer under `<path>.partial` and moved to `path` by
/// `commit()`, so a reader never sees half a report. A path that already ends in `.partial` is a
/// scratch file: it is written where it is (and removed by its owner). A write that fails (a full
/// disk) is kept and thrown by `close()`/`commit()`, which then leave `path` alone.
public final class PartialFile {
    public let path: String
    public let partialPath: String
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    /// The first write that failed.
    private var failure: ReportFileError?

    public init(_ path: String) throws(ReportFileError) {
        self.path = path
        partialPath = path.hasSuffix(".partial") ? path : path + ".partial"
        let descriptor = open(partialPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw ReportFileError(path: partialPath, message: "cannot be written (\(String(cString: strerror(errno))))")
        }
        self.handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
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
            while let chunk = try source.read(upToCount: 1 << 20), !chunk.isEmpty { put(chunk) }
        } catch {
            throw ReportFileError(path: file, message: "cannot be read (\(error.localizedDescription))")
        }
        if let failure { throw failure }
    }

    private func flush() {
        guard !buffer.isEmpty else { return }
        put(Data(buffer))
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes through the throwing API (the other one traps on a full disk); after a failure,
    /// nothing more is written.
    private func put(_ data: Data) {
        guard failure == nil else { return }
        do {
            try handle.write(contentsOf: data)
        } catch {
            failure = ReportFileError(path: partialPath, message: "cannot be written (\(Self.reason(error)))")
        }
    }

    /// The system's words for a write error (`No space left on device`).
    static func reason(_ error: any Error) -> String {
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        if let code = underlying?.code, underlying?.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(code)))
        }
        return error.localizedDescription
    }

    public func close() throws(ReportFileError) {
        flush()
        do {
            try handle.close()
        } catch {
            throw ReportFileError(path: partialPath, message: "cannot be written (\(Self.reason(error)))")
        }
        if let failure { throw failure }
    }

    /// Closes the file and moves it to `path` with rename(2): it replaces a file atomically and
    /// fails on a folder, which is never removed (issue 31: `index.html/` holding a user's files was).
    public func commit() throws(ReportFileError) {
        try close()
        guard rename(partialPath, path) == 0 else {
            let reason = errno == EISDIR ? "a folder is in the way; it is left alone" : String(cString: strerror(errno))
            unlink(partialPath)
            throw ReportFileError(path: path, message: "cannot be written (\(reason))")
        }
    }
}
