import CrawlStore
import Foundation
import GRDB
import SpotCheckTestSupport
import Testing

/// Issue 35 §1 and §5: numbers from input (options, the project file, pages, a tampered store)
/// that used to trap where a `Double` became an `Int`, and stored settings no option allows.
@Suite("hostile numbers through the command line", .serialized)
struct HostileNumbersTests {
    static let fixtures = TestSite.fixtureRoot

    @Test(
        "a non-finite or huge --timeout, --robots-retry or --delay is a usage error naming the option",
        arguments: [
            ("--timeout", "inf"), ("--timeout", "nan"), ("--timeout", "1e300"), ("--robots-retry", "inf"),
            ("--robots-retry", "1e300"), ("--delay", "nan"), ("--delay", "inf"),
        ])
    func optionsAreBounded(option: String, value: String) async throws {
        let folder = try temporaryFolder("hostile-option")
        let result = try await runProcess(
            try spotcheckExecutable(),
            ["crawl", Self.fixtures + "/movies", "--output", folder + "/out", "--quiet", option, value])
        #expect(result.status == 64, "\(result.output)")
        #expect(result.output.contains("\(option) "), "\(result.output)")
        #expect(result.output.contains("at most"), "\(result.output)")
    }

    @Test("aasa check --timeout inf is a usage error")
    func aasaTimeoutIsBounded() async throws {
        let result = try await runProcess(
            try spotcheckExecutable(), ["aasa", "check", "http://127.0.0.1:9/", "--timeout", "inf"])
        #expect(result.status == 64, "\(result.output)")
        #expect(result.output.contains("--timeout inf"), "\(result.output)")
    }

    @Test(".spotcheck.json with a timeout of 1e300 is a configuration error naming the key (exit 7)")
    func projectFileTimeoutIsBounded() async throws {
        let tmp = try temporaryFolder("hostile-config")
        try Data(#"{"timeout": 1e300}"#.utf8).write(to: URL(fileURLWithPath: tmp + "/.spotcheck.json"))
        let result = try await runProcess(
            try spotcheckExecutable(), ["crawl", Self.fixtures + "/movies", "--output", tmp + "/out", "--quiet"],
            in: tmp)
        #expect(result.status == 7, "\(result.output)")
        #expect(result.output.contains("timeout"), "\(result.output)")
    }

    @Test(
        "validate -v shows a page whose video:duration is not a usable number",
        arguments: ["inf", "1e300", "P9999999999999999999Y", "nan", "-5"])
    func hugeDurations(duration: String) async throws {
        let tmp = try temporaryFolder("hostile-duration")
        let page = """
            <!doctype html><html><head><title>A film</title>
            <meta property="og:type" content="video.movie">
            <meta property="video:duration" content="\(duration)">
            </head><body><h1>A film</h1></body></html>
            """
        try Data(page.utf8).write(to: URL(fileURLWithPath: tmp + "/film.html"))
        let result = try await runProcess(
            try spotcheckExecutable(), ["validate", tmp + "/film.html", "-v", "--output", tmp + "/out"])
        #expect(result.status == 0 || result.status == 1, "\(result.output)")
        #expect(result.output.contains("A film"), "\(result.output)")
    }

    /// A crawl of one page, its run marked unfinished and `change` applied to its stored settings
    /// (SQLite's JSON functions on `run.settings_json`).
    static func tamperedCrawl(_ name: String, _ change: String) async throws -> String {
        let folder = try temporaryFolder(name) + "/out"
        let crawl = try await runProcess(
            try spotcheckExecutable(),
            ["crawl", Self.fixtures + "/movies", "--output", folder, "--quiet", "--no-sitemaps", "--max-pages", "1"])
        #expect(crawl.status == 0, "\(crawl.output)")
        let queue = try DatabaseQueue(path: folder + "/crawl.sqlite")
        try await queue.write { db in
            try db.execute(sql: "UPDATE run SET finished_at = NULL, settings_json = \(change)")
        }
        try queue.close()
        return folder
    }

    @Test(
        "--resume refuses stored settings no option allows, naming the column (exit 9)",
        arguments: [
            ("json_set(settings_json, '$.concurrency', 0)", "concurrency 0"),
            ("json_set(settings_json, '$.perHost', -1)", "perHost -1"),
            ("json_set(settings_json, '$.timeout', 1e300)", "timeout 1e+300"),
            ("json_set(settings_json, '$.robotsRetryWait', 1e300)", "robotsRetryWait"),
            ("json_set(settings_json, '$.maximumAttempts', 0)", "maximumAttempts 0"),
        ])
    func tamperedSettingsOnResume(change: String, says: String) async throws {
        let folder = try await Self.tamperedCrawl("hostile-settings", change)
        let settings = try await DatabaseQueue(path: folder + "/crawl.sqlite").read {
            try String.fetchOne($0, sql: "SELECT settings_json FROM run")
        }
        #expect(settings?.contains("e+300") == true || !says.contains("e+300"), "the change applied: \(settings ?? "")")
        let result = try await runProcess(
            try spotcheckExecutable(), ["crawl", "--resume", "--output", folder, "--quiet"])
        #expect(result.status == 9, "\(result.output)")
        #expect(result.output.contains("run.settings_json"), "\(result.output)")
        #expect(result.output.contains(says), "\(result.output)")
    }

    @Test("report --format html of a store whose page took 1e300 s writes the report")
    func tamperedTimings() async throws {
        let folder = try temporaryFolder("hostile-timings") + "/out"
        let crawl = try await runProcess(
            try spotcheckExecutable(),
            ["crawl", Self.fixtures + "/movies", "--output", folder, "--quiet", "--no-sitemaps", "--max-pages", "1"])
        #expect(crawl.status == 0, "\(crawl.output)")
        let queue = try DatabaseQueue(path: folder + "/crawl.sqlite")
        try await queue.write { db in
            try db.execute(sql: #"UPDATE page SET timings_json = '{"total":1e300,"connect":1e300}'"#)
        }
        try queue.close()
        let result = try await runProcess(
            try spotcheckExecutable(), ["report", folder, "--format", "html"])
        #expect(result.status == 0, "\(result.output)")
        let html = try String(contentsOfFile: folder + "/index.html", encoding: .utf8)
        #expect(html.contains("<html"))
    }
}
