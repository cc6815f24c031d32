#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One crawl at a time in an output folder (issue 17 §2.5): two `--resume` of one folder each
/// claimed and finished the other's frontier entries, and one marked the run finished with entries
/// still in flight. The lock is `flock(2)` on `crawl.lock` in the folder, held while the job runs
/// and released by the kernel when the process ends (a `kill -9` leaves no stale lock); the file
/// holds the holder's process id for the message.
final class CrawlFolderLock: Sendable {
    static let fileName = "crawl.lock"

    /// The open lock file; closed (and the lock released) in `deinit`.
    private let descriptor: Int32
    /// Another folder's lock held as long as this one (a `--store FILE` outside the output folder).
    private let companion: CrawlFolderLock?

    /// Takes the folder's lock, or throws `.cannotCrawl` naming the process that holds it.
    /// `companion` is kept, and released with this lock.
    convenience init(folder: String, keeping companion: CrawlFolderLock? = nil) throws(CrawlJobError) {
        let path = folder.hasSuffix("/") ? folder + Self.fileName : folder + "/" + Self.fileName
        try self.init(path: path, keeping: companion) { holder in
            "\(folder): another spotcheck crawl\(holder.map { " (process \($0))" } ?? "") is writing into this "
                + "folder; wait for it to end (or stop it), then run `spotcheck crawl --resume --output \(folder)`"
        }
    }

    /// Takes the lock of a crawl store file of its own (`--store FILE`): `FILE.lock` beside it.
    convenience init(storeFile: String) throws(CrawlJobError) {
        try self.init(path: storeFile + ".lock", keeping: nil) { holder in
            "\(storeFile): another spotcheck crawl\(holder.map { " (process \($0))" } ?? "") is using this "
                + "store; wait for it to end (or stop it), then run `spotcheck crawl --resume --store \(storeFile)`"
        }
    }

    private init(path: String, keeping companion: CrawlFolderLock?, busy: (Int32?) -> String) throws(CrawlJobError) {
        self.companion = companion
        // O_NOFOLLOW: a planted `crawl.lock -> elsewhere` had its target truncated and overwritten
        // with the process id (issue 35 §7); it is refused, as the reports refuse to follow one.
        // O_NONBLOCK: a planted FIFO must not make the open wait (it is then refused below).
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o644)
        guard descriptor >= 0 else {
            let reason =
                errno == ELOOP
                ? "it is a symbolic link, which SpotCheck does not follow; remove it"
                : String(cString: strerror(errno))
            throw CrawlJobError(.outputNotWritable, "\(path): cannot be created (\(reason))")
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            throw CrawlJobError(.outputNotWritable, "\(path): cannot be created (it is not a regular file; remove it)")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let holder = Self.holder(descriptor)
            close(descriptor)
            throw CrawlJobError(.cannotCrawl, busy(holder))
        }
        let text = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = text.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// The process id written by the holder, if the file holds one.
    private static func holder(_ descriptor: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        return Int32(String(decoding: buffer.prefix(count).filter { (48...57).contains($0) }, as: UTF8.self))
    }
}
