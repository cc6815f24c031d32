import Foundation
import LenientJSON
import SpotCheckTestSupport
import SpotlightIndex
import Testing

/// `spotcheck index …` run as a child process, as a user runs it.
@Suite("spotcheck index")
struct CLITests {
    @Test func importingTheFixtureStoresTwelveItemsAndTwoActivities() async throws {
        let folder = try temporaryFolder("cli-fixture")
        let imported = try await runSpotcheck(["index", "import", TestProject.itemsFixture], in: folder)
        #expect(imported.status == 0, "\(imported.errors)")
        #expect(imported.output.contains("12 items indexed, 0 updated, 2 activities indexed; 0 records skipped"))
        #expect(imported.errors.isEmpty)
        // The default index file, in the working directory.
        #expect(FileManager.default.fileExists(atPath: folder + "/spotcheck.sqlite"))

        let list = try await runSpotcheck(["index", "list"], in: folder)
        #expect(list.status == 0)
        #expect(
            list.output.split(separator: "\n").map { $0.split(separator: "\t").prefix(3).joined(separator: "|") } == [
                "colleague-grace-mensah|colleagues|Grace Mensah",
                "colleague-priya-raman|colleagues|Priya Raman",
                "colleague-tomas-herrera|colleagues|Tomás Herrera",
                "family-anna-lindqvist|family|Anna Lindqvist",
                "family-ben-lindqvist|family|Ben Lindqvist",
                "family-erik-lindqvist|family|Erik Lindqvist",
                "movie-deleted-movie|movies|The Little Lighthouse",
                "movie-my-neighbor-totoro|movies|My Neighbour Totoro",
                "movie-paddington-2|movies|Paddington 2",
                "movie-the-incredibles|movies|The Incredibles",
                "movie-up|movies|Up",
                "staff-handbook|staff|Staff handbook",
                "activity com.example.familycinema.movie.view|related movie-up|Up",
                "activity com.example.familycinema.office.directions|https://www.example.com/colleagues/office.html|Family Cinema San Francisco office",
            ])

        let stats = try await runSpotcheck(["index", "stats", "--format", "json"], in: folder)
        let statistics = try #require(JSONParser.parse(stats.output, lenient: false).value)
        #expect(statistics["items"]?.intValue == 12)
        #expect(statistics["activities"]?.intValue == 2)
        #expect(statistics["itemsByDomain"]?["movies"]?.intValue == 5)
        #expect(statistics["itemsByContentType"]?["public.contact"]?.intValue == 6)

        let show = try await runSpotcheck(["index", "show", "movie-up"], in: folder)
        let shown = try #require(JSONParser.parse(show.output, lenient: false).value)
        #expect(shown["attributeSet"]?["title"]?.stringValue == "Up")
        #expect(shown["expiresAt"]?.stringValue == "2027-11-22T00:00:00Z")
        #expect(shown["relatedActivities"]?[0]?["persistentIdentifier"]?.stringValue == "activity-movie-up")

        // Search: the item and its activity are one result; the standalone office activity is its own.
        let pixar = try await runSpotcheck(["index", "search", "pixar", "--format", "json"], in: folder)
        let results = try #require(JSONParser.parse(pixar.output, lenient: false).value?.arrayValue)
        #expect(
            Set(results.compactMap { $0["uniqueIdentifier"]?.stringValue }) == ["movie-up", "movie-the-incredibles"])
        let up = try #require(results.first { $0["uniqueIdentifier"]?.stringValue == "movie-up" })
        #expect(up["activityTypes"]?[0]?.stringValue == "com.example.familycinema.movie.view")
        let balloons = try await runSpotcheck(["index", "search", "balloons", "--format", "json"], in: folder)
        #expect(JSONParser.parse(balloons.output, lenient: false).value?.arrayValue?.count == 1)
        let office = try await runSpotcheck(
            ["index", "search", "lantern street", "--domain", "colleagues"], in: folder)
        #expect(
            office.output.hasPrefix(
                "1. Family Cinema San Francisco office — activity com.example.familycinema.office.directions"))
        let typed = try await runSpotcheck(
            ["index", "search", "lindq", "--type", "public.contact", "--limit", "2"], in: folder)
        #expect(typed.output.split(separator: "\n").count == 2)

        let due = try await runSpotcheck(["index", "reindex-due", "--within", "10000d"], in: folder)
        #expect(due.output.split(separator: "\n").first == "2027-01-31T00:00:00Z\tstaff-handbook")
    }

    @Test func exportThenImportRoundTrips() async throws {
        let folder = try temporaryFolder("cli-roundtrip")
        let first = try await runSpotcheck(
            [
                "index", "import", TestProject.itemsFixture, "--index", "a.sqlite", "--name", "app", "--client-state",
                "v1",
            ],
            in: folder)
        #expect(first.status == 0, "\(first.errors)")
        // An item without an expiration date: its defaulted expiry is exported and kept.
        try #"{"uniqueIdentifier": "no-expiry", "attributeSet": {"title": "Later", "rankingHint": 50}}"#
            .write(toFile: folder + "/extra.jsonl", atomically: true, encoding: .utf8)
        #expect(
            try await runSpotcheck(["index", "import", "extra.jsonl", "--index", "a.sqlite"], in: folder).status == 0)

        let exported = try await runSpotcheck(["index", "export", "--index", "a.sqlite", "-o", "a.jsonl"], in: folder)
        #expect(exported.status == 0, "\(exported.errors)")
        let reimported = try await runSpotcheck(["index", "import", "a.jsonl", "--index", "b.sqlite"], in: folder)
        #expect(reimported.status == 0, "\(reimported.errors)")
        #expect(reimported.output.contains("13 items indexed, 0 updated, 2 activities indexed; 0 records skipped"))
        let again = try await runSpotcheck(["index", "export", "--index", "b.sqlite"], in: folder)
        let original = try String(contentsOfFile: folder + "/a.jsonl", encoding: .utf8)
        #expect(again.output == original)
        #expect(original.split(separator: "\n").count == 16)  // 13 items, 2 activities, 1 client state
        #expect(original.hasSuffix(#"{"clientState":"v1","indexName":"app"}"# + "\n"))

        let a = try LocalIndex(path: folder + "/a.sqlite")
        let b = try LocalIndex(path: folder + "/b.sqlite")
        #expect(try a.items().map(\.exportedItem) == b.items().map(\.item))
        #expect(try a.items().map(\.expiresAt) == b.items().map(\.expiresAt))
        #expect(try a.activities().map(\.exportedRecord) == b.activities().map(\.record))
        #expect(try b.lastClientState(index: "app") == Array("v1".utf8))
    }

    @Test(
        "Invalid records are reported with their position and skipped; the valid ones are imported",
        arguments: [true, false])
    func invalidRecordsAreSkipped(asArray: Bool) async throws {
        let folder = try temporaryFolder("cli-invalid")
        let records = [
            #"{"uniqueIdentifier": "good-1", "attributeSet": {"title": "Good"}}"#,
            #"{"attributeSet": {"title": "No identifier"}}"#,
            #"{"uniqueIdentifier": "wrong-type", "attributeSet": {"keywords": "one"}}"#,
            #"{"uniqueIdentifier": "bad-url", "attributeSet": {"contentURL": "::nope"}}"#,
            #"{"clientState": "\#(String(repeating: "x", count: 250))", "indexName": "app"}"#,
            #"{"activity": {"activityType": "view", "contentAttributeSet": {"relatedUniqueIdentifier": "absent"}}}"#,
            #"{"activity": {"activityType": "view", "webpageURL": "myapp://x"}}"#,
            #"{"uniqueIdentifier": "good-2", "attributeSet": {"title": "Also good"}}"#,
            #"{"uniqueIdentifier": "ghost", "isUpdate": true, "attributeSet": {"title": "Update of nothing"}}"#,
        ]
        let text = asArray ? "[\n" + records.joined(separator: ",\n") + "\n]\n" : records.joined(separator: "\n") + "\n"
        try text.write(toFile: folder + "/items.json", atomically: true, encoding: .utf8)
        let result = try await runSpotcheck(["index", "import", "items.json"], in: folder)
        #expect(result.status == 3)
        func position(_ index: Int) -> String { asArray ? "record [\(index)]" : "line \(index + 1)" }
        let errors = result.errors.split(separator: "\n").map(String.init)
        #expect(errors.count == 7, "\(result.errors)")
        let expected = [
            (1, "uniqueIdentifier: missing"), (2, "attributeSet.keywords: expected an array of strings"),
            (3, "attributeSet.contentURL"), (4, "clientState: 250 bytes"),
            (5, "relatedUniqueIdentifier \"absent\" names no indexed item"), (6, "activity.webpageURL"),
        ]
        for ((index, message), line) in zip(expected, errors) {
            #expect(line.hasPrefix("spotcheck: items.json: \(position(index)): "), "\(line)")
            #expect(line.contains(message), "\(line)")
            #expect(line.hasSuffix("(skipped)"))
        }
        #expect(errors.last?.contains("\(position(8)): isUpdate for \"ghost\"") == true)
        #expect(result.output.contains("2 items indexed, 0 updated, 0 activities indexed; 6 records skipped"))
        let list = try await runSpotcheck(["index", "list"], in: folder)
        #expect(list.output.split(separator: "\n").map { $0.prefix(6) } == ["good-1", "good-2"])
    }

    @Test func unusableInputsAndIndexesHaveTheirExitCodes() async throws {
        let folder = try temporaryFolder("cli-errors")
        let missingInput = try await runSpotcheck(["index", "import", "nope.json"], in: folder)
        #expect(missingInput.status == 3)
        #expect(missingInput.errors.contains("nope.json: no such file"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/spotcheck.sqlite.garbage"))

        try "[{\"uniqueIdentifier\": \"a\"},".write(toFile: folder + "/cut.json", atomically: true, encoding: .utf8)
        let cut = try await runSpotcheck(["index", "import", "cut.json"], in: folder)
        #expect(cut.status == 3)
        #expect(cut.errors.contains("cut.json: not valid JSON"))

        let noIndex = try await runSpotcheck(["index", "list", "--index", "absent.sqlite"], in: folder)
        #expect(noIndex.status == 9)
        #expect(noIndex.errors.contains("absent.sqlite: no such index file"))

        try Data(repeating: 0x5A, count: 10_000).write(to: URL(fileURLWithPath: folder + "/corrupt.sqlite"))
        for arguments in [["list"], ["search", "x"], ["import", TestProject.itemsFixture], ["stats"]] {
            let corrupt = try await runSpotcheck(["index"] + arguments + ["--index", "corrupt.sqlite"], in: folder)
            #expect(corrupt.status == 9, "\(arguments)")
            #expect(corrupt.errors.contains("corrupt.sqlite: open: SQLite error 26"), "\(corrupt.errors)")
        }

        #expect(try await runSpotcheck(["index", "import", TestProject.itemsFixture], in: folder).status == 0)
        let show = try await runSpotcheck(["index", "show", "no-such-item"], in: folder)
        #expect(show.status == 1)
        #expect(show.errors.contains("no-such-item: no such item"))
        #expect(try await runSpotcheck(["index", "delete"], in: folder).status == 64)
        #expect(try await runSpotcheck(["index", "delete", "--all", "--id", "x"], in: folder).status == 64)
        let longState = String(repeating: "s", count: 250)
        let tooLong = try await runSpotcheck(
            ["index", "import", TestProject.itemsFixture, "--name", "n", "--client-state", longState], in: folder)
        #expect(tooLong.status == 64)
        let noName = try await runSpotcheck(
            ["index", "import", TestProject.itemsFixture, "--client-state", "s"], in: folder)
        #expect(noName.status == 64)
        #expect(try await runSpotcheck(["index", "reindex-due", "--within", "soon"], in: folder).status == 64)
    }

    @Test func deleteByDomainIdentifierAndAll() async throws {
        let folder = try temporaryFolder("cli-delete")
        #expect(
            try await runSpotcheck(
                ["index", "import", TestProject.itemsFixture, "--name", "app", "--client-state", "v1"], in: folder
            )
            .status == 0)
        let byDomain = try await runSpotcheck(
            ["index", "delete", "--domain", "movies", "--id", "staff-handbook"], in: folder)
        #expect(byDomain.status == 0)
        // Five movies and the activity related to movie-up; the staff handbook.
        #expect(byDomain.output.hasPrefix("6 items and 1 activities deleted"))
        let index = try LocalIndex(path: folder + "/spotcheck.sqlite")
        #expect(try index.items().count == 6)
        #expect(try index.lastClientState(index: "app") == Array("v1".utf8))
        let all = try await runSpotcheck(["index", "delete", "--all"], in: folder)
        #expect(all.output.hasPrefix("6 items and 1 activities deleted"))
        #expect(try index.items().isEmpty && index.activities().isEmpty)
        #expect(try index.lastClientState(index: "app") == nil)
    }

    /// Writes `count` items as JSON Lines; item `a` is among them with a new title, so a
    /// half-applied import would show.
    static func writeLargeImport(_ path: String, count: Int) throws {
        var text = #"{"uniqueIdentifier": "a", "attributeSet": {"title": "Changed"}}"# + "\n"
        for number in 0..<count {
            text +=
                #"{"uniqueIdentifier": "bulk-\#(number)", "domainIdentifier": "bulk", "attributeSet": {"title": "Bulk item \#(number)", "keywords": ["bulk"]}}"#
            text += "\n"
        }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// The index the kill tests start from: two items and client state v1 of the named index `app`.
    static func prepareIndex(_ folder: String) async throws {
        let lines = [
            #"{"uniqueIdentifier": "a", "attributeSet": {"title": "Original"}}"#,
            #"{"uniqueIdentifier": "b", "attributeSet": {"title": "Bee"}}"#,
        ]
        try lines.joined(separator: "\n").write(toFile: folder + "/small.jsonl", atomically: true, encoding: .utf8)
        let first = try await runSpotcheck(
            ["index", "import", "small.jsonl", "--name", "app", "--client-state", "v1"], in: folder)
        #expect(first.status == 0, "\(first.errors)")
    }

    static func expectPreviousState(_ folder: String) throws {
        let index = try LocalIndex(path: folder + "/spotcheck.sqlite")
        #expect(try index.identifiers() == ["a", "b"])
        #expect(try index.item(identifier: "a")?.item.attributeSet.title == "Original")
        #expect(try index.lastClientState(index: "app") == Array("v1".utf8))
        #expect(try index.search(SearchQuery("bulk")).isEmpty)
        #expect(try index.search(SearchQuery("original")).count == 1)
    }

    @Test func aProcessKilledMidBatchLeavesThePreviousItemsAndClientState() async throws {
        let folder = try temporaryFolder("cli-kill")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try await Self.prepareIndex(folder)
        try Self.writeLargeImport(folder + "/large.jsonl", count: 5000)
        // The import code of `spotcheck index import`, stopped inside its open transaction 3,000
        // records in (a test-support executable: the hook is not in the shipped binary).
        let child = try startChild(
            try builtExecutable("IndexImportStaller"), ["spotcheck.sqlite", "large.jsonl", "app", "v2", "3000"],
            in: folder)
        var waited = 0
        while !child.errors().contains("stalled after 3000 records"), child.process.isRunning, waited < 3000 {
            try await Task.sleep(nanoseconds: 10_000_000)
            waited += 1
        }
        #expect(child.errors().contains("stalled after 3000 records"), "\(child.errors())")
        kill(child.process.processIdentifier, SIGKILL)
        let status = await waitForExit(child.process)
        #expect(child.process.terminationReason == .uncaughtSignal && status == SIGKILL)
        try Self.expectPreviousState(folder)

        // The index is usable afterwards: the same import, uninterrupted, applies in full.
        let retry = try await runSpotcheck(
            ["index", "import", "large.jsonl", "--name", "app", "--client-state", "v2"], in: folder)
        #expect(retry.status == 0, "\(retry.errors)")
        let index = try LocalIndex(path: folder + "/spotcheck.sqlite")
        #expect(try index.items().count == 5002)
        #expect(try index.item(identifier: "a")?.item.attributeSet.title == "Changed")
        #expect(try index.lastClientState(index: "app") == Array("v2".utf8))
    }

    @Test(
        "A process killed at any moment of an import leaves all of it or none of it",
        arguments: [30, 120, 300, 1500, 6000])
    func killAtAnyMoment(afterMilliseconds: Int) async throws {
        let folder = try temporaryFolder("cli-kill-any")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try await Self.prepareIndex(folder)
        try Self.writeLargeImport(folder + "/large.jsonl", count: 20_000)
        let child = try startSpotcheck(
            ["index", "import", "large.jsonl", "--name", "app", "--client-state", "v2"], in: folder)
        try await Task.sleep(nanoseconds: UInt64(afterMilliseconds) * 1_000_000)
        kill(child.process.processIdentifier, SIGKILL)
        _ = await waitForExit(child.process)
        let index = try LocalIndex(path: folder + "/spotcheck.sqlite")
        let count = try index.items().count
        let state = try index.lastClientState(index: "app")
        if count == 2 {
            try Self.expectPreviousState(folder)
        } else {
            #expect(count == 20_002)
            #expect(state == Array("v2".utf8))
            #expect(try index.item(identifier: "a")?.item.attributeSet.title == "Changed")
        }
    }
}
