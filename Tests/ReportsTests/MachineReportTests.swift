import LenientJSON
import Reports
import Rulebook
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
        #expect(rules[0]["name"] == "`apple-itunes-app` present with empty or missing `content`")
        #expect(rules[0]["helpUri"] == "https://github.com/spotcheck/spotcheck/blob/main/docs/rules.md#sab001")
        let location = first["locations"]?[0]?["physicalLocation"]
        #expect(location?["artifactLocation"]?["uri"] == "https://www.example.com/a.html")
        #expect(location?["artifactLocation"]?["uriBaseId"] == nil)
        #expect(run["originalUriBaseIds"] == nil)
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
            xml.contains(
                #"<failure type="SAB003" message="SAB003 (line 13, column 5): app-id &quot;x&quot; is not all digits">"#
            ))
        #expect(
            xml.contains(#"<testcase classname="https://www.example.com/" name="https://www.example.com/c.html"/>"#))
        #expect(xml.contains("<system-out>info SAB004 line 13: short</system-out>"))
        // Nothing of the hostile message survives unescaped.
        #expect(!xml.contains("<script>"))
        #expect(xml.contains("&lt;/script&gt;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; ]]&gt; \u{FFFD}"))
    }

    /// Issue 15: 25 failures declared for 19 failing cases. A case with several errors fails once.
    @Test func junitFailuresCountFailingCasesNotErrors() {
        let second = Finding(
            rule: .sab005, severity: .error, url: "https://www.example.com/a.html", line: 14, excerpt: "<meta>",
            message: "not a URL", fixHint: "Write an absolute URL.")
        let report = JUnitReport(
            suiteName: "s",
            cases: [
                .init(name: "a", findings: [Self.findings[0], second, Self.findings[2]]),
                .init(name: "b", findings: [Self.findings[2]]),
                .init(name: "c", findings: []),
            ])
        #expect(report.failures == 1)
        let xml = report.xml
        #expect(xml.contains(#"<testsuites name="spotcheck" tests="3" failures="1" errors="0" skipped="0">"#))
        #expect(xml.contains(#"<testsuite name="s" tests="3" failures="1" errors="0" skipped="0">"#))
        #expect(xml.components(separatedBy: "<failure ").count - 1 == 1)
        #expect(
            xml.contains(
                #"type="SAB003 SAB005" message="SAB003 (line 13, column 5): app-id &quot;x&quot; is not all digits (and 1 more error)""#
            ))
        // Every error is in the failure's text, with its line and fix.
        #expect(xml.contains("SAB005 (line 14): not a URL\n&lt;meta&gt;\nFix: Write an absolute URL.</failure>"))
    }

    /// Where SARIF puts a finding: its URL as the artifact, a file under the source root relative
    /// to `%SRCROOT%`, what is no URI reference (an app's local item) as a logical location.
    @Test(
        arguments: [
            ("https://www.example.com/a.html", nil, "https://www.example.com/a.html", nil),
            ("file:///work/site/a.html", "file:///work/", "site/a.html", "%SRCROOT%"),
            ("file:///work/site/a%20b.html", "file:///work", "site/a%20b.html", "%SRCROOT%"),
            ("file:///work/a:b.html", "file:///work/", "./a:b.html", "%SRCROOT%"),
            ("file:///elsewhere/a.html", "file:///work/", "file:///elsewhere/a.html", nil),
            ("local item colleague-grace-mensah", nil, nil, nil),
            ("https://www.example.com/a b?q=|^#x#y", nil, "https://www.example.com/a%20b?q=%7C%5E#x%23y", nil),
            ("https://[::1]:8080/a[1]", nil, "https://[::1]:8080/a%5B1%5D", nil),
            ("https://www.example.com/100%", nil, "https://www.example.com/100%25", nil),
            ("", nil, "", nil),
        ] as [(String, String?, String?, String?)])
    func sarifLocations(url: String, sourceRoot: String?, uri: String?, baseID: String?) throws {
        let finding = Finding(
            rule: .as001, severity: .warning, url: url, line: 0, excerpt: "", message: "m", fixHint: "")
        let log = SARIFLog(toolVersion: "0", findings: [finding], sourceRoot: sourceRoot).json
        let run = try #require(log["runs"]?[0])
        let location = try #require(run["results"]?[0]?["locations"]?[0])
        if let uri {
            #expect(location["physicalLocation"]?["artifactLocation"]?["uri"]?.stringValue == uri)
            #expect(location["physicalLocation"]?["artifactLocation"]?["uriBaseId"]?.stringValue == baseID)
            let declared = run["originalUriBaseIds"]?["%SRCROOT%"]?["uri"]?.stringValue
            #expect(declared == (baseID == nil ? nil : "file:///work/"))
        } else {
            #expect(location["physicalLocation"] == nil)
            #expect(location["logicalLocations"]?[0]?["fullyQualifiedName"]?.stringValue == url)
        }
    }

    /// `partialFingerprints` identify a finding by rule, place and excerpt, not by its line, and
    /// tell apart the same finding twice on a page by its occurrence.
    @Test func sarifFingerprintsIgnoreTheLineAndCountOccurrences() throws {
        var moved = Self.findings[0]
        moved.line = 40
        let fingerprints = try [
            [Self.findings[0]], [moved], [Self.findings[0], Self.findings[0]],
        ].map { findings in
            let results = try #require(
                SARIFLog(toolVersion: "0", findings: findings).json["runs"]?[0]?["results"]?.arrayValue)
            return results.map { $0["partialFingerprints"]?["spotcheckFinding/v1"]?.stringValue ?? "" }
        }
        #expect(fingerprints[0] == fingerprints[1])
        #expect(fingerprints[0][0].hasSuffix(":1") && fingerprints[0][0].count == 34)
        #expect(fingerprints[2] == [fingerprints[0][0], String(fingerprints[0][0].dropLast()) + "2"])
    }
}
