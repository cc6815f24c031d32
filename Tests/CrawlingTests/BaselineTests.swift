import Foundation
import LenientJSON
import Reports
import SpotCheckTestSupport
import Testing

/// `crawl --baseline OLD`: what changed since an earlier crawl, in baseline-diff.json and the HTML report.
@Suite("crawl --baseline", .serialized)
struct BaselineTests {
    @Test func aSecondCrawlReportsWhatChanged() async throws {
        let executable = try spotcheckExecutable()
        let folder = try temporaryFolder("baseline")
        let first = try await runProcess(
            executable, ["crawl", TestSite.fixtureRoot, "--output", folder + "/old", "--quiet"])
        #expect(first.status == 0, "\(first.output)")
        // --app-id turns SAB020 on: one new finding, nothing else changes.
        let second = try await runProcess(
            executable,
            [
                "crawl", TestSite.fixtureRoot, "--app-id", "1234567890", "--baseline", folder + "/old", "--output",
                folder + "/new", "--format", "json,html",
            ])
        #expect(second.status == 0, "\(second.output)")
        #expect(second.output.contains("since the baseline: 0 findings fixed, 1 new, 0 candidates gained, 0 lost"))
        let diff = try #require(
            JSONParser.parse(
                try String(contentsOfFile: folder + "/new/baseline-diff.json", encoding: .utf8), lenient: false
            )
            .value)
        #expect(diff["findingsNew"]?.arrayValue?.map { $0["rule"]?.stringValue } == ["SAB020"])
        #expect(diff["pagesAdded"] == [])
        // The pass's comparison is the one of the two report.json files.
        let reread = ReportDiff(
            old: try #require(ReportDiff.loadReport(folder + "/old").report),
            new: try #require(ReportDiff.loadReport(folder + "/new").report))
        #expect(diff == reread.json)
        let html = try String(contentsOfFile: folder + "/new/index.html", encoding: .utf8)
        #expect(html.contains("Changes since the baseline"))
        #expect(html.contains("SAB020 https://www.example.com/broken/sab-app-id-not-digits.html"))
    }
}
