import CrawlJobs
import CrawlStore
import Crawling
import Foundation
import LenientJSON
import Testing

/// `report.json` written from a store filled by hand (no crawl), for the parts a fixture crawl
/// does not reach.
@Suite("report.json from a hand-filled store")
struct ReportWriterTests {
    /// A site file of another kind sorted before the association file: the `universalLinks`
    /// array must still be valid JSON (it once wrote `[,` because the separator was chosen from
    /// the index before the kind filter).
    @Test func universalLinksListsOnlyAssociationFilesWhateverElseTheStoreHolds() throws {
        let folder = try temporaryFolder("report-site-files")
        let store = try CrawlStore(path: folder + "/crawl.sqlite")
        _ = try store.beginRun(seed: "https://www.example.com/", settingsJSON: "{}", at: 1_700_000_000)
        // `siteFiles()` is ordered by URL: the other kind comes first.
        try store.saveSiteFile(
            CrawlStore.SiteFileRecord(
                url: "https://www.example.com/.well-known/another-file", kind: "other",
                summaryJSON: #"{"url":"https://www.example.com/.well-known/another-file"}"#, findingsJSON: "[]",
                fetchedAt: 1_700_000_001))
        try store.saveSiteFile(
            CrawlStore.SiteFileRecord(
                url: "https://www.example.com/.well-known/apple-app-site-association", kind: "aasa",
                summaryJSON: #"{"url":"https://www.example.com/.well-known/apple-app-site-association"}"#,
                findingsJSON: "[]", fetchedAt: 1_700_000_002))
        try store.saveSiteFile(
            CrawlStore.SiteFileRecord(
                url: "https://www.example.com/zz-last-file", kind: "other", summaryJSON: #"{"url":"z"}"#,
                findingsJSON: "[]", fetchedAt: 1_700_000_003))

        let path = try CrawlReportWriter(store: store, mapping: nil).write(into: folder).path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let parsed = JSONParser.parse(text, lenient: false)
        let report = try #require(parsed.value, "report.json does not parse: \(parsed)")
        let universalLinks = try #require(report["universalLinks"]?.arrayValue)
        #expect(
            universalLinks.map { $0["url"]?.stringValue }
                == ["https://www.example.com/.well-known/apple-app-site-association"])
    }

    @Test func universalLinksIsAnEmptyArrayWhenOnlyOtherKindsAreStored() throws {
        let folder = try temporaryFolder("report-other-site-files")
        let store = try CrawlStore(path: folder + "/crawl.sqlite")
        _ = try store.beginRun(seed: "https://www.example.com/", settingsJSON: "{}", at: 1_700_000_000)
        try store.saveSiteFile(
            CrawlStore.SiteFileRecord(
                url: "https://www.example.com/other", kind: "other", summaryJSON: "{}", findingsJSON: "[]",
                fetchedAt: 1_700_000_001))
        let path = try CrawlReportWriter(store: store, mapping: nil).write(into: folder).path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let report = try #require(JSONParser.parse(text, lenient: false).value)
        #expect(report["universalLinks"]?.arrayValue?.isEmpty == true)
        #expect(text.contains(#""universalLinks": [],"#))
    }
}
