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

    /// Why a read failed: `errno` and its text (`code` 0: `message` says why, no `errno` did).
    struct ReadError: Error {
        var code: Int32
        var message: String
    }

    /// What a file that is not a regular one is, for messages ("a FIFO"); nil for a regular file.
    static func kind(ofMode mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "a folder"
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        case S_IFCHR, S_IFBLK: "a device"
        default: "not a file"
        }
    }

    /// What `path` is when it is not a regular file (`stat`, which follows symbolic links and,
    /// unlike `open`, never waits for a FIFO's writer); nil for a regular file or one that cannot
    /// be looked at (reading it then says why).
    static func nonRegularKind(at path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return kind(ofMode: info.st_mode)
    }

    /// Reads `path` to its end or to `limit + 1` bytes, whichever comes first, so that a file of
    /// exactly `limit` bytes can be told from a longer one. A regular file is read into an array
    /// of its own size (one more `read` sees the end); a pipe or a device in growing chunks.
    ///
    /// Opened with `O_NONBLOCK`: a FIFO's `open` would otherwise wait for a writer forever (issue
    /// 35 §4: `validate FIFO` hung with no output). A FIFO or socket that nothing writes to (the
    /// first read sees its end at once) is refused as not a regular file; one with a writer
    /// (`validate <(curl …)`) is then read blocking, as are devices (`/dev/zero`).
    static func contents(of path: String, limit: Int) throws(ReadError) -> Contents {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw lastError() }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw lastError() }
        let isRegular = (info.st_mode & S_IFMT) == S_IFREG
        let isPipe = (info.st_mode & S_IFMT) == S_IFIFO || (info.st_mode & S_IFMT) == S_IFSOCK
        let wanted = limit + 1
        var chunk = isRegular ? Int(info.st_size) + 1 : 64 << 10
        var bytes: [UInt8] = []
        if isPipe {
            // Still non-blocking: the end at once means no writer; EAGAIN, a writer not done yet.
            switch try readChunk(descriptor, upTo: min(chunk, wanted), waiting: false) {
            case .some(let piece) where piece.isEmpty:
                throw ReadError(
                    code: 0, message: "not a regular file (\(kind(ofMode: info.st_mode) ?? "a pipe"), with no writer)")
            case .some(let piece): bytes = piece
            case .none: break
            }
        }
        let flags = fcntl(descriptor, F_GETFL)
        if flags >= 0 { _ = fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) }
        while bytes.count < wanted {
            guard let piece = try readChunk(descriptor, upTo: min(chunk, wanted - bytes.count)), !piece.isEmpty
            else { break }
            if bytes.isEmpty { bytes = piece } else { bytes += piece }
            chunk = min(chunk * 2, 16 << 20)
        }
        return Contents(bytes: bytes, regularFileSize: isRegular ? Int(info.st_size) : nil)
    }

    /// One `read` of up to `count` bytes (retried on EINTR); empty at the end of the file. Nil
    /// when nothing can be read yet (EAGAIN) and `waiting` is false: a non-blocking descriptor.
    private static func readChunk(
        _ descriptor: Int32, upTo count: Int, waiting: Bool = true
    ) throws(ReadError) -> [UInt8]? {
        var failure: ReadError?
        var wouldBlock = false
        let piece = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            initialized = 0
            while true {
                let result = read(descriptor, buffer.baseAddress, count)
                if result >= 0 {
                    initialized = result
                    return
                }
                if !waiting, errno == EAGAIN || errno == EWOULDBLOCK {
                    wouldBlock = true
                    return
                }
                if errno != EINTR {
                    failure = lastError()
                    return
                }
            }
        }
        if let failure { throw failure }
        return wouldBlock ? nil : piece
    }

    private static func lastError() -> ReadError {
        let code = errno
        return ReadError(code: code, message: String(cString: strerror(code)))
    }
}
