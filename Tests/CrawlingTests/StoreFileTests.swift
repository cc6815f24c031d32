import Foundation
import LenientJSON
import SpotCheckTestSupport
import Testing

/// `crawl --store FILE`: the SQLite crawl store kept outside the output folder (issue 12 §1).
@Suite("A crawl store file of its own")
struct StoreFileTests {
    @Test func theStoreGoesWhereItIsNamedAndReportsComeFromIt() async throws {
        let executable = try spotcheckExecutable()
        let root = try temporaryFolder("store-file")
        let stores = root + "/stores"
        try FileManager.default.createDirectory(atPath: stores, withIntermediateDirectories: true)
        let store = stores + "/fixture.sqlite"
        let crawl = try await runProcess(
            executable,
            [
                "crawl", TestSite.fixtureRoot, "--store", store, "--output", root + "/out", "--quiet", "--app-id",
                "1234567890",
            ])
        #expect(crawl.status == 0, "\(crawl.output)")
        #expect(FileManager.default.fileExists(atPath: store))
        #expect(!FileManager.default.fileExists(atPath: root + "/out/crawl.sqlite"))
        let report = try #require(
            JSONParser.parse(try String(contentsOfFile: root + "/out/report.json", encoding: .utf8), lenient: false)
                .value)

        // `report FILE` writes the same report from the store.
        let again = try await runProcess(executable, ["report", store, "--output", root + "/again"])
        #expect(again.status == 0, "\(again.output)")
        let rewritten = try #require(
            JSONParser.parse(try String(contentsOfFile: root + "/again/report.json", encoding: .utf8), lenient: false)
                .value)
        #expect(rewritten["summary"] == report["summary"])
        #expect(rewritten["pages"]?.arrayValue?.count == report["pages"]?.arrayValue?.count)

        // The crawl there is over: --resume says so and names the store (exit 6).
        let resumed = try await runProcess(executable, ["crawl", "--resume", "--store", store, "--quiet"])
        #expect(resumed.status == 6)
        #expect(resumed.output.contains("\(store): the crawl there finished"))

        // A store file that does not exist has no crawl to resume.
        let missing = try await runProcess(
            executable, ["crawl", "--resume", "--store", stores + "/none.sqlite", "--output", root + "/none"])
        #expect(missing.status == 6)
        #expect(missing.output.contains("none.sqlite: no such crawl store"))
    }
}
