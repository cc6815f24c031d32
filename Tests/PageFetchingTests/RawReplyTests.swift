import Foundation
import PageFetching
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
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw TestFailure("socket: \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(listener, 16) == 0 else { throw TestFailure("bind/listen: \(errno)") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
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

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
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
}
