package import Hummingbird

/// Serves a folder over real HTTP/1.1 on a loopback address, so `spotcheck crawl <folder>` runs
/// the same fetch path as a crawl of a live site.
///
/// GET and HEAD; a directory URL answers with its `index.html`, and a directory path without its
/// trailing slash is redirected (301) to the path with it. `Content-Type` comes from the file
/// extension (``FolderServer/contentType(forPath:)``), `Last-Modified` and a weak `ETag` from the
/// file's metadata, and `If-None-Match` / `If-Modified-Since` get 304 answers. Missing files,
/// `..` segments (literal or percent-encoded) and encoded slashes or backslashes answer 404 with a
/// small HTML page. Byte ranges (206) come with Hummingbird's `FileMiddleware`, which also
/// answers 400 to any path containing `..` inside a name (`/a..b.html`). Symbolic links in the
/// folder are followed. Logging is off. Files of up to 8 MiB are read whole on the request's task
/// (``FolderFileProvider``), bigger ones and ranges streamed through NIO's thread pool.
///
/// ```swift
/// let server = try await FolderServer(root: "Fixtures/html").start()
/// print(server.baseURL)  // http://127.0.0.1:40123/
/// // … crawl …
/// await server.stop()
/// ```
public struct FolderServer: Sendable {
    /// The folder served at `/`.
    public let root: String
    /// The address to listen on.
    public let host: String
    /// The port to listen on; 0 lets the kernel pick a free one (read it from ``RunningServer/port``).
    public let port: Int
    /// How long ``RunningServer/stop()`` lets requests in flight finish before cancelling them.
    public let shutdownLimit: Duration
    /// Files up to this size are read whole on the request's task; bigger ones are streamed
    /// (``defaultWholeFileLimit``; tests lower it to exercise both paths with small files).
    package var wholeFileLimit = defaultWholeFileLimit

    /// 8 MiB: every page a crawl asks for, in one `pread`.
    package static let defaultWholeFileLimit = 8 << 20

    /// Describes a server for `root` (a folder path, absolute or relative to the working
    /// directory). Nothing is bound before ``start()``.
    public init(
        root: String, host: String = "127.0.0.1", port: Int = 0,
        shutdownLimit: Duration = RunningServer.gracefulShutdownLimit
    ) {
        self.root = root
        self.host = host
        self.port = port
        self.shutdownLimit = shutdownLimit
    }

    /// Starts serving in the background and returns once the socket is bound.
    ///
    /// - Throws: ``LoopbackServerError/notADirectory(_:)`` when `root` is not a folder, or the
    ///   socket error when the address cannot be bound (a port in use, say).
    public func start() async throws -> RunningServer {
        guard FolderFileProvider.isDirectory(root) else { throw LoopbackServerError.notADirectory(root) }
        let router = Router(context: BasicRequestContext.self)
        router.add(middleware: FolderFilesMiddleware(root: root, wholeFileLimit: wholeFileLimit))
        return try await RunningServer.start(router: router, host: host, port: port, shutdownLimit: shutdownLimit)
    }

    /// The `Content-Type` the server sends for a file at `path` (a URL path or a file name), or
    /// `nil` for an extension it does not know (the response then has no `Content-Type`).
    ///
    /// The extension-less `apple-app-site-association` is JSON. Text types carry no `charset`
    /// parameter, so a page's own `<meta charset>` decides, as with a default nginx.
    public static func contentType(forPath path: some StringProtocol) -> String? {
        let name = String(path.lastIndex(of: "/").map { path[path.index(after: $0)...] } ?? path[...])
        if name == "apple-app-site-association" { return "application/json" }
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        return mediaTypes[name[name.index(after: dot)...].lowercased()]
    }

    static let mediaTypes: [String: String] = [
        "html": "text/html", "htm": "text/html", "xhtml": "application/xhtml+xml",
        "xml": "application/xml", "txt": "text/plain", "md": "text/markdown", "csv": "text/csv",
        "json": "application/json", "jsonld": "application/ld+json", "webmanifest": "application/manifest+json",
        "css": "text/css", "js": "text/javascript", "mjs": "text/javascript",
        "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif",
        "webp": "image/webp", "svg": "image/svg+xml", "ico": "image/vnd.microsoft.icon", "avif": "image/avif",
        "gz": "application/gzip", "pdf": "application/pdf", "woff": "font/woff", "woff2": "font/woff2",
    ]
}

/// Serves files from a folder for every GET or HEAD request that no route answered (the router
/// threw 404): Hummingbird's `FileMiddleware` with index.html search, wrapped with path checks,
/// this package's `Content-Type` table, an HTML 404 page and a redirect `Location` that keeps the
/// request's own encoding and query.
package struct FolderFilesMiddleware<Context: RequestContext>: RouterMiddleware {
    let files: FileMiddleware<Context, FolderFileProvider>

    /// Serves `root`, reading files of up to `wholeFileLimit` bytes whole.
    package init(root: String, wholeFileLimit: Int = FolderServer.defaultWholeFileLimit) {
        self.files = FileMiddleware(
            fileProvider: FolderFileProvider(root: root, wholeFileLimit: wholeFileLimit), searchForIndexHtml: true)
    }

    /// Lets the routes answer first; serves a file when they answer 404.
    package func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as any HTTPResponseError where error.status == .notFound {
            return try await serveFile(request, context: context)
        }
    }

    private func serveFile(_ request: Request, context: Context) async throws -> Response {
        guard request.method == .get || request.method == .head,
            let path = Self.confinedPath(request.uri.path)
        else {
            return Self.notFound(request)
        }
        var response: Response
        do {
            response = try await files.handle(request, context: context) { _, _ in throw HTTPError(.notFound) }
        } catch let error as any HTTPResponseError where error.status == .notFound {
            return Self.notFound(request)
        }
        switch response.status {
        case .movedPermanently:
            // FileMiddleware writes the decoded path; send the request's own path and query back.
            let query = request.uri.query.map { "?\($0)" } ?? ""
            response.headers[.location] = "\(request.uri.path)/\(query)"
        case .ok, .partialContent, .notModified:
            let file = path.hasSuffix("/") ? path + "index.html" : path
            if let type = FolderServer.contentType(forPath: file) {
                response.headers[.contentType] = type
            }
        default:
            break
        }
        return response
    }

    /// The percent-decoded request path, or `nil` when it could leave the root or is malformed:
    /// a `..` segment (literal or encoded), an encoded `/` or `\`, a backslash, a NUL byte,
    /// invalid percent-encoding or UTF-8.
    package static func confinedPath(_ rawPath: String) -> String? {
        guard rawPath.hasPrefix("/") else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(rawPath.utf8.count)
        var iterator = rawPath.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                return nil
            }
            let decoded = high << 4 | low
            // An encoded separator would let one segment name a file in another folder.
            if decoded == UInt8(ascii: "/") { return nil }
            bytes.append(decoded)
        }
        guard !bytes.contains(0), !bytes.contains(UInt8(ascii: "\\")),
            let path = String(validating: bytes, as: UTF8.self)
        else { return nil }
        if path.split(separator: "/").contains("..") { return nil }
        return path
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// 404 with a small HTML page (headers only for HEAD).
    package static func notFound(_ request: Request) -> Response {
        let page = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>404 Not Found</title></head>
            <body><h1>Not Found</h1><p>No file at this path.</p></body></html>

            """
        let response = Response(
            status: .notFound,
            headers: [.contentType: "text/html; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: page))
        )
        return request.method == .head ? response.createHeadResponse() : response
    }
}
