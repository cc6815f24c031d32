import Foundation
package import Hummingbird

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The files of a folder for Hummingbird's `FileMiddleware`, read on the request's own task.
///
/// Hummingbird's `LocalFileSystem` sends every `stat` and every 128 KiB read to NIO's thread pool
/// and back; for the pages a crawl asks for, those thread hops were most of the server's CPU
/// (`perf` of `spotcheck serve` during `make bench-crawl`: half its samples in the kernel's task
/// switching). Here `stat` and a file of up to ``wholeFileLimit`` bytes are read directly, with
/// `fstat` and `pread` on one descriptor; a bigger file, or a byte range of one, is streamed by
/// `LocalFileSystem` as before. The folder is local and the server serves it to this machine's
/// own crawler, so a read that blocks its task for a page cache copy is the cheaper trade.
///
/// This file is the only one in the module that calls the C file API.
struct FolderFileProvider: FileProvider {
    /// What `FileMiddleware` needs to know of a file: its headers and conditional answers come
    /// from these.
    struct FileAttributes: Sendable, FileMiddlewareFileAttributes {
        let isFolder: Bool
        let size: Int
        let modificationDate: Date
    }

    /// Files up to this size are read whole, in one response buffer
    /// (``FolderServer/wholeFileLimit``).
    let wholeFileLimit: Int

    /// The folder with a trailing `/`.
    let rootFolder: String
    /// The folder with its symbolic links resolved (`realpath`), no trailing `/`.
    let resolvedRoot: String
    /// Streams what is not read whole.
    let streaming: LocalFileSystem

    init(root: String, wholeFileLimit: Int = FolderServer.defaultWholeFileLimit) {
        self.wholeFileLimit = wholeFileLimit
        rootFolder = root.hasSuffix("/") ? root : root + "/"
        resolvedRoot = Self.resolved(root) ?? root
        streaming = LocalFileSystem(rootFolder: root, threadPool: .singleton, logger: RunningServer.quietLogger)
    }

    /// The file a request path names, with its symbolic links resolved; nil (404) when it
    /// resolves outside the folder. A link inside the folder to `../outside/secret.html` or a
    /// `dir -> /elsewhere` put files that are not the site's into report.json (issue 35 §6):
    /// only what resolves inside is served. A path that does not resolve (missing, a dangling
    /// link) is left to `getAttributes`, which answers 404 for it.
    func getFileIdentifier(_ path: String) -> String? {
        let joined = rootFolder + (path.first == "/" ? path.dropFirst() : path[...])
        guard let resolved = Self.resolved(joined) else { return joined }
        guard Self.isInside(resolved, root: resolvedRoot) else { return nil }
        return resolved
    }

    /// Whether `path` (resolved) is `root` (resolved) or under it.
    static func isInside(_ path: String, root: String) -> Bool {
        root == "/" || path == root || path.hasPrefix(root + "/")
    }

    /// `path` with every symbolic link, `.` and `..` resolved; nil when it does not exist.
    static func resolved(_ path: String) -> String? {
        guard let pointer = realpath(path, nil) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }

    /// Whether `path` names a folder (following symbolic links).
    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    func getAttributes(id path: String) async throws -> FileAttributes? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileAttributes(
            isFolder: (info.st_mode & S_IFMT) == S_IFDIR,
            size: Int(info.st_size),
            modificationDate: Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec))
        )
    }

    func loadFile(id path: String, context: some RequestContext) async throws -> ResponseBody {
        if let bytes = try Self.readWhole(path, limit: wholeFileLimit) {
            return ResponseBody(byteBuffer: bytes)
        }
        return try await streaming.loadFile(id: path, context: context)
    }

    func loadFile(id path: String, range: ClosedRange<Int>, context: some RequestContext) async throws -> ResponseBody {
        try await streaming.loadFile(id: path, range: range, context: context)
    }

    /// The file's bytes, or `nil` when it is not a regular file or is bigger than `limit` (or
    /// grew past it).
    ///
    /// - Throws: `HTTPError(.notFound)` when it cannot be opened (gone since its `stat`), and
    ///   `HTTPError(.internalServerError)` with the `errno` text when a read fails.
    static func readWhole(_ path: String, limit: Int) throws -> ByteBuffer? {
        // O_NONBLOCK: opening a FIFO would otherwise wait for a writer on this task's thread.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw HTTPError(.notFound) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw readError(path) }
        let size = Int(info.st_size)
        // Only regular files are read here; a FIFO or a device goes to `LocalFileSystem`.
        guard (info.st_mode & S_IFMT) == S_IFREG, size <= limit else { return nil }
        var buffer = ByteBufferAllocator().buffer(capacity: size)
        var offset = 0
        // Until end of file: a file that shrank since `fstat` is served as it now is.
        while true {
            var count = 0
            _ = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: max(size - offset, 1)) { space in
                count = pread(descriptor, space.baseAddress, space.count, off_t(offset))
                return max(count, 0)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw readError(path)
            }
            if count == 0 { return buffer }
            offset += count
            if offset > limit { return nil }
        }
    }

    private static func readError(_ path: String) -> HTTPError {
        HTTPError(.internalServerError, message: "cannot read \(path): \(String(cString: strerror(errno)))")
    }
}
