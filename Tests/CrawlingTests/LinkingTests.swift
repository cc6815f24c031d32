import Foundation
import LenientJSON
import SpotCheckTestSupport
import Testing

/// `crawl Fixtures/html --items Fixtures/items.json` links and rejects exactly as Fixtures/items.md
/// intends; `--index DB` feeds the candidates into an index idempotently.
@Suite("Linking the app's local items, feeding the index", .serialized)
struct LinkingTests {
    @Test func theFixtureItemsLinkAsIntended() async throws {
        let executable = try spotcheckExecutable()
        let folder = try temporaryFolder("linking")
        let items = TestSite.projectRoot.appendingPathComponent("Fixtures/items.json").path
        let run = try await runProcess(
            executable, ["crawl", TestSite.fixtureRoot, "--items", items, "--output", folder, "--quiet"])
        #expect(run.status == 0, "\(run.output)")
        let report = try #require(
            JSONParser.parse(try String(contentsOfFile: folder + "/report.json", encoding: .utf8), lenient: false).value
        )
        let linking = try #require(report["linking"])
        // The whole linking section equals the golden file (re-record with SPOTCHECK_RECORD_GOLDEN=1).
        let golden = TestSite.projectRoot.appendingPathComponent("Tests/CrawlingTests/Golden/fixture-linking.json")
        var shown = linking.serialized(pretty: true)
        // robots.txt's reason names the loopback port, which changes from run to run.
        shown = shown.replacingOccurrences(
            of: #"http://127\.0\.0\.1:\d+"#, with: "http://127.0.0.1:PORT", options: .regularExpression)
        if ProcessInfo.processInfo.environment["SPOTCHECK_RECORD_GOLDEN"] == "1" {
            try (shown + "\n").write(to: golden, atomically: true, encoding: .utf8)
        }
        #expect(shown + "\n" == (try String(contentsOf: golden, encoding: .utf8)))
        let links = linking["links"]?.arrayValue ?? []
        #expect(links.count == 12)
        #expect(
            links.contains {
                $0["entry"]?.stringValue == #"activity com.example.familycinema.movie.view "Up""#
                    && $0["key"]?.stringValue == "related item movie-up"
            })
        #expect(
            links.contains {
                $0["page"]?.stringValue == "https://www.example.com/colleagues/office.html"
                    && $0["key"]?.stringValue == "webpageURL"
            })
        let unmatched = Dictionary(
            uniqueKeysWithValues: (linking["unmatched"]?.arrayValue ?? []).map {
                ($0["entry"]?.stringValue ?? "", $0["reason"]?.stringValue ?? "")
            })
        #expect(unmatched.keys.sorted() == ["movie-deleted-movie", "staff-handbook"])
        #expect(unmatched["staff-handbook"]?.contains("robots") == true)
        #expect(linking["pagesWithoutEntries"]?.arrayValue?.count == 26)

        var rules: [String: [String]] = [:]
        for finding in report["siteFindings"]?.arrayValue ?? [] {
            guard let rule = finding["rule"]?.stringValue, rule.hasPrefix("AS") else { continue }
            rules[rule, default: []].append(finding["url"]?.stringValue ?? "")
        }
        // Issue 31: contentURL is the documented join key, so no AS008 on the fixture's items.
        #expect(rules.keys.sorted() == ["AS001", "AS003", "AS007"])
        #expect(rules["AS001"]?.count == 26)
        #expect(!(rules["AS001"] ?? []).contains("https://www.example.com/colleagues/office.html"))
        #expect(rules["AS003"] == ["https://www.example.com/movies/my-neighbor-totoro.html"])
        #expect(rules["AS007"] == ["local item colleague-grace-mensah"])
        #expect(rules["AS008"] == nil)
    }

    @Test func candidatesAreFedIntoTheIndexIdempotently() async throws {
        let executable = try spotcheckExecutable()
        let folder = try temporaryFolder("feeding")
        let index = folder + "/site.sqlite"
        // A candidate of an earlier crawl whose page is gone: the crawl removes it.
        let stale = folder + "/stale.jsonl"
        try
            #"{"uniqueIdentifier": "https://www.example.com/gone.html", "domainIdentifier": "web-www-example-com", "attributeSet": {"title": "Gone"}}"#
            .write(toFile: stale, atomically: true, encoding: .utf8)
        let imported = try await runProcess(executable, ["index", "import", stale, "--index", index])
        #expect(imported.status == 0, "\(imported.output)")

        let first = try await runProcess(
            executable, ["crawl", TestSite.fixtureRoot, "--index", index, "--output", folder + "/one"])
        #expect(first.status == 0, "\(first.output)")
        #expect(first.output.contains("37 candidates indexed (domain web-www-example-com), 1 removed"))
        let second = try await runProcess(
            executable, ["crawl", TestSite.fixtureRoot, "--index", index, "--output", folder + "/two"])
        #expect(second.output.contains("37 candidates indexed (domain web-www-example-com), 0 removed"))

        let search = try await runProcess(
            executable, ["index", "search", "Totoro", "--index", index, "--format", "json"])
        #expect(search.status == 0, "\(search.output)")
        #expect(search.output.contains("https://www.example.com/movies/my-neighbor-totoro.html"))
        let stats = try await runProcess(executable, ["index", "stats", "--index", index, "--format", "json"])
        #expect(stats.output.contains("37"), "\(stats.output)")
    }

    @Test func badItemsAreNamedAndValidOnesStillLink() async throws {
        let executable = try spotcheckExecutable()
        let folder = try temporaryFolder("bad-items")
        let missing = try await runProcess(
            executable, ["crawl", TestSite.fixtureRoot, "--items", folder + "/none.json", "--output", folder + "/a"])
        #expect(missing.status == 3)
        #expect(missing.output.contains("none.json: no such file"))
        let mixed = folder + "/mixed.jsonl"
        try """
        {"uniqueIdentifier": 5}
        {"uniqueIdentifier": "movie-up", "attributeSet": {"title": "Up", "contentURL": "https://www.example.com/movies/up.html"}}

        """.write(toFile: mixed, atomically: true, encoding: .utf8)
        let run = try await runProcess(
            executable, ["crawl", TestSite.fixtureRoot, "--items", mixed, "--output", folder + "/b", "--quiet"])
        // Issue 31: exit 3 as the shared table (and `index import` of the same file) says; the
        // reports are still written.
        #expect(run.status == 3, "\(run.output)")
        #expect(run.output.contains("1 invalid record(s) in --items \(mixed) were left out"), "\(run.output)")
        #expect(run.output.contains("line 1: uniqueIdentifier: expected a string, found a number (skipped)"))
        let report = try #require(
            JSONParser.parse(try String(contentsOfFile: folder + "/b/report.json", encoding: .utf8), lenient: false)
                .value)
        #expect(report["linking"]?["links"]?.arrayValue?.map { $0["entry"]?.stringValue } == ["movie-up"])
    }
}
