import Foundation
import SpotCheckTestSupport
import Testing
import TortureServer

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 31: every command of the README's "Use" section runs as written, in order, against the
/// fixture site served on 127.0.0.1. The placeholders are what the README says they stand for:
/// the site's origin is the loopback server's, the files and folders are made here first, the
/// PostgreSQL URL is the test cluster's (`SPOTCHECK_TEST_POSTGRES`) and crawl ids are the crawls
/// that run made. It starts Chromium (`--render`), so it runs with the Chromium suites.
@Suite("the README's commands", .serialized)
struct ReadmeCommandTests {
    /// The lines of the README's first `sh` block after `## Use`, without their comments.
    static func commands() throws -> [String] {
        let readme = try String(
            contentsOfFile: TestSite.projectRoot.appendingPathComponent("README.md").path, encoding: .utf8)
        guard let use = readme.range(of: "\n## Use\n"),
            let open = readme.range(of: "```sh\n", range: use.upperBound..<readme.endIndex),
            let close = readme.range(of: "\n```", range: open.upperBound..<readme.endIndex)
        else { throw TestFailure("README.md has no sh block under ## Use") }
        return readme[open.upperBound..<close.lowerBound].split(separator: "\n").map { line in
            // A comment starts after two spaces and a #; no command here has "  #" in it.
            String(line.components(separatedBy: "  #")[0]).trimmingCharacters(in: .whitespaces)
        }.filter { !$0.isEmpty }
    }

    @Test(.timeLimit(.minutes(10)))
    func everyUseCommandRunsAsWritten() async throws {
        let commands = try Self.commands()
        #expect(commands.count > 25 && commands.allSatisfy { $0.hasPrefix("spotcheck ") })
        let server = try await TestSite.server.value
        let origin = String(server.baseURL.dropLast())  // http://127.0.0.1:PORT
        let work = try Self.workingFolder(origin: origin)
        let executable = try spotcheckExecutable()
        let postgres = ProcessInfo.processInfo.environment["SPOTCHECK_TEST_POSTGRES"]
        var crawlIDs: [String] = []
        for command in commands {
            var line = command.replacingOccurrences(of: "https://www.example.com", with: origin)
                .replacingOccurrences(of: "https://staging.example.com", with: origin)
            if line.contains("postgres://") {
                guard let postgres else {
                    // As the PostgreSQL suites do without a cluster: said, not failed (make test has one).
                    print("ReadmeCommandTests: SPOTCHECK_TEST_POSTGRES is not set, so `\(command)` was not run")
                    continue
                }
                line = line.replacingOccurrences(of: "postgres://crawler@db:5432/spotcheck", with: postgres)
                // The crawl ids the README's `7` and `9` stand for: the crawls this run made.
                if line.contains(" --crawl 7") {
                    line = line.replacingOccurrences(of: "--crawl 7", with: "--crawl \(crawlIDs.last ?? "0")")
                }
                if line.hasPrefix("spotcheck diff 7 9"), crawlIDs.count >= 1 {
                    line = line.replacingOccurrences(
                        of: "diff 7 9", with: "diff \(crawlIDs.first ?? "0") \(crawlIDs.last ?? "0")")
                }
            }
            if line.hasPrefix("spotcheck crawl --resume --output ") {
                try await Self.interruptedCrawl(
                    into: work + "/" + line.dropFirst("spotcheck crawl --resume --output ".count),
                    executable: executable)
            }
            let result = try await runProcess(
                "/bin/sh",
                [
                    "-c",
                    "exec " + line.replacingOccurrences(of: "spotcheck ", with: "'\(executable)' ", options: .anchored),
                ],
                in: work)
            // 0, or 1 where --fail-on finds what the fixture site breaks on purpose.
            #expect(
                result.status == 0 || result.status == 1,
                "\(command) → exit \(result.status): \(result.output.suffix(2000))")
            if let match = result.output.firstMatch(of: #/crawl (\d+) registered in/#) {
                crawlIDs.append(String(match.output.1))
            }
        }
    }

    /// The files and folders the README's placeholders stand for, in a working folder of the test's.
    static func workingFolder(origin: String) throws -> String {
        let work = try temporaryFolder("readme-commands")
        let files = FileManager.default
        try files.createSymbolicLink(
            atPath: work + "/Fixtures", withDestinationPath: TestSite.projectRoot.path + "/Fixtures")
        try files.copyItem(atPath: TestSite.fixtureRoot, toPath: work + "/site")
        for name in ["page.html", "a.html", "b.html", "c.html"] {
            try files.copyItem(atPath: TestSite.fixtureRoot + "/movies/up.html", toPath: work + "/" + name)
        }
        try Data("\(origin)/\n\(origin)/movies/up.html\n".utf8).write(
            to: URL(fileURLWithPath: work + "/changed-pages.txt"))
        try files.createDirectory(atPath: work + "/ci", withIntermediateDirectories: true)
        try Data("{}\n".utf8).write(to: URL(fileURLWithPath: work + "/ci/spotcheck.json"))
        try files.copyItem(atPath: TestSite.projectRoot.path + "/Fixtures/items.json", toPath: work + "/items.jsonl")
        let executable = try spotcheckExecutable()
        // The two report folders `diff` compares, and the one `report` writes again.
        for folder in ["reports/OLD", "reports/NEW", "reports/www.example.com-20261124T190000Z"] {
            let result = try runSync(executable, ["crawl", "Fixtures/html", "--output", folder, "--quiet"], in: work)
            guard result == 0 else { throw TestFailure("crawl into \(folder) exited \(result)") }
        }
        setenv("STAGING_USER", "preview", 1)
        setenv("STAGING_PASSWORD", "secret", 1)
        return work
    }

    /// A crawl stopped by Ctrl-C in `folder`, as `--resume` finds one: the slow pages of the test
    /// server, interrupted once a page only the seed links to is asked for.
    static func interruptedCrawl(into folder: String, executable: String) async throws {
        let server = try await TestSite.server.value
        let linkedPage = "/slow/5.html"
        let before = TortureServer.requestCount(pathPrefix: linkedPage)
        let child = try startProcess(
            executable, ["crawl", server.baseURL + "slow/0.html", "--output", folder, "--no-sitemaps", "--quiet"])
        await TortureServer.requestArrived(path: linkedPage, count: before + 1)
        kill(child.process.processIdentifier, SIGINT)
        let status = await waitForExit(child.process)
        guard status == 130 else { throw TestFailure("the crawl to resume ended with \(status), not 130") }
    }

    /// Runs a command to its end from `directory`; its exit status.
    static func runSync(_ executable: String, _ arguments: [String], in directory: String) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
