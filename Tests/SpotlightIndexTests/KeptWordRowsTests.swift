import Foundation
import GRDB
import SpotlightModel
import Testing

@testable import SpotlightIndex

/// The rows holding each word, counted after an import and kept in the SQLite index
/// (`FullTextRanking.recountWords`): searches weigh their words with them instead of counting, with
/// the same scores, and ignore them once the index has changed.
@Suite("Kept word counts")
struct KeptWordRowsTests {
    /// Ten items: "harbour" in six, "tour" in four, "harbourside" in one.
    static let items: [SearchableItem] =
        (0..<4).map { item("tour-\($0)", title: "Harbour tour \($0)") }
        + (0..<2).map { item("view-\($0)", title: "Harbour view", description: "A quiet walk") }
        + [item("side", title: "Harbourside market")]
        + (0..<3).map { item("other-\($0)", title: "Old town hall") }

    /// What the kept counts say of `words`, read from the index file as a search reads them.
    static func kept(_ index: LocalIndex, _ words: [String], prefix: Bool) throws -> String {
        try DatabaseQueue(path: index.location).read {
            try FullTextRanking.keptRows(
                $0, words: words, lastIsPrefix: prefix,
                structure: FullTextRanking.structure($0, table: "search_text"))
        }
    }

    @Test func countsGiveTheScoresOfCounting() throws {
        let index = try makeIndex(.sqlite, "kept-scores")
        try index.indexItems(Self.items)
        let searches = [
            SearchQuery("harbour tour", prefixMatchesLastWord: false), SearchQuery("harbour t"),
            SearchQuery("quiet harbour"), SearchQuery("walk har"),
        ]
        // Before a recount nothing is kept: every word is counted.
        #expect(try Self.kept(index, ["harbour", "tour"], prefix: false) == "? ?")
        let counted = try searches.map {
            try index.search($0).map { "\($0.uniqueIdentifier ?? "activity") \($0.score)" }
        }

        try index.storage.refreshAfterBulkWrite()
        #expect(try Self.kept(index, ["Harbour", "tour"], prefix: false) == "=6 =4")
        #expect(try Self.kept(index, ["nowhere", "quiet"], prefix: false) == "=0 =2")
        // A prefix that one word has is that word's count; one that several have, at least the most.
        #expect(try Self.kept(index, ["walk", "harbours"], prefix: true) == "=2 =1")
        #expect(try Self.kept(index, ["walk", "har"], prefix: true) == "=2 >=6")
        // Words FTS5 might cut differently are left to counting.
        #expect(try Self.kept(index, ["café", "tour"], prefix: false) == "? =4")
        let kept = try searches.map { try index.search($0).map { "\($0.uniqueIdentifier ?? "activity") \($0.score)" } }
        #expect(kept == counted)
        #expect(kept.allSatisfy { !$0.isEmpty })
    }

    @Test func countsAreIgnoredOnceTheIndexChanges() throws {
        let index = try makeIndex(.sqlite, "kept-stale")
        try index.indexItems(Self.items)
        try index.storage.refreshAfterBulkWrite()
        #expect(try Self.kept(index, ["harbour"], prefix: false) == "=6")
        try index.indexItems([item("new", title: "Harbour tour boat")])
        #expect(try Self.kept(index, ["harbour"], prefix: false) == "?")
        // The scores are those of an index holding the same items, never recounted.
        let search = SearchQuery("harbour tour", prefixMatchesLastWord: false)
        let fresh = try makeIndex(.sqlite, "kept-fresh")
        try fresh.indexItems(Self.items + [item("new", title: "Harbour tour boat")])
        #expect(try index.search(search).map(\.score) == fresh.search(search).map(\.score))
    }

    /// An import of `recountAfterRecords` records or more recounts; a smaller one leaves the
    /// counts out of date.
    @Test func aLargeImportRecounts() throws {
        let index = try makeIndex(.sqlite, "kept-import")
        let folder = try temporaryFolder("kept-import-files")
        func write(_ name: String, count: Int, title: String) throws -> String {
            let path = folder + "/" + name
            let lines = (0..<count).map {
                #"{"uniqueIdentifier": "\#(name)-\#($0)", "attributeSet": {"title": "\#(title) \#($0)"}}"#
            }
            try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        _ = try index.importFile(try write("large.jsonl", count: LocalIndex.recountAfterRecords, title: "Harbour"))
        #expect(try Self.kept(index, ["harbour"], prefix: false) == "=\(LocalIndex.recountAfterRecords)")
        _ = try index.importFile(try write("small.jsonl", count: 10, title: "Harbour"))
        #expect(try Self.kept(index, ["harbour"], prefix: false) == "?")
    }
}
