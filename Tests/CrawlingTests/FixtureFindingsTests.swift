import Foundation
import LenientJSON
import SpotCheckTestSupport
import Testing

/// The fixture site crawled end to end with `--app-id 1234567890`: every finding, page-level and
/// site-level, as `RULE URL` lines, equals the golden file. Fixtures/html/MANIFEST.md says which
/// rules each page was made for. Re-record after an intended change with
/// `SPOTCHECK_RECORD_GOLDEN=1 swift test --filter FixtureFindingsTests`, then read the diff.
@Suite("Fixture site findings (golden)", .serialized)
struct FixtureFindingsTests {
    static let golden = TestSite.projectRoot.appendingPathComponent(
        "Tests/CrawlingTests/Golden/fixture-crawl-findings.txt")

    @Test func theFixtureCrawlFindsExactlyTheGoldenFindings() async throws {
        let executable = try spotcheckExecutable()
        let folder = try temporaryFolder("golden-crawl")
        let run = try await runProcess(
            executable, ["crawl", TestSite.fixtureRoot, "--output", folder, "--quiet", "--app-id", "1234567890"])
        #expect(run.status == 0, "\(run.output)")
        let text = try String(contentsOfFile: folder + "/report.json", encoding: .utf8)
        let report = try #require(JSONParser.parse(text, lenient: false).value)
        var lines: [String] = []
        for page in report["pages"]?.arrayValue ?? [] {
            for finding in page["findings"]?.arrayValue ?? [] {
                lines.append("\(finding["rule"]?.stringValue ?? "?") \(finding["url"]?.stringValue ?? "?")")
            }
        }
        for finding in report["siteFindings"]?.arrayValue ?? [] {
            lines.append("\(finding["rule"]?.stringValue ?? "?") \(finding["url"]?.stringValue ?? "?") (site)")
        }
        let found = lines.sorted().joined(separator: "\n") + "\n"
        if ProcessInfo.processInfo.environment["SPOTCHECK_RECORD_GOLDEN"] == "1" {
            try found.write(to: Self.golden, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOf: Self.golden, encoding: .utf8)
        #expect(found == expected)

        // Public-index candidates (MANIFEST.md): every 200 page but the three made not to be.
        var notCandidates: [String: [String]] = [:]
        for page in report["pages"]?.arrayValue ?? [] {
            guard let candidate = page["markup"]?["candidate"], candidate["isCandidate"]?.boolValue == false else {
                continue
            }
            notCandidates[page["url"]?.stringValue ?? "?"] =
                candidate["failing"]?.arrayValue?.compactMap(\.stringValue) ?? []
        }
        #expect(
            notCandidates == [
                "https://www.example.com/broken/noindex.html": ["noindex"],
                "https://www.example.com/broken/missing-description.html": ["no-description"],
                "https://www.example.com/broken/no-deep-link.html": ["no-deep-link"],
                // Its description is added by a script (IX015 with --render).
                "https://www.example.com/rendered/injected.html": ["no-description"],
            ])
        let candidates = try String(contentsOfFile: folder + "/candidates.jsonl", encoding: .utf8).split(
            separator: "\n")
        #expect(candidates.count == report["summary"]?["candidates"]?.intValue)
        #expect(candidates.count == 37)
        let items = candidates.compactMap { JSONParser.parse(String($0), lenient: false).value }
        #expect(items.contains { $0["uniqueIdentifier"]?.stringValue == "https://www.example.com/movies/up.html" })
        #expect(
            !items.contains { $0["uniqueIdentifier"]?.stringValue == "https://www.example.com/broken/noindex.html" })

        // report.json follows its published schema (docs/report.schema.json); a broken copy does not.
        let schema = try #require(
            JSONParser.parse(
                try String(
                    contentsOf: TestSite.projectRoot.appendingPathComponent("docs/report.schema.json"), encoding: .utf8),
                lenient: false
            ).value)
        let check = JSONSchemaCheck(root: schema)
        #expect(check.problems(report) == [])
        var broken = report.objectValue ?? JSONObject()
        _ = broken.removeValue(forKey: "siteFindings")
        _ = broken.removeValue(forKey: "schemaVersion")
        broken.append("schemaVersion", 3)
        #expect(check.problems(.object(broken)).count >= 2)

        // `report` writes the same report again from the store, without fetching.
        let again = try await runProcess(
            executable, ["report", folder, "--output", folder + "-again", "--format", "json,sarif,junit"])
        #expect(again.status == 0, "\(again.output)")
        let rewritten = try #require(
            JSONParser.parse(try String(contentsOfFile: folder + "-again/report.json", encoding: .utf8), lenient: false)
                .value)
        #expect(rewritten["summary"] == report["summary"])
        #expect(rewritten["siteFindings"] == report["siteFindings"])
        #expect(rewritten["pages"]?.arrayValue?.count == report["pages"]?.arrayValue?.count)
        let sarif = try #require(
            JSONParser.parse(
                try String(contentsOfFile: folder + "-again/findings.sarif", encoding: .utf8), lenient: false
            )
            .value)
        #expect(sarif["runs"]?[0]?["results"]?.arrayValue?.count == lines.count)
        #expect(FileManager.default.fileExists(atPath: folder + "-again/junit.xml"))
    }
}
