import Foundation
import LenientJSON
import Reports
import Rulebook
import SpotCheckTestSupport
import Testing
import Verification

/// `--baseline` / `--write-baseline`: fingerprints that survive line shifts, the versioned file,
/// and how a run's findings are matched against it.
@Suite("finding baselines")
struct FindingBaselineTests {
    static func finding(
        _ rule: String = "SAB003", url: String = "https://www.example.com/movies/up.html", line: Int = 13,
        column: Int? = nil, excerpt: String = #"<meta name="apple-itunes-app" content="app-id=x">"#,
        message: String = "app-id is x",
        severity: Severity = .error
    ) -> Finding {
        Finding(
            rule: .init(rawValue: rule)!, severity: severity, url: url, line: line, column: column, excerpt: excerpt,
            message: message, fixHint: "")
    }

    @Test(
        "a page's key is the path and query of an http(s) URL, a file's path under the source root",
        arguments: [
            ("https://www.example.com/movies/up.html?x=1#top", nil, "/movies/up.html?x=1"),
            ("http://127.0.0.1:8123/movies/up.html", nil, "/movies/up.html"),
            ("https://www.example.com", nil, "/"),
            ("https://www.example.com?q=1", nil, "/?q=1"),
            ("file:///work/site/a.html", "file:///work/", "site/a.html"),
            ("file:///elsewhere/a.html", "file:///work/", "/elsewhere/a.html"),
            ("local item Totoro", nil, "local item Totoro"),
        ] as [(String, String?, String)])
    func pageKeys(url: String, sourceRoot: String?, key: String) {
        #expect(FindingFingerprint.pageKey(url, sourceRoot: sourceRoot) == key)
    }

    @Test(
        "excerpts are compared with white space and the page's own origin normalised",
        arguments: [
            ("<meta  name=\"a\"\n     content=\"b\" >", "<meta name=\"a\" content=\"b\">"),
            ("<meta name = \"a\" content= \"b\"/>", "<meta name=\"a\" content=\"b\"/>"),
            (
                "<link rel=\"canonical\" href=\"https://www.example.com/a.html\" />",
                "<link rel=\"canonical\" href=\"/a.html\"/>"
            ),
            ("  < meta\tname=\"x\">  ", "<meta name=\"x\">"),
            ("", ""),
        ])
    func excerpts(raw: String, normalised: String) {
        #expect(FindingFingerprint.normalisedExcerpt(raw, origin: "https://www.example.com") == normalised)
    }

    @Test(
        "the fingerprint ignores the line, the column, the message, the severity and the origin; rule, page and markup count"
    )
    func fingerprints() {
        let original = FindingFingerprint(Self.finding())
        #expect(original.value.count == 32)
        #expect(original.value.allSatisfy { $0.isHexDigit && !$0.isUppercase })
        // Pinned (Python: sha256("v1\0SAB003\0/movies/up.html\0<meta …>")[:16]): a change of the algorithm
        // would orphan every baseline file written so far.
        #expect(original.value == "a058cf1ba11d3e509c4a76716761932c")
        #expect(
            original == FindingFingerprint(rule: "SAB003", pageKey: "/movies/up.html", excerpt: Self.finding().excerpt))
        let same = [
            Self.finding(line: 40), Self.finding(column: 7), Self.finding(line: 1, column: 412),
            Self.finding(message: "app-id \"x\" is not all digits"),
            Self.finding(severity: .warning), Self.finding(url: "https://staging.example.com/movies/up.html"),
            Self.finding(url: "http://127.0.0.1:40123/movies/up.html#frag"),
            Self.finding(excerpt: "<meta name=\"apple-itunes-app\"\n      content=\"app-id=x\" >"),
        ]
        for finding in same { #expect(FindingFingerprint(finding) == original, "\(finding)") }
        let different = [
            Self.finding("SAB004"), Self.finding(url: "https://www.example.com/movies/other.html"),
            Self.finding(excerpt: #"<meta name="apple-itunes-app" content="app-id=y">"#),
        ]
        for finding in different { #expect(FindingFingerprint(finding) != original, "\(finding)") }
    }

    @Test("a baseline file round-trips, counts repeats, and reads entries written by hand")
    func fileRoundTrip() throws {
        let findings = [Self.finding(), Self.finding(line: 20), Self.finding("OG003", excerpt: "<title>Up</title>")]
        let baseline = FindingBaseline(findings: findings)
        #expect(baseline.entries.count == 2)
        #expect(baseline.findingCount == 3)
        let json = baseline.json
        #expect(json["kind"] == "baseline")
        #expect(json["schemaVersion"] == 1)
        #expect(json["findings"]?[0]?["page"] == "/movies/up.html")
        let folder = Scratch.path("baseline")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try baseline.write(to: folder + "/baseline.json")
        let read = try FindingBaseline.load(folder + "/baseline.json")
        #expect(read.entries == baseline.entries)
        #expect(read.source == .baselineFile)
        // Written again from the same findings, the file is the same (no timestamp).
        #expect(json == FindingBaseline(findings: findings.reversed()).json)

        let handWritten = """
            {"tool": "spotcheck", "kind": "baseline", "schemaVersion": 1, "findings": [
              {"rule": "SAB003", "page": "/movies/up.html", "excerpt": "<meta name=\\"apple-itunes-app\\"   content=\\"app-id=x\\">"}
            ]}
            """
        try Data(handWritten.utf8).write(to: URL(fileURLWithPath: folder + "/hand.json"))
        var match = BaselineMatch(try FindingBaseline.load(folder + "/hand.json"))
        #expect(match.classify([Self.finding(line: 99)]) == [true])
    }

    @Test(
        "what --baseline cannot use is named with the reason",
        arguments: [
            ("missing.json", nil, "no such file or folder"),
            ("text.json", "not json", "not JSON"),
            ("other.json", #"{"tool": "spotcheck"}"#, "neither a baseline file"),
            ("newer.json", #"{"kind": "baseline", "schemaVersion": 2, "findings": []}"#, "schemaVersion 2"),
            (
                "broken.json", #"{"kind": "baseline", "schemaVersion": 1, "findings": [{"rule": "SAB003"}]}"#,
                "findings[0]"
            ),
        ] as [(String, String?, String)])
    func unusableBaselines(name: String, contents: String?, message: String) throws {
        let folder = Scratch.path("baseline")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        if let contents { try Data(contents.utf8).write(to: URL(fileURLWithPath: folder + "/" + name)) }
        let error = #expect(throws: BaselineError.self) { try FindingBaseline.load(folder + "/" + name) }
        #expect(error?.description.contains(name) == true)
        #expect(error?.message.contains(message) == true, "\(String(describing: error))")
    }

    @Test("each known occurrence suppresses one finding, in order; the rest are new")
    func matching() {
        let baseline = FindingBaseline(findings: [Self.finding(), Self.finding("OG003", excerpt: "<title>Up</title>")])
        var match = BaselineMatch(baseline)
        let run = [
            Self.finding(line: 3), Self.finding(line: 30), Self.finding("SAB020", severity: .warning),
        ]
        #expect(match.classify(run) == [true, false, false])
        #expect(match.suppressed == 1)
        #expect(match.newBySeverity == [Severity.error: 1, Severity.warning: 1])
        #expect(match.summary.known == 2)
        #expect(match.summary.new == 2)
        let summary = JSONValue.object(match.summary.json)
        #expect(summary["known"] == 2)
        #expect(summary["suppressed"] == 1)
        #expect(summary["new"] == 2)
        #expect(summary["gone"] == 1)
        #expect(summary["newBySeverity"] == ["error": 1, "warning": 1, "info": 0])
    }

    @Test("an earlier report.json is a baseline too: its findings are the known set, its pages kept to compare")
    func reportAsBaseline() throws {
        let report: JSONValue = [
            "tool": "spotcheck", "kind": "crawl",
            "pages": [
                [
                    "url": "https://www.example.com/movies/up.html",
                    "finalURL": "https://www.example.com/movies/up.html",
                    "findings": [.object(Self.finding().json)], "markup": ["attributeSet": ["title": "Up"]],
                    "headers": [["Server", "x"]],
                ]
            ],
            "siteFindings": [.object(Self.finding("SD001", url: "https://www.example.com/", excerpt: "").json)],
        ]
        let folder = Scratch.path("baseline")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(report.serialized(pretty: true).utf8).write(to: URL(fileURLWithPath: folder + "/report.json"))
        let baseline = try FindingBaseline.load(folder)
        #expect(baseline.source == .report)
        #expect(baseline.file == folder + "/report.json")
        #expect(baseline.findingCount == 2)
        var match = BaselineMatch(baseline)
        #expect(match.classify([Self.finding(url: "http://127.0.0.1:9/movies/up.html", line: 50)]) == [true])
        let earlier = try #require(baseline.earlierReport)
        #expect(earlier["pages"]?[0]?["headers"] == nil)
        #expect(earlier["pages"]?[0]?["markup"]?["attributeSet"]?["title"] == "Up")
        #expect(earlier["siteFindings"]?.arrayValue?.count == 1)
    }

    @Test("SARIF marks the known findings as suppressed and unchanged, the others as new; JUnit leaves them out")
    func machineReports() throws {
        let known = Self.finding()
        let new = Self.finding("SAB020", url: "https://www.example.com/b.html")
        var files = ReportFiles(formats: [.sarif, .junit], toolVersion: "test")
        files.knownFindings = FindingBaseline(findings: [known])
        let folder = Scratch.path("baseline")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var match = BaselineMatch(FindingBaseline(findings: [known]))
        let marked = match.marked([known, new])
        #expect(marked.map(\.isSuppressed) == [true, false])
        _ = try files.write(
            pages: [(known.url, [marked[0]]), (new.url, [marked[1]])], siteFindings: [], suite: "test", into: folder)
        let sarif = try #require(
            JSONParser.parse(try String(contentsOfFile: folder + "/findings.sarif", encoding: .utf8), lenient: false)
                .value)
        let results = try #require(sarif["runs"]?[0]?["results"]?.arrayValue)
        #expect(results.map { $0["baselineState"]?.stringValue } == ["unchanged", "new"])
        #expect(results[0]["suppressions"]?[0]?["kind"] == "external")
        #expect(results[0]["suppressions"]?[0]?["status"] == "accepted")
        #expect(results[1]["suppressions"] == nil)
        let junit = try String(contentsOfFile: folder + "/junit.xml", encoding: .utf8)
        #expect(junit.contains("failures=\"1\""))
        #expect(junit.contains("SAB020"))
        #expect(!junit.contains("SAB003"))
    }
}
