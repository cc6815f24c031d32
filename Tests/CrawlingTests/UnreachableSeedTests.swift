import Foundation
import LoopbackServer
import SpotCheckTestSupport
import Testing
import TortureServer

#if canImport(Glibc)
    import Glibc
#endif

/// A seed whose host cannot be reached fails at once, and an unreachable robots.txt is announced
/// while the crawl waits for it, through the `spotcheck` executable.
@Suite("unreachable seeds and robots.txt at the terminal", .serialized)
struct UnreachableSeedTests {
    /// A loopback port nothing listens on, held while the test runs: bound, never listening, so a
    /// connection to it is refused and no server of a test running beside this one can take it (a
    /// port a stopped server had could be taken, and the seed then answered: a crawl that waited
    /// 600 s for robots.txt).
    final class ClosedPort {
        let port: Int
        private let descriptor: Int32

        init() throws {
            let bound = try boundLoopbackSocket()
            descriptor = bound.descriptor
            port = Int(bound.port)
        }

        deinit { close(descriptor) }
    }

    @Test("a seed host that cannot be reached fails at once with the reason, exit 6, and no output folder")
    func unreachableSeedFailsFast() async throws {
        let executable = try spotcheckExecutable()
        let closed = try ClosedPort()
        let port = closed.port
        let cases = [
            ("http://127.0.0.1:\(port)/", "cannot reach 127.0.0.1:\(port): connection-refused"),
            ("https://nonexistent.invalid/", "cannot reach nonexistent.invalid: dns"),
        ]
        for (seed, reason) in cases {
            let folder = try temporaryFolder("unreachable-seed") + "/out"
            let result = try await runProcess(executable, ["crawl", seed, "--output", folder])
            #expect(result.status == 6, "\(seed): \(result.output)")
            #expect(result.output.contains(seed + ": " + reason), "\(result.output)")
            #expect(!result.output.contains("disallows"), "\(result.output)")
            #expect(!FileManager.default.fileExists(atPath: folder), "\(seed): a run that never started left \(folder)")
        }
        withExtendedLifetime(closed) {}
    }

    /// Issue 17 §2.9: the seed answers nothing in time: exit 6 with the reason, not 0.
    @Test("a seed that times out is 'not even the seed could be fetched': exit 6 with the reason")
    func seedThatTimesOutExits6() async throws {
        let server = try await TortureServer(root: TestSite.fixtureRoot).start()
        let folder = try temporaryFolder("seed-timeout")
        let seed = server.baseURL + "torture/drip"
        let result = try await runProcess(
            try spotcheckExecutable(),
            // On a loaded machine robots.txt may time out too: it is then asked again after 1 s.
            ["crawl", seed, "--output", folder, "--timeout", "2", "--robots-retry", "1", "--no-sitemaps", "--quiet"])
        await server.stop()
        #expect(result.status == 6, "\(result.output)")
        #expect(result.output.contains("\(seed): not crawled: "), "\(result.output)")
        #expect(result.output.contains("timeout"), "\(result.output)")
        #expect(FileManager.default.fileExists(atPath: folder + "/report.json"), "the report is still written")
    }

    @Test("an unreachable robots.txt is announced with the time it is asked again, then given up on")
    func unreachableRobotsTxtIsAnnounced() async throws {
        let executable = try spotcheckExecutable()
        let server = try await TortureServer(root: TestSite.fixtureRoot, robotsStatus: 503).start()
        let folder = try temporaryFolder("robots-announced")
        let result = try await runProcess(
            executable, ["crawl", server.baseURL, "--output", folder, "--robots-retry", "0.2"])
        await server.stop()
        let origin = String(server.baseURL.dropLast())
        #expect(result.status == 6, "nothing could be fetched: \(result.output)")
        let waits = result.output.components(
            separatedBy:
                "\(origin): robots.txt unreachable (HTTP 503); its pages wait and robots.txt is asked again at ")
        #expect(waits.count == 3, "two waits announced: \(result.output)")
        #expect(
            result.output.contains(
                "\(origin): robots.txt unreachable (HTTP 503) after 3 attempts: its pages are not fetched"),
            "\(result.output)")
        #expect(!result.output.contains("IX001"), "\(result.output)")
        let report = try String(contentsOfFile: folder + "/report.json", encoding: .utf8)
        #expect(report.contains("\"robots-unreachable\""))
        #expect(!report.contains("sitemap.xml"), "an unreachable robots.txt disallows /sitemap.xml too")
    }
}
