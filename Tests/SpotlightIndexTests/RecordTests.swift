import Foundation
import LenientJSON
import SpotlightModel
import Testing

@testable import SpotlightIndex

@Suite("Local-items records")
struct RecordTests {
    static func decode(_ text: String) -> Result<LocalRecord, RecordProblem> {
        guard let value = JSONParser.parse(text, lenient: false).value else {
            return .failure(RecordProblem("test JSON does not parse"))
        }
        do { return .success(try LocalRecord(json: value)) } catch { return .failure(error) }
    }

    @Test(
        "Invalid records are refused naming the field",
        arguments: [
            (#"{"attributeSet": {"title": "x"}}"#, "uniqueIdentifier: missing"),
            (#"{"uniqueIdentifier": ""}"#, "uniqueIdentifier: must not be empty"),
            (#"{"uniqueIdentifier": 42}"#, "uniqueIdentifier: expected a string, found a number"),
            (#"{"uniqueIdentifier": "a", "attributeSet": []}"#, "attributeSet: expected an object"),
            (
                #"{"uniqueIdentifier": "a", "attributeSet": {"keywords": "one"}}"#,
                "attributeSet.keywords: expected an array"
            ),
            (#"{"uniqueIdentifier": "a", "attributeSet": {"keywords": ["a", 1]}}"#, "attributeSet.keywords"),
            (
                #"{"uniqueIdentifier": "a", "attributeSet": {"rating": "4.5"}}"#,
                "attributeSet.rating: expected a number"
            ),
            (
                #"{"uniqueIdentifier": "a", "attributeSet": {"rankingHint": 101}}"#,
                "rankingHint: 101.0 is outside 0–100"
            ),
            (#"{"uniqueIdentifier": "a", "attributeSet": {"supportsPhoneCall": 2}}"#, "supportsPhoneCall"),
            (
                #"{"uniqueIdentifier": "a", "attributeSet": {"contentURL": "not a url"}}"#,
                "contentURL: \"not a url\" is not an absolute URL"
            ),
            (#"{"uniqueIdentifier": "a", "attributeSet": {"url": "https://exa mple.com/"}}"#, "attributeSet.url"),
            (
                #"{"uniqueIdentifier": "a", "expirationDate": "next week"}"#,
                "expirationDate: \"next week\" is not an ISO 8601 date"
            ),
            (#"{"uniqueIdentifier": "a", "isUpdate": "yes"}"#, "isUpdate"),
            (#"{"activity": {"title": "x"}}"#, "activity.activityType: missing"),
            (#"{"activity": {"activityType": "t", "webpageURL": "myapp://open/1"}}"#, "is not http or https"),
            (#"{"activity": {"activityType": "t", "webpageURL": "/relative"}}"#, "activity.webpageURL"),
            (#"{"activity": {"activityType": "t", "keywords": "x"}}"#, "activity.keywords"),
            (#"{"activity": {"activityType": "t", "isEligibleForSearch": "true"}}"#, "isEligibleForSearch"),
            (
                #"{"activity": {"activityType": "t", "contentAttributeSet": {"title": 1}}}"#,
                "activity.contentAttributeSet.title"
            ),
            (#"{"activity": "view"}"#, "activity: expected an object"),
            (#"{"clientState": 12}"#, "clientState: expected a string"),
            (#"["a"]"#, "must be a JSON object"),
        ])
    func invalidRecords(json: String, problem: String) {
        switch Self.decode(json) {
        case .success(let record): Issue.record("accepted: \(record)")
        case .failure(let error): #expect(error.message.contains(problem), "\(error.message)")
        }
    }

    /// The record keeps a client state of any size, byte for byte: `index import` refuses 250
    /// bytes or more (`CLITests`), and `crawl --items` reports it as AS016.
    @Test("A client state is read as its UTF-8 bytes, whatever its size", arguments: [249, 250, 4096])
    func clientStateRecord(bytes: Int) {
        let state = String(repeating: "é", count: bytes / 2) + String(repeating: "x", count: bytes % 2)
        #expect(state.utf8.count == bytes)
        let result = Self.decode(#"{"clientState": "\#(state)", "indexName": "app"}"#)
        guard case .success(.clientState(let name, let decoded)) = result else {
            Issue.record("unexpected \(result)")
            return
        }
        #expect(name == "app" && decoded == Array(state.utf8))
    }

    @Test func coreSpotlightNumberFlagsAndNullsAreAccepted() throws {
        let result = Self.decode(
            #"{"uniqueIdentifier": "a", "domainIdentifier": null, "attributeSet": {"supportsPhoneCall": 1, "supportsNavigation": 0, "title": null, "customAttributes": {"com_example_price": 9.99}}}"#
        )
        guard case .success(.item(let item)) = result else {
            Issue.record("refused: \(result)")
            return
        }
        #expect(item.attributeSet.supportsPhoneCall == true)
        #expect(item.attributeSet.supportsNavigation == false)
        #expect(item.attributeSet.title == nil)
        #expect(item.domainIdentifier == nil)
        #expect(item.attributeSet.customAttributes == ["com_example_price": "9.99"])
    }

    @Test func recordsRoundTripThroughJSON() throws {
        let text = try String(contentsOfFile: TestProject.itemsFixture, encoding: .utf8)
        let records = try #require(JSONParser.parse(text, lenient: false).value?.arrayValue)
        for value in records {
            let record = try LocalRecord(json: value)
            #expect(try LocalRecord(json: .object(record.json)) == record)
        }
    }

    @Test func theFixtureHasTwelveItemsAndTwoActivities() throws {
        var items: [String] = []
        var activities: [String] = []
        let format = try LocalItemsFile.read(path: TestProject.itemsFixture) { position, result in
            switch result {
            case .success(.item(let item)): items.append(item.uniqueIdentifier)
            case .success(.activity(let record)): activities.append(record.activity.activityType)
            default: Issue.record("\(position): \(result)")
            }
        }
        #expect(format == .jsonArray)
        #expect(items.count == 12)
        #expect(
            activities == ["com.example.familycinema.movie.view", "com.example.familycinema.office.directions"])
    }

    @Test func jsonLinesAreReadLineByLineWithPositions() throws {
        let path = try temporaryFolder("jsonl") + "/items.jsonl"
        let lines = [
            #"{"uniqueIdentifier": "a"}"#, "", #"{"uniqueIdentifier": 1}"#, "{broken", "  ",
            #"{"activity": {"activityType": "t"}}"# + "\r",
        ]
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        var seen: [String] = []
        let format = try LocalItemsFile.read(path: path) { position, result in
            switch result {
            case .success: seen.append("\(position): ok")
            case .failure(let problem): seen.append("\(problem.position.map { "\($0)" } ?? "?"): failed")
            }
        }
        #expect(format == .jsonLines)
        #expect(seen == ["line 1: ok", "line 3: failed", "line 4: failed", "line 6: ok"])
    }

    /// Where each record starts (its first character), for findings that point at a record: a
    /// JSON array's elements wherever they are written, strings with brackets, commas and
    /// escaped quotes passed over; a JSON Lines record after the line's leading white space.
    @Test(
        "each record's line and column",
        arguments: [
            (
                "items.json",
                "[\n  {\"uniqueIdentifier\": \"a]\\\",{\"},\n  {\"uniqueIdentifier\": \"b\"}, {\"uniqueIdentifier\": \"c\"}\n]",
                ["1:2:3", "2:3:3", "3:3:30"]
            ),
            ("inline.json", "[{\"uniqueIdentifier\": \"a\"},{\"uniqueIdentifier\": \"b\"}]", ["1:1:2", "2:1:28"]),
            ("items.jsonl", "{\"uniqueIdentifier\": \"a\"}\n\n   {\"uniqueIdentifier\": \"b\"}", ["1:1:1", "2:3:4"]),
        ])
    func recordPlaces(file: String, text: String, expected: [String]) throws {
        let path = try temporaryFolder("places") + "/" + file
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        var places: [String] = []
        try LocalItemsFile.read(path: path) { _, place, result in
            guard case .success(.item) = result else { return }
            places.append("\(places.count + 1):\(place.line):\(place.column)")
        }
        #expect(places == expected)
    }

    /// Issue 17 §2.10: a line longer than a record may be is reported with its length and skipped
    /// (not kept whole in memory), and the records after it are still read.
    @Test func aLineOverTheLimitIsReportedAndSkipped() throws {
        let path = try temporaryFolder("long-line") + "/items.jsonl"
        let long = ChunkedReader.maximumLineBytes + 3 << 20
        var file = Data(#"{"uniqueIdentifier": "a"}"#.utf8 + [0x0A])
        file.append(Data(#"{"uniqueIdentifier": ""#.utf8))
        file.append(Data(repeating: UInt8(ascii: "x"), count: long - 25))
        file.append(Data(#""}"#.utf8 + [0x0A] + Array(#"{"uniqueIdentifier": "b"}"#.utf8)))
        try file.write(to: URL(fileURLWithPath: path))
        var seen: [String] = []
        try LocalItemsFile.read(path: path) { position, result in
            switch result {
            case .success(.item(let item)): seen.append("\(position): \(item.uniqueIdentifier)")
            case .success: seen.append("\(position): other")
            case .failure(let problem): seen.append("\(position): \(problem.message)")
            }
        }
        #expect(seen.count == 3)
        #expect(seen.first == "line 1: a")
        #expect(seen.last == "line 3: b")
        #expect(
            seen[1].hasPrefix(
                "line 2: the line is \(long) bytes, over the \(ChunkedReader.maximumLineBytes)-byte limit"))
    }

    @Test(
        "Files that are not records at all are an error for the whole file",
        arguments: [("", "empty file"), ("  \n", "empty file"), ("hello", "neither"), ("[1, 2", "not valid JSON")])
    func unreadableFiles(content: String, message: String) throws {
        let path = try temporaryFolder("bad") + "/items.json"
        try content.write(toFile: path, atomically: true, encoding: .utf8)
        let error = try #require(throws: LocalItemsFileError.self) {
            try LocalItemsFile.read(path: path) { _, _ in }
        }
        #expect(error.message.contains(message))
        #expect(error.description.hasPrefix(path))
    }

    @Test func aMissingFileIsNamed() throws {
        let error = try #require(throws: LocalItemsFileError.self) {
            try LocalItemsFile.read(path: "/nonexistent/items.json") { _, _ in }
        }
        #expect(error.description == "/nonexistent/items.json: no such file")
    }

    @Test func utcDatesAreWrittenInISO8601() {
        #expect(SpotlightDate(utcSeconds: 0).text == "1970-01-01T00:00:00Z")
        #expect(SpotlightDate(utcSeconds: TestClock.start + 30 * day + 3661).text == "2026-01-31T01:01:01Z")
        #expect(SpotlightDate(utcSeconds: 951_782_400).text == "2000-02-29T00:00:00Z")
        #expect(SpotlightDate(utcSeconds: -1).text == "1969-12-31T23:59:59Z")
    }

    /// Issue 35 §1: a tampered index's `expires_at` (1e300, inf, NaN) trapped `index list`,
    /// `show` and `export`; past the years 1–9999 a time shows as the nearest end.
    @Test(
        "times out of range show as the first or last second of the years 1 to 9999",
        arguments: [
            (1e300, "9999-12-31T23:59:59Z"), (.infinity, "9999-12-31T23:59:59Z"),
            (-1e300, "0001-01-01T00:00:00Z"), (.nan, "1970-01-01T00:00:00Z"),
        ] as [(Double, String)])
    func hugeTimes(seconds: Double, text: String) {
        #expect(SpotlightDate(utcSeconds: seconds).text == text)
    }
}
