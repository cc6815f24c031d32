import Foundation
import GRDB
import SpotCheckTestSupport
import Testing

/// A crawl folder an earlier SpotCheck wrote keeps its pages as JSON text (payload versions 1-4),
/// which this one no longer reads: `report` says so, names the page and what to do, and exits 9.
@Suite("a crawl folder of an earlier version")
struct EarlierStoreTests {
    @Test func reportRefusesPagesStoredAsJSONTextNamingThePageAndWhatToDo() async throws {
        let folder = try temporaryFolder("earlier-store")
        let crawl = try await runProcess(
            try spotcheckExecutable(),
            ["crawl", TestSite.fixtureRoot + "/movies", "--output", folder + "/out", "--quiet"])
        #expect(crawl.status == 0, "\(crawl.output)")
        // What an earlier version left: JSON text columns, no binary payload, its payload version.
        let queue = try DatabaseQueue(path: folder + "/out/crawl.sqlite")
        try await queue.write { db in
            try db.execute(sql: "UPDATE page SET payload = NULL, markup = NULL, payload_version = 4")
        }
        try queue.close()

        let report = try await runProcess(try spotcheckExecutable(), ["report", folder + "/out"])
        #expect(report.status == 9, "\(report.output)")
        #expect(report.output.contains("stored by an earlier spotcheck (payload version 4"), "\(report.output)")
        #expect(report.output.contains("crawl again into a new --output folder"), "\(report.output)")
        #expect(report.output.contains("http://127.0.0.1:"), "names the page: \(report.output)")
    }
}
