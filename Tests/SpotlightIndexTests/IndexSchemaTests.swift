import Foundation
import GRDB
import SpotlightModel
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

    /// The filters apply before the candidate limit: 510 better-hinted matches in another domain
    /// do not hide the one in the domain asked for; and a search asking for more results than the
    /// candidate limit ranks every match.
    @Test func filtersApplyBeforeTheCandidateLimitAndALargeLimitRanksEveryMatch() throws {
        let index = try makeIndex(.sqlite, "filters")
        let others = SQLiteIndexStorage.candidateLimit + 10
        try index.indexItems(
            (0..<others).map { item("other-\($0)", domain: "other", title: "Harbour \($0)", rankingHint: 90) })
        try index.indexItems([item("target", domain: "target", title: "Harbour master")])
        #expect(try index.search(SearchQuery("harb", domainIdentifier: "target")).map(\.uniqueIdentifier) == ["target"])
        #expect(try index.search(SearchQuery("harb", limit: others + 100)).count == others + 1)
        #expect(try index.search(SearchQuery("harb", limit: 20)).count == 20)
    }

    /// Row counts kept between searches of several words are not used once the index changes,
    /// even by an update that keeps its row count and total length: the scores after it are those
    /// of a fresh index holding the same items.
    @Test func keptRowCountsFollowAnUpdateOfTheSameLength() throws {
        let fillers = (0..<6).map { item("filler-\($0)", title: "Quiet meadow") }
        func items(river: String) -> [SearchableItem] {
            [
                item("a", title: "Harbour tour"), item("b", title: "Harbour tour guide"),
                item("c", title: "Harbour view"), item("d", title: river),
            ] + fillers
        }
        let search = SearchQuery("harbour tour", prefixMatchesLastWord: false)
        let updated = try makeIndex(.sqlite, "kept")
        try updated.indexItems(items(river: "River boat"))
        let before = try updated.search(search).map(\.score)
        try updated.indexItems([item("d", title: "River tour")])
        let after = try updated.search(search).map(\.score)
        let fresh = try makeIndex(.sqlite, "fresh")
        try fresh.indexItems(items(river: "River tour"))
        let expected = try fresh.search(search).map(\.score)
        #expect(after.count == 2)
        #expect(after.count == expected.count)
        for (score, wanted) in zip(after, expected) { #expect(abs(score - wanted) < 1e-9, "\(score) \(wanted)") }
        // The update changed "tour"'s weight: the scores are not the ones before it.
        #expect(before != after)
    }

    /// One transaction that adds, changes and removes rows, some of them twice (the full-text
    /// index takes its new rows at its end, v4), leaves the same full-text index as writing the
    /// final rows into a fresh index: every word at the same place of the same row under the
    /// same rank, the same searches, and nothing still owed. Deleting the row with the largest id
    /// lets the next new row take that id: once for a row in the full-text index (its removal and
    /// the new row's addition share a rowid), once for a row added in the transaction.
    @Test func aTransactionsFullTextRowsAreAddedOnceAtItsEnd() throws {
        let before = [
            item("kept", title: "Harbour tour"), item("changed", title: "Harbour view"),
            item("rehinted", title: "Harbour master", rankingHint: 10), item("removed", title: "Harbour bell"),
        ]
        let index = try makeIndex(.sqlite, "pending")
        try index.indexItems(before)
        try index.indexActivities([activity("app.view", title: "Harbour walk", related: "kept")])
        try index.write { writer in
            try writer.indexItem(item("changed", title: "Lighthouse view"))
            try writer.deleteItems(identifiers: ["removed"])
            try writer.indexItem(item("rehinted", title: "Harbour master", rankingHint: 90))
            try writer.indexItem(item("new", title: "Harbour ferry"))
            try writer.indexItem(item("new", title: "Harbour ferry timetable"))
            try writer.indexItem(item("brief", title: "Harbour crane"))
            try writer.deleteItems(identifiers: ["brief"])
            try writer.indexItem(item("late", title: "Harbour gate"))
            _ = try writer.indexActivity(activity("app.view", title: "Harbour walk at dusk", related: "kept"))
        }
        let ids = try DatabaseQueue(path: index.location).read { db in
            try Row.fetchAll(db, sql: "SELECT unique_identifier, id FROM item").reduce(into: [String: Int]()) {
                $0[$1[0]] = $1[1]
            }
        }
        #expect(ids["new"] == 4, "took the id of the removed row")
        #expect(ids["late"] == 5, "took the id of the row added and deleted in the transaction")
        let fresh = try makeIndex(.sqlite, "pending-fresh")
        try fresh.indexItems([
            item("kept", title: "Harbour tour"), item("changed", title: "Lighthouse view"),
            item("rehinted", title: "Harbour master", rankingHint: 90), item("new", title: "Harbour ferry timetable"),
            item("late", title: "Harbour gate"),
        ])
        try fresh.indexActivities([activity("app.view", title: "Harbour walk at dusk", related: "kept")])
        #expect(try fullTextWords(index) == fullTextWords(fresh))
        #expect(try fullTextWords(index).filter { $0.hasPrefix("harbour ") }.count == 5)
        for text in ["harb", "lighthouse", "bell", "crane", "dusk", "timetable", "gate"] {
            let query = SearchQuery(text, limit: 10)
            #expect(
                try index.search(query).map(\.uniqueIdentifier) == fresh.search(query).map(\.uniqueIdentifier),
                "\(text)")
        }
        #expect(try index.search(SearchQuery("harb", limit: 1)).map(\.uniqueIdentifier) == ["rehinted"])
    }

    /// The full-text changes of a transaction applied a few at a time: each row re-indexed under
    /// the same rowid is taken out and added again in the same chunk, whatever the chunk size, and
    /// the full-text index ends as a fresh one holding the same rows.
    @Test(arguments: [1, 2, 3, 100])
    func pendingChangesAppliedInChunksKeepEachRowsRemovalWithItsAddition(chunk: Int) throws {
        let titles = ["Harbour tour", "Harbour view", "Old lighthouse", "Harbour bell", "Quiet meadow"]
        let index = try makeIndex(.sqlite, "chunks")
        try index.indexItems(titles.enumerated().map { item("item-\($0)", title: $1) })
        try DatabaseQueue(path: index.location).write { db in
            try db.execute(
                sql: "UPDATE item SET attribute_set_json = json_set(attribute_set_json, '$.title', upper(title))")
            try db.execute(sql: "UPDATE item SET ranking_hint = 50 WHERE unique_identifier = 'item-2'")
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM search_pending") == titles.count)
            try IndexSchema.flushPendingSearchText(db, chunk: chunk)
        }
        let fresh = try makeIndex(.sqlite, "chunks-fresh")
        try fresh.indexItems(
            titles.enumerated().map { item("item-\($0)", title: $1.uppercased(), rankingHint: $0 == 2 ? 50 : nil) })
        #expect(try fullTextWords(index) == fullTextWords(fresh))
        #expect(try index.search(SearchQuery("harb")).map(\.uniqueIdentifier) == ["item-0", "item-1", "item-3"])
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

    /// `spotcheck_rank` scores as bm25 for several words (with their row counts kept, and counted
    /// again once the index changes) and as bm25 divided by the word's weight for one word (the
    /// same order).
    @Test(arguments: [
        ("\"harbour\"", "harbour"), ("\"t\"*", "t*"), ("\"harbour\" \"tour\"*", "harbour tour*"),
        ("\"tour\" \"boat\"", "tour boat"), ("\"tour\" \"boat\"", "not the words"),
    ])
    func theRankingFunctionScoresAsBM25(match: String, words: String) throws {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            #expect(FullTextRanking.register(on: db))
        }
        let queue = try DatabaseQueue(configuration: configuration)
        let index = "memory-\(UUID().uuidString)"
        let sql = "SELECT bm25(t, 10, 2), spotcheck_rank(t, 10, 2, ?, ?) FROM t WHERE t MATCH ? ORDER BY rowid"
        func scores(_ db: Database) throws -> [[Double]] {
            try Row.fetchAll(
                db, sql: sql, arguments: [try FullTextRanking.indexState(db, table: "t", path: index), words, match]
            )
            .map { [$0[0], $0[1]] }
        }
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE VIRTUAL TABLE t USING fts5 (a, b, content = '', prefix = '1');
                    INSERT INTO t (rowid, a, b) VALUES
                        (1, 'Harbour tour', 'a long walk by the harbour and back on the tour boat'),
                        (2, 'Tour of the old town', 'harbour'),
                        (3, 'Harbour', 'tour tour tour'),
                        (4, 'Lighthouse', 'nothing here'),
                        (5, 'Town hall', 'a tour of the hall'),
                        (6, 'Boat hire', 'tour boat');
                    """)
        }
        for round in 0..<2 {
            let pairs = try queue.read(scores)
            #expect(pairs.count >= 2)
            let oneWord = !match.contains(" ")
            let ratio = pairs[0][0] / pairs[0][1]
            for pair in pairs {
                #expect(pair[1] < 0)
                if oneWord {
                    #expect(abs(pair[0] / pair[1] - ratio) < 1e-12, "bm25 \(pair[0]), spotcheck_rank \(pair[1])")
                } else {
                    #expect(
                        abs(pair[0] - pair[1]) < 1e-12, "round \(round): bm25 \(pair[0]), spotcheck_rank \(pair[1])")
                }
            }
            // A row holding "boat" and "tour" comes in, committed: the kept counts are not used again.
            try queue.write { try $0.execute(sql: "INSERT INTO t (rowid, a, b) VALUES (7, 'Boat tour', 'harbour')") }
        }
    }

    /// Indexing items and an activity again with the same searched text and rank bucket (a
    /// re-import, or a change to an attribute that is not searched) leaves the full-text index as
    /// it was (v5): its structure record, which every write of it changes, is the same, and the
    /// searches find the same rows.
    @Test func reindexingWithoutASearchedChangeLeavesTheFullTextIndexAlone() throws {
        let items = [
            item("tour", title: "Harbour tour", description: "Boats at dawn", keywords: ["ferry"], rankingHint: 40),
            item("lighthouse", title: "Old lighthouse", url: "https://example.com/lighthouse"),
        ]
        let walk = activity("app.view", title: "Harbour walk", related: "tour")
        let index = try makeIndex(.sqlite, "unchanged")
        try index.indexItems(items)
        try index.indexActivities([walk])
        let words = try fullTextWords(index)
        let structure = try fullTextStructure(index)
        let found = try index.search(SearchQuery("harb")).map(\.uniqueIdentifier)
        try index.indexItems(items)
        try index.indexItems([
            item(
                "lighthouse", title: "Old lighthouse", url: "https://example.com/lighthouse-2", expiration: "2031-01-01"
            ),
            // 40.4 is in the same rank bucket as 40.
            item("tour", title: "Harbour tour", description: "Boats at dawn", keywords: ["ferry"], rankingHint: 40.4),
        ])
        try index.indexActivities([walk])
        #expect(try fullTextStructure(index) == structure)
        #expect(try fullTextWords(index) == words)
        #expect(try index.search(SearchQuery("harb")).map(\.uniqueIdentifier) == found)
        #expect(found.contains("tour"))
    }

    /// An update that changes a searched column or the rank bucket still reaches the full-text
    /// index (v5): it ends as a fresh index holding the final rows.
    @Test(arguments: [
        item("tour", title: "Harbour cruise", description: "Boats at dawn", keywords: ["ferry"], rankingHint: 40),
        item("tour", title: "Harbour tour", description: "Boats at dusk", keywords: ["ferry"], rankingHint: 40),
        item("tour", title: "Harbour tour", description: "Boats at dawn", keywords: ["ferry", "bay"], rankingHint: 40),
        item("tour", title: "Harbour tour", description: "Boats at dawn", keywords: ["ferry"], rankingHint: 41),
        item("tour", title: "Harbour tour", description: "Boats at dawn", keywords: ["ferry"]),
    ])
    func anUpdateOfASearchedColumnOrTheRankReachesTheFullTextIndex(changed: SearchableItem) throws {
        let index = try makeIndex(.sqlite, "changed")
        try index.indexItems([
            item("tour", title: "Harbour tour", description: "Boats at dawn", keywords: ["ferry"], rankingHint: 40)
        ])
        try index.indexActivities([activity("app.view", title: "Harbour walk", related: "tour")])
        let structure = try fullTextStructure(index)
        try index.indexItems([changed])
        #expect(try fullTextStructure(index) != structure)
        let afterItem = try fullTextStructure(index)
        try index.indexActivities([activity("app.view", title: "Harbour walk at dusk", related: "tour")])
        #expect(try fullTextStructure(index) != afterItem)
        let fresh = try makeIndex(.sqlite, "changed-fresh")
        try fresh.indexItems([changed])
        try fresh.indexActivities([activity("app.view", title: "Harbour walk at dusk", related: "tour")])
        #expect(try fullTextWords(index) == fullTextWords(fresh))
    }

    /// Deleting everything drops the tables' triggers for the deletes and creates them again
    /// (`IndexSchema.deleteEveryRow`): the same triggers are there afterwards and work (deleting an
    /// item takes its activity and its words), and rows written before and after it in the same
    /// transaction leave the full-text index of a fresh index holding the later ones.
    @Test func deletingEverythingEmptiesTheFullTextIndexAndKeepsTheTriggers() throws {
        let index = try makeIndex(.sqlite, "delete-all")
        try index.indexItems([item("a", title: "Harbour tour"), item("b", title: "Old lighthouse")])
        try index.indexActivities([activity("app.view", title: "Harbour walk", related: "a")])
        let triggers = try schemaTriggers(index)
        #expect(triggers.count == 7)
        try index.write { writer in
            try writer.indexItem(item("c", title: "Harbour ferry"))
            try writer.deleteAll()
            try writer.indexItem(item("d", title: "Harbour gate"))
            _ = try writer.indexActivity(activity("app.view", title: "Gate walk", related: "d"))
        }
        #expect(try schemaTriggers(index) == triggers)
        let fresh = try makeIndex(.sqlite, "delete-all-fresh")
        try fresh.indexItems([item("d", title: "Harbour gate")])
        try fresh.indexActivities([activity("app.view", title: "Gate walk", related: "d")])
        #expect(try fullTextWords(index) == fullTextWords(fresh))
        #expect(try index.identifiers() == ["d"])
        #expect(try index.search(SearchQuery("lighthouse")).isEmpty)
        try index.deleteItems(identifiers: ["d"])
        #expect(try fullTextWords(index).isEmpty)
        #expect(try index.search(SearchQuery("walk")).isEmpty)
    }

    /// FTS5's `delete-all` starts the full-text index's counters again, so the same rows written
    /// the same way after it would give a structure record it had before. Deleting everything
    /// raises the record's config cookie and forgets the kept word counts: counts kept for the
    /// rows before are not taken for other rows of the same shape after it.
    @Test func wordCountsKeptBeforeDeletingEverythingAreNotUsedAfterIt() throws {
        let index = try makeIndex(.sqlite, "delete-all-counts")
        let queue = try DatabaseQueue(path: index.location)
        func keptRows() throws -> String {
            try queue.read { db in
                try FullTextRanking.keptRows(
                    db, words: ["harbour", "lighthouse"], lastIsPrefix: false,
                    structure: FullTextRanking.structure(db, table: "search_text"))
            }
        }
        try index.indexItems([item("a", title: "Harbour tour"), item("b", title: "Harbour view")])
        try queue.write { try FullTextRanking.recountWords($0) }
        let before = try fullTextStructure(index)
        #expect(try keptRows() == "=2 =0")
        try index.deleteAll()
        try index.indexItems([item("a", title: "Lighthouse tour"), item("b", title: "Lighthouse view")])
        #expect(try fullTextStructure(index) != before)
        #expect(try keptRows() == "? ?")
        try queue.write { try FullTextRanking.recountWords($0) }
        #expect(try keptRows() == "=0 =2")
    }

    /// A write that takes `compactAfterRemovals` rows or more out of the full-text index, a quarter
    /// of its rows or more, ends by merging it into one segment (FTS5's `optimize`), which drops
    /// the entries of the rows taken out; a smaller one leaves a segment of its own.
    @Test func aWriteTakingOutAQuarterOfTheRowsCompactsTheFullTextIndex() throws {
        let count = IndexSchema.compactAfterRemovals + 200
        let index = try makeIndex(.sqlite, "compact")
        try index.indexItems((0..<count).map { item("item-\($0)", title: "Harbour tour \($0)") })
        #expect(try fullTextSegments(index) == 1)
        try index.indexItems(
            (0..<count).map { item("item-\($0)", title: "Harbour tour \($0)", description: "Updated") })
        #expect(try fullTextSegments(index) == 1)
        try index.indexItems((0..<100).map { item("item-\($0)", title: "Lighthouse \($0)") })
        #expect(try fullTextSegments(index) == 2)
        #expect(try index.search(SearchQuery("lighthouse", limit: 500)).count == 100)
        #expect(try index.search(SearchQuery("updated", limit: 2_000)).count == count - 100)
    }

    /// Upgrading to v4 sets FTS5's buffer size, which rewrites the full-text index's structure
    /// record; word counts kept by v3 for that index still hold and are still used.
    @Test func wordCountsKeptByVersionThreeHoldAfterTheUpgrade() throws {
        let path = try temporaryFolder("v3") + "/index.sqlite"
        let queue = try DatabaseQueue(path: path)
        try IndexSchema.migrator.migrate(queue, upTo: "v3")
        try queue.write { db in
            for (number, title) in ["Harbour tour", "Harbour view", "Lighthouse"].enumerated() {
                try db.execute(
                    sql: """
                        INSERT INTO item (id, unique_identifier, attribute_set_json, expires_at, indexed_at, keywords_text)
                        VALUES (?, ?, ?, 4102444800, 1767225600, '')
                        """, arguments: [number + 1, "item-\(number)", "{\"title\":\"\(title)\"}"])
            }
            try FullTextRanking.recountWords(db)
        }
        func keptRows() throws -> String {
            try queue.read { db in
                try FullTextRanking.keptRows(
                    db, words: ["harbour", "lighthouse"], lastIsPrefix: false,
                    structure: FullTextRanking.structure(db, table: "search_text"))
            }
        }
        #expect(try keptRows() == "=2 =1")
        let index = try LocalIndex(path: path, clock: TestClock().reading)
        #expect(try index.search(SearchQuery("harbour")).count == 2)
        #expect(try keptRows() == "=2 =1")
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

/// Each word of the index's full-text index where it is: the word, the rank bucket of its rowid
/// (`SearchRowID`), the item or activity the rowid names, the column and the word's place in it.
/// Checks first that the index owes it no change (`search_pending`, `search_pending_removal`).
private func fullTextWords(_ index: LocalIndex) throws -> [String] {
    try DatabaseQueue(path: index.location).writeWithoutTransaction { db in
        #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM search_pending") == 0)
        #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM search_pending_removal") == 0)
        try db.execute(sql: "CREATE VIRTUAL TABLE temp.places USING fts5vocab(main, 'search_text', 'instance')")
        let id = SearchRowID.id("doc")
        return try String.fetchAll(
            db,
            sql: """
                SELECT term || ' ' || (doc >> 40) || ' ' || CASE WHEN \(SearchRowID.isItem("doc"))
                    THEN coalesce((SELECT 'item ' || unique_identifier FROM item WHERE id = \(id)), 'no item')
                    ELSE coalesce((SELECT 'activity ' || activity_key FROM activity WHERE id = \(id)), 'no activity')
                    END || ' ' || col || ' ' || offset
                FROM temp.places
                """
        ).sorted()
    }
}

/// FTS5's structure record of the index's full-text index, which every write of it changes.
private func fullTextStructure(_ index: LocalIndex) throws -> Data {
    try DatabaseQueue(path: index.location).read { db in try FullTextRanking.structure(db, table: "search_text") }
}

/// The name and SQL of every trigger in the index's file.
private func schemaTriggers(_ index: LocalIndex) throws -> [String] {
    try DatabaseQueue(path: index.location).read { db in
        try String.fetchAll(
            db, sql: "SELECT name || ': ' || sql FROM sqlite_schema WHERE type = 'trigger' ORDER BY name")
    }
}

/// How many segments the index's full-text index has (FTS5's `_idx` table lists each segment's
/// pages).
private func fullTextSegments(_ index: LocalIndex) throws -> Int {
    try DatabaseQueue(path: index.location).read { db in
        try Int.fetchOne(db, sql: "SELECT count(DISTINCT segid) FROM search_text_idx") ?? 0
    }
}
