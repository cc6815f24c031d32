import Foundation
import ProjectConfiguration
import Rulebook
import SpotCheckTestSupport
import Testing
import Verification

@Suite("the project configuration file")
struct ConfigurationFileTests {
    @Test("every crawl and validate setting becomes its option, paths read from the file's folder")
    func keysBecomeOptions() throws {
        let file = try ConfigurationFile(
            text: """
                {"maxPages": 5, "delay": 0.5, "exclude": ["*/a/*", "*/b/*"], "noSitemaps": true, "quiet": false,
                 "failOn": "error", "format": ["json", "sarif"], "items": "items.json", "output": "/abs/out",
                 "rules": {"SAB007": "off"}, "jobs": 2}
                """, path: "/project/site/.spotcheck.json")
        let crawl = file.arguments(for: .crawl) { _ in false }
        #expect(
            crawl.all == [
                "--max-pages=5", "--delay=0.5", "--exclude=*/a/*", "--exclude=*/b/*", "--no-sitemaps",
                "--fail-on=error", "--format=json,sarif", "--items=/project/site/items.json", "--output=/abs/out",
            ])
        #expect(crawl.applied.map(\.key).contains("rules"))
        #expect(!crawl.applied.map(\.key).contains("jobs"), "jobs is validate's")
        let validate = file.arguments(for: .validate) { $0 == "--fail-on" }
        #expect(validate.all == ["--format=json,sarif", "--output=/abs/out", "--jobs=2"])
        #expect(validate.overridden == ["failOn"])
        #expect(file.rules.settings[.sab007] == .off)
    }

    @Test("each key's option is its camelCase name in kebab case")
    func optionNames() {
        let options = Dictionary(uniqueKeysWithValues: ConfigurationKey.all.map { ($0.name, $0.option) })
        #expect(options["maxPages"] == "--max-pages")
        #expect(options["appId"] == "--app-id")
        #expect(options["baseUrl"] == "--base-url")
        #expect(options["microdataWhatwg"] == "--microdata-whatwg")
        #expect(options["as"] == "--as")
        #expect(options["rules"] == .some(nil))
    }

    @Test(
        "a file that cannot be used names the file, the key and what is allowed",
        arguments: [
            (#"{"failon": "error"}"#, #"unknown key "failon" (did you mean "failOn"?)"#),
            (#"{"fail-on": "error"}"#, #"did you mean "failOn"?"#),
            (#"{"rule": {"SAB007": "off"}}"#, #"did you mean "rules"?"#),
            (#"{"SAB007": "off"}"#, #"a rule's level goes inside "rules""#),
            (#"{"colour": 1}"#, "the keys are aasa, allowHost, app, appId"),
            (
                #"{"maxPages": "10"}"#,
                #"maxPages: expected an integer, as --max-pages takes (e.g. "maxPages": 500), not "10""#
            ),
            (#"{"maxPages": 1.5}"#, "maxPages: expected an integer"),
            (#"{"exclude": "*/a/*"}"#, "exclude: expected an array of strings"),
            (#"{"noSitemaps": "yes"}"#, "noSitemaps: expected true or false"),
            (#"{"ignore": [""]}"#, "ignore: an empty string names nothing"),
            (#"{"maxPages": 1, "maxPages": 2}"#, "maxPages: appears twice"),
            (#"{"rules": {"SAB004": "loud"}}"#, #"rules: SAB004: "loud" is not off, error, warning or info"#),
            (#"{"rules": {"XYZ*": "off"}}"#, #"rules: the group "XYZ*" matches no rule"#),
            (#"{"rules": ["SAB004"]}"#, "rules: expected an object"),
            (#"{"maxPages": 5,}"#, "not valid JSON: line 1"),
            ("[]", "expected a JSON object"),
        ])
    func refused(text: String, message: String) {
        do {
            _ = try ConfigurationFile(text: text, path: "/project/.spotcheck.json")
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.description.hasPrefix("/project/.spotcheck.json: "), "\(error)")
            #expect(error.description.contains(message), "\(error.description)")
        }
    }

    @Test("discovery finds the file in the folder or the nearest parent")
    func discovery() throws {
        let root = Scratch.path("discovery")
        let nested = root + "/a/b/c"
        try FileManager.default.createDirectory(atPath: nested, withIntermediateDirectories: true)
        #expect(
            ConfigurationFile.discover(from: nested) == nil
                || !ConfigurationFile.discover(from: nested)!.hasPrefix(root))
        try Data("{}".utf8).write(to: URL(fileURLWithPath: root + "/a/.spotcheck.json"))
        #expect(ConfigurationFile.discover(from: nested) == root + "/a/.spotcheck.json")
        try Data("{}".utf8).write(to: URL(fileURLWithPath: root + "/a/b/.spotcheck.json"))
        #expect(ConfigurationFile.discover(from: nested) == root + "/a/b/.spotcheck.json")
    }
}

@Suite("rule groups")
struct RuleGroupTests {
    @Test("a group sets every rule it names; an exact id and a longer group win whatever the order")
    func specificity() throws {
        let rules = try RuleConfiguration.parse(
            rules: ["SAB007": "warning", "SAB*": "off", "SAB00*": "info"], origin: "rules")
        #expect(rules.settings[.sab007] == .severity(.warning))
        #expect(rules.settings[.sab003] == .severity(.info))
        #expect(rules.settings[.sab010] == .off)
        #expect(rules.settings[.og001] == nil)
        var all = try RuleConfiguration.parse(rules: ["*": "off"], origin: "rules")
        #expect(all.settings.count == RuleID.allCases.count)
        try all.apply(option: "sab*=error")
        #expect(all.settings[.sab001] == .severity(.error))
    }

    @Test("a group with * elsewhere than at the end is refused")
    func badGroup() {
        #expect(throws: RuleConfigurationError.self) {
            try RuleConfiguration.parse(rules: ["S*B001": "off"], origin: "r")
        }
    }
}

@Suite("the ignore list")
struct IgnoreListTests {
    @Test(
        "URL patterns match the whole URL; path patterns the URL's path",
        arguments: [
            ("https://www.example.com/private/*", "https://www.example.com/private/a/b.html", true),
            ("https://www.example.com/private/*", "https://www.example.com/public/a.html", false),
            ("drafts/**", "https://www.example.com/drafts/a/b.html", true),
            ("drafts/**", "https://www.example.com/movies/drafts.html", false),
            ("*.draft.html", "https://www.example.com/a/b/c.draft.html", true),
            ("drafts", "https://www.example.com/x/drafts/a.html", true),
            ("movies/*.html", "https://www.example.com/movies/a/b.html", false),
            ("**/secret.html", "https://www.example.com/secret.html", true),
            ("my page.html", "https://www.example.com/my%20page.html", true),
        ])
    func urls(pattern: String, url: String, ignored: Bool) {
        #expect((IgnoreList([pattern]).pattern(ignoringURL: url) != nil) == ignored)
    }

    @Test("a file is matched by its path under the named folder or as found")
    func files() {
        let list = IgnoreList(["drafts/**", "site/private/*.html", "file:///tmp/x/*"])
        #expect(list.pattern(ignoringFile: "site/drafts/a.html", relativePath: "drafts/a.html", url: "") == "drafts/**")
        #expect(
            list.pattern(ignoringFile: "./site/private/a.html", relativePath: "private/a.html", url: "")
                == "site/private/*.html")
        #expect(list.pattern(ignoringFile: "/tmp/x/a.html", relativePath: nil, url: "file:///tmp/x/a.html") != nil)
        #expect(list.pattern(ignoringFile: "site/a.html", relativePath: "a.html", url: "file:///site/a.html") == nil)
    }
}
