import Foundation
import LenientJSON
import SpotCheckTestSupport
import Testing

/// Long file lists on the command line are folded past swift-argument-parser, whose parse of
/// repeated positional values is quadratic (`FoldedPaths`); the commands must see exactly the list
/// they were given, in order, with the options around it.
@Suite("long file lists", .serialized)
struct LongFileListTests {
    /// `count` pages, each titled with its number, in a fresh folder.
    static func pages(_ count: Int) throws -> (folder: String, files: [String]) {
        let folder = try temporaryFolder("long-list")
        let files = (0..<count).map { String(format: "%@/page-%03d.html", folder, $0) }
        for (index, file) in files.enumerated() {
            let html = "<!DOCTYPE html><html><head><title>page \(index)</title></head><body></body></html>"
            try html.write(toFile: file, atomically: true, encoding: .utf8)
        }
        return (folder, files)
    }

    static func titles(ofLines output: String) -> [String] {
        output.split(separator: "\n").compactMap { line in
            JSONParser.parse(String(line), lenient: false).value?["title"]?.stringValue
        }
    }

    @Test(
        "extract reads a list of 200 files in order, with an option's value before it and a flag after it",
        arguments: [[], ["--"]])
    func extractKeepsTheListAndItsOptions(terminator: [String]) async throws {
        let (folder, files) = try Self.pages(200)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // `--base-url URL` makes the URL the first argument of the plain run; `--no-findings`
        // after the list must still be read as the flag.
        let options = ["extract", "--jobs", "2", "--base-url", "https://www.example.com/page.html"]
        let arguments =
            terminator.isEmpty ? options + files + ["--no-findings"] : options + ["--no-findings", "--"] + files
        let result = try await runProcess(try spotcheckExecutable(), arguments)
        #expect(result.status == 0, "\(result.output.prefix(2000))")
        #expect(Self.titles(ofLines: result.output) == (0..<200).map { "page \($0)" })
        #expect(!result.output.contains("\"findings\""), "--no-findings after the list was not applied")
        #expect(result.output.contains("https://www.example.com/page.html"))
    }

    @Test("validate with --output before 100 files writes one report of the 100 pages into that folder")
    func validateKeepsTheOutputOption() async throws {
        let (folder, files) = try Self.pages(100)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let output = folder + "-report"
        defer { try? FileManager.default.removeItem(atPath: output) }
        let result = try await runProcess(
            try spotcheckExecutable(), ["validate", "--output", output] + files + ["--quiet"])
        #expect(result.status == 0, "\(result.output.prefix(2000))")
        let text = try String(contentsOfFile: output + "/report.json", encoding: .utf8)
        let pages = try #require(JSONParser.parse(text, lenient: false).value?["pages"]?.arrayValue)
        #expect(pages.count == 100)
        #expect(Set(pages.compactMap { $0["file"]?.stringValue }) == Set(files))
    }
}
