import CrawlStore
import Crawling
import Foundation
import LoopbackServer
import SpotCheckTestSupport
import Testing
import TortureServer

enum TestSite {
    static let projectRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()

    static let fixtureRoot = projectRoot.appendingPathComponent("Fixtures/html").path

    /// The fixture site and the torture routes, one server for the whole test process.
    static let server: Task<RunningServer, any Error> = Task { try await TortureServer(root: fixtureRoot).start() }

    static func baseURL() async throws -> String { try await server.value.baseURL }
}

/// A fresh folder under the temporary directory.
func temporaryFolder(_ name: String) throws -> String {
    try Scratch.folder(name)
}

extension CrawlStore {
    /// Every page of the current run, by requested URL.
    func pagesByURL() throws -> [String: PageRecord] {
        var pages: [String: PageRecord] = [:]
        try forEachPage { batch in
            for page in batch { pages[page.requestedURL] = page }
        }
        return pages
    }
}

/// Runs a child process to its end without blocking a Swift concurrency thread; its output goes
/// to a file (a pipe could fill up and stall the child). `directory` is its working directory
/// (default: the test's).
func runProcess(_ executable: String, _ arguments: [String], in directory: String? = nil) async throws -> (
    status: Int32, output: String
) {
    let process = try startProcess(executable, arguments, in: directory)
    let status = await waitForExit(process.process)
    return (status, (try? String(contentsOfFile: process.outputPath, encoding: .utf8)) ?? "")
}

/// Starts a child process whose output goes to a temporary file.
func startProcess(
    _ executable: String, _ arguments: [String], in directory: String? = nil, environment: [String: String] = [:]
) throws -> (
    process: Process, outputPath: String
) {
    let outputPath = Scratch.path("child", suffix: ".log")
    guard FileManager.default.createFile(atPath: outputPath, contents: nil) else {
        throw TestFailure("\(outputPath): cannot be created")
    }
    let output = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    if !environment.isEmpty {
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }
    process.standardOutput = output
    process.standardError = output
    try process.run()
    return (process, outputPath)
}
