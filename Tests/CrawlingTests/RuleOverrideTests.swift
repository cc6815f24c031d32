import Foundation
import LenientJSON
import SpotCheckTestSupport
import Testing

/// Issue 31 §7: per-path rule levels in `.spotcheck.json` (`"overrides"`, as ESLint's), matched
/// against the file's path under the named folder (`validate`) or the URL's path (`crawl`).
@Suite("per-path rule levels (overrides)", .serialized)
struct RuleOverrideTests {
    static let noindexPage = """
        <!DOCTYPE html><html><head><meta charset="utf-8"><title>Terms of use</title>
        <meta name="robots" content="noindex"></head><body><h1>Terms</h1></body></html>

        """

    /// `site/legal/terms.html` and `site/about.html`, both `noindex`, a home page linking to them,
    /// and the project file.
    static func makeProject(_ name: String, configuration: String) throws -> String {
        let tmp = try temporaryFolder(name)
        try FileManager.default.createDirectory(atPath: tmp + "/site/legal", withIntermediateDirectories: true)
        try Data(noindexPage.utf8).write(to: URL(fileURLWithPath: tmp + "/site/legal/terms.html"))
        try Data(noindexPage.utf8).write(to: URL(fileURLWithPath: tmp + "/site/about.html"))
        // The home page links to both, for the crawl.
        try Data(
            #"<!DOCTYPE html><html><head><title>Home</title></head><body><a href="about.html">About</a> <a href="legal/terms.html">Terms</a></body></html>"#
                .utf8
        ).write(to: URL(fileURLWithPath: tmp + "/site/index.html"))
        try Data(configuration.utf8).write(to: URL(fileURLWithPath: tmp + "/.spotcheck.json"))
        return tmp
    }

    /// Each finding of the report as `RULE severity path`, the path after the site's root.
    static func findings(_ folder: String) throws -> [String] {
        let text = try String(contentsOfFile: folder + "/report.json", encoding: .utf8)
        let report = try #require(JSONParser.parse(text, lenient: false).value)
        return (report["pages"]?.arrayValue ?? []).flatMap { page in
            (page["findings"]?.arrayValue ?? []).compactMap { finding -> String? in
                guard let rule = finding["rule"]?.stringValue, let url = finding["url"]?.stringValue,
                    let severity = finding["severity"]?.stringValue
                else { return nil }
                let path = url.components(separatedBy: "/site/").last ?? url
                return "\(rule) \(severity) \(path.components(separatedBy: ".invalid/").last ?? path)"
            }
        }
    }

    @Test("legal/** switches IX002 off there only", arguments: ["validate", "crawl"])
    func overrideAppliesToMatchingPagesOnly(_ command: String) async throws {
        let tmp = try Self.makeProject(
            "overrides-\(command)",
            configuration: #"{"overrides": [{"files": ["legal/**"], "rules": {"IX002": "off"}}]}"#)
        var arguments = [command, "site", "--output", "out"]
        if command == "crawl" { arguments.append("--quiet") }
        let result = try await runProcess(try spotcheckExecutable(), arguments, in: tmp)
        #expect([0, 1].contains(result.status), "\(result.output)")
        let ix002 = try Self.findings(tmp + "/out").filter { $0.hasPrefix("IX002 ") }
        #expect(ix002 == ["IX002 error about.html"], "\(ix002)")
    }

    @Test("a later override wins; --rule wins over them all")
    func orderAndCommandLine() async throws {
        let tmp = try Self.makeProject(
            "overrides-order",
            configuration: #"""
                {"overrides": [{"files": ["legal/**"], "rules": {"IX002": "off"}},
                               {"files": ["*.html"], "rules": {"IX0*": "info"}}]}
                """#)
        let later = try await runProcess(try spotcheckExecutable(), ["validate", "site", "--output", "a"], in: tmp)
        #expect(later.status == 0, "\(later.output)")
        let ix002 = try Self.findings(tmp + "/a").filter { $0.hasPrefix("IX002 ") }.sorted()
        #expect(ix002 == ["IX002 info about.html", "IX002 info legal/terms.html"], "\(ix002)")
        let forced = try await runProcess(
            try spotcheckExecutable(), ["validate", "site", "--output", "b", "--rule", "IX002=off"], in: tmp)
        #expect(forced.status == 0, "\(forced.output)")
        #expect(try Self.findings(tmp + "/b").filter { $0.hasPrefix("IX002 ") }.isEmpty)
    }

    @Test(
        "an unknown rule or key in an override is exit 7, naming the file and the place",
        arguments: [
            (
                #"{"overrides": [{"files": ["legal/**"], "rules": {"IX999": "off"}}]}"#,
                #"overrides[0].rules: unknown rule "IX999""#
            ),
            (
                #"{"overrides": [{"files": ["legal/**"], "rule": {"IX002": "off"}}]}"#,
                #"overrides[0]: unknown key "rule""#
            ),
            (
                #"{"overrides": [{"files": [], "rules": {"IX002": "off"}}]}"#,
                "overrides[0].files: must be a non-empty array"
            ),
            (#"{"overrides": {"files": ["x"]}}"#, "overrides: expected an array of"),
            (#"{"override": []}"#, #"unknown key "override" (did you mean "overrides"?)"#),
        ])
    func invalidOverride(_ configuration: String, _ says: String) async throws {
        let tmp = try Self.makeProject("overrides-invalid", configuration: configuration)
        let result = try await runProcess(try spotcheckExecutable(), ["validate", "site", "--output", "out"], in: tmp)
        #expect(result.status == 7, "\(result.output)")
        #expect(result.output.contains("\(tmp)/.spotcheck.json: \(says)"), "\(result.output)")
        #expect(!FileManager.default.fileExists(atPath: tmp + "/out"))
    }
}
