import CrawlStore
import Foundation
import LenientJSON
import ProjectConfiguration
import SpotCheckTestSupport
import Testing

/// One key of `.spotcheck.json`, set in a file in the child's working folder, and how to see that
/// the command used it: `{tmp}` is that folder (the command's output goes to `{tmp}/out`),
/// `{fixtures}` the fixture site. The command line leaves the key's option out, so the file's value
/// is the one used.
struct ConfiguredKey: Sendable, CustomTestStringConvertible {
    var command: String
    var key: String
    /// The key's value, as JSON text.
    var value: String
    /// The pages `validate` reads (default: one fixture page); not used by `crawl`.
    var pages: [String] = ["{fixtures}/movies/up.html"]
    /// Options added to the command line (never the key's own).
    var extra: [String] = []
    var status: Int32 = 0
    var says: [String] = []
    /// What the command did with the value: `tmp` is the working folder, `output` stdout + stderr.
    var check: @Sendable (_ tmp: String, _ output: String) throws -> Void = { _, _ in }

    var testDescription: String { "\(command): \"\(key)\": \(value)" }
}

/// Issue 15 §2: `.spotcheck.json` (or `--config FILE`) sets every `crawl` and `validate` option,
/// rule groups and an ignore list; it is found in the working folder or a parent and named on
/// stderr; an unknown key or a value the command refuses is exit 7 naming the file and the key.
@Suite("the project configuration file, through the spotcheck child process", .serialized)
struct ProjectConfigurationCLITests {
    static let fixtures = TestSite.fixtureRoot

    /// The crawl's stored settings (what the crawl ran with).
    static func settings(_ tmp: String) throws -> JSONValue {
        let text = try #require(try CrawlStore(path: tmp + "/out/crawl.sqlite").currentRun()?.settingsJSON)
        return try #require(JSONParser.parse(text, lenient: false).value)
    }

    /// The test CA of the TLS tests (any readable PEM file does for the setting).
    static let testCA: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<2 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("PageFetchingTests/TLS/ca.pem").path
    }()

    static func report(_ folder: String) throws -> JSONValue {
        let text = try String(contentsOfFile: folder + "/report.json", encoding: .utf8)
        return try #require(JSONParser.parse(text, lenient: false).value)
    }

    /// The stored `render` settings (their members in any order).
    static func renderSetting(concurrency: Int, timeout: Double) -> @Sendable (String, String) throws -> Void {
        { tmp, _ in
            let render = try settings(tmp)["render"]
            #expect(render?["concurrency"]?.intValue == concurrency)
            #expect(render?["timeout"]?.numberValue == timeout)
        }
    }

    static func setting(_ name: String, is expected: JSONValue) -> @Sendable (String, String) throws -> Void {
        { tmp, _ in
            let json = try settings(tmp)
            #expect(json[name] == expected)
        }
    }

    static func numberSetting(_ name: String, is expected: Double) -> @Sendable (String, String) throws -> Void {
        { tmp, _ in
            let json = try settings(tmp)
            #expect(json[name]?.numberValue == expected)
        }
    }

    /// A page whose Microdata value and encoding depend on `microdataContentAnywhere` and `encoding`.
    static let latin1Page =
        Array(
            #"<html><head><title>caf"#.utf8) + [0xE9]
        + Array(
            #"</title></head><body><div itemscope itemtype="https://schema.org/Thing"><span itemprop="name" content="A">B</span></div></body></html>"#
                .utf8)

    /// A page whose only Microdata item is an orphan (an itemscope with an itemprop no item claims).
    static let orphanPage =
        #"<html><body><div itemprop="x" itemscope itemtype="https://schema.org/Thing"><span itemprop="name">N</span></div></body></html>"#

    static let crawlKeys: [ConfiguredKey] = [
        ConfiguredKey(
            command: "crawl", key: "as", value: #""https://shop.example.org""#,
            check: setting("publicOrigin", is: "https://shop.example.org")),
        ConfiguredKey(command: "crawl", key: "concurrency", value: "3", check: setting("concurrency", is: 3)),
        ConfiguredKey(command: "crawl", key: "perHost", value: "1", check: setting("perHost", is: 1)),
        ConfiguredKey(command: "crawl", key: "delay", value: "0.25", check: numberSetting("delay", is: 0.25)),
        ConfiguredKey(command: "crawl", key: "depth", value: "0", check: setting("maximumDepth", is: 0)),
        ConfiguredKey(command: "crawl", key: "maxPages", value: "2", check: setting("maximumPages", is: 2)),
        ConfiguredKey(
            command: "crawl", key: "userAgent", value: #""ConfigBot/1.0""#,
            check: setting("userAgent", is: "ConfigBot/1.0")),
        ConfiguredKey(
            command: "crawl", key: "allowHost", value: #"["CDN.example.com"]"#,
            check: setting("allowedHosts", is: ["cdn.example.com"])),
        ConfiguredKey(
            command: "crawl", key: "include", value: #"["*/movies/*"]"#, check: setting("include", is: ["*/movies/*"])),
        ConfiguredKey(
            command: "crawl", key: "exclude", value: #"["*/broken/*"]"#, check: setting("exclude", is: ["*/broken/*"])),
        ConfiguredKey(command: "crawl", key: "maxBody", value: "65536", check: setting("maximumBodyBytes", is: 65536)),
        ConfiguredKey(command: "crawl", key: "maxImages", value: "3", check: setting("maximumImages", is: 3)),
        ConfiguredKey(
            command: "crawl", key: "consumers", value: #"["Twitterbot", "safari,applebot"]"#,
            check: setting("consumers", is: ["twitterbot", "safari", "applebot"])),
        ConfiguredKey(
            command: "crawl", key: "render", value: "true",
            check: renderSetting(concurrency: 4, timeout: 15)),
        ConfiguredKey(
            command: "crawl", key: "renderConcurrency", value: "1", extra: ["--render"],
            check: renderSetting(concurrency: 1, timeout: 15)),
        ConfiguredKey(
            command: "crawl", key: "renderTimeout", value: "7.5", extra: ["--render"],
            check: renderSetting(concurrency: 4, timeout: 7.5)),
        ConfiguredKey(
            command: "crawl", key: "caFile", value: "\"\(testCA)\"",
            check: setting("certificateAuthorities", is: .string(testCA))),
        ConfiguredKey(command: "crawl", key: "timeout", value: "12", check: numberSetting("timeout", is: 12)),
        ConfiguredKey(command: "crawl", key: "robotsRetry", value: "0", check: numberSetting("robotsRetryWait", is: 0)),
        ConfiguredKey(command: "crawl", key: "noSitemaps", value: "true", check: setting("useSitemaps", is: false)),
        ConfiguredKey(
            command: "crawl", key: "microdataWhatwg", value: "true",
            check: setting("microdataDropsOrphanItems", is: true)),
        ConfiguredKey(
            command: "crawl", key: "microdataContentAnywhere", value: "true",
            check: setting("microdataContentOnAnyElement", is: true)),
        ConfiguredKey(
            command: "crawl", key: "resume", value: "true", status: 6,
            says: ["{tmp}/out: no crawl store (crawl.sqlite) here, so there is no crawl to resume"]),
        ConfiguredKey(
            command: "crawl", key: "baseline", value: #""old-report.json""#,
            check: { tmp, _ in #expect(FileManager.default.fileExists(atPath: tmp + "/out/baseline-diff.json")) }),
        ConfiguredKey(
            command: "crawl", key: "includeMarkup", value: "true",
            check: { tmp, _ in
                let json = try Self.report(tmp + "/out")
                #expect(json["pages"]?[0]?["markup"] != nil)
            }),
        ConfiguredKey(
            command: "crawl", key: "marketingUrl", value: #"["https://www.example.com/about.html"]"#,
            check: setting("marketingURLs", is: ["https://www.example.com/about.html"])),
        ConfiguredKey(
            command: "crawl", key: "items", value: #""items.json""#,
            check: { tmp, _ in
                let json = try Self.report(tmp + "/out")
                #expect(json["linking"]?["links"] != nil)
            }),
        ConfiguredKey(
            command: "crawl", key: "index", value: #""site-index.sqlite""#,
            check: { tmp, _ in #expect(FileManager.default.fileExists(atPath: tmp + "/site-index.sqlite")) }),
        ConfiguredKey(
            command: "crawl", key: "output", value: #""from-file""#,
            check: { tmp, _ in #expect(FileManager.default.fileExists(atPath: tmp + "/from-file/report.json")) }),
        ConfiguredKey(
            command: "crawl", key: "quiet", value: "true",
            check: { _, output in #expect(!output.contains("crawled 1 pages"), "\(output)") }),
        ConfiguredKey(
            command: "crawl", key: "verbose", value: "true",
            check: { _, output in #expect(output.contains("spotcheck: crawling into "), "\(output)") }),
        ConfiguredKey(
            command: "crawl", key: "noProgress", value: "true",
            check: { _, output in #expect(!output.contains("\r"), "\(output)") }),
        ConfiguredKey(
            command: "crawl", key: "appId", value: #""999999999""#,
            check: { tmp, _ in
                let json = try Self.report(tmp + "/out")
                #expect(json["summary"]?["findings"]?["byRule"]?["SAB020"]?.intValue == 1)
            }),
        ConfiguredKey(
            command: "crawl", key: "app", value: #"["ZZZZZ12345.com.other.app"]"#,
            check: { tmp, _ in
                let json = try Self.report(tmp + "/out")
                #expect(json["universalLinks"]?[0]?["configuredAppIDs"] == ["ZZZZZ12345.com.other.app"])
            }),
        ConfiguredKey(
            command: "crawl", key: "failOn", value: #""warning""#, status: 1,
            says: ["spotcheck: --fail-on warning: 1 finding at or above warning"]),
        ConfiguredKey(
            command: "crawl", key: "format", value: #"["json", "sarif", "gitlab"]"#,
            check: { tmp, _ in
                #expect(FileManager.default.fileExists(atPath: tmp + "/out/findings.sarif"))
                #expect(FileManager.default.fileExists(atPath: tmp + "/out/gl-code-quality-report.json"))
            }),
        ConfiguredKey(
            command: "crawl", key: "ignore", value: #"["movies/**"]"#,
            check: { tmp, _ in
                let report = try report(tmp + "/out")
                #expect((report["summary"]?["skipped"]?["ignored"]?.intValue ?? 0) > 0)
                let reasons = report["coverage"]?["skipped"]?.arrayValue?.filter { $0["reason"] == "ignored" } ?? []
                #expect(reasons.allSatisfy { $0["url"]?.stringValue?.contains("/movies/") == true })
            }),
        ConfiguredKey(
            command: "crawl", key: "rules", value: #"{"SAB007": "off"}"#,
            check: { tmp, _ in
                let json = try Self.report(tmp + "/out")
                #expect(json["summary"]?["findings"]?["byRule"]?["SAB007"] == nil)
            }),
        // The home page (`/`) is matched as index.html too; RuleOverrideTests has the rest.
        ConfiguredKey(
            command: "crawl", key: "overrides", value: #"[{"files": ["index.html"], "rules": {"SAB007": "off"}}]"#,
            check: { tmp, _ in
                let json = try Self.report(tmp + "/out")
                #expect(json["summary"]?["findings"]?["byRule"]?["SAB007"] == nil)
            }),
    ]

    static let validateKeys: [ConfiguredKey] = [
        ConfiguredKey(
            command: "validate", key: "baseUrl", value: #""https://www.example.com/films/""#,
            pages: ["{fixtures}/movies"],
            check: { tmp, _ in
                let urls = try report(tmp + "/out")["pages"]?.arrayValue?.compactMap { $0["url"]?.stringValue } ?? []
                #expect(urls.contains("https://www.example.com/films/up.html"), "\(urls)")
            }),
        ConfiguredKey(command: "validate", key: "jobs", value: "1"),
        ConfiguredKey(
            command: "validate", key: "maxPageBytes", value: "100", status: 3, says: ["over the 100-byte page limit"]),
        ConfiguredKey(
            command: "validate", key: "microdataWhatwg", value: "true", pages: ["{tmp}/orphan.html"],
            check: { tmp, _ in
                let json = try Self.report(tmp + "/out")
                #expect(json["pages"]?[0]?["markup"]?["microdata"] == [])
            }),
        ConfiguredKey(
            command: "validate", key: "microdataContentAnywhere", value: "true", pages: ["{tmp}/latin1.html"],
            check: { tmp, _ in
                let json = try Self.report(tmp + "/out")
                #expect(json["pages"]?[0]?["markup"]?["microdata"]?[0]?["properties"]?["name"] == ["A"])
            }),
        ConfiguredKey(
            command: "validate", key: "noRdfa", value: "true", pages: ["{fixtures}/markup-tests.html"],
            check: { tmp, _ in
                let json = try Self.report(tmp + "/out")
                #expect(json["pages"]?[0]?["markup"]?["rdfa"] == [])
            }),
        ConfiguredKey(
            command: "validate", key: "encoding", value: #""windows-1252""#, pages: ["{tmp}/latin1.html"],
            check: { tmp, _ in
                let json = try Self.report(tmp + "/out")
                #expect(json["pages"]?[0]?["markup"]?["encoding"] == "windows-1252")
            }),
        ConfiguredKey(
            command: "validate", key: "aasa", value: #""{fixtures}/.well-known/apple-app-site-association""#,
            extra: ["--app", "ZZZZZ12345.com.other.app"], says: ["apple-app-site-association: error UL019"]),
        ConfiguredKey(
            command: "validate", key: "baseline", value: #""old-report.json""#,
            check: { tmp, _ in
                let report = try Self.report(tmp + "/out")
                #expect(report["summary"]?["baseline"] != nil)
            }),
        ConfiguredKey(
            command: "validate", key: "output", value: #""from-file""#,
            check: { tmp, _ in #expect(FileManager.default.fileExists(atPath: tmp + "/from-file/report.json")) }),
        ConfiguredKey(
            command: "validate", key: "quiet", value: "true",
            check: { _, output in #expect(!output.contains("  title:"), "\(output)") }),
        ConfiguredKey(
            command: "validate", key: "verbose", value: "true",
            check: { _, output in #expect(output.contains("  title:"), "\(output)") }),
        ConfiguredKey(
            command: "validate", key: "noProgress", value: "true",
            check: { _, output in #expect(!output.contains("\r"), "\(output)") }),
        ConfiguredKey(
            command: "validate", key: "appId", value: #""999999999""#,
            check: { tmp, _ in
                let json = try Self.report(tmp + "/out")
                #expect(json["pages"]?[0]?["findings"]?[0]?["rule"] == "SAB020")
            }),
        ConfiguredKey(
            command: "validate", key: "app", value: #"["ZZZZZ12345.com.other.app"]"#,
            extra: ["--aasa", "{fixtures}/.well-known/apple-app-site-association"],
            says: ["apple-app-site-association: error UL019", "ZZZZZ12345.com.other.app"]),
        ConfiguredKey(
            command: "validate", key: "failOn", value: #""error""#,
            pages: ["{fixtures}/broken/sab-missing-app-id.html"],
            status: 1, says: ["spotcheck: --fail-on error: "]),
        ConfiguredKey(
            command: "validate", key: "format", value: #""junit,gitlab""#,
            check: { tmp, _ in
                #expect(FileManager.default.fileExists(atPath: tmp + "/out/junit.xml"))
                #expect(FileManager.default.fileExists(atPath: tmp + "/out/gl-code-quality-report.json"))
            }),
        ConfiguredKey(
            command: "validate", key: "ignore", value: #"["up.html"]"#, pages: ["{fixtures}/movies"],
            check: { tmp, output in
                let report = try report(tmp + "/out")
                #expect(report["summary"]?["ignored"] == 1)
                #expect(
                    report["pages"]?.arrayValue?.contains { $0["file"]?.stringValue?.hasSuffix("/up.html") == true }
                        == false)
                #expect(output.contains(", 1 ignored; report: "), "\(output)")
            }),
        ConfiguredKey(
            command: "validate", key: "rules", value: #"{"SAB*": "off"}"#,
            pages: ["{fixtures}/broken/sab-missing-app-id.html"],
            check: { tmp, _ in
                let rules = try report(tmp + "/out")["pages"]?[0]?["findings"]?.arrayValue?.compactMap {
                    $0["rule"]?.stringValue
                }
                #expect(rules?.contains { $0.hasPrefix("SAB") } == false, "\(rules ?? [])")
            }),
        ConfiguredKey(
            command: "validate", key: "overrides", value: #"[{"files": ["noindex.html"], "rules": {"IX002": "off"}}]"#,
            pages: ["{fixtures}/broken"],
            check: { tmp, _ in
                let rules = try report(tmp + "/out")["pages"]?.arrayValue?.flatMap {
                    $0["findings"]?.arrayValue?.compactMap { $0["rule"]?.stringValue } ?? []
                }
                #expect(rules?.contains("IX002") == false, "\(rules ?? [])")
                #expect(rules?.isEmpty == false)
            }),
    ]

    /// The command line for a key's case: everything but the key's own option.
    static func arguments(for item: ConfiguredKey) -> [String] {
        let option = ConfigurationKey.named(item.key)?.option
        var defaults: [(String, String?)] = [("--output", "{tmp}/out"), ("--quiet", nil)]
        if item.command == "crawl" { defaults += [("--max-pages", "1"), ("--no-sitemaps", nil)] }
        var arguments = [item.command] + (item.command == "crawl" ? ["{fixtures}"] : item.pages)
        // --verbose shows only without --quiet (which wins over it).
        for (name, value) in defaults where name != option && !(name == "--quiet" && item.key == "verbose") {
            arguments.append(name)
            if let value { arguments.append(value) }
        }
        return arguments + item.extra
    }

    @Test("every crawl and validate option can be set in .spotcheck.json", arguments: crawlKeys + validateKeys)
    func everyKey(_ item: ConfiguredKey) async throws {
        let tmp = try temporaryFolder("config-key")
        func filled(_ text: String) -> String {
            text.replacingOccurrences(of: "{tmp}", with: tmp).replacingOccurrences(
                of: "{fixtures}", with: Self.fixtures)
        }
        try Data("{\"\(item.key)\": \(filled(item.value))}".utf8).write(
            to: URL(fileURLWithPath: tmp + "/.spotcheck.json"))
        try Data(#"{"pages": [], "siteFindings": []}"#.utf8).write(to: URL(fileURLWithPath: tmp + "/old-report.json"))
        try FileManager.default.copyItem(
            atPath: TestSite.projectRoot.path + "/Fixtures/items.json", toPath: tmp + "/items.json")
        try Data(Self.latin1Page).write(to: URL(fileURLWithPath: tmp + "/latin1.html"))
        try Data(Self.orphanPage.utf8).write(to: URL(fileURLWithPath: tmp + "/orphan.html"))
        let result = try await runProcess(try spotcheckExecutable(), Self.arguments(for: item).map(filled), in: tmp)
        #expect(result.status == item.status, "\(result.output)")
        #expect(
            result.output.contains("spotcheck: configuration: \(tmp)/.spotcheck.json: \(item.key)\n"),
            "the file and the key used are named: \(result.output)")
        for text in item.says.map(filled) {
            #expect(result.output.contains(text), "should say \(text): \(result.output)")
        }
        try item.check(tmp, result.output)
    }

    /// Options a project file does not set: secrets (`--header`, `--basic-auth`: a committed file
    /// must not hold them), what each run names anew (`--urls-from`, `--write-baseline`), where a
    /// shared crawl runs (`--store`, whose URL may carry a password, and its `--lease`) and the
    /// tests' own `--throttle-loopback`.
    static let notInTheFile: Set<String> = [
        "header", "basic-auth", "urls-from", "write-baseline", "store", "lease", "throttle-loopback",
    ]

    /// Every option `crawl` and `validate` list in their help has a key (named like it), and the
    /// tested keys are all of them: a new option without a key fails here.
    @Test("every option of crawl and validate has a key, and every key a test case", arguments: ["crawl", "validate"])
    func keysCoverTheOptions(command: String) async throws {
        let dump = try await runProcess(try spotcheckExecutable(), [command, "--experimental-dump-help"])
        let arguments = try #require(
            JSONParser.parse(dump.output, lenient: false).value?["command"]?["arguments"]?.arrayValue)
        let configurable = try #require(ConfigurationCommand(rawValue: command))
        var options: Set<String> = []
        for argument in arguments where argument["kind"] != "positional" {
            guard
                let name = argument["names"]?.arrayValue?.first(where: { $0["kind"] == "long" })?["name"]?.stringValue,
                !["help", "version", "config"].contains(name), !Self.notInTheFile.contains(name)
            else { continue }
            let key = try #require(
                ConfigurationKey.all.first { $0.option == "--" + name || (name == "rule" && $0.name == "rules") },
                "--\(name) has no key")
            #expect(key.commands.contains(configurable), "\(key.name) is not read by \(command)")
            let repeats = argument["isRepeating"]?.boolValue == true
            #expect(repeats == (key.kind == .strings || key.kind == .rules), "--\(name): \(key.kind)")
            #expect((argument["kind"] == "flag") == (key.kind == .flag), "--\(name): \(key.kind)")
            options.insert(key.name)
        }
        let keys = Set(ConfigurationKey.all.filter { $0.commands.contains(configurable) }.map(\.name))
        // `overrides` (per-path rule levels) stands for no option.
        #expect(options == keys.subtracting(["overrides"]))
        let tested = Set((Self.crawlKeys + Self.validateKeys).filter { $0.command == command }.map(\.key))
        #expect(tested == keys, "keys without a case: \(keys.subtracting(tested).sorted())")
    }

    /// Writes `text` as `name` in `folder`.
    static func write(_ text: String, _ name: String, in folder: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/" + name))
    }

    @Test("failOn, appId and exclude in .spotcheck.json were silently ignored; now they are used")
    func theSilentlyIgnoredKeysAreUsed() async throws {
        let tmp = try temporaryFolder("config-silent")
        try Self.write(
            #"{"failOn": "error", "appId": "999999999", "exclude": ["*/broken/*"]}"#, ".spotcheck.json", in: tmp)
        let crawl = try await runProcess(
            try spotcheckExecutable(), ["crawl", Self.fixtures, "--output", tmp + "/out", "--quiet"], in: tmp)
        let report = try Self.report(tmp + "/out")
        let urls = report["pages"]?.arrayValue?.compactMap { $0["url"]?.stringValue } ?? []
        #expect(!urls.isEmpty && !urls.contains { $0.contains("/broken/") }, "exclude: \(urls)")
        #expect((report["summary"]?["findings"]?["byRule"]?["SAB020"]?.intValue ?? 0) > 0, "appId")
        #expect(crawl.status == 1, "failOn error (SAB020 is an error): \(crawl.output)")
        let validate = try await runProcess(
            try spotcheckExecutable(),
            ["validate", Self.fixtures + "/broken/sab-missing-app-id.html", "--output", tmp + "/v", "--quiet"], in: tmp)
        #expect(validate.status == 1, "\(validate.output)")
    }

    @Test("the file is found in a parent of the working folder, and named on stderr even with --quiet")
    func foundInAParentFolder() async throws {
        let tmp = try temporaryFolder("config-parent")
        let nested = tmp + "/site/pages"
        try FileManager.default.createDirectory(atPath: nested, withIntermediateDirectories: true)
        try Self.write(
            #"{"rules": {"SAB002": "off"}, "failOn": "error", "output": "reports/ci"}"#, ".spotcheck.json", in: tmp)
        let result = try await runProcess(
            try spotcheckExecutable(), ["validate", Self.fixtures + "/broken/sab-missing-app-id.html", "--quiet"],
            in: nested)
        #expect(result.status == 0, "SAB002 is off, so no error finding is left: \(result.output)")
        #expect(result.output.contains("spotcheck: configuration: \(tmp)/.spotcheck.json: rules, failOn, output\n"))
        #expect(
            FileManager.default.fileExists(atPath: tmp + "/reports/ci/report.json"),
            "output is read from the file's folder")
    }

    @Test("--config names the file; the one the working folder has is not read")
    func configOptionWinsOverDiscovery() async throws {
        let tmp = try temporaryFolder("config-option")
        try Self.write(#"{"failOn": "error"}"#, ".spotcheck.json", in: tmp)
        try Self.write(#"{"failOn": "never", "rules": {"SAB*": "warning"}}"#, "ci.json", in: tmp)
        let page = Self.fixtures + "/broken/sab-missing-app-id.html"
        let result = try await runProcess(
            try spotcheckExecutable(), ["validate", page, "--config", "ci.json", "--output", tmp + "/out", "--quiet"],
            in: tmp)
        #expect(result.status == 0, "\(result.output)")
        #expect(
            result.output.contains("spotcheck: configuration: ci.json (--config): failOn, rules\n"), "\(result.output)")
        #expect(!result.output.contains(".spotcheck.json"))
        let findings = try Self.report(tmp + "/out")["pages"]?[0]?["findings"]?.arrayValue ?? []
        #expect(
            findings.filter { $0["rule"]?.stringValue?.hasPrefix("SAB") == true }.allSatisfy {
                $0["severity"] == "warning"
            })
        let missing = try await runProcess(try spotcheckExecutable(), ["rules", "--config", "none.json"], in: tmp)
        #expect(missing.status == 7)
        #expect(missing.output.contains("spotcheck: error: none.json: no such file"), "\(missing.output)")
    }

    @Test("options on the command line win over the file's; a list given there replaces the file's")
    func commandLineWins() async throws {
        let tmp = try temporaryFolder("config-override")
        try Self.write(
            #"{"maxPages": 1, "exclude": ["*/a/*"], "failOn": "warning", "noSitemaps": true}"#, ".spotcheck.json",
            in: tmp)
        let result = try await runProcess(
            try spotcheckExecutable(),
            [
                "crawl", Self.fixtures, "--output", tmp + "/out", "--quiet", "--exclude", "*/b/*", "--fail-on=never",
                "--max-pages", "2",
            ], in: tmp)
        #expect(result.status == 0, "\(result.output)")
        #expect(
            result.output.contains(
                "spotcheck: configuration: \(tmp)/.spotcheck.json: noSitemaps; "
                    + "the command line overrides maxPages, exclude, failOn\n"), "\(result.output)")
        let settings = try Self.settings(tmp)
        #expect(settings["maximumPages"] == 2)
        #expect(settings["exclude"] == ["*/b/*"])
        #expect(settings["useSitemaps"] == false)
    }

    @Test(
        "an unknown key, or a value the command refuses, is exit 7 naming the file, the key and what is allowed",
        arguments: [
            (
                "crawl", #"{"failon": "error"}"#,
                #".spotcheck.json: unknown key "failon" (did you mean "failOn"?); the keys are "#
            ),
            ("validate", #"{"Exclude": []}"#, #"unknown key "Exclude" (did you mean "exclude"?)"#),
            ("crawl", #"{"maxPages": "10"}"#, "maxPages: expected an integer, as --max-pages takes"),
            ("crawl", #"{"delay": -1}"#, ".spotcheck.json: delay: --delay -1.0: must be 0 seconds or more"),
            ("crawl", #"{"as": "example.com"}"#, ".spotcheck.json: as: --as must be an http(s) origin"),
            ("validate", #"{"jobs": 0}"#, ".spotcheck.json: jobs: --jobs must be at least 1"),
            ("validate", #"{"failOn": "loud"}"#, "failOn: The value 'loud' is invalid for '--fail-on <fail-on>'"),
            ("validate", #"{"format": "pdf"}"#, "format: --format takes json, sarif, junit, html, gitlab and github"),
            ("validate", #"{"app": ["ABCDE12345."]}"#, "app: --app takes an app ID, TEAMID.bundle.id"),
            ("validate", #"{"rules": {"SAB004": "loud"}}"#, #".spotcheck.json: rules: SAB004: "loud" is not off"#),
        ])
    func refusedValues(command: String, file: String, message: String) async throws {
        let tmp = try temporaryFolder("config-refused")
        try Self.write(file, ".spotcheck.json", in: tmp)
        let page = Self.fixtures + (command == "crawl" ? "" : "/movies/up.html")
        let result = try await runProcess(
            try spotcheckExecutable(), [command, page, "--output", tmp + "/out", "--quiet"], in: tmp)
        #expect(result.status == 7, "\(result.output)")
        #expect(result.output.contains("spotcheck: error: \(tmp)/.spotcheck.json: "), "\(result.output)")
        #expect(result.output.contains(message), "\(result.output)")
        #expect(!FileManager.default.fileExists(atPath: tmp + "/out"), "nothing is written")
    }

    @Test("rule groups: the most specific setting wins in the file; --rule applies after it")
    func ruleGroups() async throws {
        let tmp = try temporaryFolder("config-groups")
        try Self.write(#"{"rules": {"SAB002": "info", "SAB*": "off"}}"#, ".spotcheck.json", in: tmp)
        let page = Self.fixtures + "/broken/sab-missing-app-id.html"
        func rules(_ extra: [String]) async throws -> [String: String] {
            let folder = tmp + "/out-\(extra.count)"
            let result = try await runProcess(
                try spotcheckExecutable(), ["validate", page, "--output", folder, "--quiet"] + extra, in: tmp)
            #expect(result.status == 0, "\(result.output)")
            let findings = try Self.report(folder)["pages"]?[0]?["findings"]?.arrayValue ?? []
            return Dictionary(
                findings.compactMap { finding in
                    finding["rule"]?.stringValue.flatMap { rule in finding["severity"]?.stringValue.map { (rule, $0) } }
                }, uniquingKeysWith: { first, _ in first })
        }
        let fromFile = try await rules([])
        #expect(fromFile.keys.filter { $0.hasPrefix("SAB") } == ["SAB002"], "\(fromFile)")
        #expect(fromFile["SAB002"] == "info")
        let overridden = try await rules(["--rule", "sab*=warning"])
        #expect(overridden["SAB002"] == "warning", "\(overridden)")
        // The whole catalogue as configured: every SAB rule off but SAB002.
        let listing = try await runProcess(try spotcheckExecutable(), ["rules", "--format", "json"], in: tmp)
        #expect(listing.output.contains("spotcheck: configuration: \(tmp)/.spotcheck.json: rules\n"))
        let json = listing.output.split(separator: "\n").filter { !$0.hasPrefix("spotcheck: ") }.joined(separator: "\n")
        let catalogue = try #require(JSONParser.parse(json, lenient: false).value?["rules"]?.arrayValue)
        let smartAppBanner = catalogue.filter { $0["id"]?.stringValue?.hasPrefix("SAB") == true }
        #expect(smartAppBanner.count > 20)
        for rule in smartAppBanner {
            #expect(rule["severity"] == (rule["id"] == "SAB002" ? "info" : .null), "\(rule)")
        }
    }

    /// A small site: the home page links to a draft folder, a draft file and a kept page.
    static func makeSite(in folder: String) throws {
        let site = folder + "/site"
        try FileManager.default.createDirectory(atPath: site + "/drafts", withIntermediateDirectories: true)
        func page(_ title: String, links: [String] = []) -> String {
            "<!doctype html><html lang=en><head><title>\(title)</title></head><body>"
                + links.map { "<a href=\"\($0)\">\($0)</a>" }.joined() + "</body></html>"
        }
        try write(
            page("Home", links: ["/drafts/a.html", "/drafts/b.html", "/next.draft.html", "/kept.html"]),
            "site/index.html", in: folder)
        try write(page("A"), "site/drafts/a.html", in: folder)
        try write(page("B"), "site/drafts/b.html", in: folder)
        try write(page("Next"), "site/next.draft.html", in: folder)
        try write(page("Kept"), "site/kept.html", in: folder)
    }

    @Test("ignored pages are neither fetched nor checked, and are counted", arguments: ["crawl", "validate"])
    func ignoreList(command: String) async throws {
        let tmp = try temporaryFolder("config-ignore")
        try Self.makeSite(in: tmp)
        try Self.write(#"{"ignore": ["drafts/**", "*.draft.html"], "noSitemaps": true}"#, ".spotcheck.json", in: tmp)
        let result = try await runProcess(
            try spotcheckExecutable(), [command, tmp + "/site", "--output", tmp + "/out"], in: tmp)
        #expect(result.status == 0, "\(result.output)")
        let report = try Self.report(tmp + "/out")
        let pages = report["pages"]?.arrayValue?.compactMap { ($0["url"] ?? $0["file"])?.stringValue } ?? []
        #expect(pages.count == 2, "\(pages)")
        #expect(!pages.contains { $0.contains("draft") }, "\(pages)")
        if command == "crawl" {
            #expect(report["summary"]?["skipped"]?["ignored"] == 3)
            #expect(result.output.contains("ignored: 3 URLs on the ignore list"), "\(result.output)")
        } else {
            #expect(report["summary"]?["ignored"] == 3)
            #expect(result.output.contains("2 page(s), 0 unreadable input(s)"), "\(result.output)")
            #expect(result.output.contains(", 3 ignored; report: "), "\(result.output)")
        }
    }

    @Test("--format github prints one workflow command per finding, located in the file validate read")
    func githubAnnotations() async throws {
        let tmp = try temporaryFolder("config-github")
        let result = try await runProcess(
            try spotcheckExecutable(),
            ["validate", "Fixtures/html/broken", "--output", tmp + "/out", "--quiet", "--format", "github"],
            in: TestSite.projectRoot.path)
        #expect(result.status == 0, "\(result.output)")
        let report = try Self.report(tmp + "/out")
        let findings =
            (report["pages"]?.arrayValue ?? []).flatMap { $0["findings"]?.arrayValue ?? [] }
            + (report["siteFindings"]?.arrayValue ?? [])
        let lines = result.output.split(separator: "\n").filter { $0.hasPrefix("::") }
        #expect(lines.count == findings.count && !lines.isEmpty)
        let shape =
            #/^::(error|warning|notice) file=Fixtures/html/broken/[a-z0-9-]+\.html(,line=\d+(,col=\d+)?)?,title=SpotCheck [A-Z]+\d{3}::[^\n]+$/#
        for line in lines {
            #expect(line.wholeMatch(of: shape) != nil, "\(line)")
        }
        let missingAppID = lines.first { $0.contains("sab-missing-app-id.html") && $0.contains("SAB002") }
        #expect(missingAppID?.hasPrefix("::error file=Fixtures/html/broken/sab-missing-app-id.html,line=") == true)
        #expect(missingAppID?.contains("%0AFix: ") == true, "the fix is on a line of its own: \(missingAppID ?? "")")
        let crawl = try await runProcess(
            try spotcheckExecutable(),
            ["crawl", Self.fixtures, "--output", tmp + "/crawl", "--quiet", "--max-pages", "1", "--format", "github"])
        // A served folder's page is located in the file that answered it (issue 30).
        #expect(
            crawl.output.contains("::warning file=Fixtures/html/index.html,line=12,col=99,title=SpotCheck SAB007::"),
            "a crawl of a folder names the file: \(crawl.output)")
    }

    @Test("--format gitlab writes the Code Quality subset GitLab reads, with fingerprints stable across runs")
    func gitlabCodeQuality() async throws {
        let tmp = try temporaryFolder("config-gitlab")
        var runs: [[JSONValue]] = []
        for run in 1...2 {
            let result = try await runProcess(
                try spotcheckExecutable(),
                ["validate", "Fixtures/html/broken", "--output", tmp + "/run\(run)", "--quiet", "--format", "gitlab"],
                in: TestSite.projectRoot.path)
            #expect(result.status == 0, "\(result.output)")
            let text = try String(contentsOfFile: tmp + "/run\(run)/gl-code-quality-report.json", encoding: .utf8)
            runs.append(try #require(JSONParser.parse(text, lenient: false).value?.arrayValue))
        }
        let issues = runs[0]
        #expect(!issues.isEmpty)
        for issue in issues {
            let object = try #require(issue.objectValue)
            #expect(object.keys == ["description", "check_name", "fingerprint", "severity", "location"])
            #expect(["info", "minor", "major"].contains(object["severity"]?.stringValue ?? ""))
            #expect(object["description"]?.stringValue?.contains("\n") == false)
            #expect(object["check_name"]?.stringValue?.wholeMatch(of: #/[A-Z]+\d{3}/#) != nil)
            #expect(object["location"]?["path"]?.stringValue?.hasPrefix("Fixtures/html/broken/") == true)
            if let positions = object["location"]?["positions"] {
                // A finding located at a tag: its line and column (issue 30).
                #expect(object["location"]?.objectValue?.keys == ["path", "positions"])
                #expect(positions.objectValue?.keys == ["begin", "end"])
                #expect((positions["begin"]?["line"]?.intValue ?? 0) >= 1)
                #expect((positions["begin"]?["column"]?.intValue ?? 0) >= 1)
            } else {
                #expect(object["location"]?.objectValue?.keys == ["path", "lines"])
                #expect((object["location"]?["lines"]?["begin"]?.intValue ?? 0) >= 1)
                #expect(object["location"]?["lines"]?.objectValue?.keys == ["begin"])
            }
        }
        #expect(issues.contains { $0["location"]?["positions"] != nil }, "findings at a tag have its column")
        let fingerprints = issues.compactMap { $0["fingerprint"]?.stringValue }
        #expect(fingerprints.count == issues.count && Set(fingerprints).count == fingerprints.count, "unique")
        #expect(fingerprints.allSatisfy { $0.wholeMatch(of: #/[0-9a-f]{32}/#) != nil })
        #expect(runs[1].compactMap { $0["fingerprint"]?.stringValue } == fingerprints, "the same in the second run")
    }
}
