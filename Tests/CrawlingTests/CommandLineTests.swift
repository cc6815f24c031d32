import CrawlStore
import Foundation
import LenientJSON
import SpotCheckTestSupport
import Testing

/// The `spotcheck` executable's exit codes and outputs for findings and rule configuration.
@Suite("spotcheck exit codes for findings", .serialized)
struct CommandLineTests {
    static let fixtures = TestSite.fixtureRoot

    @Test func crawlingTheFixtureSiteReportsFindingsAndFailsOnlyWhenAsked() async throws {
        let executable = try spotcheckExecutable()
        let folder = try temporaryFolder("cli-crawl")
        let lenient = try await runProcess(executable, ["crawl", Self.fixtures, "--output", folder, "--quiet"])
        #expect(lenient.status == 0, "\(lenient.output)")
        let text = try String(contentsOfFile: folder + "/report.json", encoding: .utf8)
        let report = try #require(JSONParser.parse(text, lenient: false).value)
        #expect(report["summary"]?["findings"]?["byRule"]?["SAB007"]?.intValue == 1)
        let home = report["pages"]?.arrayValue?.first { $0["url"]?.stringValue == "https://www.example.com/" }
        #expect(home?["findings"]?[0]?["rule"]?.stringValue == "SAB007")

        let strict = try await runProcess(
            executable, ["crawl", Self.fixtures, "--output", folder + "-strict", "--quiet", "--fail-on", "error"])
        #expect(strict.status == 1, "the broken pages have SAB errors: \(strict.output)")
    }

    /// Issue 15 §1: exit 1 comes with a line naming the threshold and how many findings crossed
    /// it, counted as report.json counts them.
    @Test(
        "--fail-on says which threshold was crossed and by how many findings",
        arguments: [("crawl", "error"), ("crawl", "warning"), ("validate", "error"), ("validate", "info")])
    func failOnSaysWhy(command: String, threshold: String) async throws {
        let folder = try temporaryFolder("cli-fail-on") + "/out"
        let result = try await runProcess(
            try spotcheckExecutable(), [command, Self.fixtures, "--output", folder, "--quiet", "--fail-on", threshold])
        #expect(result.status == 1, "\(result.output)")
        let text = try String(contentsOfFile: folder + "/report.json", encoding: .utf8)
        let counts = try #require(JSONParser.parse(text, lenient: false).value?["summary"]?["findings"])
        let severities = ["error", "warning", "info"].prefix { $0 != threshold } + [threshold]
        let crossing = severities.compactMap { severity in
            counts[severity]?.intValue.flatMap { $0 > 0 ? ($0, severity) : nil }
        }
        let total = crossing.reduce(0) { $0 + $1.0 }
        #expect(total > 0)
        let line =
            "spotcheck: --fail-on \(threshold): \(total) findings at or above \(threshold) "
            + "(\(crossing.map { "\($0.0) \($0.1)" }.joined(separator: ", "))), so the exit status is 1; "
            + "they are listed in \(folder)/report.json"
        #expect(result.output.contains(line), "\(result.output)")
    }

    @Test(
        "--allow-host refuses a URL, a port, a path or user info, with a clear message (exit 64)",
        arguments: [
            ("https://cdn.example.com", "no scheme"), ("cdn.example.com:8080", "no port"),
            ("cdn.example.com/assets", "no path"), ("user@cdn.example.com", "user info"), ("", "empty"),
            ("bad host.example", "not a valid host name"),
        ])
    func allowHostIsValidated(value: String, message: String) async throws {
        let executable = try spotcheckExecutable()
        let result = try await runProcess(
            executable, ["crawl", "http://127.0.0.1:9/", "--allow-host", value, "--quiet"])
        #expect(result.status == 64, "\(result.output)")
        #expect(result.output.contains("--allow-host \(value): "), "\(result.output)")
        #expect(result.output.contains(message), "\(result.output)")
    }

    @Test("--allow-host values are stored as the scope compares them: lower-case, IDN as punycode")
    func allowHostIsNormalised() async throws {
        let executable = try spotcheckExecutable()
        let folder = try temporaryFolder("cli-allow-host")
        let result = try await runProcess(
            executable,
            [
                "crawl", Self.fixtures + "/movies", "--output", folder, "--quiet", "--no-sitemaps", "--max-pages", "1",
                "--allow-host", "Bücher.Example", "--allow-host", "CDN.example.com", "--allow-host", "[::1]",
            ])
        #expect(result.status == 0, "\(result.output)")
        let settings = try #require(try CrawlStore(path: folder + "/crawl.sqlite").currentRun()?.settingsJSON)
        let stored = JSONParser.parse(settings, lenient: false).value?["allowedHosts"]?.arrayValue?.compactMap(
            \.stringValue)
        #expect(stored == ["xn--bcher-kva.example", "cdn.example.com", "[::1]"])
    }

    @Test func validateFailsOnFindingsAtTheThreshold() async throws {
        let executable = try spotcheckExecutable()
        let folder = try temporaryFolder("cli-validate")
        let movies = Self.fixtures + "/movies"
        let clean = try await runProcess(
            executable, ["validate", movies, "--output", folder, "--quiet", "--fail-on", "info"])
        #expect(clean.status == 0, "\(clean.output)")
        #expect(!clean.output.contains("--fail-on"), "no threshold line when it is not crossed: \(clean.output)")
        let broken = Self.fixtures + "/broken/sab-missing-app-id.html"
        let failing = try await runProcess(
            executable, ["validate", broken, "--output", folder, "--quiet", "--fail-on", "error"])
        #expect(failing.status == 1)
        let switchedOff = try await runProcess(
            executable,
            ["validate", broken, "--output", folder, "--quiet", "--fail-on", "error", "--rule", "SAB002=off"])
        #expect(switchedOff.status == 0, "\(switchedOff.output)")
    }

    /// The CLI checks `--app` with the library's app-ID format (`AppIDFormat`), the one the
    /// association-file rules use: an empty bundle-ID part is refused by both.
    @Test(
        "--app refuses what AppIDFormat refuses (exit 64) and takes what it takes",
        arguments: ["ABCDE12345.com..x", "ABCDE12345.com.x.", "ABCDE12345.", "ABCDE1234.com.x", "ABCDE1234é.com.x"])
    func appIDsAreValidatedAsTheLibraryDoes(appID: String) async throws {
        let executable = try spotcheckExecutable()
        let page = Self.fixtures + "/movies/the-incredibles.html"
        let folder = try temporaryFolder("cli-app-id")
        let validate = try await runProcess(
            executable, ["validate", page, "--output", folder, "--quiet", "--app", appID])
        #expect(validate.status == 64, "validate --app \(appID): \(validate.output)")
        #expect(validate.output.contains(appID), "\(validate.output)")
        let aasa = try await runProcess(
            executable, ["aasa", "check", Self.fixtures + "/.well-known/apple-app-site-association", "--app", appID])
        #expect(aasa.status == 64, "aasa check --app \(appID): \(aasa.output)")
    }

    /// The file fetched from a host says nothing about another host's URLs (what `swcutil verify` answers:
    /// "Input domain … did not match input URL's domain"); before, the check compared the URL with itself.
    @Test func aasaCheckMatchesURLsOfTheFilesHostOnly() async throws {
        let base = try await TestSite.baseURL()
        let app = "ABCDE12345.com.example.familycinema"
        let result = try await runProcess(
            try spotcheckExecutable(),
            ["aasa", "check", base, "--app", app, "--url", "https://evil.test/movies/x", "--url", base + "movies/x"])
        #expect(
            result.output.contains("https://evil.test/movies/x for \(app): not a universal link"), "\(result.output)")
        #expect(result.output.contains(base + "movies/x for \(app): opens the app"), "\(result.output)")
    }

    @Test func anAppIDInTheFormatIsAccepted() async throws {
        let executable = try spotcheckExecutable()
        let page = Self.fixtures + "/movies/the-incredibles.html"
        let folder = try temporaryFolder("cli-app-id-ok")
        let accepted = try await runProcess(
            executable, ["validate", page, "--output", folder, "--quiet", "--app", "ABCDE12345.com.example.app-1"])
        #expect(accepted.status == 0, "\(accepted.output)")
    }

    @Test func anInvalidRuleConfigurationExitsSevenNamingIt() async throws {
        let executable = try spotcheckExecutable()
        let result = try await runProcess(executable, ["rules", "--rule", "SAB999=off"])
        #expect(result.status == 7)
        #expect(result.output.contains("--rule SAB999=off: unknown rule \"SAB999\""))
        let listing = try await runProcess(executable, ["rules", "--format", "json"])
        #expect(listing.status == 0)
        let rules = JSONParser.parse(listing.output, lenient: false).value?["rules"]?.arrayValue ?? []
        // The reference's 153 rules, then SpotCheck's own (tagged [I]).
        #expect(rules.filter { $0["fromReference"]?.boolValue == true }.count == 153)
        #expect(rules.prefix(153).last?["id"]?.stringValue == "AS016")
    }

    /// Issue 13 §6: `extract` carries the page-level findings (DESIGN.md's contract), the same ones
    /// `validate` reports for the page; `--no-findings` leaves them out.
    @Test func extractCarriesThePageLevelFindings() async throws {
        let executable = try spotcheckExecutable()
        let page = Self.fixtures + "/broken/sab-app-id-not-digits.html"
        let base = ["--base-url", "https://www.example.com/broken/sab-app-id-not-digits.html"]
        let extracted = try await runProcess(executable, ["extract"] + base + [page])
        #expect(extracted.status == 0, "\(extracted.output)")
        let object = try #require(JSONParser.parse(extracted.output, lenient: false).value)
        let findings = try #require(object["findings"]?.arrayValue)
        #expect(findings.contains { $0["rule"]?.stringValue == "SAB003" && $0["severity"]?.stringValue == "error" })
        #expect(findings.allSatisfy { ($0["line"]?.intValue ?? 0) > 0 && $0["message"]?.stringValue != nil })

        let folder = try temporaryFolder("cli-extract-findings")
        let validated = try await runProcess(executable, ["validate"] + base + [page, "--output", folder, "--quiet"])
        let report = try String(contentsOfFile: folder + "/report.json", encoding: .utf8)
        let validatePage = JSONParser.parse(report, lenient: false).value?["pages"]?[0]
        #expect(validated.status == 0, "\(validated.output)")
        #expect(
            validatePage?["findings"]?.arrayValue?.map { $0["rule"]?.stringValue }
                == findings.map { $0["rule"]?.stringValue })

        let bare = try await runProcess(executable, ["extract", "--no-findings"] + base + [page])
        #expect(JSONParser.parse(bare.output, lenient: false).value?["findings"] == nil)
    }
}
