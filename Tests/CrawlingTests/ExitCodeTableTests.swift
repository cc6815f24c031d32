import Foundation
import SpotCheckTestSupport
import Testing

/// One exit-code table for every subcommand: the same failure exits with the same code, and
/// docs/cli.md lists exactly the codes `spotcheck --help` prints.
@Suite("the shared exit-code table", .serialized)
struct ExitCodeTableTests {
    /// An input that cannot be read, as each command takes it: always 3, the message names the file.
    @Test(
        "an unreadable input exits 3 whatever the command",
        arguments: [
            ["validate", TestSite.fixtureRoot + "/index.html", "{folder}/none.html", "--output", "{folder}/v"],
            ["crawl", TestSite.fixtureRoot, "--items", "{folder}/none.json", "--output", "{folder}/crawl", "--quiet"],
            ["index", "import", "{folder}/none.json", "--index", "{folder}/index.sqlite"],
            ["robots", "check", "--robots-file", "{folder}/none.json", "--user-agent", "x", "https://a.example/"],
            ["diff", "{folder}/none.json", "{folder}/none.json"],
            ["aasa", "check", "{folder}/none.json"],
        ])
    func unreadableInput(arguments: [String]) async throws {
        let folder = try temporaryFolder("exit-table")
        let filled = arguments.map { $0.replacingOccurrences(of: "{folder}", with: folder) }
        let result = try await runProcess(try spotcheckExecutable(), filled)
        #expect(result.status == 3, "\(filled.joined(separator: " ")): \(result.output)")
        #expect(result.output.contains(folder + "/none."), "the message names the file: \(result.output)")
    }

    /// The shared table's entries (`N meaning`) in a flattened help text after `marker`.
    static func entries(_ help: String, after marker: String) -> [String] {
        guard let start = help.range(of: marker) else { return [] }
        var text = String(help[start.upperBound...])
        if let end = text.firstMatch(of: #/\.(?:\s|$)/#) { text = String(text[..<end.range.lowerBound]) }
        return text.split(separator: #/; (?=\d+ )/#).map { $0.trimmingCharacters(in: .whitespaces) }
    }

    @Test(
        "every subcommand's --help lists its exit codes with the shared table's words",
        arguments: [
            ["crawl"], ["report"], ["diff"], ["extract"], ["validate"], ["robots", "check"], ["aasa", "check"],
            ["index"], ["rules"], ["serve"],
        ])
    func subcommandHelpUsesTheTable(command: [String]) async throws {
        func flattened(_ text: String) -> String { text.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        let top = flattened(try await runProcess(try spotcheckExecutable(), ["--help"]).output)
        let table = Set(Self.entries(top, after: "Exit codes (the same for every subcommand): "))
        #expect(table.count >= 10, "\(top)")
        let help = flattened(try await runProcess(try spotcheckExecutable(), command + ["--help"]).output)
        let listed = Self.entries(help, after: "Exit codes (the shared table, docs/cli.md): ")
        #expect(listed.first == "0 success", "\(help)")
        #expect(listed.contains("64 bad command line"), "\(help)")
        for entry in listed { #expect(table.contains(entry), "\(command): \(entry) is not the table's line") }
    }

    @Test("docs/cli.md lists the codes --help prints")
    func documentedTableMatchesHelp() async throws {
        let help = try await runProcess(try spotcheckExecutable(), ["--help"])
        let flattened = help.output.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let printed = Set(
            flattened.matches(of: #/(?:: |; )(\d+) /#).compactMap { Int($0.output.1) })
        let docs = try String(contentsOfFile: TestSite.projectRoot.path + "/docs/cli.md", encoding: .utf8)
        let section = try #require(docs.split(separator: "## Exit codes (every command)").last)
        let documented = Set(section.matches(of: #/\n\| (\d+) \|/#).compactMap { Int($0.output.1) })
        #expect(printed.contains(0) && printed.contains(64), "\(flattened)")
        #expect(documented == printed, "docs/cli.md: \(documented.sorted()), --help: \(printed.sorted())")
    }
}
