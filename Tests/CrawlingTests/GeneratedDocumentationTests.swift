import Foundation
import LenientJSON
import SpotCheckTestSupport
import Testing

/// `make package` (issue 34) makes the man page from `--experimental-dump-help` (what
/// swift-argument-parser's generate-manual reads) and the shell completions from
/// `--generate-completion-script`. Both must come through `SpotCheck.main`'s own handling (the crawl
/// help's layout, the command-name check, the project configuration file) untouched, even in a
/// folder whose `.spotcheck.json` is broken (a command that read it would exit 7).
@Suite("what make package generates from the command definitions", .serialized)
struct GeneratedDocumentationTests {
    static func folderWithBrokenConfiguration() throws -> String {
        let folder = try temporaryFolder("generated-documentation")
        try Data("{not json".utf8).write(to: URL(fileURLWithPath: folder + "/.spotcheck.json"))
        return folder
    }

    @Test(
        "--experimental-dump-help prints the tool description, for the tool and for crawl", arguments: [[], ["crawl"]])
    func dumpHelp(command: [String]) async throws {
        let result = try await runProcess(
            try spotcheckExecutable(), command + ["--experimental-dump-help"],
            in: try Self.folderWithBrokenConfiguration())
        #expect(result.status == 0, "\(result.output)")
        let info = try #require(JSONParser.parse(result.output, lenient: false).value, "\(result.output.prefix(300))")
        #expect(info["serializationVersion"]?.intValue == 0)
        #expect(info["command"]?["commandName"]?.stringValue == (command.first ?? "spotcheck"))
        #expect((info["command"]?["arguments"]?.arrayValue?.count ?? 0) > 1)
    }

    @Test(
        "--generate-completion-script prints each shell's script, naming every subcommand",
        arguments: ["bash", "zsh", "fish"])
    func completionScript(shell: String) async throws {
        let executable = try spotcheckExecutable()
        let folder = try Self.folderWithBrokenConfiguration()
        let dump = try await runProcess(executable, ["--experimental-dump-help"], in: folder)
        let info = try #require(JSONParser.parse(dump.output, lenient: false).value)
        let subcommands = (info["command"]?["subcommands"]?.arrayValue ?? []).compactMap {
            $0["commandName"]?.stringValue
        }
        #expect(subcommands.contains("crawl"), "\(subcommands)")
        let opening = ["bash": "#!/bin/bash", "zsh": "#compdef spotcheck", "fish": "function __spotcheck_"]
        for arguments in [
            ["--generate-completion-script", shell], ["crawl", "--generate-completion-script=\(shell)"],
        ] {
            let result = try await runProcess(executable, arguments, in: folder)
            #expect(result.status == 0, "\(arguments): \(result.output.prefix(300))")
            #expect(result.output.hasPrefix(opening[shell] ?? "?"), "\(arguments): \(result.output.prefix(100))")
            if arguments.first != "crawl" {
                for name in subcommands where name != "help" {
                    #expect(result.output.contains(name), "\(shell) completion does not name \(name)")
                }
            }
        }
    }
}
