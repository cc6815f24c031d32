import Foundation
import LenientJSON
import PageAnalysis
import Rulebook
import SpotCheckTestSupport
import Testing
import Verification

/// What `crawl` and `validate` print (issue 15 §3): the live progress line on a terminal only,
/// a short summary with the top rules by default, every page with `--verbose`, the report path
/// and totals with `--quiet`; default folders that never collide; a stable stand-in origin for a
/// folder that does not say which site it is.
@Suite("terminal output", .serialized)
struct TerminalOutputTests {
    static let fixtures = TestSite.fixtureRoot

    /// Runs `arguments` under `script(1)`, so standard error is a terminal.
    /// Runs spotcheck on a pseudo-terminal (`script`), with `environment` (`NAME=value`) added.
    static func runOnTerminal(_ arguments: [String], environment: [String] = []) async throws -> (
        status: Int32, output: String
    ) {
        let words =
            (environment.isEmpty ? [] : ["/usr/bin/env"] + environment) + [try spotcheckExecutable()] + arguments
        let command = words.map { "'\($0)'" }.joined(separator: " ")
        return try await runProcess("/usr/bin/script", ["-qefc", command, "/dev/null"])
    }

    /// Issue 31 §5: the terminal conventions of no-color.org and terminfo.
    @Test("severities in colour on a terminal; none with NO_COLOR or when piped; no escapes at all with TERM=dumb")
    func colours() async throws {
        let folder = try temporaryFolder("terminal-colours")
        let red = "\u{1B}[1;31merror\u{1B}[0m SAB002 "
        let terminal = try await Self.runOnTerminal(
            ["validate", Self.fixtures, "-o", folder + "/a"], environment: ["TERM=xterm", "NO_COLOR="])
        #expect(terminal.output.contains(red), "\(terminal.output)")
        let noColour = try await Self.runOnTerminal(
            ["validate", Self.fixtures, "-o", folder + "/b"], environment: ["TERM=xterm", "NO_COLOR=1"])
        #expect(noColour.output.contains(": error SAB002 ") && !noColour.output.contains("\u{1B}["))
        let piped = try await runProcess(try spotcheckExecutable(), ["validate", Self.fixtures, "-o", folder + "/c"])
        #expect(piped.output.contains(": error SAB002 ") && !piped.output.contains("\u{1B}["))
        let dumb = try await Self.runOnTerminal(
            ["crawl", Self.fixtures, "-o", folder + "/d"], environment: ["TERM=dumb", "NO_COLOR="])
        #expect(dumb.status == 0, "\(dumb.output)")
        #expect(dumb.output.contains(": error SAB002 ") && !dumb.output.contains("\u{1B}"), "\(dumb.output)")
    }

    @Test("on a terminal the progress line shows the phase, pages done of known, rate, errors and skipped")
    func progressOnATerminalOnly() async throws {
        let folder = try temporaryFolder("terminal-progress")
        let onTerminal = try await Self.runOnTerminal(["crawl", Self.fixtures, "-o", folder + "/a"])
        #expect(onTerminal.status == 0, "\(onTerminal.output)")
        let drawn = onTerminal.output.components(separatedBy: "\r").filter { $0.contains(" pages/s · ") }
        #expect(!drawn.isEmpty, "\(onTerminal.output)")
        for line in drawn {
            let text = line.components(separatedBy: "\u{1B}[K")[0]
            #expect(text.count < 80, "cut to the terminal's width: \(text)")
            #expect(text.contains(" pages (") && text.contains(" error") && text.contains(" skipped"), "\(text)")
        }
        #expect(onTerminal.output.contains("writing reports") || onTerminal.output.contains("crawling"))
        let piped = try await runProcess(try spotcheckExecutable(), ["crawl", Self.fixtures, "-o", folder + "/b"])
        #expect(piped.status == 0)
        #expect(!piped.output.contains("\r"), "no progress line without a terminal")
        let quiet = try await Self.runOnTerminal(["crawl", Self.fixtures, "-o", folder + "/c", "--no-progress"])
        #expect(!quiet.output.contains(" pages/s ·"), "\(quiet.output)")
    }

    @Test("by default a short summary with the top rules; every page with -v; the report path and totals with -q")
    func summaryVerbosity() async throws {
        let executable = try spotcheckExecutable()
        let folder = try temporaryFolder("terminal-summary")
        let normal = try await runProcess(executable, ["crawl", Self.fixtures, "-o", folder + "/normal"])
        let verbose = try await runProcess(executable, ["crawl", Self.fixtures, "-o", folder + "/verbose", "-v"])
        let quiet = try await runProcess(executable, ["crawl", Self.fixtures, "-o", folder + "/quiet", "-q"])
        let report = try #require(
            JSONParser.parse(
                try String(contentsOfFile: folder + "/normal/report.json", encoding: .utf8), lenient: false
            )
            .value)
        let summary = try #require(report["summary"])
        let errors = try #require(summary["findings"]?["error"]?.intValue)
        let pages = try #require(summary["pages"]?.intValue)
        let candidates = try #require(summary["candidates"]?.intValue)
        // The summary says what report.json says.
        #expect(normal.output.contains("findings: \(errors) error, "), "\(normal.output)")
        #expect(normal.output.contains("candidates: \(candidates) of \(pages) pages"), "\(normal.output)")
        #expect(!normal.output.contains("with errors"), "\(normal.output)")
        // Findings per rule, most severe first, with each rule's title: every error rule, then up
        // to five lines, and how many rules were left out, so none is dropped silently (issue 30).
        let byRule = try #require(summary["findings"]?["byRule"]?.objectValue)
        let ruleLines = normal.output.split(separator: "\n").filter {
            $0.hasPrefix("  error ") || $0.hasPrefix("  warning ") || $0.hasPrefix("  info ")
        }
        let errorRules = byRule.members.filter { RuleCatalogue.rule($0.key)?.severity == .error }.count
        #expect(ruleLines.count == max(5, errorRules), "\(normal.output)")
        #expect(ruleLines.first?.hasPrefix("  error ") == true)
        #expect(ruleLines.allSatisfy { $0.contains(" ×") && $0.contains(": ") })
        let left = byRule.members.count - ruleLines.count
        #expect(normal.output.contains("  and \(left) more rules ("), "\(normal.output)")
        let verboseRules = verbose.output.split(separator: "\n").filter {
            $0.hasPrefix("  error ") || $0.hasPrefix("  warning ") || $0.hasPrefix("  info ")
        }
        #expect(verboseRules.count == byRule.members.count, "-v lists every rule: \(verbose.output)")
        // Every error in the form compilers use, located in its file; warnings only with -v.
        let error = "html/broken/sab-missing-app-id.html:13:110: error SAB002 No `app-id`\n    "
        #expect(normal.output.contains(error), "\(normal.output)")
        #expect(verbose.output.contains(error), "\(verbose.output)")
        let warning = "html/index.html:12:99: warning SAB007 "
        #expect(!normal.output.contains(warning), "\(normal.output)")
        #expect(verbose.output.contains(warning), "\(verbose.output)")
        // A finding on a URL that has no file of its own is at the URL.
        #expect(normal.output.contains("https://www.example.com/private/secret.html: error IX001 "), "\(normal.output)")
        // --quiet: totals and the report path.
        let quietLines = quiet.output.split(separator: "\n")
        #expect(
            quietLines == [
                "findings: \(errors) error, " + quietLines[0].dropFirst("findings: \(errors) error, ".count),
                "report: \(folder)/quiet/report.json",
            ], "\(quiet.output)")
    }

    @Test("validate: page summaries with -v only; -j sets the jobs")
    func validateVerbosity() async throws {
        let executable = try spotcheckExecutable()
        let folder = try temporaryFolder("terminal-validate")
        let normal = try await runProcess(executable, ["validate", Self.fixtures, "-o", folder + "/n", "-j", "1"])
        let verbose = try await runProcess(executable, ["validate", Self.fixtures, "-o", folder + "/v", "-v"])
        #expect(normal.status == 0 && verbose.status == 0, "\(normal.output)")
        #expect(!normal.output.contains("  title:"), "\(normal.output)")
        #expect(verbose.output.contains("  title:"), "\(verbose.output)")
        #expect(normal.output.contains("report: \(folder)/n/report.json"))
        #expect(normal.output.contains("\n  error "), "top rules: \(normal.output)")
    }

    @Test("two runs started together never share a default output folder")
    func defaultFoldersNeverCollide() async throws {
        let executable = try spotcheckExecutable()
        let working = try temporaryFolder("terminal-folders")
        async let first = runProcess(executable, ["validate", Self.fixtures + "/movies", "-q"], in: working)
        async let second = runProcess(executable, ["validate", Self.fixtures + "/movies", "-q"], in: working)
        let results = try await [first, second]
        #expect(results.allSatisfy { $0.status == 0 }, "\(results)")
        let folders = try FileManager.default.contentsOfDirectory(atPath: working + "/reports")
        #expect(folders.count == 2, "\(folders)")
        for folder in folders {
            #expect(FileManager.default.fileExists(atPath: working + "/reports/" + folder + "/report.json"))
        }
    }

    @Test("an existing default folder gets a sibling: base, base-2, base-3")
    func createUniqueTakesTheNextName() throws {
        let root = try temporaryFolder("unique-folder")
        let base = root + "/reports/site-20261125T000000Z"
        #expect(try OutputFolder.createUnique(base) == base)
        #expect(try OutputFolder.createUnique(base) == base + "-2")
        #expect(try OutputFolder.createUnique(base) == base + "-3")
    }

    @Test("a folder without --as or spotcheck-site.json gets a stable stand-in origin, and the way to name it")
    func standInOrigin() async throws {
        let executable = try spotcheckExecutable()
        let root = try temporaryFolder("stand-in")
        let site = root + "/Movies Site"
        try FileManager.default.copyItem(atPath: Self.fixtures + "/movies", toPath: site)
        let first = try await runProcess(executable, ["crawl", site, "-o", root + "/one", "-q"])
        let second = try await runProcess(executable, ["crawl", site, "-o", root + "/two", "-q"])
        #expect(first.status == 0 && second.status == 0, "\(first.output)")
        #expect(
            first.output.contains(
                "\(site) is reported as https://movies-site.invalid, a stand-in: name the site it stands for with "
                    + "--as https://www.example.com (its index.html names https://www.example.com)"),
            "\(first.output)")
        let report = try #require(
            JSONParser.parse(try String(contentsOfFile: root + "/one/report.json", encoding: .utf8), lenient: false)
                .value)
        let urls = report["pages"]?.arrayValue?.compactMap { $0["url"]?.stringValue } ?? []
        #expect(!urls.isEmpty && urls.allSatisfy { $0.hasPrefix("https://movies-site.invalid/") }, "\(urls)")
        let diff = try await runProcess(executable, ["diff", root + "/one", root + "/two"])
        #expect(diff.status == 0, "the same pages in both crawls: \(diff.output)")
    }

    @Test("the summary says when the page budget cut the crawl short")
    func budgetCutShort() async throws {
        let folder = try temporaryFolder("terminal-budget")
        let result = try await runProcess(
            try spotcheckExecutable(), ["crawl", Self.fixtures, "-o", folder + "/out", "--max-pages", "3"])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("crawled 3 pages"), "\(result.output)")
        #expect(result.output.contains("the crawl stopped short: "), "\(result.output)")
        #expect(result.output.contains("beyond --max-pages 3"), "\(result.output)")
    }
}
