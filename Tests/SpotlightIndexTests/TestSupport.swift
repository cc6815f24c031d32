import Foundation
import PostgresStorage
import SpotCheckTestSupport
import SpotlightIndex
import SpotlightModel
import Synchronization
import Testing

/// A clock the test moves by hand.
final class TestClock: Sendable {
    private let time: Mutex<Double>

    /// 2026-01-01T00:00:00Z.
    static let start: Double = 1_767_225_600

    init(_ start: Double = TestClock.start) {
        time = Mutex(start)
    }

    var now: Double { time.withLock { $0 } }

    func advance(by seconds: Double) {
        time.withLock { $0 += seconds }
    }

    var reading: @Sendable () -> Double { { [self] in now } }
}

let day: Double = 86_400

/// A fresh folder under the temporary directory.
func temporaryFolder(_ name: String) throws -> String {
    try Scratch.folder("index-\(name)")
}

/// The storages the index's semantics are tested on: SQLite always, PostgreSQL when
/// `SPOTCHECK_TEST_POSTGRES` names a server (`make test` starts one; .ci/run always does).
enum IndexBackend: String, Sendable, CustomTestStringConvertible {
    case sqlite, postgres

    static let postgresURL = ProcessInfo.processInfo.environment["SPOTCHECK_TEST_POSTGRES"]
    static let available: [IndexBackend] = [.sqlite] + (postgresURL == nil ? [] : [.postgres])
    static let postgresSkipped: Comment =
        "SPOTCHECK_TEST_POSTGRES is unset: the index suites ran on SQLite only (`make test` starts a throwaway PostgreSQL)"

    var testDescription: String { rawValue }

    /// A database URL whose tables live in a new schema of their own (created by the index).
    static func freshPostgresURL(_ name: String) throws -> String {
        let base = try #require(postgresURL)
        let schema = "\(name)_\(UUID().uuidString.prefix(8))".lowercased().replacingOccurrences(of: "-", with: "_")
        return base + (base.contains("?") ? "&" : "?") + "options=-csearch_path%3D\(schema)"
    }
}

/// A new, empty index on `backend` (a fresh SQLite file, or a fresh PostgreSQL schema), on a
/// test clock.
func makeIndex(_ backend: IndexBackend = .sqlite, _ name: String = "index", clock: TestClock = TestClock()) throws
    -> LocalIndex
{
    switch backend {
    case .sqlite:
        try LocalIndex(path: try temporaryFolder(name) + "/index.sqlite", clock: clock.reading)
    case .postgres:
        try LocalIndex.open(try IndexBackend.freshPostgresURL(name), clock: clock.reading)
    }
}

/// Shows in the test log that the PostgreSQL half of the index suites did not run.
@Test(
    "The index suites also ran on PostgreSQL",
    .enabled(if: IndexBackend.postgresURL != nil, IndexBackend.postgresSkipped))
func indexSuitesRanOnPostgres() throws {
    let index = try makeIndex(.postgres, "marker")
    #expect(index.location.hasPrefix("postgres://"))
    #expect(!index.location.contains(try #require(URLComponents(string: IndexBackend.postgresURL ?? "")?.password)))
}

/// An item with a title (and whatever else the test sets).
func item(
    _ identifier: String, domain: String? = nil, title: String? = nil, description: String? = nil,
    keywords: [String] = [], contentType: String? = nil, rankingHint: Double? = nil, url: String? = nil,
    expiration: String? = nil, isUpdate: Bool = false
) -> SearchableItem {
    var attributes = AttributeSet()
    attributes.title = title
    attributes.contentDescription = description
    attributes.keywords = keywords
    attributes.contentType = contentType
    attributes.rankingHint = rankingHint
    attributes.url = url
    return SearchableItem(
        uniqueIdentifier: identifier, domainIdentifier: domain, attributeSet: attributes,
        expirationDate: expiration.flatMap(ISO8601.date), isUpdate: isUpdate)
}

/// An activity related to an item, or standalone with a web page URL.
func activity(
    _ type: String, title: String? = nil, related: String? = nil, webpageURL: String? = nil,
    persistentIdentifier: String? = nil, domain: String? = nil, eligibleForSearch: Bool = true
) -> ActivityRecord {
    var attributes = AttributeSet()
    attributes.relatedUniqueIdentifier = related
    attributes.domainIdentifier = domain
    attributes.title = title
    return ActivityRecord(
        activity: UserActivity(
            activityType: type, title: title, webpageURL: webpageURL, persistentIdentifier: persistentIdentifier,
            isEligibleForSearch: eligibleForSearch, contentAttributeSet: attributes))
}

extension LocalIndex {
    /// The live items' identifiers, sorted.
    func identifiers() throws -> [String] {
        try items().map(\.item.uniqueIdentifier)
    }
}

enum TestProject {
    static let root: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()

    static let itemsFixture = root.appendingPathComponent("Fixtures/items.json").path
}

/// Runs `spotcheck` to its end without blocking a concurrency thread; stdout and stderr go to
/// separate files (a pipe could fill up and stall the child).
func runSpotcheck(
    _ arguments: [String], in folder: String
) async throws -> (status: Int32, output: String, errors: String) {
    let child = try startSpotcheck(arguments, in: folder)
    let status = await waitForExit(child.process)
    return (status, child.output(), child.errors())
}

struct Child {
    var process: Process
    var outputPath: String
    var errorPath: String

    func output() -> String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }
    func errors() -> String { (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "" }
}

/// Starts `spotcheck` in `folder`, its stdout and stderr going to temporary files.
func startSpotcheck(_ arguments: [String], in folder: String) throws -> Child {
    try startChild(try spotcheckExecutable(), arguments, in: folder)
}

/// Starts an executable of this package in `folder`, its output and errors going to files.
func startChild(_ executable: String, _ arguments: [String], in folder: String) throws -> Child {
    let base = Scratch.path("index-child")
    let outputPath = base + ".out"
    let errorPath = base + ".err"
    guard FileManager.default.createFile(atPath: outputPath, contents: nil),
        FileManager.default.createFile(atPath: errorPath, contents: nil)
    else { throw TestFailure("\(base): cannot be created") }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: folder)
    process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
    process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
    try process.run()
    return Child(process: process, outputPath: outputPath, errorPath: errorPath)
}
