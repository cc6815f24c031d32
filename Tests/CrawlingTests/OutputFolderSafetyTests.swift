import Foundation
import SpotCheckTestSupport
import Testing

/// Issue 31 §1: `--output` never replaces or removes a file SpotCheck did not write.
@Suite("--output never overwrites a user's files", .serialized)
struct OutputFolderSafetyTests {
    /// The two commands that write report folders, with what each needs to stay quiet and local.
    static let commands: [[String]] = [["validate"], ["crawl", "--quiet"]]

    /// A small site of the user's own: two pages.
    static func makeSite(in folder: String) throws -> String {
        let site = folder + "/site"
        try FileManager.default.createDirectory(atPath: site, withIntermediateDirectories: true)
        try Data("<html><head><title>Mine</title></head><body>my own page</body></html>\n".utf8)
            .write(to: URL(fileURLWithPath: site + "/index.html"))
        try Data("<html><head><title>About</title></head><body>about</body></html>\n".utf8)
            .write(to: URL(fileURLWithPath: site + "/about.html"))
        return site
    }

    static func run(_ command: [String], _ arguments: [String], in folder: String) async throws -> (
        status: Int32, output: String
    ) {
        var full = [command[0]] + arguments
        full += command.dropFirst()
        return try await runProcess(try spotcheckExecutable(), full, in: folder)
    }

    @Test("the site's own folder as --output is refused before any work, naming the file", arguments: commands)
    func siteFolderAsOutput(_ command: [String]) async throws {
        let tmp = try temporaryFolder("output-site")
        let site = try Self.makeSite(in: tmp)
        let before = try Data(contentsOf: URL(fileURLWithPath: site + "/index.html"))
        let result = try await Self.run(command, [site, "--output", site, "--format", "json,html"], in: tmp)
        #expect(result.status == 5, "\(result.output)")
        #expect(
            result.output.contains("\(site): it holds index.html, which SpotCheck did not write"), "\(result.output)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: site + "/index.html")) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: site).sorted() == ["about.html", "index.html"])
    }

    @Test("a folder where SpotCheck writes a file is never removed", arguments: commands)
    func folderInTheWaySurvives(_ command: [String]) async throws {
        let tmp = try temporaryFolder("output-in-the-way")
        let site = try Self.makeSite(in: tmp)
        // An earlier report folder, then a folder of the user's where index.html goes.
        let first = try await Self.run(command, [site, "--output", tmp + "/outy"], in: tmp)
        #expect([0, 1].contains(first.status), "\(first.output)")
        try FileManager.default.createDirectory(atPath: tmp + "/outy/index.html", withIntermediateDirectories: true)
        try Data("keep\n".utf8).write(to: URL(fileURLWithPath: tmp + "/outy/index.html/keep.txt"))
        let second = try await Self.run(command, [site, "--output", tmp + "/outy", "--format", "json,html"], in: tmp)
        #expect(second.status == 5, "\(second.output)")
        #expect(second.output.contains("\(tmp)/outy/index.html is a folder"), "\(second.output)")
        #expect(FileManager.default.contents(atPath: tmp + "/outy/index.html/keep.txt") == Data("keep\n".utf8))
        // Not a report folder at all: refused too, and the folder stays.
        try FileManager.default.removeItem(atPath: tmp + "/outy/report.json")
        try? FileManager.default.removeItem(atPath: tmp + "/outy/crawl.sqlite")
        try? FileManager.default.removeItem(atPath: tmp + "/outy/crawl.lock")
        let third = try await Self.run(command, [site, "--output", tmp + "/outy", "--format", "html"], in: tmp)
        #expect(third.status == 5, "\(third.output)")
        #expect(FileManager.default.contents(atPath: tmp + "/outy/index.html/keep.txt") == Data("keep\n".utf8))
    }

    @Test("an earlier report folder is written again; a file the user added there stays", arguments: commands)
    func earlierReportFolderIsReused(_ command: [String]) async throws {
        let tmp = try temporaryFolder("output-again")
        let site = try Self.makeSite(in: tmp)
        let first = try await Self.run(command, [site, "--output", tmp + "/out", "--format", "json,html"], in: tmp)
        #expect([0, 1].contains(first.status), "\(first.output)")
        try Data("notes\n".utf8).write(to: URL(fileURLWithPath: tmp + "/out/notes.txt"))
        let second = try await Self.run(command, [site, "--output", tmp + "/out", "--format", "json,html"], in: tmp)
        #expect([0, 1].contains(second.status), "\(second.output)")
        #expect(FileManager.default.fileExists(atPath: tmp + "/out/index.html"))
        #expect(FileManager.default.contents(atPath: tmp + "/out/notes.txt") == Data("notes\n".utf8))
    }

    @Test("an empty folder is taken", arguments: commands)
    func emptyFolderIsTaken(_ command: [String]) async throws {
        let tmp = try temporaryFolder("output-empty")
        let site = try Self.makeSite(in: tmp)
        try FileManager.default.createDirectory(atPath: tmp + "/empty", withIntermediateDirectories: true)
        let result = try await Self.run(command, [site, "--output", tmp + "/empty"], in: tmp)
        #expect([0, 1].contains(result.status), "\(result.output)")
        #expect(FileManager.default.fileExists(atPath: tmp + "/empty/report.json"))
    }

    @Test("-o - is refused as a bad command line, and no folder named - is made", arguments: commands)
    func dashIsRefused(_ command: [String]) async throws {
        let tmp = try temporaryFolder("output-dash")
        let site = try Self.makeSite(in: tmp)
        let result = try await Self.run(command, [site, "-o", "-"], in: tmp)
        #expect(result.status == 64, "\(result.output)")
        #expect(result.output.contains("--output -: the reports are a folder of files"), "\(result.output)")
        #expect(!FileManager.default.fileExists(atPath: tmp + "/-"))
    }
}
