#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A page file's bytes, read with `open`/`fstat`/`read` straight into the array the parser gets.
///
/// Foundation's `FileHandle.read(upToCount:)` followed by `[UInt8](data)` cost 6 % of
/// `extract --jobs 1` (`perf`, the real pages): a buffer the size of the page limit, its page
/// faults, and a second copy. This file is the only one in the module that calls the C file API.
enum PageFile {
    /// What was read: the whole file, or the first `limit + 1` bytes of a longer one.
    struct Contents {
        var bytes: [UInt8]
        /// The size `fstat` gave for a regular file (nil for a pipe or a device).
        var regularFileSize: Int?
    }

    /// Why a read failed: `errno` and its text.
    struct ReadError: Error {
        var code: Int32
        var message: String
    }

    /// Reads `path` to its end or to `limit + 1` bytes, whichever comes first, so that a file of
    /// exactly `limit` bytes can be told from a longer one. A regular file is read into an array
    /// of its own size (one more `read` sees the end); a pipe or a device in growing chunks.
    static func contents(of path: String, limit: Int) throws(ReadError) -> Contents {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw lastError() }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw lastError() }
        let isRegular = (info.st_mode & S_IFMT) == S_IFREG
        let wanted = limit + 1
        var chunk = isRegular ? Int(info.st_size) + 1 : 64 << 10
        var bytes: [UInt8] = []
        while bytes.count < wanted {
            let piece = try readChunk(descriptor, upTo: min(chunk, wanted - bytes.count))
            if piece.isEmpty { break }
            if bytes.isEmpty { bytes = piece } else { bytes += piece }
            chunk = min(chunk * 2, 16 << 20)
        }
        return Contents(bytes: bytes, regularFileSize: isRegular ? Int(info.st_size) : nil)
    }

    /// One `read` of up to `count` bytes (retried on EINTR); empty at the end of the file.
    private static func readChunk(_ descriptor: Int32, upTo count: Int) throws(ReadError) -> [UInt8] {
        var failure: ReadError?
        let piece = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            initialized = 0
            while true {
                let result = read(descriptor, buffer.baseAddress, count)
                if result >= 0 {
                    initialized = result
                    return
                }
                if errno != EINTR {
                    failure = lastError()
                    return
                }
            }
        }
        if let failure { throw failure }
        return piece
    }

    private static func lastError() -> ReadError {
        let code = errno
        return ReadError(code: code, message: String(cString: strerror(code)))
    }
}
