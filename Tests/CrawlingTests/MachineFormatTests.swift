import Foundation
import FoundationXML
import LenientJSON
import SpotCheckTestSupport
import Testing

/// The machine formats as the `spotcheck` executable writes them (issue 15 §4): `findings.sarif`
/// passes the official SARIF 2.1.0 JSON Schema with its format checks, `junit.xml` counts failing
/// test cases, and both commands' `report.json` pass docs/report.schema.json. Each run is made
/// once, by a child process in the project's folder, and read by every test.
@Suite("Machine formats that validate", .serialized)
struct MachineFormatTests {
    /// The runs whose files are checked.
    enum Run: String, CaseIterable, Sendable, CustomTestStringConvertible {
        /// The fixture site with the app's local items: findings without a URL (AS rules).
        case crawlWithItems
        /// `validate` on the fixture folder read as files: `file://` URLs under the working directory.
        case validateFiles
        /// `validate` on the fixture folder read as the site.
        case validateSite

        var testDescription: String { rawValue }

        var arguments: [String] {
            let formats = ["--format", "json,sarif,junit", "--quiet"]
            let app = ["--app-id", "1234567890", "--app", "ABCDE12345.com.example.familycinema"]
            return switch self {
            case .crawlWithItems: ["crawl", "Fixtures/html", "--items", "Fixtures/items.json"] + app + formats
            case .validateFiles: ["validate", "Fixtures/html"] + formats
            case .validateSite: ["validate", "Fixtures/html", "--base-url", "https://www.example.com/"] + formats
            }
        }
    }

    /// Each run's output folder, made once.
    actor Outputs {
        private var folders: [Run: String] = [:]

        func folder(_ run: Run) async throws -> String {
            if let folder = folders[run] { return folder }
            let folder = try temporaryFolder("formats-\(run.rawValue)")
            let result = try await runProcess(
                try spotcheckExecutable(), run.arguments + ["--output", folder],
                in: TestSite.projectRoot.path)
            #expect(result.status == 0, "\(run.arguments): \(result.output)")
            folders[run] = folder
            return folder
        }
    }

    static let outputs = Outputs()

    static let sarifSchemaPath = SharedCorpora.url("sarif/sarif-schema-2.1.0.json").path

    static func json(_ path: String) throws -> JSONValue {
        try #require(JSONParser.parse(try String(contentsOfFile: path, encoding: .utf8), lenient: false).value)
    }

    // MARK: SARIF

    /// The official schema, with `uri`/`uri-reference` checked as RFC 3986 says: an app's local
    /// item ("local item NAME") is no URI. CI checks the same files with Python's `jsonschema`
    /// (Scripts/check-formats.sh).
    @Test(
        "findings.sarif passes the official SARIF 2.1.0 schema with its format checks",
        .enabled(
            if: FileManager.default.fileExists(atPath: sarifSchemaPath),
            "../shared/corpora/sarif/sarif-schema-2.1.0.json is not present"),
        arguments: Run.allCases)
    func sarifPassesTheOfficialSchema(run: Run) async throws {
        let folder = try await Self.outputs.folder(run)
        let log = try Self.json(folder + "/findings.sarif")
        let check = JSONSchemaCheck(root: try Self.json(Self.sarifSchemaPath))
        #expect(check.problems(log) == [])
        #expect(log["runs"]?[0]?["results"]?.arrayValue?.isEmpty == false)
        // The check catches what issue 15 found: a local item's name as an artifact URI.
        let broken = Self.replacingFirstURI(in: log, with: "local item colleague-grace-mensah")
        #expect(check.problems(broken).contains { $0.contains("is not a uri-reference") })
    }

    @Test("each rule has a name for people and a helpUri to its row in docs/rules.md")
    func sarifRulesHaveNamesAndHelp() async throws {
        let folder = try await Self.outputs.folder(.crawlWithItems)
        let rules = try #require(
            Self.json(folder + "/findings.sarif")["runs"]?[0]?["tool"]?["driver"]?["rules"]?.arrayValue)
        let rulesDocument = try String(
            contentsOf: TestSite.projectRoot.appendingPathComponent("docs/rules.md"), encoding: .utf8)
        for rule in rules {
            let id = try #require(rule["id"]?.stringValue)
            let name = try #require(rule["name"]?.stringValue)
            #expect(name != id && name.contains(" "), "\(id): \(name)")
            let help = try #require(rule["helpUri"]?.stringValue)
            #expect(help == "https://github.com/spotcheck/spotcheck/blob/main/docs/rules.md#\(id.lowercased())")
            #expect(rulesDocument.contains("| <a id=\"\(id.lowercased())\"></a>\(id) |"), "\(id) has no anchor")
        }
        let byID = Dictionary(uniqueKeysWithValues: rules.map { ($0["id"]?.stringValue ?? "", $0) })
        #expect(byID["SAB003"]?["name"] == "`app-id` not all ASCII digits")
        #expect(byID["DL001"]?["name"] == "No deep link at all → not an App Search candidate")
    }

    @Test("every result has a partial fingerprint, unique in the log", arguments: Run.allCases)
    func sarifResultsHaveFingerprints(run: Run) async throws {
        let folder = try await Self.outputs.folder(run)
        let results = try #require(Self.json(folder + "/findings.sarif")["runs"]?[0]?["results"]?.arrayValue)
        let fingerprints = results.map { $0["partialFingerprints"]?["spotcheckFinding/v1"]?.stringValue }
        #expect(!fingerprints.contains(nil))
        #expect(Set(fingerprints).count == results.count)
    }

    @Test("the same crawl in another folder gives every result the same fingerprint")
    func sarifFingerprintsAreStableAcrossRuns() async throws {
        let run = Run.crawlWithItems
        let first = try #require(
            Self.json(try await Self.outputs.folder(run) + "/findings.sarif")["runs"]?[0]?["results"]?.arrayValue)
        let again = try temporaryFolder("formats-again")
        let result = try await runProcess(
            try spotcheckExecutable(), run.arguments + ["--output", again], in: TestSite.projectRoot.path)
        #expect(result.status == 0, "\(result.output)")
        let second = try #require(Self.json(again + "/findings.sarif")["runs"]?[0]?["results"]?.arrayValue)
        let fingerprint = { (result: JSONValue) in result["partialFingerprints"]?["spotcheckFinding/v1"]?.stringValue }
        #expect(second.map(fingerprint) == first.map(fingerprint))
    }

    @Test("validate names files relative to %SRCROOT%, the working directory, not by absolute file:// URLs")
    func validateUsesASourceRoot() async throws {
        let folder = try await Self.outputs.folder(.validateFiles)
        let run = try #require(Self.json(folder + "/findings.sarif")["runs"]?[0])
        let root = URL(fileURLWithPath: TestSite.projectRoot.path, isDirectory: true).standardizedFileURL.absoluteString
        #expect(run["originalUriBaseIds"]?["%SRCROOT%"]?["uri"]?.stringValue == root)
        let artifacts = (run["results"]?.arrayValue ?? []).map {
            $0["locations"]?[0]?["physicalLocation"]?["artifactLocation"]
        }
        #expect(!artifacts.isEmpty)
        for artifact in artifacts {
            #expect(artifact?["uriBaseId"] == "%SRCROOT%")
            #expect(
                artifact?["uri"]?.stringValue?.hasPrefix("Fixtures/html/") == true, "\(String(describing: artifact))")
        }
        #expect(artifacts.contains { $0?["uri"] == "Fixtures/html/broken/sab-missing-app-id.html" })
        // Read as the site, the pages are still located in their files (issue 30).
        let site = try #require(Self.json(try await Self.outputs.folder(.validateSite) + "/findings.sarif")["runs"]?[0])
        #expect(site["originalUriBaseIds"]?["%SRCROOT%"]?["uri"]?.stringValue == root)
        let siteArtifacts = (site["results"]?.arrayValue ?? []).compactMap {
            $0["locations"]?[0]?["physicalLocation"]?["artifactLocation"]
        }
        #expect(!siteArtifacts.isEmpty)
        #expect(siteArtifacts.allSatisfy { $0["uri"]?.stringValue?.hasPrefix("Fixtures/html/") == true })
    }

    /// A served folder crawled with `--items`: a finding about a local entry is at its record in
    /// the items file (a file of the repository, like the pages), never an artifact URI made of
    /// its name.
    @Test("an app's local item is at its record in the items file")
    func localItemsAreAtTheirRecords() async throws {
        let folder = try await Self.outputs.folder(.crawlWithItems)
        let results = try #require(Self.json(folder + "/findings.sarif")["runs"]?[0]?["results"]?.arrayValue)
        let thumbnail = try #require(results.first { $0["ruleId"] == "AS007" })
        let physical = thumbnail["locations"]?[0]?["physicalLocation"]
        #expect(physical?["artifactLocation"]?["uri"] == "Fixtures/items.json")
        #expect(physical?["artifactLocation"]?["uriBaseId"] == "%SRCROOT%")
        #expect(physical?["region"]?["startLine"] == 227)
        #expect(physical?["region"]?["startColumn"] == 3)
        // The served folder's pages are located in their files, local entries in the items file;
        // pages without a file keep their URL.
        for result in results {
            let artifact = result["locations"]?[0]?["physicalLocation"]?["artifactLocation"]
            let uri = artifact?["uri"]?.stringValue
            let inFile =
                artifact?["uriBaseId"] == "%SRCROOT%"
                && (uri?.hasPrefix("Fixtures/html/") == true || uri == "Fixtures/items.json")
            #expect(uri?.hasPrefix("https://") == true || inFile, "\(uri ?? "")")
        }
    }

    // MARK: JUnit

    @Test("junit.xml: failures counts the failing test cases, tests the cases", arguments: Run.allCases)
    func junitCountsFailingCases(run: Run) async throws {
        let folder = try await Self.outputs.folder(run)
        let counts = try JUnitCounts(path: folder + "/junit.xml")
        #expect(counts.parsed, "junit.xml is not well-formed XML")
        #expect(counts.cases > 0)
        #expect(counts.failingCases > 0, "the broken fixture pages have errors")
        for declared in counts.declared {
            #expect(declared.tests == counts.cases, "\(declared.element) tests=")
            #expect(declared.failures == counts.failingCases, "\(declared.element) failures=")
        }
        #expect(counts.declared.count == 2)
        #expect(counts.failureElements == counts.failingCases, "one <failure> per failing case")
        // The failing cases are the pages with error findings (and the site-level case when it has one).
        let report = try Self.json(folder + "/report.json")
        let failingPages = (report["pages"]?.arrayValue ?? []).filter { page in
            (page["findings"]?.arrayValue ?? []).contains { $0["severity"] == "error" }
        }.count
        let failingSite = (report["siteFindings"]?.arrayValue ?? []).contains { $0["severity"] == "error" } ? 1 : 0
        #expect(counts.failingCases == failingPages + failingSite)
    }

    // MARK: report.json

    @Test("report.json passes docs/report.schema.json, whichever command wrote it", arguments: Run.allCases)
    func reportPassesTheSchema(run: Run) async throws {
        let folder = try await Self.outputs.folder(run)
        let report = try Self.json(folder + "/report.json")
        let schema = try Self.json(TestSite.projectRoot.appendingPathComponent("docs/report.schema.json").path)
        let check = JSONSchemaCheck(root: schema)
        #expect(check.problems(report) == [])
        #expect(report["kind"] == (run == .crawlWithItems ? "crawl" : "validate"))
        #expect(report["schemaVersion"] == 3)
        // The kind decides which keys are required: a report that claims the other kind fails.
        var claimed = report.objectValue ?? JSONObject()
        claimed.set("kind", run == .crawlWithItems ? "validate" : "crawl")
        #expect(check.problems(.object(claimed)).count >= 2)
    }

    /// The log with its first artifact URI replaced.
    static func replacingFirstURI(in log: JSONValue, with uri: String) -> JSONValue {
        guard var root = log.objectValue, var runs = root["runs"]?.arrayValue, var run = runs.first?.objectValue,
            var results = run["results"]?.arrayValue,
            let index = results.firstIndex(where: {
                $0["locations"]?[0]?["physicalLocation"]?["artifactLocation"]?["uri"] != nil
            }),
            var result = results[index].objectValue
        else { return log }
        var artifact = JSONObject()
        artifact.append("uri", .string(uri))
        result.set("locations", [["physicalLocation": ["artifactLocation": .object(artifact)]]])
        results[index] = .object(result)
        run.set("results", .array(results))
        runs[0] = .object(run)
        root.set("runs", .array(runs))
        return .object(root)
    }
}

/// What a JUnit file declares and holds, read by Foundation's XML parser (not by the writer's
/// own code): `tests`/`failures` of `<testsuites>` and `<testsuite>`, the cases, the cases with a
/// `<failure>`, the `<failure>` elements.
struct JUnitCounts {
    var declared: [(element: String, tests: Int, failures: Int)] = []
    var cases = 0
    var failingCases = 0
    var failureElements = 0
    var parsed = false

    init(path: String) throws {
        let parser = try #require(XMLParser(contentsOf: URL(fileURLWithPath: path)))
        let reader = Reader()
        parser.delegate = reader
        parsed = parser.parse()
        declared = reader.declared
        cases = reader.cases
        failingCases = reader.failingCases
        failureElements = reader.failureElements
    }

    private final class Reader: NSObject, XMLParserDelegate {
        var declared: [(element: String, tests: Int, failures: Int)] = []
        var cases = 0
        var failingCases = 0
        var failureElements = 0
        private var caseFailed = false

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            switch elementName {
            case "testsuites", "testsuite":
                declared.append(
                    (elementName, Int(attributes["tests"] ?? "") ?? -1, Int(attributes["failures"] ?? "") ?? -1))
            case "testcase":
                cases += 1
                caseFailed = false
            case "failure":
                failureElements += 1
                caseFailed = true
            default: break
            }
        }

        func parser(
            _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?
        ) {
            if elementName == "testcase", caseFailed { failingCases += 1 }
        }
    }
}
