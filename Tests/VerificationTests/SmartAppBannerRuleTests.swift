import Foundation
import MarkupExtraction
import Rulebook
import Testing
import Verification

/// The page `<head>` with one `apple-itunes-app` tag on line 3; the Smart App Banner findings.
func findings(banner content: String?, extraHead: String = "", body: String = "", appStoreID: String? = nil)
    -> [Finding]
{
    let tag = content.map { "<meta name=\"apple-itunes-app\" content=\"\($0)\">" } ?? ""
    let html =
        "<!doctype html>\n<html><head><title>t</title>\n\(tag)\n\(extraHead)</head>\n<body><p>x</p>\(body)</body></html>\n"
    let page = MarkupExtractor().extract(html: Array(html.utf8), url: "https://www.example.com/movies/up.html")
    return PageVerifier(appStoreID: appStoreID).verify(page).filter { $0.ruleID.hasPrefix("SAB") }
}

@Suite("Smart App Banner rules (§7.1)")
struct SmartAppBannerRuleTests {
    @Test(
        arguments: [
            ("app-id=1234567890, app-argument=https://www.example.com/movies/up.html", [String]()),
            ("", ["SAB001"]),
            ("app-argument=https://www.example.com/movies/up.html", ["SAB002"]),
            ("app-id=id1234567890, app-argument=https://www.example.com/movies/up.html", ["SAB003"]),
            ("app-id=12345, app-argument=https://www.example.com/movies/up.html", ["SAB004"]),
            ("app-id=1234567890, app-argument=/movies/up.html", ["SAB005"]),
            ("app-id=1234567890, app-argument=https%3A%2F%2Fwww.example.com%2Fmovies%2Fup.html", ["SAB006"]),
            ("app-id=1234567890, app-argument=https://www.example.com/", ["SAB007"]),
            ("app-id=1234567890", ["SAB008"]),
            ("app-id=1234567890, app-argument=https://www.example.com/movies/up.html?a=1,2", ["SAB009"]),
            ("app-clip-bundle-id=com.example.app.Clip", ["SAB010"]),
            (
                "app-id=1234567890, app-clip-bundle-id=com.example.app.Clip, app-clip-display=banner",
                ["SAB008", "SAB011"]
            ),
            (
                "app-id=1234567890, app-argument=https://www.example.com/movies/up.html, app-clip-display=card",
                ["SAB012"]
            ),
            (
                "app-id=1234567890, app-clip-bundle-id=com.example.app.Clip, app-argument=https://www.example.com/movies/up.html",
                ["SAB014"]
            ),
            ("app-id=1234567890, app_id=1, app-argument=https://www.example.com/movies/up.html", ["SAB015"]),
            ("app-id=1234567890, app-id=987654321, app-argument=https://www.example.com/movies/up.html", ["SAB016"]),
            ("app-id =1234567890, app-argument=https://www.example.com/movies/up.html", ["SAB019"]),
            ("App-Id=1234567890, app-argument=https://www.example.com/movies/up.html", ["SAB019"]),
            ("app-id=1234567890, app-argument=https://www.example.com/movies/up.html, affiliate-data=at=1", ["SAB022"]),
            ("app-id=1234567890, app-argument=myapp://movies/up", [String]()),
            // Issue 13 §4: `%u2026` (JavaScript's escape) is not percent-encoding.
            ("app-id=1234567890, app-argument=https://www.example.com/movies/up%u2026.html", ["SAB005"]),
            ("app-id=1234567890, app-argument=https://www.example.com/movies/up%E2%80%A6.html", [String]()),
        ] as [(String, [String])])
    func eachRuleFiresAlone(content: String, expected: [String]) {
        #expect(findings(banner: content).map(\.ruleID).sorted() == expected.sorted(), "\(content)")
    }

    @Test func findingsNameTheRuleLineExcerptValuesAndFix() throws {
        let finding = try #require(findings(banner: "app-id=id123456789").first { $0.ruleID == "SAB003" })
        #expect(finding.severity == .error)
        #expect(finding.line == 3)
        #expect(finding.url == "https://www.example.com/movies/up.html")
        #expect(finding.excerpt == #"<meta name="apple-itunes-app" content="app-id=id123456789">"#)
        #expect(finding.message.contains(#""id123456789""#))
        #expect(!finding.fixHint.isEmpty)
        let json = finding.json
        #expect(json["rule"]?.stringValue == "SAB003")
        #expect(json["source"]?.stringValue?.contains("[A]") == true)
        #expect(json["authority"]?.stringValue == "Apple")
    }

    @Test func aDuplicateTagAndATagInTheBodyAreFound() {
        let duplicate = findings(
            banner: "app-id=1234567890, app-argument=https://www.example.com/movies/up.html",
            extraHead: "<meta name=\"apple-itunes-app\" content=\"app-id=1234567890\">\n")
        #expect(duplicate.map(\.ruleID) == ["SAB017"])
        #expect(duplicate.first?.line == 4)
        let inBody = findings(
            banner: nil,
            body:
                "<meta name=\"apple-itunes-app\" content=\"app-id=1234567890, app-argument=https://www.example.com/a\">"
        )
        #expect(inBody.map(\.ruleID) == ["SAB018"])
    }

    /// Issue 13 §4: Safari reads the banner from `<meta name=…>` only; a `property=` tag is a
    /// banner that never shows (SAB023, an error), unless the page also has the `name=` one.
    @Test func aBannerWrittenWithPropertyNeverShows() throws {
        let content = "app-id=1234567890, app-argument=https://www.example.com/movies/up.html"
        let tag = "<meta property=\"apple-itunes-app\" content=\"\(content)\">\n"
        let alone = findings(banner: nil, extraHead: tag)
        #expect(alone.map(\.ruleID) == ["SAB023"])
        let finding = try #require(alone.first)
        #expect(finding.severity == .error)
        #expect(finding.line == 4)
        #expect(finding.message.contains("property="))
        let withName = findings(banner: content, extraHead: tag)
        #expect(!withName.map(\.ruleID).contains("SAB023"))
        // One tag with both attributes is a name= banner.
        let both = #"<meta name="apple-itunes-app" property="apple-itunes-app" content="\#(content)">"#
        #expect(findings(banner: nil, extraHead: both + "\n").isEmpty)
        // A property= tag before the name= one: the rules judge the name= tag Safari reads.
        let ignored = #"<meta property="apple-itunes-app" content="app-id=1111111111">"#
        let judged = findings(
            banner: nil, extraHead: ignored + "\n" + #"<meta name="apple-itunes-app" content="\#(content)">"#)
        #expect(judged.map(\.ruleID) == ["SAB017"], "\(judged.map(\.message))")
        #expect(
            findings(
                banner: nil, extraHead: ignored + "\n" + #"<meta name="apple-itunes-app" content="\#(content)">"#,
                appStoreID: "1234567890"
            ).map(\.ruleID) == ["SAB017"])
    }

    /// Issue 13 §4: `app-argument="…"` as an attribute of its own, outside `content`, is ignored.
    @Test func aParameterWrittenAsItsOwnAttributeIsIgnoredBySafari() throws {
        let tag = #"<meta name="apple-itunes-app" content="app-id=398018310" app-argument="//www.example.com/id/1">"#
        let found = findings(banner: nil, extraHead: tag + "\n")
        #expect(found.map(\.ruleID).sorted() == ["SAB008", "SAB024"])
        let finding = try #require(found.first { $0.ruleID == "SAB024" })
        #expect(finding.severity == .warning)
        #expect(finding.message.contains(#"app-argument="//www.example.com/id/1""#))
    }

    @Test func theConfiguredAppIDIsCompared() {
        let content = "app-id=987654321, app-argument=https://www.example.com/movies/up.html"
        #expect(findings(banner: content, appStoreID: "987654321").isEmpty)
        #expect(findings(banner: content, appStoreID: "1234567890").map(\.ruleID) == ["SAB020"])
    }

    @Test func aProjectCanSwitchRulesOffOrChangeTheirSeverity() throws {
        var configuration = RuleConfiguration()
        try configuration.apply(option: "SAB008=off")
        try configuration.apply(option: "SAB004=error")
        let html = #"<html><head><meta name="apple-itunes-app" content="app-id=123"></head></html>"#
        let page = MarkupExtractor().extract(html: Array(html.utf8), url: "https://a.test/")
        let found = PageVerifier(configuration: configuration).verify(page).filter { $0.ruleID.hasPrefix("SAB") }
        #expect(found.map(\.ruleID) == ["SAB004"])
        #expect(found.first?.severity == .error)
    }
}

/// Fixtures/html: every broken page triggers exactly the implemented rules it was made for
/// (Fixtures/html/MANIFEST.md), with `--app-id 1234567890`; the clean pages trigger none but the
/// home page's SAB007.
@Suite("Implemented rules on the fixture site")
struct FixtureSiteRuleTests {
    static let root: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("Fixtures/html")
    }()

    /// Per page, the rules it must trigger: this file's groups (SAB, TW, AL, DL), then each other
    /// group's own list (in that group's test file), merged.
    static let expected: [String: [String]] = [
        expectedBannerAndAppLinks, expectedOpenGraph, expectedStructuredData, expectedPageRules,
    ].reduce(into: [:]) { all, group in all.merge(group) { $0 + $1 } }

    static let expectedBannerAndAppLinks: [String: [String]] = [
        "index.html": ["SAB007"],
        "broken/sab-app-id-not-digits.html": ["SAB003", "SAB020"],
        "broken/sab-missing-app-id.html": ["SAB002"],
        "broken/sab-duplicate-tags.html": ["SAB017"],
        "broken/sab-in-body.html": ["SAB018"],
        "broken/sab-comma-in-app-argument.html": ["SAB009"],
        "broken/sab-relative-app-argument.html": ["SAB005"],
        "broken/applinks-missing-url.html": ["AL001"],
        "broken/twitter-app-id-mismatch.html": ["DL003"],
        "broken/twitter-app-url-no-scheme.html": ["TW005"],
    ]

    static var pages: [String] {
        let enumerator = FileManager.default.enumerator(atPath: root.path)
        var pages: [String] = []
        while let path = enumerator?.nextObject() as? String {
            // hostile.html carries injection payloads everywhere: it tests escaping, not rules.
            if path.hasSuffix(".html"), path != "broken/hostile.html" { pages.append(path) }
        }
        return pages.sorted()
    }

    @Test(arguments: pages)
    func pageTriggersExactlyItsRules(path: String) throws {
        let bytes = try [UInt8](Data(contentsOf: Self.root.appendingPathComponent(path)))
        let isFolderIndex = path == "index.html" || path.hasSuffix("/index.html")
        let url = "https://www.example.com/" + (isFolderIndex ? String(path.dropLast(10)) : path)
        let page = MarkupExtractor().extract(html: bytes, url: url)
        let rules = PageVerifier(appStoreID: "1234567890").verify(page).map(\.ruleID)
        #expect(rules.sorted() == (Self.expected[path] ?? []), "\(path)")
    }

    @Test func theFixtureSiteIsFound() {
        #expect(Self.pages.count >= 39)
    }
}

@Suite("SAB013: the App Clip's bundle ID")
struct AppClipBundleTests {
    static func rules(_ clip: String, apps: [String]) -> [String] {
        let html = """
            <html><head><meta name="apple-itunes-app" content="app-id=1234567890, app-clip-bundle-id=\(clip)">
            </head></html>
            """
        let page = MarkupExtractor().extract(html: Array(html.utf8), url: "https://www.example.com/a")
        return PageVerifier(appIDs: apps).verify(page).map(\.ruleID).filter { $0 == "SAB013" }
    }

    @Test(
        arguments: [
            ("com.example.familycinema.Clip", ["ABCDE12345.com.example.familycinema"], [String]()),
            ("com.example.other.Clip", ["ABCDE12345.com.example.familycinema"], ["SAB013"]),
            ("com.example.familycinemaClip", ["ABCDE12345.com.example.familycinema"], ["SAB013"]),
            ("ABCDE12345.com.example.familycinema.Clip", [], ["SAB013"]),
            ("com.example.anything.Clip", [], []),
        ] as [(String, [String], [String])])
    func theClipBelongsToTheApp(clip: String, apps: [String], expected: [String]) {
        #expect(Self.rules(clip, apps: apps) == expected)
    }
}
