import Foundation
import HTTPTypes
import Hummingbird
public import LoopbackServer
import Synchronization

/// A hostile HTTP server for crawler tests: a folder of fixture files (served as
/// ``LoopbackServer/FolderServer`` serves it) plus routes that misbehave on purpose under
/// `/torture/`, an optional failing `/robots.txt`, and generated slow pages under `/slow/`.
///
/// `/torture/` is an HTML index with a plain `<a href>` to each path in ``routes``:
///
/// | Path | Answer |
/// |---|---|
/// | `/torture/redirect-loop/a`, `…/b` | 302 to each other, for ever |
/// | `/torture/chain/{n}` | 301 to `/torture/chain/{n-1}`; `/torture/chain/0` is a 200 page (the index links 15) |
/// | `/torture/offsite` | 302 to `http://other-host.invalid/page` |
/// | `/torture/too-many-requests` | 429 with `Retry-After: 1` the first time (per server), 200 afterwards |
/// | `/torture/drip` | 200 `text/html`, a few bytes every 200 ms for 60 s (chunked; ends early when the client leaves) |
/// | `/torture/gzip-bomb` | 200 `text/html`, `Content-Encoding: gzip`: about 200 KiB that inflate to 200 MiB of `a` |
/// | `/torture/huge-headers` | 200 with 300 extra headers of 1,000 bytes each |
/// | `/torture/wrong-type` | an HTML page sent as `image/png` |
/// | `/torture/json-as-html` | a JSON document sent as `text/html` |
/// | `/torture/charset` | `charset=iso-8859-1` in the header, UTF-8 bytes and `<meta charset="utf-8">` in the page ("Café Crème") |
/// | `/torture/soft-404` | 200 with a "Page not found" page |
/// | `/torture/drop` | `Content-Length: 100000`, 1,000 bytes, then the connection closes |
///
/// `/consumers/` and `/consumers/cloaked` answer by User-Agent (``addConsumerRoutes(to:)``).
///
/// Not linked from the index (tests name them):
///
/// | Path | Answer |
/// |---|---|
/// | `/torture/large/{n}` | 200 `text/plain`, `n` bytes of `x` |
/// | `/torture/zstd-bomb` | 200 `text/html`, `Content-Encoding: zstd`: 6 KiB that decode to 200 MiB of spaces |
/// | `/torture/brotli-bomb` | 200 `text/html`, `Content-Encoding: br`: a few hundred bytes that decode to 200 MiB of spaces |
/// | `/torture/drip/{name}` | the drip, at a path of the test's own (to wait for its request with ``requestArrived(path:count:)``) |
/// | `/torture/retry-after/{status}/{seconds}` | `status` (429 or 503) with `Retry-After: seconds`, every time |
///
/// A staging site behind basic auth (``stagingUser``:``stagingPassword``), for `--header` and
/// `--basic-auth`: every `/staging/` path answers 401 without that `Authorization` header.
/// `/staging/home` links `/staging/page2`, `/staging/away` (302 to `/staging/landing` on
/// `localhost`, another origin of this server) and `/staging/elsewhere` on `localhost`, and its
/// `og:image` is `/images/logo.png` on `localhost`. ``seenRequests(pathPrefix:)`` tells which
/// credential headers (`Authorization`, `Cookie`, `X-Staging-Key`) each request carried, and to
/// which host.
///
/// `/slow/{n}.html` (n in `0..<slowPageCount`) answers after `slowDelay` with a page that has a
/// title, a meta description and links to `/slow/{(7n+k) % slowPageCount}.html` for k = 1…5; the
/// torture index does not link them (start a crawl at `/slow/0.html`). With `robotsStatus`,
/// `/robots.txt` answers that status instead of the folder's file (only to its first
/// `robotsFailures` requests when that is set, then the file). With `largeRobotsBytes`,
/// `/robots.txt` is that many bytes: `User-agent: *`, `Disallow: /private/`, comment lines, and
/// past 600 KiB a `Disallow: /movies/` a parser keeping to RFC 9309's 500 KiB never sees. With
/// `bombs`, `/robots.txt` (`User-agent: *`, `Disallow: /movies/`, then `#` to 1 GiB) and
/// `/sitemap.xml` (an `<urlset>` opened, then spaces to 1 GiB) are decompression bombs in that
/// encoding: zstd frames of 32 KiB, or brotli streams of a few hundred bytes.
public struct TortureServer: Sendable {
    /// The fixture folder served for every path no torture route answers.
    public let root: String
    /// The address to listen on.
    public let host: String
    /// The port to listen on; 0 lets the kernel pick one.
    public let port: Int
    /// When set, `/robots.txt` answers this status (503, say) with a short text body.
    public let robotsStatus: Int?
    /// With `robotsStatus`: how many requests get that status before the folder's file is served.
    public let robotsFailures: Int?
    /// When set, `/robots.txt` is a generated file of this many bytes (at least 700 KiB is useful).
    public let largeRobotsBytes: Int?
    /// When set, `/robots.txt` and `/sitemap.xml` are decompression bombs (1 GiB each) in this
    /// content encoding.
    public let bombs: BombEncoding?
    /// How many `/slow/{n}.html` pages exist.
    public let slowPageCount: Int
    /// How long each `/slow/` page waits before it answers.
    public let slowDelay: Duration
    /// When set, counts the `/slow/` requests being answered at once (and the most at any time).
    public let slowGauge: ConcurrencyGauge?
    /// Where the slow pages live: `/slow` unless a test needs its own paths (the request counts
    /// by path are process-wide, and other tests count `/slow/`).
    public let slowPath: String

    /// The torture routes, as the `/torture/` index links them.
    public static let routes: [String] = [
        "/torture/redirect-loop/a", "/torture/chain/15", "/torture/offsite", "/torture/too-many-requests",
        "/torture/drip", "/torture/gzip-bomb", "/torture/huge-headers", "/torture/wrong-type",
        "/torture/json-as-html", "/torture/charset", "/torture/soft-404", "/torture/drop",
    ]

    /// How many bytes `/torture/gzip-bomb` inflates to (200 MiB).
    public static let gzipBombInflatedSize = GzipBomb.uncompressedSize

    /// The number of extra headers `/torture/huge-headers` sends, and the length of each value.
    public static let hugeHeaderCount = 300
    /// The length of each `/torture/huge-headers` header value.
    public static let hugeHeaderValueLength = 1_000

    /// How many bytes of its announced `Content-Length` `/torture/drop` sends before closing.
    public static let dropSentBytes = 1_000
    /// The `Content-Length` `/torture/drop` announces.
    public static let dropAnnouncedBytes = 100_000

    /// Describes a server for the fixture folder `root`; nothing is bound before ``start()``.
    public init(
        root: String,
        host: String = "127.0.0.1",
        port: Int = 0,
        robotsStatus: Int? = nil,
        robotsFailures: Int? = nil,
        largeRobotsBytes: Int? = nil,
        bombs: BombEncoding? = nil,
        slowPageCount: Int = 400,
        slowDelay: Duration = .milliseconds(20),
        slowGauge: ConcurrencyGauge? = nil,
        slowPath: String = "/slow"
    ) {
        self.root = root
        self.host = host
        self.port = port
        self.robotsStatus = robotsStatus
        self.robotsFailures = robotsFailures
        self.largeRobotsBytes = largeRobotsBytes
        self.bombs = bombs
        self.slowPageCount = slowPageCount
        self.slowDelay = slowDelay
        self.slowGauge = slowGauge
        self.slowPath = slowPath
    }

    /// Starts serving in the background and returns once the socket is bound. The gzip bomb is
    /// compressed on the first start in the process (well under a second).
    public func start() async throws -> RunningServer {
        let bomb = await GzipBomb.bufferOffThePool()
        let router = Router(context: BasicRequestContext.self, options: .autoGenerateHeadEndpoints)
        router.add(middleware: RequestLog())
        router.add(middleware: FolderFilesMiddleware(root: root))
        addTortureRoutes(to: router, gzipBomb: bomb)
        addStagingRoutes(to: router)
        addSlowPages(to: router)
        if let robotsStatus {
            let failures = robotsFailures
            let requests = Counter()
            router.get("/robots.txt") { _, _ in
                // Past the failures, a 404 from the route lets the folder's file answer.
                if let failures, requests.increment() > failures { throw HTTPError(.notFound) }
                return Response(
                    status: HTTPResponse.Status(code: robotsStatus),
                    headers: [.contentType: "text/plain; charset=utf-8"],
                    body: ResponseBody(byteBuffer: ByteBuffer(string: "robots.txt is unavailable (\(robotsStatus))\n"))
                )
            }
        }
        if let largeRobotsBytes {
            let body = ByteBuffer(bytes: Self.largeRobots(bytes: largeRobotsBytes))
            router.get("/robots.txt") { _, _ in
                Response(status: .ok, headers: [.contentType: "text/plain"], body: ResponseBody(byteBuffer: body))
            }
        }
        if let bombs {
            let robots = ByteBuffer(bytes: bombs.robots)
            let sitemap = ByteBuffer(bytes: bombs.sitemap)
            for (path, body, type) in [
                ("/robots.txt", robots, "text/plain"), ("/sitemap.xml", sitemap, "application/xml"),
            ] {
                router.get(RouterPath(path)) { _, _ in
                    Response(
                        status: .ok, headers: [.contentType: type, .contentEncoding: bombs.rawValue],
                        body: ResponseBody(byteBuffer: body))
                }
            }
        }
        return try await RunningServer.start(router: router, host: host, port: port)
    }

    /// `/torture/zstd-bomb`'s body: 200 MiB of spaces after an HTML start, as a zstd frame.
    static let zstdPageBomb = ByteBuffer(
        bytes: ZstdBomb.frame(
            prefix: Array("<!doctype html><html><head><title>zstd</title></head><body>".utf8),
            filler: UInt8(ascii: " "), total: 200 << 20))

    /// `/torture/brotli-bomb`'s body: 200 MiB of spaces after an HTML start, as a brotli stream.
    static let brotliPageBomb = ByteBuffer(bytes: BrotliBomb.page)

    /// The staging site's basic-auth user and password.
    public static let stagingUser = "staging"
    public static let stagingPassword = "s3cret-pass"

    /// The `largeRobotsBytes` robots.txt: rules, comment padding, a late rule past 600 KiB, padding.
    static func largeRobots(bytes: Int) -> [UInt8] {
        var text = Array("User-agent: *\nDisallow: /private/\n".utf8)
        let comment = Array(("# " + String(repeating: "padding ", count: 12) + "\n").utf8)
        while text.count < 600 << 10 { text += comment }
        text += Array("Disallow: /movies/\n".utf8)
        while text.count + comment.count <= bytes { text += comment }
        return text
    }

    // MARK: - Routes

    /// `/consumers/` (the same page to everyone; it links `/consumers/cloaked` and the fixture home)
    /// and `/consumers/cloaked`, which answers 403 to any User-Agent containing
    /// `facebookexternalhit` (as a WAF rule does, which also catches Messages' previews) and other
    /// metadata to one containing `Applebot` (issue 14 §4).
    private func addConsumerRoutes(to router: Router<BasicRequestContext>) {
        let image = #"<meta property="og:image" content="/images/logo.png">"#
        router.get("/consumers/") { _, _ in
            Self.html(
                title: "Every consumer gets this page", description: "The same page for every user agent.",
                head: #"<meta property="og:title" content="Same for all">"# + image,
                body: #"<a href="/consumers/cloaked">cloaked</a> <a href="/">home</a>"#)
        }
        router.get("/consumers/cloaked") { request, _ in
            let agent = request.headers[.userAgent] ?? ""
            if agent.contains("facebookexternalhit") {
                var response = Self.html(title: "Forbidden", body: "<p>Bots are not welcome.</p>")
                response.status = .forbidden
                return response
            }
            if agent.contains("Applebot") {
                return Self.html(
                    title: "Special offer for search engines", description: "Keywords for crawlers only.",
                    head: #"<meta property="og:title" content="For Applebot only">"# + image, body: "<p>Cloaked.</p>")
            }
            return Self.html(
                title: "A cloaked page", description: "What people see.",
                head: #"<meta property="og:title" content="A cloaked page">"# + image, body: "<p>Cloaked.</p>")
        }
    }

    private func addTortureRoutes(to router: Router<BasicRequestContext>, gzipBomb: ByteBuffer) {
        router.get("/torture") { _, _ in
            let items = Self.routes.map { "<li><a href=\"\($0)\">\($0)</a></li>" }.joined(separator: "\n")
            return Self.html(title: "Torture routes", body: "<h1>Torture routes</h1>\n<ul>\n\(items)\n</ul>")
        }
        router.get("/torture/redirect-loop/a") { _, _ in Self.redirect(.found, to: "/torture/redirect-loop/b") }
        router.get("/torture/redirect-loop/b") { _, _ in Self.redirect(.found, to: "/torture/redirect-loop/a") }
        router.get("/torture/chain/:n") { _, context in
            guard let step = context.parameters.get("n", as: Int.self), step >= 0 else {
                throw HTTPError(.notFound)
            }
            if step == 0 {
                return Self.html(title: "End of the redirect chain", body: "<p>The chain ends here.</p>")
            }
            return Self.redirect(.movedPermanently, to: "/torture/chain/\(step - 1)")
        }
        router.get("/torture/offsite") { _, _ in Self.redirect(.found, to: "http://other-host.invalid/page") }

        let throttled = Counter()
        router.get("/torture/too-many-requests") { _, _ in
            if throttled.increment() == 1 {
                var response = Self.html(title: "Too many requests", body: "<p>Slow down.</p>")
                response.status = .tooManyRequests
                response.headers[.retryAfter] = "1"
                return response
            }
            return Self.html(title: "Patience rewarded", body: "<p>Served after a 429.</p>")
        }

        addConsumerRoutes(to: router)

        router.get("/torture/drip") { _, _ in Self.drip() }
        router.get("/torture/drip/:name") { _, _ in Self.drip() }

        router.get("/torture/gzip-bomb") { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "text/html", .contentEncoding: "gzip"],
                body: ResponseBody(byteBuffer: gzipBomb)
            )
        }

        router.get("/torture/zstd-bomb") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/html", .contentEncoding: "zstd"],
                body: ResponseBody(byteBuffer: Self.zstdPageBomb))
        }

        router.get("/torture/brotli-bomb") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/html", .contentEncoding: "br"],
                body: ResponseBody(byteBuffer: Self.brotliPageBomb))
        }

        router.get("/torture/huge-headers") { _, _ in
            var response = Self.html(title: "Huge headers", body: "<p>Look at the headers.</p>")
            let value = String(repeating: "h", count: Self.hugeHeaderValueLength)
            for index in 0..<Self.hugeHeaderCount {
                if let name = HTTPField.Name("X-Torture-\(index)") {
                    response.headers.append(HTTPField(name: name, value: value))
                }
            }
            return response
        }

        router.get("/torture/wrong-type") { _, _ in
            var response = Self.html(title: "An HTML page sent as PNG", body: "<p>Not an image.</p>")
            response.headers[.contentType] = "image/png"
            return response
        }

        router.get("/torture/large/:bytes") { _, context in
            guard let bytes = context.parameters.get("bytes", as: Int.self), (0...(64 << 20)).contains(bytes) else {
                throw HTTPError(.notFound)
            }
            return Response(
                status: .ok, headers: [.contentType: "text/plain"],
                body: ResponseBody(byteBuffer: ByteBuffer(repeating: UInt8(ascii: "x"), count: bytes)))
        }

        router.get("/torture/retry-after/:status/:seconds") { _, context in
            guard let status = context.parameters.get("status", as: Int.self), status == 429 || status == 503,
                let seconds = context.parameters.get("seconds")
            else { throw HTTPError(.notFound) }
            var response = Self.html(title: "Come back later", body: "<p>Retry after \(seconds) s.</p>")
            response.status = HTTPResponse.Status(code: status)
            response.headers[.retryAfter] = seconds
            return response
        }

        router.get("/torture/json-as-html") { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "text/html; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: #"{"title": "Not HTML", "items": [1, 2, 3]}"# + "\n"))
            )
        }

        router.get("/torture/charset") { _, _ in
            var response = Self.html(title: "Café Crème", body: "<p>Crème brûlée, naïve façade.</p>")
            response.headers[.contentType] = "text/html; charset=iso-8859-1"
            return response
        }

        router.get("/torture/soft-404") { _, _ in
            Self.html(title: "Page not found", body: "<h1>Page not found</h1><p>Sorry, this page does not exist.</p>")
        }

        router.get("/torture/drop") { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "text/html", .contentLength: String(Self.dropAnnouncedBytes)],
                body: ResponseBody(contentLength: Self.dropAnnouncedBytes) { writer in
                    try await writer.write(ByteBuffer(repeating: UInt8(ascii: "x"), count: Self.dropSentBytes))
                    // Throwing from the body writer makes Hummingbird close the connection.
                    throw DroppedConnection()
                }
            )
        }
    }

    private func addStagingRoutes(to router: Router<BasicRequestContext>) {
        let expected = "Basic " + Data("\(Self.stagingUser):\(Self.stagingPassword)".utf8).base64EncodedString()
        router.get("/staging/:page") { request, context in
            guard request.headers[.authorization] == expected else {
                var response = Self.html(title: "Sign in", body: "<p>This staging site needs a password.</p>")
                response.status = .unauthorized
                response.headers[.wwwAuthenticate] = "Basic realm=\"staging\""
                return response
            }
            let port = request.head.authority?.split(separator: ":").last.map(String.init) ?? ""
            let elsewhere = "http://localhost:\(port)"
            switch context.parameters.get("page") ?? "" {
            case "home":
                return Self.html(
                    title: "Staging home", description: "The staging site's home page, behind a password.",
                    head: "<meta property=\"og:image\" content=\"\(elsewhere)/images/logo.png\">\n",
                    body: """
                        <a href="/staging/page2">Page 2</a>
                        <a href="/staging/away">Away</a>
                        <a href="\(elsewhere)/staging/elsewhere">Elsewhere</a>
                        """)
            case "away":
                return Self.redirect(.found, to: "\(elsewhere)/staging/landing")
            case let page:
                return Self.html(title: "Staging \(page)", description: "A staging page.", body: "<p>\(page)</p>")
            }
        }
    }

    private func addSlowPages(to router: Router<BasicRequestContext>) {
        let count = slowPageCount
        let delay = slowDelay
        let gauge = slowGauge
        let path = slowPath
        router.get(RouterPath(slowPath + "/:page")) { _, context in
            guard let name = context.parameters.get("page"), name.hasSuffix(".html"),
                let page = Int(name.dropLast(5)), (0..<count).contains(page)
            else {
                throw HTTPError(.notFound)
            }
            gauge?.enter()
            defer { gauge?.leave() }
            try await Task.sleep(for: delay)
            return Self.html(
                title: "Slow page \(page)",
                description: "Slow page \(page) of \(count), served after a delay for crawls that must last a while.",
                body: Self.slowLinks(from: page, count: count, path: path)
            )
        }
    }

    /// The five links of `/slow/{page}.html`.
    static func slowLinks(from page: Int, count: Int, path: String = "/slow") -> String {
        (1...5).map { step in
            let target = (page * 7 + step) % count
            return "<a href=\"\(path)/\(target).html\">Slow page \(target)</a>"
        }.joined(separator: "\n")
    }

    // MARK: - Helpers

    static func html(title: String, description: String? = nil, head: String = "", body: String) -> Response {
        let meta = (description.map { "<meta name=\"description\" content=\"\($0)\">\n" } ?? "") + head
        let page = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <title>\(title)</title>
            \(meta)</head>
            <body>
            \(body)
            </body></html>

            """
        return Response(
            status: .ok,
            headers: [.contentType: "text/html; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: page))
        )
    }

    static func redirect(_ status: HTTPResponse.Status, to location: String) -> Response {
        Response(status: status, headers: [.location: location])
    }

    /// The drip: a page head, then a few bytes every 200 ms for 60 s, then the page's end.
    static func drip() -> Response {
        Response(
            status: .ok,
            headers: [.contentType: "text/html; charset=utf-8"],
            body: ResponseBody { writer in
                try await writer.write(
                    ByteBuffer(string: "<!DOCTYPE html><html><head><title>Drip</title></head><body>\n"))
                // 300 drops, 200 ms apart: 60 s. A closed connection or a stopping server
                // makes `write` or `sleep` throw, which ends the stream.
                for drop in 0..<300 {
                    try await Task.sleep(for: .milliseconds(200))
                    try await writer.write(ByteBuffer(string: "<p>\(drop)</p>\n"))
                }
                try await writer.write(ByteBuffer(string: Self.dripEnd))
                try await writer.finish(nil)
            }
        )
    }

    /// The last bytes of a drip that ran its 60 s (absent from one that was cut short).
    public static let dripEnd = "</body></html>\n"
}

/// Thrown by `/torture/drop`'s body writer to cut the response short.
struct DroppedConnection: Error {}

/// How many requests a route is answering at once, and the most it ever answered at once (for
/// politeness tests: the crawler's per-host limit seen from the server).
public final class ConcurrencyGauge: Sendable {
    private let state = Mutex((current: 0, peak: 0))

    public init() {}

    func enter() {
        state.withLock { state in
            state.current += 1
            state.peak = max(state.peak, state.current)
        }
    }

    func leave() {
        state.withLock { $0.current -= 1 }
    }

    /// The most requests answered at once so far.
    public var peak: Int { state.withLock { $0.peak } }
}

/// A request counter shared by the route handlers of one server.
final class Counter: Sendable {
    private let value = Mutex(0)

    /// Adds one and returns the new count.
    func increment() -> Int {
        value.withLock { count in
            count += 1
            return count
        }
    }
}

extension GzipBomb {
    /// ``compressed`` as the buffer every `/torture/gzip-bomb` response shares.
    static let buffer = ByteBuffer(bytes: compressed)

    /// ``buffer``, built (the first time, about half a second of zlib) on a thread of its own, so
    /// neither the compression nor other starters waiting for it hold Swift concurrency's threads.
    static func bufferOffThePool() async -> ByteBuffer {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: buffer) }.start()
        }
    }
}

extension TortureServer {
    /// Requests every torture server of this process has received whose path starts with
    /// `pathPrefix` (for tests that check what a crawler fetched, and how often).
    public static func requestCount(pathPrefix: String) -> Int {
        requestLog.withLock { log in
            log.counts.reduce(0) { $0 + ($1.key.hasPrefix(pathPrefix) ? $1.value : 0) }
        }
    }

    /// The request headers ``seenRequests(pathPrefix:)`` records (lower-case names).
    public static let credentialHeaders = ["authorization", "cookie", "x-staging-key"]

    /// Every request the torture servers of this process received whose path starts with
    /// `pathPrefix`, in order: its host, path and which credential headers it carried.
    public static func seenRequests(pathPrefix: String) -> [SeenRequest] {
        requestLog.withLock { log in log.seen.filter { $0.path.hasPrefix(pathPrefix) } }
    }

    /// Returns once the torture servers of this process have received `count` requests for
    /// exactly `path` (at once if they already have): the event a test waits for before acting
    /// on a request in progress, instead of sleeping. The request has reached the route, which
    /// has not answered yet. Give the test a time limit in case the request never comes.
    public static func requestArrived(path: String, count: Int = 1) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let arrived = requestLog.withLock { log in
                guard log.counts[path, default: 0] < count else { return true }
                log.waiters.append(RequestWaiter(path: path, count: count, continuation: continuation))
                return false
            }
            if arrived { continuation.resume() }
        }
    }
}

/// Counts requests by path, process-wide, and wakes the tests waiting for them.
struct RequestLog<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let path = request.uri.path
        let credentials = TortureServer.credentialHeaders.filter { name in
            HTTPField.Name(name).map { request.headers[$0] != nil } ?? false
        }
        let seen = SeenRequest(host: request.head.authority ?? "", path: path, credentialHeaders: Set(credentials))
        let woken = requestLog.withLock { log in
            log.seen.append(seen)
            log.counts[path, default: 0] += 1
            let count = log.counts[path, default: 0]
            let isReady = { (waiter: RequestWaiter) in waiter.path == path && waiter.count <= count }
            let ready = log.waiters.filter(isReady)
            log.waiters.removeAll(where: isReady)
            return ready
        }
        for waiter in woken { waiter.continuation.resume() }
        return try await next(request, context)
    }
}

/// A test waiting for `count` requests for `path`.
struct RequestWaiter: Sendable {
    var path: String
    var count: Int
    var continuation: CheckedContinuation<Void, Never>
}

/// A request as the log keeps it: the `Host` it was sent to, its path, and which of
/// ``TortureServer/credentialHeaders`` it carried.
public struct SeenRequest: Sendable, Hashable {
    public var host: String
    public var path: String
    public var credentialHeaders: Set<String>
}

/// The request counts by path, every request seen, and the tests waiting for them.
struct RequestRecord: Sendable {
    var seen: [SeenRequest] = []
    var counts: [String: Int] = [:]
    var waiters: [RequestWaiter] = []
}

private let requestLog = Mutex(RequestRecord())

/// A content encoding the torture server's robots.txt and sitemap bombs are sent in.
public enum BombEncoding: String, Sendable, CaseIterable, CustomStringConvertible {
    case zstd
    case brotli = "br"

    public var description: String {
        switch self {
        case .zstd: "zstd"
        case .brotli: "brotli"
        }
    }

    /// `User-agent: *`, `Disallow: /movies/`, then `#` to 1 GiB.
    var robots: [UInt8] {
        switch self {
        case .zstd:
            ZstdBomb.frame(
                prefix: Array("User-agent: *\nDisallow: /movies/\n#".utf8), filler: UInt8(ascii: "#"),
                total: 1 << 30)
        case .brotli: BrotliBomb.robots
        }
    }

    /// An `<urlset>` opened, then spaces to 1 GiB.
    var sitemap: [UInt8] {
        switch self {
        case .zstd:
            ZstdBomb.frame(
                prefix: Array(
                    #"<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">"#.utf8),
                filler: UInt8(ascii: " "), total: 1 << 30)
        case .brotli: BrotliBomb.sitemap
        }
    }
}
