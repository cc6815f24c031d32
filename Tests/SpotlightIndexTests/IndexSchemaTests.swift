import Foundation
import GRDB
import Testing

@testable import SpotlightIndex

/// The SQLite index's schema v2 (type-ahead at a million items): matches read best-hinted first
/// and bounded, and an index written with schema v1 upgraded in place.
@Suite("SQLite index schema")
struct IndexSchemaTests {
    /// A search matching more than `candidateLimit` items ranks the best-hinted ones: the three
    /// hinted items, indexed last, are found although over a thousand older items match too; an
    /// item re-indexed with a higher hint moves ahead of them.
    @Test func aSearchMatchingMoreThanTheCandidateLimitRanksTheBestHintedFirst() throws {
        let index = try makeIndex(.sqlite, "candidates")
        let plain = SQLiteIndexStorage.candidateLimit + 50
        try index.indexItems((0..<plain).map { item("plain-\($0)", title: "Harbour tour \($0)") })
        try index.indexItems((0..<3).map { item("hinted-\($0)", title: "Harbour view", rankingHint: 60) })
        #expect(
            try index.search(SearchQuery("harb", limit: 3)).map(\.uniqueIdentifier) == [
                "hinted-0", "hinted-1", "hinted-2",
            ])
        try index.indexItems([item("plain-\(plain - 1)", title: "Harbour tour", rankingHint: 90)])
        #expect(
            try index.search(SearchQuery("harb", limit: 2)).map(\.uniqueIdentifier) == [
                "plain-\(plain - 1)", "hinted-0",
            ])
        // Deleting the re-indexed item removes it from the full-text index under its new rowid.
        try index.deleteItems(identifiers: ["plain-\(plain - 1)"])
        #expect(try index.search(SearchQuery("harb", limit: 1)).map(\.uniqueIdentifier) == ["hinted-0"])
    }

    @Test(arguments: [
        (Int64(5), Double?.none, false, Int64(100) << 40 | 5),
        (5, 100, false, 5),
        (7, 99.9, true, Int64(1) << 40 | SearchRowID.activityBit | 7),
    ])
    func fullTextRowIDsOrderByHintAndKeepTheRowID(id: Int64, hint: Double?, activity: Bool, rowID: Int64) throws {
        let table = activity ? "activity" : "item"
        let sql = "SELECT " + SearchRowID.sql(table: table, row: "r") + " FROM (SELECT ? AS id, ? AS ranking_hint) r"
        let computed = try DatabaseQueue().read { try Int64.fetchOne($0, sql: sql, arguments: [id, hint]) }
        #expect(computed == rowID)
    }

    /// An index written by schema v1 (text stored twice, full-text rowids = row ids) is upgraded
    /// when opened: its items and activities are found, ranked as before, and updates keep working.
    @Test func aVersionOneIndexIsUpgradedInPlace() throws {
        let path = try temporaryFolder("v1") + "/index.sqlite"
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
        }
        try IndexSchema.migrator.migrate(queue, upTo: "v1")
        try queue.write { db in
            for (number, (identifier, title, hint)) in [
                ("plain", "Harbour tour", nil), ("hinted", "Harbour tour", 80.0), ("other", "Lighthouse", nil),
            ].enumerated() {
                let json = "{\"title\":\"\(title)\"" + (hint.map { ",\"rankingHint\":\(Int($0))" } ?? "") + "}"
                try db.execute(
                    sql: """
                        INSERT INTO item (id, unique_identifier, attribute_set_json, expires_at, indexed_at, title,
                                          keywords_text, ranking_hint)
                        VALUES (?, ?, ?, 4102444800, 1767225600, ?, '', ?)
                        """, arguments: [number + 1, identifier, json, title, hint])
            }
        }
        try queue.close()
        let index = try LocalIndex(path: path, clock: TestClock().reading)
        #expect(try index.search(SearchQuery("harb")).map(\.uniqueIdentifier) == ["hinted", "plain"])
        #expect(try index.search(SearchQuery("lighthouse")).first?.title == "Lighthouse")
        try index.indexItems([item("plain", title: "Lighthouse keeper")])
        #expect(try index.search(SearchQuery("harb")).map(\.uniqueIdentifier) == ["hinted"])
        #expect(try index.search(SearchQuery("lighth")).compactMap(\.uniqueIdentifier).sorted() == ["other", "plain"])
    }
}
