import Foundation
import HTTPTypes
import Hummingbird
public import LoopbackServer
import Synchronization

/// A site spread over several loopback hosts (127.0.0.2, 127.0.0.3 …, each a server of its own),
/// for the shared-crawl tests: each host has `pagesPerHost` pages `/p/{i}.html` that link to the
/// next `linksPerPage` (3) pages of their host and to the same page on the next host, and answers each page
/// after `answerDelay`. Every page request is logged with its host and when it started and ended,
/// so a test can show that no host ever had more requests in flight than the crawl's per-host
/// limit, and that the delay between two starts held, across every process of the crawl.
public final class ClusterSite: Sendable {
    /// One page request as the server saw it (seconds since 1970).
    public struct Request: Sendable, Hashable {
        public var host: String
        public var path: String
        public var started: Double
        public var ended: Double
    }

    /// The hosts' servers, in order; the seed is the first one's `/p/0.html`.
    public let servers: [RunningServer]
    public let pagesPerHost: Int
    private let log: LogBox

    private init(servers: [RunningServer], pagesPerHost: Int, log: LogBox) {
        self.servers = servers
        self.pagesPerHost = pagesPerHost
        self.log = log
    }

    /// Starts `hostCount` servers on 127.0.0.2 and up.
    public static func start(
        hostCount: Int, pagesPerHost: Int, linksPerPage: Int = 3, answerDelay: Duration
    ) async throws -> ClusterSite {
        let log = LogBox()
        var servers: [RunningServer] = []
        // The addresses are known before the servers start; their ports are not, so each page
        // links to the next host through a redirect-free path resolved at request time.
        let ports = PortBook(count: hostCount)
        for index in 0..<hostCount {
            let host = "127.0.0.\(index + 2)"
            let router = Router(context: BasicRequestContext.self)
            router.get("/robots.txt") { _, _ in
                Response(
                    status: .ok, headers: [.contentType: "text/plain"],
                    body: ResponseBody(byteBuffer: ByteBuffer(string: "User-agent: *\nAllow: /\n")))
            }
            router.get("/p/:page") { request, context in
                let started = Date().timeIntervalSince1970
                try await Task.sleep(for: answerDelay)
                let name = context.parameters.get("page") ?? "0.html"
                let number = Int(name.split(separator: ".").first ?? "0") ?? 0
                var links = (1...linksPerPage).map { "<a href=\"/p/\(($0 + number) % pagesPerHost).html\">next</a>" }
                let next = (index + 1) % hostCount
                if let port = ports.port(next) {
                    links.append("<a href=\"http://127.0.0.\(next + 2):\(port)/p/\(number).html\">elsewhere</a>")
                }
                let html = """
                    <!doctype html><html><head><title>Page \(number) on \(host)</title>
                    <meta name="description" content="Page \(number) of host \(host).">
                    </head><body>\(links.joined(separator: " "))</body></html>
                    """
                log.append(
                    Request(
                        host: host, path: request.uri.path, started: started, ended: Date().timeIntervalSince1970))
                return Response(
                    status: .ok, headers: [.contentType: "text/html; charset=utf-8"],
                    body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
            }
            let server = try await RunningServer.start(router: router, host: host, port: 0)
            ports.set(index, server.port)
            servers.append(server)
        }
        return ClusterSite(servers: servers, pagesPerHost: pagesPerHost, log: log)
    }

    /// The seed: the first host's `/p/0.html`.
    public var seed: String { servers[0].baseURL + "p/0.html" }

    /// The hosts' addresses (for `--allow-host`).
    public var hosts: [String] { servers.map(\.host) }

    /// Every page the site has.
    public var pageCount: Int { servers.count * pagesPerHost }

    /// The page requests so far, in the order they ended.
    public var requests: [Request] { log.requests.withLock { $0 } }

    /// The most requests any one host had in flight at once.
    public func largestInFlightPerHost() -> Int {
        var largest = 0
        for (_, requests) in Dictionary(grouping: requests, by: \.host) {
            var events = requests.flatMap { [($0.started, 1), ($0.ended, -1)] }
            // At equal times an end comes before a start.
            events.sort { ($0.0, $0.1) < ($1.0, $1.1) }
            var current = 0
            for (_, change) in events {
                current += change
                largest = max(largest, current)
            }
        }
        return largest
    }

    /// The shortest time between two starts on one host.
    public func shortestGapBetweenStarts() -> Double {
        var shortest = Double.infinity
        for (_, requests) in Dictionary(grouping: requests, by: \.host) {
            let starts = requests.map(\.started).sorted()
            for (earlier, later) in zip(starts, starts.dropFirst()) { shortest = min(shortest, later - earlier) }
        }
        return shortest
    }

    public func stop() async {
        for server in servers { await server.stop() }
    }
}

/// The request log the route handlers append to.
final class LogBox: Sendable {
    let requests = Mutex<[ClusterSite.Request]>([])

    func append(_ request: ClusterSite.Request) {
        requests.withLock { $0.append(request) }
    }
}

/// The hosts' ports, filled in as their servers start.
final class PortBook: Sendable {
    private let ports: Mutex<[Int?]>

    init(count: Int) {
        ports = Mutex(Array(repeating: nil, count: count))
    }

    func set(_ index: Int, _ port: Int) {
        ports.withLock { $0[index] = port }
    }

    func port(_ index: Int) -> Int? {
        ports.withLock { $0[index] }
    }
}
