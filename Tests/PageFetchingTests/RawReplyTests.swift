import Foundation
import PageFetching
import SpotCheckTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A loopback socket that answers every connection with fixed bytes, whatever was asked: replies
/// an HTTP server library would never send (no status line, a status of -200, a bad chunk size).
/// The accept loop runs on its own thread (never the cooperative pool) until the process ends.
final class RawReplyServer: Sendable {
    let port: UInt16

    init(reply: [UInt8]) throws {
        let (listener, port) = try boundLoopbackSocket()
        guard listen(listener, 16) == 0 else { throw TestFailure("listen: \(errno)") }
        self.port = port
        Thread.detachNewThread {
            while true {
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else { continue }
                var request = [UInt8](repeating: 0, count: 65536)
                _ = read(connection, &request, request.count)
                _ = reply.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                close(connection)
            }
        }
    }

    var url: String { "http://127.0.0.1:\(port)/" }
}

/// Issue 17 §2.11: replies that are not HTTP were labelled `bad-url` (the URL was fine) or
/// `connection-dropped` (and retried three times), a 2 MB header line "other: Out of memory".
@Suite("Replies that are not HTTP get their own labels")
struct RawReplyTests {
    @Test(
        arguments: [
            ("no status line (HTTP/0.9)", "hello world\r\n", FetchError.Kind.protocolError),
            ("a garbled status line", "GARBAGE STATUS LINE\r\n\r\nhi", .protocolError),
            ("status -200", "HTTP/1.1 -200 OK\r\nContent-Length: 2\r\n\r\nhi", .protocolError),
            (
                "an invalid chunk size",
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nZZZ\r\nhello\r\n0\r\n\r\n",
                .protocolError
            ),
            // Issue 35 §8: 10,000 interim responses, then the server hangs up; was `connection-dropped`
            // (retried three times).
            ("a 1xx storm", String(repeating: "HTTP/1.1 100 Continue\r\n\r\n", count: 10_000), .headersTooLarge),
            // Issue 35 §8: the shorter of two lengths was used silently (RFC 9112 §6.3: unrecoverable).
            (
                "two different Content-Length headers",
                "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 5\r\n\r\nhello", .protocolError
            ),
            (
                "a Content-Length list of two values", "HTTP/1.1 200 OK\r\nContent-Length: 5, 2\r\n\r\nhello",
                .protocolError
            ),
            (
                "a 2 MB header line",
                "HTTP/1.1 200 OK\r\nX-Big: " + String(repeating: "a", count: 2 << 20)
                    + "\r\nContent-Length: 2\r\n\r\nhi",
                .headersTooLarge
            ),
        ])
    func label(name: String, reply: String, kind: FetchError.Kind) async throws {
        let server = try RawReplyServer(reply: Array(reply.utf8))
        let fetcher = try makeFetcher(timeout: 5)
        defer { fetcher.shutdown() }
        do {
            let response = try await fetcher.fetch(FetchRequest(url: server.url))
            Issue.record("\(name): answered \(response.status)")
        } catch {
            #expect(error.kind == kind, "\(name): \(error)")
            #expect(!error.isTransient, "\(name) is not retried")
        }
    }

    /// RFC 9112 §6.3 allows the same length repeated (as a list or as two fields).
    @Test(
        "a Content-Length given twice with the same value is read",
        arguments: [
            "Content-Length: 5\r\nContent-Length: 5", "Content-Length: 5, 5",
        ])
    func sameLengthTwice(headers: String) async throws {
        let server = try RawReplyServer(reply: Array("HTTP/1.1 200 OK\r\n\(headers)\r\n\r\nhello".utf8))
        let fetcher = try makeFetcher(timeout: 5)
        defer { fetcher.shutdown() }
        let response = try await fetcher.fetch(FetchRequest(url: server.url))
        #expect(response.status == 200)
        #expect(response.body == Array("hello".utf8))
    }

    @Test("a 1xx storm says how many informational responses came first")
    func stormMessage() async throws {
        let storm = String(repeating: "HTTP/1.1 103 Early Hints\r\n\r\n", count: 10_000)
        let server = try RawReplyServer(reply: Array(storm.utf8))
        let fetcher = try makeFetcher(timeout: 5)
        defer { fetcher.shutdown() }
        do {
            let response = try await fetcher.fetch(FetchRequest(url: server.url))
            Issue.record("answered \(response.status)")
        } catch {
            #expect(error.kind == .headersTooLarge)
            #expect(error.message.contains("informational (1xx) responses before the final one"), "\(error)")
        }
    }
}
