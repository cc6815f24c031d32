import Foundation
import LoopbackServer
import Synchronization
import Testing
import TortureServer

@discardableResult
func withTortureServer<T>(
    _ server: TortureServer = TortureServer(root: fixtureRoot),
    _ body: (RunningServer, RawHTTPClient) async throws -> T
) async throws -> T {
    try await withServer({ try await server.start() }) { running in
        try await body(running, RawHTTPClient(port: running.port))
    }
}

@Suite("Torture server (hostile routes for crawler tests)")
struct TortureServerTests {
    @Test("/torture/ links every route; the fixture files are served as well")
    func indexAndFixtures() async throws {
        try await withTortureServer { _, client in
            for target in ["/torture/", "/torture"] {
                let index = await client.fetch(target)
                #expect(index.status == 200, "\(target)")
                #expect(index.header("Content-Type") == "text/html; charset=utf-8")
                for route in TortureServer.routes {
                    #expect(index.text.contains("<a href=\"\(route)\">"), "\(route)")
                }
            }
            let root = await client.fetch("/")
            #expect(root.status == 200)
            #expect(root.body == fixtureBytes("/index.html"))
            #expect(await client.fetch("/movies").header("Location") == "/movies/")
            #expect(await client.fetch("/robots.txt").body == fixtureBytes("/robots.txt"))
            #expect(await client.fetch("/torture/no-such-route").status == 404)
        }
    }

    @Test("redirects: a 302 loop, a 301 chain of 15 hops to a 200 page, a 302 to another host")
    func redirects() async throws {
        try await withTortureServer { _, client in
            let a = await client.fetch("/torture/redirect-loop/a")
            #expect(a.status == 302)
            #expect(a.header("Location") == "/torture/redirect-loop/b")
            let b = await client.fetch("/torture/redirect-loop/b")
            #expect(b.status == 302)
            #expect(b.header("Location") == "/torture/redirect-loop/a")

            var target = "/torture/chain/15"
            var hops = 0
            while hops < 20 {
                let answer = await client.fetch(target)
                guard answer.status == 301, let location = answer.header("Location") else {
                    #expect(answer.status == 200)
                    #expect(answer.text.contains("<title>End of the redirect chain</title>"))
                    break
                }
                hops += 1
                target = location
            }
            #expect(hops == 15)
            #expect(target == "/torture/chain/0")
            #expect(await client.fetch("/torture/chain/x").status == 404)

            let offsite = await client.fetch("/torture/offsite")
            #expect(offsite.status == 302)
            #expect(offsite.header("Location") == "http://other-host.invalid/page")
        }
    }

    @Test("429 with Retry-After: 1 on the first request of each server, 200 afterwards")
    func tooManyRequests() async throws {
        for _ in 0..<2 {
            try await withTortureServer { _, client in
                let first = await client.fetch("/torture/too-many-requests")
                #expect(first.status == 429)
                #expect(first.header("Retry-After") == "1")
                #expect(await client.fetch("/torture/too-many-requests").status == 200)
                #expect(await client.fetch("/torture/too-many-requests").status == 200)
            }
        }
    }

    @Test("huge headers: 300 extra fields of 1,000 bytes each")
    func hugeHeaders() async throws {
        try await withTortureServer { _, client in
            let answer = await client.fetch("/torture/huge-headers")
            #expect(answer.status == 200)
            let extra = answer.headers.filter { $0.name.hasPrefix("X-Torture-") || $0.name.hasPrefix("x-torture-") }
            #expect(extra.count == TortureServer.hugeHeaderCount)
            #expect(extra.allSatisfy { $0.value.utf8.count == TortureServer.hugeHeaderValueLength })
            #expect(answer.text.contains("<title>Huge headers</title>"))
        }
    }

    @Test("drop: Content-Length 100000, then 1,000 bytes, then the connection closes")
    func drop() async throws {
        try await withTortureServer { _, client in
            let answer = await client.fetch("/torture/drop")
            #expect(answer.status == 200)
            #expect(answer.header("Content-Length") == String(TortureServer.dropAnnouncedBytes))
            #expect(answer.body.count == TortureServer.dropSentBytes)
            if case .failed = answer.ending {
                // A reset is a close as well.
            } else {
                #expect(answer.ending == .closed)
            }
        }
    }

    @Test("gzip bomb: a small gzip body (Content-Encoding: gzip) that inflates to 200 MiB")
    func gzipBomb() async throws {
        try await withTortureServer { _, client in
            let answer = await client.fetch("/torture/gzip-bomb")
            #expect(answer.status == 200)
            #expect(answer.header("Content-Type") == "text/html")
            #expect(answer.header("Content-Encoding") == "gzip")
            #expect(answer.header("Content-Length") == String(answer.body.count))
            #expect(answer.body.count > 1_000)
            #expect(answer.body.count < 512 * 1024)
            #expect(Array(answer.body.prefix(3)) == [0x1f, 0x8b, 8])  // gzip magic, deflate
            // The gzip trailer's ISIZE: the inflated length modulo 2^32.
            let trailer = answer.body.suffix(4).reversed().reduce(0) { $0 << 8 | Int($1) }
            #expect(trailer == TortureServer.gzipBombInflatedSize)
        }
    }

    @Test("wrong and conflicting types: HTML as PNG, JSON as HTML, header charset against meta charset, soft 404")
    func misleadingPages() async throws {
        try await withTortureServer { _, client in
            let wrong = await client.fetch("/torture/wrong-type")
            #expect(wrong.status == 200)
            #expect(wrong.header("Content-Type") == "image/png")
            #expect(wrong.text.hasPrefix("<!DOCTYPE html>"))

            let json = await client.fetch("/torture/json-as-html")
            #expect(json.header("Content-Type") == "text/html; charset=utf-8")
            #expect(json.text.hasPrefix("{"))

            let charset = await client.fetch("/torture/charset")
            #expect(charset.header("Content-Type") == "text/html; charset=iso-8859-1")
            #expect(charset.text.contains("<meta charset=\"utf-8\">"))
            #expect(charset.text.contains("<title>Café Crème</title>"))
            #expect(charset.body.contains(0xC3))  // UTF-8 bytes on the wire

            let soft = await client.fetch("/torture/soft-404")
            #expect(soft.status == 200)
            #expect(soft.text.contains("<title>Page not found</title>"))
        }
    }

    /// The limit only catches a hang: under AddressSanitizer on two cores, with every suite started
    /// at once, a minute was overrun in CI (the run of 753 tests took 234 s).
    @Test("drip streams in small chunks without blocking other requests; stop() ends it", .timeLimit(.minutes(3)))
    func drip() async throws {
        let server = try await TortureServer(root: fixtureRoot).start()
        let slowReader = RawHTTPClient(port: server.port, timeout: 10)
        let dripPath = "/torture/drip/slow-reader-\(UUID().uuidString)"
        let dripEnded = Tally()
        let dripping = Task {
            let answer = await slowReader.fetch(dripPath)
            dripEnded.add()
            return answer
        }
        await TortureServer.requestArrived(path: dripPath)

        // A client that reads a little and leaves.
        let sip = await RawHTTPClient(port: server.port, timeout: 3, maximumBytes: 300).fetch("/torture/drip")
        #expect(sip.status == 200)
        #expect(sip.header("Transfer-Encoding") == "chunked")
        #expect(sip.ending == .limitReached)

        // The server answers others while the drip (60 s) is being served.
        let other = await RawHTTPClient(port: server.port).fetch("/about.html")
        #expect(other.status == 200)
        #expect(other.ending == .closed)
        #expect(dripEnded.count == 0, "the other answer came only after the drip ended")

        // stop() cuts the drip short: the page's end never comes, and the connection closes.
        await server.stop()
        let answer = await dripping.value
        #expect(answer.status == 200)
        #expect(answer.text.contains("<title>Drip</title>"))
        #expect(!answer.text.contains(TortureServer.dripEnd))
        #expect(answer.ending != .timedOut)
    }

    @Test("robots.txt mode: a second server answers 503 for /robots.txt")
    func robotsUnavailable() async throws {
        try await withTortureServer(TortureServer(root: fixtureRoot, robotsStatus: 503)) { _, client in
            let answer = await client.fetch("/robots.txt")
            #expect(answer.status == 503)
            #expect(await client.fetch("/").status == 200)
        }
    }

    @Test("slow pages: generated, delayed, five links each; out of range is 404")
    func slowPages() async throws {
        let server = TortureServer(root: fixtureRoot, slowPageCount: 40, slowDelay: .milliseconds(300))
        try await withTortureServer(server) { _, client in
            let answer = await client.fetch("/slow/3.html")
            #expect(answer.status == 200)
            #expect(answer.seconds >= 0.3)
            #expect(answer.text.contains("<title>Slow page 3</title>"))
            #expect(answer.text.contains("<meta name=\"description\" content=\"Slow page 3 of 40"))
            for target in [22, 23, 24, 25, 26] {
                #expect(answer.text.contains("<a href=\"/slow/\(target).html\">"))
            }
            let wrapped = await client.fetch("/slow/39.html")
            for target in [34, 35, 36, 37, 38] {  // (39 * 7 + k) % 40
                #expect(wrapped.text.contains("<a href=\"/slow/\(target).html\">"))
            }
            #expect(await client.fetch("/slow/40.html").status == 404)
            #expect(await client.fetch("/slow/x.html").status == 404)
        }
    }
}

/// A count shared by tasks.
final class Tally: Sendable {
    private let value = Mutex(0)

    func add() {
        value.withLock { $0 += 1 }
    }

    var count: Int { value.withLock { $0 } }
}
