import Foundation
import PageFetching
import SpotCheckTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A TLS server on 127.0.0.1: OpenSSL's `s_server` (Debian's `openssl`, which `make deps`
/// installs) serving one page with a certificate from `Tests/PageFetchingTests/TLS`
/// (`Scripts/generate-test-certificates.py`: a test CA and the certificates it signed). Killed
/// when the value goes.
final class OpenSSLServer: Sendable {
    static let certificates: String = {
        var url = URL(fileURLWithPath: #filePath)
        url.deleteLastPathComponent()
        return url.appendingPathComponent("TLS").path
    }()
    static let page = "<!doctype html><html><head><title>Over TLS</title></head><body>secure</body></html>"

    let port: UInt16
    private let process: Process

    /// Serves `page.html` with the certificate `name` (`server`, `expired`, `other-host`).
    init(certificate name: String) throws {
        let openssl = try #require(
            ["/usr/bin/openssl", "/bin/openssl"].first { FileManager.default.isExecutableFile(atPath: $0) },
            "openssl is not installed (make deps installs it)")
        let folder = Scratch.path("tls")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Self.page.write(toFile: folder + "/page.html", atomically: true, encoding: .utf8)
        port = try Self.freePort()
        process = Process()
        process.executableURL = URL(fileURLWithPath: openssl)
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        process.arguments = [
            "s_server", "-accept", "127.0.0.1:\(port)", "-cert", "\(Self.certificates)/\(name).pem",
            "-key", "\(Self.certificates)/\(name).key", "-WWW", "-quiet",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        try Self.waitUntilListening(port)
    }

    deinit {
        // SIGKILL, not Process.terminate() and waitUntilExit(): the latter waits on a run loop
        // that a test's thread does not run.
        kill(process.processIdentifier, SIGKILL)
    }

    var pageURL: String { "https://127.0.0.1:\(port)/page.html" }

    static func freePort() throws -> UInt16 {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else { throw TestFailure("bind: \(errno)") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        return UInt16(bigEndian: address.sin_port)
    }

    static func waitUntilListening(_ port: UInt16) throws {
        for _ in 0..<200 {
            let probe = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = port.bigEndian
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(probe, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            close(probe)
            if connected == 0 { return }
            usleep(25_000)
        }
        throw TestFailure("no server listened on 127.0.0.1:\(port)")
    }
}

/// TLS as a hostile or misconfigured server presents it (issue 17 §2): each failure is `tls`
/// (not retried, not a crash), with libcurl's reason; a site's own CA is trusted with `--ca-file`.
@Suite("TLS: certificates a crawl meets", .serialized)
struct TLSTests {
    func fetcher(trusting authorities: String?) throws -> Fetcher {
        var configuration = FetcherConfiguration(
            userAgent: "spotcheck-tests", limits: FetchLimits(connectTimeout: 5, timeout: 10))
        configuration.certificateAuthorities = authorities
        return try Fetcher(configuration: configuration)
    }

    var testCA: String { OpenSSLServer.certificates + "/ca.pem" }

    @Test func aCertificateFromTheTrustedCAIsAccepted() async throws {
        let server = try OpenSSLServer(certificate: "server")
        let fetcher = try fetcher(trusting: testCA)
        defer { fetcher.shutdown() }
        let response = try await fetcher.fetch(FetchRequest(url: server.pageURL))
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self).contains("<title>Over TLS</title>"))
    }

    struct Failure: Sendable, CustomTestStringConvertible {
        var certificate: String
        var trustsTestCA: Bool
        /// What libcurl's message says (lowercased).
        var says: String
        var testDescription: String { "\(certificate)\(trustsTestCA ? "" : " (the system's CAs)")" }
    }

    @Test(
        "a certificate the crawl cannot trust is a tls failure with the reason",
        arguments: [
            Failure(certificate: "server", trustsTestCA: false, says: "certificate"),
            Failure(certificate: "expired", trustsTestCA: true, says: "expired"),
            Failure(certificate: "other-host", trustsTestCA: true, says: "name"),
        ])
    func untrustedCertificates(_ failure: Failure) async throws {
        let server = try OpenSSLServer(certificate: failure.certificate)
        let fetcher = try fetcher(trusting: failure.trustsTestCA ? testCA : nil)
        defer { fetcher.shutdown() }
        do {
            let response = try await fetcher.fetch(FetchRequest(url: server.pageURL))
            Issue.record("expected a tls failure, got HTTP \(response.status)")
        } catch {
            #expect(error.kind == .tls, "\(error)")
            #expect(error.message.lowercased().contains(failure.says), "\(error)")
            #expect(!error.isTransient)
        }
    }

    @Test func aPlainHTTPServerAtAnHTTPSURLIsATLSFailure() async throws {
        let plain = try RawReplyServer(reply: Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi".utf8))
        let fetcher = try fetcher(trusting: testCA)
        defer { fetcher.shutdown() }
        do {
            let response = try await fetcher.fetch(FetchRequest(url: "https://127.0.0.1:\(plain.port)/"))
            Issue.record("expected a tls failure, got HTTP \(response.status)")
        } catch {
            #expect(error.kind == .tls, "\(error)")
        }
    }

    @Test func aMissingCAFileIsATLSFailureNamingIt() async throws {
        let server = try OpenSSLServer(certificate: "server")
        let fetcher = try fetcher(trusting: "/nonexistent/ca.pem")
        defer { fetcher.shutdown() }
        do {
            _ = try await fetcher.fetch(FetchRequest(url: server.pageURL))
            Issue.record("expected a tls failure")
        } catch {
            #expect(error.kind == .tls, "\(error)")
        }
    }
}
