import Foundation
import LenientJSON
import PostgresStorage
import SpotCheckTestSupport
import SpotlightIndex
import SpotlightModel
import Testing

/// The same work on the SQLite and the PostgreSQL index gives the same index: through the API
/// (an import large enough to span several of PostgreSQL's insert batches) and through the CLI
/// (the fixture), and the PostgreSQL faults a user meets are clear errors with exit 9.
@Suite(
    "One index, two storages", .enabled(if: IndexBackend.postgresURL != nil, IndexBackend.postgresSkipped))
struct StorageEquivalenceTests {
    /// JSON Lines of 1,200 records: 1,100 items, some identifiers indexed twice (a few inside one
    /// 500-item batch), `isUpdate` items whose base is still in the unsent batch, activities
    /// related to items and standalone, and a client state.
    static func mixedFile() throws -> String {
        var lines: [String] = []
        for number in 0..<1_100 {
            let identifier = "item-\(number % 1_000)"
            let domain = ["shop", "shop.books", "shop.music", "shopx", "news"][number % 5]
            let title = "Title \(number) \(["harbour", "lighthouse", "Tomás", "paddle"][number % 4])"
            lines.append(
                #"{"uniqueIdentifier": "\#(identifier)", "domainIdentifier": "\#(domain)", "attributeSet": {"title": "\#(title)", "contentDescription": "about \#(number)", "keywords": ["k\#(number % 7)"], "rankingHint": \#(number % 101), "url": "https://example.com/\#(number % 1_000)"}}"#
            )
            if number % 97 == 0 {
                lines.append(
                    #"{"uniqueIdentifier": "\#(identifier)", "isUpdate": true, "attributeSet": {"contentDescription": "updated \#(number)"}}"#
                )
            }
        }
        lines.append(#"{"uniqueIdentifier": "ghost", "isUpdate": true, "attributeSet": {"title": "never"}}"#)
        for number in stride(from: 0, to: 1_000, by: 10) {
            lines.append(
                #"{"activity": {"activityType": "view", "title": "Seen \#(number)", "persistentIdentifier": "seen-\#(number)", "contentAttributeSet": {"relatedUniqueIdentifier": "item-\#(number)", "title": "Seen \#(number)"}}}"#
            )
        }
        lines.append(
            #"{"activity": {"activityType": "directions", "title": "Office harbour", "webpageURL": "https://example.com/office"}}"#
        )
        lines.append(
            #"{"activity": {"activityType": "orphan", "contentAttributeSet": {"relatedUniqueIdentifier": "missing"}}}"#)
        lines.append(#"{"clientState": "v1", "indexName": "app"}"#)
        let path = try temporaryFolder("equivalence") + "/mixed.jsonl"
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Everything `export` writes, as JSON text, in order.
    static func exported(_ index: LocalIndex) throws -> [String] {
        var records: [String] = []
        try index.forEachRecord { records.append(JSONValue.object($0.json).serialized()) }
        return records
    }

    @Test func anImportGivesTheSameIndexOnBothStorages() throws {
        let file = try Self.mixedFile()
        let clock = TestClock()
        let indexes = try [makeIndex(.sqlite, "same", clock: clock), makeIndex(.postgres, "same", clock: clock)]
        let imports = try indexes.map { try $0.importFile(file) }
        #expect(imports[0].report == imports[1].report)
        #expect(imports[1].report.itemsIndexed == 1_100)
        #expect(imports[1].report.itemsUpdated == 12)
        #expect(imports[1].report.updatesIgnored == ["ghost"])
        #expect(imports[0].skipped.map(\.description) == imports[1].skipped.map(\.description))
        #expect(imports[1].skipped.count == 1)

        let records = try indexes.map(Self.exported)
        #expect(records[1].count == 1_000 + 101 + 1)
        #expect(records[0] == records[1])
        let statistics = try indexes.map { try $0.statistics() }
        for keyPath in [\IndexStatistics.items, \.activities, \.expiredItems] {
            #expect(statistics[0][keyPath: keyPath] == statistics[1][keyPath: keyPath])
        }
        #expect(statistics[0].itemsByDomain == statistics[1].itemsByDomain)
        #expect(statistics[1].clientStates == ["app": Array("v1".utf8)])

        // The same results; the order may differ only among equal scores' neighbours, so the
        // best result and the sets are compared.
        for query in [
            SearchQuery("harbour", limit: 50), SearchQuery("tomas", domainIdentifier: "shop", limit: 30),
            SearchQuery("light", limit: 10), SearchQuery("seen 40", prefixMatchesLastWord: false),
            SearchQuery("office"), SearchQuery("updated"), SearchQuery("paddle k3", contentType: nil),
        ] {
            let results = try indexes.map { try $0.search(query) }
            #expect(results[0].count == results[1].count, "\(query.text)")
            #expect(
                Set(results[0].map { $0.uniqueIdentifier ?? $0.url ?? "" })
                    == Set(results[1].map { $0.uniqueIdentifier ?? $0.url ?? "" }), "\(query.text)")
            #expect(results[0].first?.uniqueIdentifier == results[1].first?.uniqueIdentifier, "\(query.text)")
        }

        // Deletes take the same rows: a domain with its sub-domains, then what has expired.
        let deleted = try indexes.map { try $0.deleteItems(domainIdentifiers: ["shop"]) }
        #expect(deleted[0] == deleted[1])
        #expect(deleted[1].itemsDeleted == 600)
        clock.advance(by: 31 * day)
        let purged = try indexes.map { try $0.purgeExpired() }
        #expect(purged[0] == purged[1])
        let left = try indexes.map(Self.exported)
        #expect(left[0] == left[1])
        #expect(left[1].count == 1)
    }

    @Test(
        "Both storages fold the same words the same way",
        arguments: [
            "ελλαδα", "Ελλάδα", "straße", "strasse", "TOMAS", "tomás", "йогурт", "иогурт", "ecole", "ÆRØ", "aero",
        ])
    func wordsMatchTheSameOnBothStorages(query: String) throws {
        let indexes = try [makeIndex(.sqlite, "fold"), makeIndex(.postgres, "fold")]
        for index in indexes {
            try index.indexItems([
                item("greek", title: "Ελλάδα"), item("german", title: "Straße"), item("spanish", title: "Tomás"),
                item("russian", title: "Йогурт"), item("french", title: "École"), item("danish", title: "Ærøskøbing"),
            ])
        }
        let found = try indexes.map { try Set($0.search(SearchQuery(query)).compactMap(\.uniqueIdentifier)) }
        #expect(found[0] == found[1])
    }

    @Test func theFixtureThroughTheCLIIsTheSameOnBothStorages() async throws {
        let folder = try temporaryFolder("cli-both")
        let url = try IndexBackend.freshPostgresURL("cli")
        let locations = ["both.sqlite", url]
        var outputs: [[String]] = []
        for location in locations {
            let imported = try await runSpotcheck(
                ["index", "import", TestProject.itemsFixture, "--index", location], in: folder)
            #expect(imported.status == 0, "\(imported.errors)")
            // The import names where it wrote.
            var seen = [String(imported.output.prefix { $0 != ";" })]
            for command in [
                ["list"], ["export"], ["show", "movie-up"], ["search", "pixar", "--format", "json"],
                ["search", "lindq", "--type", "public.contact"],
                ["search", "lantern street", "--domain", "colleagues"],
                ["reindex-due", "--within", "10000d"],
            ] {
                let run = try await runSpotcheck(["index"] + command + ["--index", location], in: folder)
                #expect(run.status == 0, "\(command): \(run.errors)")
                // `show` prints indexedAt, the wall clock of each import; scores are each engine's
                // (bm25 in SQLite, ts_rank in PostgreSQL): the results and their order are compared.
                seen.append(
                    run.output.split(separator: "\n").filter { !$0.contains("\"indexedAt\"") }.joined(separator: "\n")
                        .replacing(/"score": [0-9.e+-]+,/, with: "").replacing(/\ \[[0-9.]+\]/, with: ""))
            }
            let stats = try await runSpotcheck(["index", "stats", "--format", "json", "--index", location], in: folder)
            var statistics = try #require(JSONParser.parse(stats.output, lenient: false).value?.objectValue)
            #expect((statistics["fileBytes"]?.intValue ?? 0) > 0)
            statistics["fileBytes"] = nil
            seen.append(JSONValue.object(statistics).serialized())
            outputs.append(seen)
        }
        for (sqlite, postgres) in zip(outputs[0], outputs[1]) { #expect(sqlite == postgres) }
        let password = try #require(URLComponents(string: url)?.password)
        #expect(!outputs[1].joined().contains(password))
    }

    @Test func aWrongPasswordIsExit9NamingTheServerWithoutThePassword() async throws {
        var components = try #require(URLComponents(string: try IndexBackend.freshPostgresURL("wrong")))
        components.password = "not-the-password-4242"
        let run = try await runSpotcheck(
            ["index", "search", "x", "--index", try #require(components.string)], in: try temporaryFolder("wrong"))
        #expect(run.status == 9)
        #expect(
            run.errors.contains("postgres://\(components.user ?? "")@\(components.host ?? ""):\(components.port ?? 0)/")
        )
        #expect(run.errors.contains("28P01"))
        #expect(!run.errors.contains("not-the-password-4242"))
        #expect(!run.output.contains("not-the-password-4242"))
    }

    @Test func anUnreachableServerIsExit9NamingIt() async throws {
        // A port nothing listens on: the loopback server's port after it closed.
        let run = try await runSpotcheck(
            ["index", "stats", "--index", "postgres://spotcheck:secret-9@127.0.0.1:1/none"],
            in: try temporaryFolder("unreachable"))
        #expect(run.status == 9)
        #expect(run.errors.contains("cannot connect to PostgreSQL at 127.0.0.1:1: connection refused"))
        #expect(!run.errors.contains("secret-9"))
    }
}
