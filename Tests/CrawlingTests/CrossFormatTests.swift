import Foundation
import LenientJSON
import SpotCheckTestSupport
import Testing

/// Every output of one run names the same findings at the same places (issue 30): the console
/// listing (`-v`), report.json, SARIF, JUnit, GitHub annotations and the GitLab report, for a
/// served folder (`crawl FOLDER`) and for `validate` over files, with and without a baseline.
/// Pages are named by their files, relative to the working folder (no repository above it here).
@Suite("one finding, one place, in every output", .serialized)
struct CrossFormatTests {
    /// A finding as an output places it. A finding without a line is compared as on line 1:
    /// GitLab's format has no line 0 and writes 1.
    struct Placed: Hashable, Comparable, CustomStringConvertible {
        var rule: String
        var place: String
        var line: Int
        var column: Int?

        init(_ rule: String, _ place: String, line: Int?, column: Int?) {
            self.rule = rule
            self.place = place
            self.line = max(1, line ?? 0)
            self.column = (line ?? 0) > 0 ? column : nil
        }

        static func < (a: Placed, b: Placed) -> Bool { a.description < b.description }

        var description: String { "\(rule) \(place):\(line):\(column.map(String.init) ?? "-")" }
    }

    /// What one run wrote and printed, each read back as placed findings.
    struct Outputs {
        var console: [Placed] = []
        var report: [Placed] = []
        var reportSuppressed: [Placed] = []
        var sarif: [Placed] = []
        var sarifSuppressed: [Placed] = []
        var junit: [Placed] = []
        var github: [Placed] = []
        var gitlab: [Placed] = []
    }

    enum Command: String, CaseIterable, Sendable {
        case crawl, validate
    }

    /// A copy of the fixture site in a working folder of its own, as a user's repository has it.
    static func workingFolder(_ name: String) throws -> String {
        let folder = try Scratch.folder("cross-format-\(name)")
        try FileManager.default.copyItem(atPath: TestSite.fixtureRoot, toPath: folder + "/site")
        return folder
    }

    static func run(_ command: Command, in folder: String, output: String, extra: [String] = []) async throws
        -> Outputs
    {
        let arguments =
            [command.rawValue, "site", "--output", output, "--format", "json,sarif,junit,github,gitlab", "-v"]
            + (command == .crawl ? ["--no-progress"] : []) + extra
        let result = try await runProcess(try spotcheckExecutable(), arguments, in: folder)
        #expect(result.status == 0 || result.status == 1, "\(result.output)")
        let reports = folder + "/" + output
        var outputs = Outputs()
        outputs.console = Self.console(result.output)
        outputs.github = Self.github(result.output)
        (outputs.report, outputs.reportSuppressed) = try Self.report(reports + "/report.json")
        (outputs.sarif, outputs.sarifSuppressed) = try Self.sarif(reports + "/findings.sarif")
        outputs.junit = try Self.junit(reports + "/junit.xml")
        outputs.gitlab = try Self.gitlab(reports + "/gl-code-quality-report.json")
        return outputs
    }

    @Test(
        "without a baseline, every output has the same findings at the same file, line and column",
        arguments: Command.allCases)
    func samePlaces(command: Command) async throws {
        let folder = try Self.workingFolder("\(command)")
        let outputs = try await Self.run(command, in: folder, output: "out")
        let expected = outputs.report.sorted()
        #expect(expected.count > 20, "the fixture site has many findings")
        #expect(outputs.reportSuppressed.isEmpty)
        // Pages are named by their files, relative to the working folder.
        #expect(expected.contains { $0.place == "site/broken/sab-missing-app-id.html" && $0.rule == "SAB002" })
        #expect(!expected.contains { $0.place.hasPrefix("/") || $0.place.hasPrefix("file:") })
        #expect(outputs.console.sorted() == expected)
        #expect(outputs.sarif.sorted() == expected)
        #expect(outputs.sarifSuppressed.isEmpty)
        #expect(outputs.junit.sorted() == expected)
        #expect(outputs.github.sorted() == expected)
        #expect(outputs.gitlab.sorted() == expected)
    }

    @Test(
        "with a baseline, the accepted findings are in no output but SARIF, marked suppressed",
        arguments: Command.allCases)
    func baselineFiltersEveryOutput(command: Command) async throws {
        let folder = try Self.workingFolder("\(command)-baseline")
        let accepted = try await Self.run(command, in: folder, output: "first", extra: ["--write-baseline", "b.json"])
        // --app-id adds SAB020 where the page's app-id is another: the only new findings.
        let outputs = try await Self.run(
            command, in: folder, output: "second", extra: ["--baseline", "b.json", "--app-id", "1234567890"])
        let new = outputs.report.sorted()
        #expect(!new.isEmpty && new.allSatisfy { $0.rule == "SAB020" }, "\(new)")
        #expect(outputs.reportSuppressed.sorted() == accepted.report.sorted())
        #expect(outputs.console.sorted() == new)
        #expect(outputs.sarif.sorted() == new)
        #expect(outputs.sarifSuppressed.sorted() == accepted.report.sorted())
        #expect(outputs.junit.sorted() == new)
        #expect(outputs.github.sorted() == new)
        #expect(outputs.gitlab.sorted() == new)
    }

    /// `--items`: a finding about a local entry, and a page fetched only because an entry names
    /// it, are at the entry's record in the items file, in every output.
    @Test("with --items, the local entries' findings are at their records in the items file")
    func localEntriesAreAtTheirRecords() async throws {
        let folder = try Self.workingFolder("items")
        try FileManager.default.copyItem(
            atPath: TestSite.projectRoot.appendingPathComponent("Fixtures/items.json").path,
            toPath: folder + "/items.json")
        let outputs = try await Self.run(.crawl, in: folder, output: "out", extra: ["--items", "items.json"])
        let expected = outputs.report.sorted()
        // The fixture's records of colleague-grace-mensah (a remote thumbnail) and of
        // movie-deleted-movie (its page answers 404) start on these lines, at column 3.
        #expect(expected.contains(Placed("AS007", "items.json", line: 227, column: 3)), "\(expected)")
        #expect(expected.contains(Placed("IX004", "items.json", line: 98, column: 3)), "\(expected)")
        #expect(!expected.contains { $0.place.hasPrefix("local item") })
        #expect(outputs.console.sorted() == expected)
        #expect(outputs.sarif.sorted() == expected)
        #expect(outputs.junit.sorted() == expected)
        #expect(outputs.github.sorted() == expected)
        #expect(outputs.gitlab.sorted() == expected)
    }

    // MARK: Reading each output back

    static func json(_ path: String) throws -> JSONValue {
        try #require(JSONParser.parse(try String(contentsOfFile: path, encoding: .utf8), lenient: false).value)
    }

    /// `place:line:col: severity RULE title` lines (the rule counts and messages are indented).
    static func console(_ output: String) -> [Placed] {
        let shape =
            #/^(?<place>[^ ].*?)(?::(?<line>\d+)(?::(?<column>\d+))?)?: (?:error|warning|info) (?<rule>[A-Z]+\d{3}) /#
        return output.split(separator: "\n").compactMap { line in
            guard !line.hasPrefix("::"), let match = line.prefixMatch(of: shape) else { return nil }
            return Placed(
                String(match.rule), String(match.place), line: match.line.flatMap { Int($0) },
                column: match.column.flatMap { Int($0) })
        }
    }

    /// report.json: each page's findings at its file (a served folder's page, or the file
    /// validate read), or at the file linking to it when none answers it, else at its URL; the
    /// site's findings at their page's file or URL.
    static func report(_ path: String) throws -> (listed: [Placed], suppressed: [Placed]) {
        let report = try json(path)
        var files: [String: String] = [:]
        var placed: [(JSONValue, String)] = []
        for page in report["pages"]?.arrayValue ?? [] {
            let url = page["finalURL"]?.stringValue ?? page["url"]?.stringValue ?? ""
            // A URL no file answers is at the link to it (`linkedFrom`).
            let place = page["file"]?.stringValue ?? page["linkedFrom"]?["file"]?.stringValue ?? url
            files[url] = place
            placed += (page["findings"]?.arrayValue ?? []).map { ($0, place) }
        }
        for finding in report["siteFindings"]?.arrayValue ?? [] {
            let url = finding["url"]?.stringValue ?? ""
            placed.append((finding, finding["file"]?.stringValue ?? files[url] ?? url))
        }
        var listed: [Placed] = []
        var suppressed: [Placed] = []
        for (finding, place) in placed {
            let item = Placed(
                finding["rule"]?.stringValue ?? "", place, line: finding["line"]?.intValue,
                column: finding["column"]?.intValue)
            if finding["suppressed"] == true { suppressed.append(item) } else { listed.append(item) }
        }
        return (listed, suppressed)
    }

    static func sarif(_ path: String) throws -> (listed: [Placed], suppressed: [Placed]) {
        var listed: [Placed] = []
        var suppressed: [Placed] = []
        for result in try json(path)["runs"]?[0]?["results"]?.arrayValue ?? [] {
            let location = result["locations"]?[0]
            let physical = location?["physicalLocation"]
            let place =
                physical?["artifactLocation"]?["uri"]?.stringValue
                ?? location?["logicalLocations"]?[0]?["fullyQualifiedName"]?.stringValue ?? ""
            let item = Placed(
                result["ruleId"]?.stringValue ?? "", place.removingPercentEncoding ?? place,
                line: physical?["region"]?["startLine"]?.intValue,
                column: physical?["region"]?["startColumn"]?.intValue)
            if result["suppressions"]?.arrayValue?.isEmpty == false {
                suppressed.append(item)
            } else {
                listed.append(item)
            }
        }
        return (listed, suppressed)
    }

    /// Each test case's failure body and system-out: `RULE[ at <place>] (line L, column C): …`
    /// and `severity RULE[ at <place>] line L, column C: …`; the case's name is the place.
    static func junit(_ path: String) throws -> [Placed] {
        let xml = try String(contentsOfFile: path, encoding: .utf8)
        let testCase = #/<testcase classname="[^"]*" name="(?<name>[^"]*)"(?<body>/>|>(?s:.*?)</testcase>)/#
        let error =
            #/^(?<rule>[A-Z]+\d{3})(?: at <(?<place>[^>]*)>)?(?: \(line (?<line>\d+)(?:, column (?<column>\d+))?\))?: /#
        let other =
            #/^(?:warning|info) (?<rule>[A-Z]+\d{3})(?: at <(?<place>[^>]*)>)? line (?<line>\d+)(?:, column (?<column>\d+))?: /#
        var placed: [Placed] = []
        for match in xml.matches(of: testCase) {
            let name = unescaped(String(match.name))
            var body = String(match.body)
            // The failure's message attribute repeats the first error: only its text is read.
            body.replace(#/<failure [^>]*>/#, with: "\n")
            for line in unescaped(body).split(separator: "\n") {
                if let found = line.prefixMatch(of: error) {
                    placed.append(
                        Placed(
                            String(found.rule), found.place.map { String($0) } ?? name,
                            line: found.line.flatMap { Int($0) }, column: found.column.flatMap { Int($0) }))
                } else if let found = line.prefixMatch(of: other) {
                    placed.append(
                        Placed(
                            String(found.rule), found.place.map { String($0) } ?? name, line: Int(found.line),
                            column: found.column.flatMap { Int($0) }))
                }
            }
        }
        return placed
    }

    static func unescaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "<system-out>", with: "\n").replacingOccurrences(of: "&amp;", with: "&")
    }

    /// `::level file=…,line=…,col=…,title=SpotCheck RULE::message`; without a file, the message's
    /// last line before the fix is `URL[, line L[, column C]]`.
    static func github(_ output: String) -> [Placed] {
        let command = #/^::(?:error|warning|notice) (?<properties>[^:]*)::(?<message>.*)$/#
        return output.split(separator: "\n").compactMap { line -> Placed? in
            guard let match = line.wholeMatch(of: command) else { return nil }
            var properties: [String: String] = [:]
            for pair in match.properties.split(separator: ",") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2 else { continue }
                properties[String(parts[0])] = String(parts[1]).replacingOccurrences(of: "%2C", with: ",")
                    .replacingOccurrences(of: "%3A", with: ":").replacingOccurrences(of: "%25", with: "%")
            }
            let rule = String((properties["title"] ?? "").dropFirst("SpotCheck ".count))
            if let file = properties["file"] {
                return Placed(
                    rule, file, line: properties["line"].flatMap { Int($0) },
                    column: properties["col"].flatMap { Int($0) })
            }
            var parts = match.message.components(separatedBy: "%0A")
            if parts.last?.hasPrefix("Fix: ") == true { parts.removeLast() }
            let where_ = (parts.last ?? "").components(separatedBy: ", ")
            func number(_ word: String) -> Int? {
                where_.first { $0.hasPrefix(word + " ") }.flatMap { Int($0.dropFirst(word.count + 1)) }
            }
            return Placed(rule, where_[0], line: number("line"), column: number("column"))
        }
    }

    static func gitlab(_ path: String) throws -> [Placed] {
        (try json(path).arrayValue ?? []).map { issue in
            let location = issue["location"]
            let begin = location?["positions"]?["begin"]
            let line = begin?["line"]?.intValue ?? location?["lines"]?["begin"]?.intValue
            let placed = Placed(
                issue["check_name"]?.stringValue ?? "", location?["path"]?.stringValue ?? "", line: line,
                column: begin?["column"]?.intValue)
            return placed
        }
    }
}
