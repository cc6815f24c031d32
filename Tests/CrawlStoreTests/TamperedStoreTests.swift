import CrawlStore
import GRDB
import Testing

/// Issue 17 §2.14: a store changed by hand (a text where SpotCheck writes a number) is an error
/// that names the column and the row, never a crash (GRDB's row subscripts trap on such values).
@Suite("A tampered crawl store")
struct TamperedStoreTests {
    static func tampered(_ sql: String) throws -> (TemporaryFolder, CrawlStore) {
        let folder = try TemporaryFolder()
        let store = try folder.storeWithRun()
        let added = try store.enqueue([entry("/a"), entry("/b")])
        _ = try store.complete(page(for: added[1]), discovered: [], skipped: [])
        let queue = try DatabaseQueue(path: folder.database)
        try queue.write { try $0.execute(sql: sql) }
        try queue.close()
        return (folder, store)
    }

    @Test func aTextDepthInTheFrontierIsAnErrorNamingColumnAndRow() throws {
        let (folder, store) = try Self.tampered("UPDATE frontier SET depth = 'abc' WHERE url = 'https://a.test/a'")
        let error = #expect(throws: CrawlStoreError.self) { try store.claim(host: "a.test", limit: 10, now: 200) }
        #expect(error?.path == folder.database)
        #expect(error?.message.contains(#"database value "abc""#) == true, "\(String(describing: error))")
        #expect(error?.message.contains(#"column: "depth""#) == true)
        #expect(error?.message.contains("in the row id:1") == true)
    }

    @Test func aTextStatusInAPageIsAnErrorAndTheMessageStaysShort() throws {
        let (folder, store) = try Self.tampered("UPDATE page SET status = 'x'")
        let error = #expect(throws: CrawlStoreError.self) {
            try store.forEachPage(batchSize: 64, includingMarkupDump: false) { _ in }
        }
        #expect(error?.message.contains(#"column: "status""#) == true, "\(String(describing: error))")
        #expect((error?.message.count ?? .max) < 400, "the row's stored markup is not repeated")
        #expect(error?.path == folder.database)
    }
}
