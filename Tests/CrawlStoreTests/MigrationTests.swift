import CrawlStore
import GRDB
import Testing

/// Stores written before the typed verdict columns (schema v3) keep working: the migration fills
/// the columns from the analysis each page carries.
@Suite("Crawl store: migrating an earlier store")
struct MigrationTests {
    /// Payload 1 had the summary spliced in first; older stores had only the analysis's own members.
    static let payloads = [
        #"{"summary":{"uniqueIdentifier":"https://a.test/","canonical":"https://a.test/","appArgument":"app://x","title":"Up","description":"A house flies.","thumbnailURL":"https://a.test/up.jpg","candidate":{"isCandidate":false,"failing":["noindex","no-deep-link"]}},"url":"https://a.test/"}"#,
        #"{"url":"https://a.test/","uniqueIdentifier":"https://a.test/","canonical":["https://a.test/"],"smartAppBanner":{"appArgument":"app://x"},"attributeSet":{"title":"Up","contentDescription":"A house flies.","thumbnailURL":"https://a.test/up.jpg"},"candidate":{"isCandidate":false,"failing":["noindex","no-deep-link"]}}"#,
    ]

    @Test(
        "an earlier store's pages get their verdict and finding counts from their stored analysis", arguments: payloads)
    func backfill(payload: String) throws {
        let folder = try TemporaryFolder()
        do {
            let store = try folder.storeWithRun()
            let home = try store.enqueue([entry("/", depth: 0, discovery: .seed)])[0]
            let record = page(for: try store.claim(host: home.host, limit: 1, now: 0)[0])
            _ = try store.complete(record, discovered: [], skipped: [])
        }
        // Make it the store an earlier SpotCheck wrote: its JSON text columns, no v3 columns, v3 not applied.
        let queue = try DatabaseQueue(path: folder.database)
        try queue.write { db in
            try db.execute(
                sql: "UPDATE page SET markup_json = ?, findings_json = ?",
                arguments: [payload, #"[{"rule":"IX002","severity":"error"},{"rule":"SAB007","severity":"warning"}]"#])
            for column in [
                "unique_identifier", "canonical", "app_argument", "title", "description", "thumbnail_url",
                "is_candidate", "failing_conditions", "error_count", "warning_count", "info_count", "payload_version",
            ] {
                try db.execute(sql: "ALTER TABLE page DROP COLUMN \(column)")
            }
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v3'")
        }
        try queue.close()

        let store = try CrawlStore(path: folder.database)
        var pages: [PageRecord] = []
        try store.forEachPage(batchSize: 10) { pages += $0 }
        let migrated = try #require(pages.first)
        #expect(
            migrated.verdict
                == PageVerdict(
                    uniqueIdentifier: "https://a.test/", canonical: "https://a.test/", appArgument: "app://x",
                    title: "Up", contentDescription: "A house flies.", thumbnailURL: "https://a.test/up.jpg",
                    isCandidate: false, failingConditions: ["noindex", "no-deep-link"]))
        #expect(migrated.findingCounts == FindingCounts(errors: 1, warnings: 1, infos: 0))
        #expect(migrated.payloadVersion == 1)
    }

    @Test("a page stored now keeps its typed verdict as written")
    func roundTrip() throws {
        let folder = try TemporaryFolder()
        let store = try folder.storeWithRun()
        let home = try store.enqueue([entry("/", depth: 0, discovery: .seed)])[0]
        var record = page(for: try store.claim(host: home.host, limit: 1, now: 0)[0])
        record.verdict = PageVerdict(canonical: "https://a.test/", isCandidate: true)
        record.findingCounts = FindingCounts(errors: 0, warnings: 2, infos: 1)
        _ = try store.complete(record, discovered: [], skipped: [])
        var pages: [PageRecord] = []
        try store.forEachPage(batchSize: 10) { pages += $0 }
        #expect(pages == [record])
    }
}
