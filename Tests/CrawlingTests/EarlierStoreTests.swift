import Foundation
import GRDB
import SpotCheckTestSupport
import Testing

/// A crawl folder an earlier SpotCheck wrote keeps its pages as JSON text (payload versions 1-4),
/// which this one no longer reads: `report` says so, names the page and what to do, and exits 9.
@Suite("a crawl folder of an earlier version")
struct EarlierStoreTests {
    /// A crawl of the fixture movies, its store then changed by `sql`; returns the output folder.
    static func crawlThenTamper(_ name: String, _ sql: String) async throws -> String {
        let folder = try temporaryFolder(name)
        let crawl = try await runProcess(
            try spotcheckExecutable(),
            ["crawl", TestSite.fixtureRoot + "/movies", "--output", folder + "/out", "--quiet"])
        #expect(crawl.status == 0, "\(crawl.output)")
        let queue = try DatabaseQueue(path: folder + "/out/crawl.sqlite")
        try await queue.write { db in try db.execute(sql: sql) }
        try queue.close()
        return folder
    }

    @Test func reportRefusesPagesStoredAsJSONTextNamingThePageAndWhatToDo() async throws {
        // What an earlier version left: JSON text columns, no binary payload, its payload version.
        let folder = try await Self.crawlThenTamper(
            "earlier-store", "UPDATE page SET payload = NULL, markup = NULL, payload_version = 4")

        let report = try await runProcess(try spotcheckExecutable(), ["report", folder + "/out"])
        #expect(report.status == 9, "\(report.output)")
        #expect(report.output.contains("stored by an earlier spotcheck (payload version 4"), "\(report.output)")
        #expect(report.output.contains("crawl again into a new --output folder"), "\(report.output)")
        #expect(report.output.contains("http://127.0.0.1:"), "names the page: \(report.output)")
    }

    @Test func reportRefusesADamagedPayloadNamingThePage() async throws {
        let folder = try await Self.crawlThenTamper("damaged-store", "UPDATE page SET payload = x'ff00ff'")
        let report = try await runProcess(try spotcheckExecutable(), ["report", folder + "/out"])
        #expect(report.status == 9, "\(report.output)")
        #expect(report.output.contains("its stored payload is damaged"), "\(report.output)")
        #expect(report.output.contains("http://127.0.0.1:"), "names the page: \(report.output)")
    }
}
