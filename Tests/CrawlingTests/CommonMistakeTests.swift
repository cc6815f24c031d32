import Foundation
import SpotCheckTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 31 §2–§4: a CI step that should fail fails, every error is said in the user's words,
/// and an interruption says what it stopped.
@Suite("common mistakes: exit codes and messages", .serialized)
struct CommonMistakeTests {
    @Test("crawl of a folder with no HTML exits 4 before any work, as validate does")
    func crawlOfAFolderWithoutPages() async throws {
        let tmp = try temporaryFolder("no-pages")
        try FileManager.default.createDirectory(atPath: tmp + "/empty/css", withIntermediateDirectories: true)
        try Data("body {}\n".utf8).write(to: URL(fileURLWithPath: tmp + "/empty/css/site.css"))
        let crawl = try await runProcess(
            try spotcheckExecutable(), ["crawl", tmp + "/empty", "--output", tmp + "/out", "--quiet"], in: tmp)
        #expect(crawl.status == 4, "\(crawl.output)")
        #expect(crawl.output.contains("\(tmp)/empty: no pages to crawl: the folder holds no HTML file"))
        #expect(!FileManager.default.fileExists(atPath: tmp + "/out"), "an output folder was made")
        let validate = try await runProcess(
            try spotcheckExecutable(), ["validate", tmp + "/empty", "--output", tmp + "/v"], in: tmp)
        #expect(validate.status == 4, "\(validate.output)")
    }

    @Test("spotcheck with no subcommand prints its help on stderr and exits 64")
    func noSubcommand() async throws {
        let result = try await runProcess(try spotcheckExecutable(), [])
        #expect(result.status == 64, "\(result.output)")
        #expect(result.output.contains("SUBCOMMANDS"), "\(result.output)")
    }

    @Test(
        "a misspelt subcommand suggests the closest one and exits 64",
        arguments: [("crawll", "crawl"), ("valdate", "validate"), ("indx", "index"), ("Report", "report")])
    func misspeltSubcommand(_ typed: String, _ meant: String) async throws {
        let result = try await runProcess(try spotcheckExecutable(), [typed, "public"])
        #expect(result.status == 64, "\(result.output)")
        #expect(result.output.contains("unknown command \"\(typed)\"; did you mean \"\(meant)\"?"), "\(result.output)")
        #expect(!result.output.contains("unexpected argument"), "\(result.output)")
    }

    @Test("a word far from every subcommand lists them")
    func unknownSubcommand() async throws {
        let result = try await runProcess(try spotcheckExecutable(), ["xyzzyplugh"])
        #expect(result.status == 64, "\(result.output)")
        #expect(result.output.contains("unknown command \"xyzzyplugh\"; the commands are crawl, "), "\(result.output)")
    }

    @Test(
        "crawl --help: the options first, in titled groups, the exit table last",
        arguments: [["crawl", "--help"], ["crawl", "-h"], ["help", "crawl"]])
    func crawlHelpLayout(_ arguments: [String]) async throws {
        let result = try await runProcess(try spotcheckExecutable(), arguments)
        #expect(result.status == 0, "\(result.output)")
        let headings = [
            "ARGUMENTS:", "WHAT TO CRAWL:", "LIMITS AND POLITENESS:", "APP IDENTITY AND RULES:", "OUTPUTS:", "CI:",
        ]
        let places = headings.map { result.output.range(of: "\n" + $0 + "\n")?.lowerBound }
        #expect(!places.contains(nil), "\(result.output)")
        #expect(places.compactMap { $0 } == places.compactMap { $0 }.sorted(), "\(result.output)")
        let table = try #require(result.output.range(of: "Exit codes (the shared table, docs/cli.md): "))
        #expect(places.compactMap { $0 }.allSatisfy { $0 < table.lowerBound }, "\(result.output)")
        #expect(!result.output[table.upperBound...].contains("\n  -"), "no option after the table")
    }

    @Test("--store in a folder that does not exist yet makes the folder, as --output does")
    func storeFolderIsMade() async throws {
        let tmp = try temporaryFolder("store-folder")
        let result = try await runProcess(
            try spotcheckExecutable(),
            ["crawl", TestSite.fixtureRoot + "/movies", "--store", "stores/site.sqlite", "--output", "out", "--quiet"],
            in: tmp)
        #expect(result.status == 0, "\(result.output)")
        #expect(FileManager.default.fileExists(atPath: tmp + "/stores/site.sqlite"))
    }

    @Test("serve on a port in use says so in words")
    func portInUse() async throws {
        let (descriptor, port) = try boundLoopbackSocket()
        defer { close(descriptor) }
        #expect(listen(descriptor, 8) == 0)
        let result = try await runProcess(
            try spotcheckExecutable(), ["serve", TestSite.fixtureRoot, "--port", "\(port)"])
        #expect(result.status == 6, "\(result.output)")
        #expect(result.output.contains("port \(port) on 127.0.0.1 is in use"), "\(result.output)")
        #expect(!result.output.contains("bind(descriptor"), "\(result.output)")
    }

    @Test("a PostgreSQL server that is not running is named with what to check")
    func postgresNotRunning() async throws {
        // Bound, never listened on: connections are refused, and no other server takes the port.
        let (descriptor, port) = try boundLoopbackSocket()
        defer { close(descriptor) }
        let tmp = try temporaryFolder("postgres-down")
        let result = try await runProcess(
            try spotcheckExecutable(),
            [
                "crawl", TestSite.fixtureRoot + "/movies", "--store", "postgres://spotcheck@127.0.0.1:\(port)/crawls",
                "--output", tmp + "/out", "--quiet",
            ])
        #expect(result.status == 9, "\(result.output)")
        #expect(
            result.output.contains(
                "cannot connect to PostgreSQL at 127.0.0.1:\(port): connection refused — is the server running"),
            "\(result.output)")
        #expect(!result.output.contains("SingleConnectionFailure"), "\(result.output)")
    }

    @Test("https:// to a plain-HTTP server suggests http://, not --ca-file")
    func httpsToAnHTTPServer() async throws {
        let server = try await TestSite.server.value
        let port = URL(string: server.baseURL)?.port ?? 0
        let tmp = try temporaryFolder("https-to-http")
        let result = try await runProcess(
            try spotcheckExecutable(), ["crawl", "https://127.0.0.1:\(port)/", "--output", tmp + "/out", "--quiet"])
        #expect(result.status == 6, "\(result.output)")
        #expect(
            result.output.contains("the server at 127.0.0.1:\(port) does not speak TLS"), "\(result.output)")
        #expect(result.output.contains("did you mean http://127.0.0.1:\(port)/?"), "\(result.output)")
        #expect(!result.output.contains("--ca-file"), "\(result.output)")
    }

    /// The page is a FIFO this test holds open for writing and never writes to (one nothing holds
    /// open is refused at once, issue 35 §4), so the run is certainly still reading it when the
    /// signal comes; the output folder exists by then (it is made before any page is read).
    @Test("Ctrl-C during validate says what was interrupted and leaves no empty folder", .timeLimit(.minutes(2)))
    func ctrlCDuringValidate() async throws {
        let tmp = try temporaryFolder("validate-interrupted")
        #expect(mkfifo(tmp + "/stuck.html", 0o644) == 0)
        // O_RDWR: a writer that does not wait for a reader (Linux fifo(7)).
        let writer = open(tmp + "/stuck.html", O_RDWR)
        #expect(writer >= 0)
        defer { close(writer) }
        let child = try startProcess(
            try spotcheckExecutable(), ["validate", tmp + "/stuck.html", "--output", tmp + "/out"], in: tmp)
        while !FileManager.default.fileExists(atPath: tmp + "/out"), child.process.isRunning {
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        kill(child.process.processIdentifier, SIGINT)
        // A child that ignores the signal would wait on the FIFO for ever: a bounded wait, then
        // SIGKILL, so the test fails instead of hanging (no time is asserted).
        for _ in 0..<3000 where child.process.isRunning { try await Task.sleep(nanoseconds: 20_000_000) }
        if child.process.isRunning { kill(child.process.processIdentifier, SIGKILL) }
        let status = await waitForExit(child.process)
        let output = (try? String(contentsOfFile: child.outputPath, encoding: .utf8)) ?? ""
        #expect(status == 130, "\(output)")
        #expect(output.contains("spotcheck: interrupted while checking the pages; no report was written"), "\(output)")
        #expect(!FileManager.default.fileExists(atPath: tmp + "/out"), "the empty output folder was left")
    }
}
