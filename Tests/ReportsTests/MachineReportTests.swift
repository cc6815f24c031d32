import LenientJSON
import Reports
import Testing
import Verification

@Suite("SARIF and JUnit reports")
struct MachineReportTests {
    static let hostile = #"</script><script>alert("x")</script> & ]]> \#u{0001}"#

    static let findings = [
        Finding(
            rule: .sab003, severity: .error, url: "https://www.example.com/a.html", line: 13, column: 5,
            excerpt: "<meta name=\"apple-itunes-app\" content=\"app-id=x\">", message: "app-id \"x\" is not all digits",
            fixHint: "Use the numeric App Store ID."),
        Finding(
            rule: .ct002, severity: .error, url: "https://www.example.com/b.html", line: 0, excerpt: "",
            message: hostile, fixHint: ""),
        Finding(
            rule: .sab004, severity: .info, url: "https://www.example.com/a.html", line: 13, excerpt: "",
            message: "short", fixHint: ""),
    ]

    @Test func sarifHasTheCatalogueAsRulesAndOneLocatedResultPerFinding() throws {
        let log = SARIFLog(toolVersion: "0.1.0", findings: Self.findings).json
        #expect(log["version"] == "2.1.0")
        let run = try #require(log["runs"]?[0])
        let rules = try #require(run["tool"]?["driver"]?["rules"]?.arrayValue)
        #expect(rules.count == RuleCatalogue.all.count)
        #expect(rules.allSatisfy { $0["help"]?["text"]?.stringValue?.contains("Source: ") == true })
        let results = try #require(run["results"]?.arrayValue)
        #expect(results.map { $0["level"]?.stringValue } == ["error", "error", "note"])
        let first = results[0]
        #expect(first["ruleId"] == "SAB003")
        #expect(rules[first["ruleIndex"]?.intValue ?? -1]["id"] == "SAB003")
        let location = first["locations"]?[0]?["physicalLocation"]
        #expect(location?["artifactLocation"]?["uri"] == "https://www.example.com/a.html")
        #expect(location?["region"]?["startLine"] == 13)
        #expect(location?["region"]?["startColumn"] == 5)
        // Line 0 (about the page or response): no region, as SARIF requires startLine >= 1.
        #expect(results[1]["locations"]?[0]?["physicalLocation"]?["region"] == nil)
        // The log is valid JSON once serialized, hostile text included.
        let text = log.serialized(pretty: false)
        #expect(JSONParser.parse(text, lenient: false).value == log)
    }

    @Test func junitHasACasePerPageAndAFailurePerError() {
        let xml = JUnitReport(
            suiteName: "https://www.example.com/",
            cases: [
                .init(name: "https://www.example.com/a.html", findings: [Self.findings[0], Self.findings[2]]),
                .init(name: "https://www.example.com/b.html", findings: [Self.findings[1]]),
                .init(name: "https://www.example.com/c.html", findings: []),
            ]
        ).xml
        #expect(xml.contains(#"tests="3" failures="2""#))
        #expect(xml.components(separatedBy: "<failure ").count - 1 == 2)
        #expect(
            xml.contains(#"<testcase classname="https://www.example.com/" name="https://www.example.com/c.html"/>"#))
        #expect(xml.contains("<system-out>info SAB004 line 13: short</system-out>"))
        // Nothing of the hostile message survives unescaped.
        #expect(!xml.contains("<script>"))
        #expect(xml.contains("&lt;/script&gt;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; ]]&gt; \u{FFFD}"))
    }
}
