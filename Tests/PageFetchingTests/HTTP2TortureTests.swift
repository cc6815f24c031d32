import Foundation
import PageFetching
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// An HTTP/2 server over TLS that misbehaves as `case` says: `HTTP2/h2_torture_server.py`, run
/// with the system's `python3` (HTTP/2 frames written by hand: no HTTP/2 library, and no
/// BoringSSL in the test build) and the test certificates of `TLS/`. Killed when the value goes.
final class HTTP2TortureServer: Sendable {
    static let script: String = {
        var url = URL(fileURLWithPath: #filePath)
        url.deleteLastPathComponent()
        return url.appendingPathComponent("HTTP2/h2_torture_server.py").path
    }()

    let port: UInt16
    private let process: Process

    init(case name: String) throws {
        let python = try #require(
            ["/usr/bin/python3", "/usr/local/bin/python3"].first { FileManager.default.isExecutableFile(atPath: $0) },
            "python3 is not installed")
        port = try OpenSSLServer.freePort()
        process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [
            Self.script, OpenSSLServer.certificates + "/server.pem", OpenSSLServer.certificates + "/server.key",
            String(port), name,
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        try OpenSSLServer.waitUntilListening(port)
    }

    deinit {
        kill(process.processIdentifier, SIGKILL)
    }

    var url: String { "https://127.0.0.1:\(port)/page.html" }
}

/// HTTP/2 as a hostile server speaks it (issue 17 §2): libcurl negotiates h2 through ALPN, and
/// every broken stream ends as a classified failure within the limits (the body cap, the
/// timeout), never a crash, a hang or unbounded memory.
@Suite("HTTP/2: what a hostile server sends")
struct HTTP2TortureTests {
    func fetcher(timeout: Double = 5, maximumBodyBytes: Int = 1 << 20) throws -> Fetcher {
        var configuration = FetcherConfiguration(
            userAgent: "spotcheck-tests",
            limits: FetchLimits(maximumBodyBytes: maximumBodyBytes, connectTimeout: 5, timeout: timeout))
        configuration.certificateAuthorities = OpenSSLServer.certificates + "/ca.pem"
        return try Fetcher(configuration: configuration)
    }

    @Test func aWellFormedAnswerIsReadOverHTTP2() async throws {
        let server = try HTTP2TortureServer(case: "ok")
        let fetcher = try fetcher()
        defer { fetcher.shutdown() }
        let response = try await fetcher.fetch(FetchRequest(url: server.url))
        #expect(response.status == 200)
        #expect(response.httpVersion == "2")
        #expect(String(decoding: response.body, as: UTF8.self).contains("<title>Over HTTP/2</title>"))
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var kind: FetchError.Kind
        var testDescription: String { "\(name) → \(kind.rawValue)" }
    }

    @Test(
        "a broken HTTP/2 answer is a classified failure",
        arguments: [
            // One header block continued forever: nghttp2 refuses the ninth CONTINUATION frame.
            Case(name: "continuation-flood", kind: .protocolError),
            // DATA frames forever: the body cap.
            Case(name: "endless-data", kind: .tooLarge),
            // The stream reset after 40 bytes of body.
            Case(name: "reset-mid-body", kind: .protocolError),
            // GOAWAY before any answer.
            Case(name: "goaway", kind: .protocolError),
            // An HPACK index past the end of the tables, and HTTP/1.1 text after ALPN agreed on h2:
            // libcurl 7.88 reports both as "Empty reply from server" (curl 52), as it does a server
            // that closed the connection, so they are retried within the attempts like one.
            Case(name: "bad-hpack", kind: .connectionDropped),
            Case(name: "garbage", kind: .connectionDropped),
            // A frame header announcing 16 MiB that never comes, and headers with no body: the timeout.
            Case(name: "oversized-frame", kind: .timeout),
            Case(name: "stalled-window", kind: .timeout),
            // Not even the server's SETTINGS.
            Case(name: "silent", kind: .timeout),
        ])
    func brokenAnswers(_ broken: Case) async throws {
        let server = try HTTP2TortureServer(case: broken.name)
        let fetcher = try fetcher(timeout: 3)
        defer { fetcher.shutdown() }
        do {
            let response = try await fetcher.fetch(FetchRequest(url: server.url))
            Issue.record("expected a failure, got HTTP \(response.status) with \(response.body.count) bytes")
        } catch {
            #expect(error.kind == broken.kind, "\(error)")
            #expect(error.isTransient == [.timeout, .connectionDropped].contains(broken.kind), "\(error)")
        }
    }
}
