import Rulebook
import Testing
import UniversalLinks

/// The app every test document lists.
let testAppID = "ABCDE12345.com.example.app"

/// A document with one entry for ``testAppID`` holding `components` (JSON text), plus optional extra
/// `applinks` members (JSON text without braces, e.g. `"defaults": {…}`).
func componentsDocument(_ components: String, applinks extra: String = "", entry entryExtra: String = "")
    -> AASADocument
{
    let extraMembers = extra.isEmpty ? "" : ", " + extra
    let entryMembers = entryExtra.isEmpty ? "" : ", " + entryExtra
    let text = """
        {"applinks": {"apps": [], "details": [{"appIDs": ["\(testAppID)"], "components": \(components)\(entryMembers)}]\
        \(extraMembers)}}
        """
    let result = AASADocument.parse(text)
    guard let document = result.document else {
        Issue.record("test document did not parse: \(result.problems)")
        return AASADocument()
    }
    return document
}

/// An expected match outcome, compared on entry and rule index.
enum Expected: Equatable, CustomTestStringConvertible, Sendable {
    case handled(Int, entry: Int = 0)
    case excluded(Int, entry: Int = 0)
    case notMatched
    case notUniversalLink

    init(_ result: AASAMatchResult) {
        switch result {
        case .handled(let rule): self = .handled(rule.ruleIndex, entry: rule.entryIndex)
        case .excluded(let rule): self = .excluded(rule.ruleIndex, entry: rule.entryIndex)
        case .notMatched: self = .notMatched
        case .notUniversalLink: self = .notUniversalLink
        }
    }

    var testDescription: String {
        switch self {
        case .handled(let rule, let entry): "handled by details[\(entry)] rule \(rule)"
        case .excluded(let rule, let entry): "excluded by details[\(entry)] rule \(rule)"
        case .notMatched: "not matched"
        case .notUniversalLink: "not a universal link"
        }
    }
}

/// One matcher case: `components` JSON, extra `applinks` members, a URL and the outcome.
struct MatchCase: CustomTestStringConvertible, Sendable {
    var components: String
    var applinks: String = ""
    var entry: String = ""
    var url: String
    var expected: Expected

    var testDescription: String { "\(components) \(applinks) \(entry) \(url) → \(expected.testDescription)" }
}

@Suite("AASA matcher")
struct AASAMatcherTests {
    static let componentCases: [MatchCase] = [
        // §3.5 and Apple's example: a path pattern without a leading `/` still matches.
        MatchCase(components: #"[{"/": "abc"}]"#, url: "https://example.com/abc", expected: .handled(0)),
        MatchCase(components: #"[{"/": "abc"}]"#, url: "https://example.com/abcd", expected: .notMatched),
        // A run of leading slashes in the pattern counts as one (swcutil, Tests/UniversalLinksTests/Swcutil).
        MatchCase(components: #"[{"/": "//abc"}]"#, url: "https://example.com/abc", expected: .handled(0)),
        MatchCase(components: #"[{"/": "///a/*"}]"#, url: "https://example.com/a/b", expected: .handled(0)),
        MatchCase(components: #"[{"/": "//abc"}]"#, url: "https://example.com/xabc", expected: .notMatched),
        MatchCase(components: #"[{"/": "/buy/*"}]"#, url: "https://example.com/buy/shoes", expected: .handled(0)),
        MatchCase(components: #"[{"/": "/buy/*"}]"#, url: "https://example.com/buy/a/b/c", expected: .handled(0)),
        // [3P-oracle]: `/x/*` also matches `/x`; trailing slashes are insignificant.
        MatchCase(components: #"[{"/": "/buy/*"}]"#, url: "https://example.com/buy", expected: .handled(0)),
        MatchCase(components: #"[{"/": "/buy/*"}]"#, url: "https://example.com/buy/", expected: .handled(0)),
        MatchCase(components: #"[{"/": "/buy/*"}]"#, url: "https://example.com/buyer", expected: .notMatched),
        MatchCase(components: #"[{"/": "/movies/"}]"#, url: "https://example.com/movies", expected: .handled(0)),
        MatchCase(components: #"[{"/": "/movies"}]"#, url: "https://example.com/movies/", expected: .handled(0)),
        MatchCase(components: #"[{"/": "/"}]"#, url: "https://example.com", expected: .handled(0)),
        MatchCase(components: #"[{"/": "/"}]"#, url: "https://example.com/a", expected: .notMatched),
        // `?` exactly one character, `?*` one or more, `*` greedy.
        MatchCase(components: #"[{"/": "/a/?"}]"#, url: "https://example.com/a/b", expected: .handled(0)),
        MatchCase(components: #"[{"/": "/a/?"}]"#, url: "https://example.com/a/bc", expected: .notMatched),
        MatchCase(components: #"[{"/": "/a/?"}]"#, url: "https://example.com/a/", expected: .notMatched),
        MatchCase(components: #"[{"/": "/p/?*"}]"#, url: "https://example.com/p/x", expected: .handled(0)),
        MatchCase(components: #"[{"/": "/p/?*"}]"#, url: "https://example.com/p/", expected: .notMatched),
        MatchCase(
            components: #"[{"/": "/*/b/*.html"}]"#, url: "https://example.com/a/b/c/d.html", expected: .handled(0)),
        MatchCase(components: #"[{"/": "/*/b/*.html"}]"#, url: "https://example.com/a/b/c.htm", expected: .notMatched),
        MatchCase(components: #"[{"/": "*.pdf"}]"#, url: "https://example.com/docs/a.pdf", expected: .handled(0)),
        // Absent keys mean `*`: `{}` matches everything.
        MatchCase(components: #"[{}]"#, url: "https://example.com/any/thing?q=1#f", expected: .handled(0)),
        // Apple's `"?": "def"` example: the whole query string.
        MatchCase(components: #"[{"?": "def"}]"#, url: "https://example.com/x?def", expected: .handled(0)),
        MatchCase(components: #"[{"?": "def"}]"#, url: "https://example.com/x?defg", expected: .notMatched),
        MatchCase(components: #"[{"?": "def"}]"#, url: "https://example.com/x", expected: .notMatched),
        MatchCase(components: #"[{"?": "a=1&b=*"}]"#, url: "https://example.com/x?a=1&b=2", expected: .handled(0)),
        // Query dictionary: absent item = "", every occurrence must match.
        MatchCase(components: #"[{"?": {"id": "?*"}}]"#, url: "https://example.com/?id=42", expected: .handled(0)),
        MatchCase(components: #"[{"?": {"id": "?*"}}]"#, url: "https://example.com/?x=1", expected: .notMatched),
        MatchCase(components: #"[{"?": {"id": "?*"}}]"#, url: "https://example.com/?id", expected: .notMatched),
        MatchCase(
            components: #"[{"?": {"id": "?*"}}]"#, url: "https://example.com/?id=1&id=", expected: .notMatched),
        MatchCase(
            components: #"[{"?": {"id": "$(digit)*"}}]"#, url: "https://example.com/?id=1&id=22",
            expected: .handled(0)),
        MatchCase(components: #"[{"?": {"ref": "*"}}]"#, url: "https://example.com/x", expected: .handled(0)),
        MatchCase(components: #"[{"?": {"ref": ""}}]"#, url: "https://example.com/x", expected: .handled(0)),
        MatchCase(
            components: #"[{"?": {"a": "1", "b": "2"}}]"#, url: "https://example.com/x?b=2&c=3&a=1",
            expected: .handled(0)),
        MatchCase(
            components: #"[{"?": {"a": "1", "b": "2"}}]"#, url: "https://example.com/x?a=1", expected: .notMatched),
        MatchCase(
            components: #"[{"?": {"q": "a b"}, "percentEncoded": false}]"#, url: "https://example.com/?q=a%20b",
            expected: .handled(0)),
        // A non-string dictionary value: swcutil ignores the whole dictionary (§3.5 [3P-oracle]).
        MatchCase(
            components: #"[{"/": "/q", "?": {"a": 1, "b": "x"}}]"#, url: "https://example.com/q?b=zzz",
            expected: .handled(0)),
        // Fragment.
        MatchCase(components: ##"[{"#": "top"}]"##, url: "https://example.com/x#top", expected: .handled(0)),
        MatchCase(components: ##"[{"#": "top"}]"##, url: "https://example.com/x#bottom", expected: .notMatched),
        MatchCase(components: ##"[{"#": "top"}]"##, url: "https://example.com/x", expected: .notMatched),
        MatchCase(components: ##"[{"#": "*"}]"##, url: "https://example.com/x", expected: .handled(0)),
        // All specified components must match.
        MatchCase(
            components: ##"[{"/": "/s", "?": {"q": "?*"}, "#": "r*"}]"##, url: "https://example.com/s?q=1#res",
            expected: .handled(0)),
        MatchCase(
            components: ##"[{"/": "/s", "?": {"q": "?*"}, "#": "r*"}]"##, url: "https://example.com/s?q=1#x",
            expected: .notMatched),
        // First match wins; `exclude` stops the scan.
        MatchCase(
            components: #"[{"/": "/private/*", "exclude": true}, {"/": "*"}]"#,
            url: "https://example.com/private/a", expected: .excluded(0)),
        MatchCase(
            components: #"[{"/": "/private/*", "exclude": true}, {"/": "*"}]"#, url: "https://example.com/pub",
            expected: .handled(1)),
        MatchCase(
            components: #"[{"/": "*"}, {"/": "/private/*", "exclude": true}]"#,
            url: "https://example.com/private/a", expected: .handled(0)),
        // Case sensitivity and the defaults hierarchy (component > entry > domain > true).
        MatchCase(components: #"[{"/": "/ABC"}]"#, url: "https://example.com/abc", expected: .notMatched),
        MatchCase(
            components: #"[{"/": "/ABC", "caseSensitive": false}]"#, url: "https://example.com/abc",
            expected: .handled(0)),
        MatchCase(
            components: #"[{"/": "/ABC"}]"#, applinks: #""defaults": {"caseSensitive": false}"#,
            url: "https://example.com/aBc", expected: .handled(0)),
        MatchCase(
            components: #"[{"/": "/ABC"}]"#, applinks: #""defaults": {"caseSensitive": false}"#,
            entry: #""defaults": {"caseSensitive": true}"#, url: "https://example.com/abc", expected: .notMatched),
        MatchCase(
            components: #"[{"/": "/ABC", "caseSensitive": false}]"#, entry: #""defaults": {"caseSensitive": true}"#,
            url: "https://example.com/abc", expected: .handled(0)),
        MatchCase(
            components: #"[{"?": {"ID": "X"}, "caseSensitive": false}]"#, url: "https://example.com/?id=x",
            expected: .handled(0)),
        // `/`, `?`, `#`, `exclude` in defaults apply to rules that do not set them (swcutil; UL022 still fires).
        MatchCase(
            components: ##"[{"#": "*"}]"##, applinks: #""defaults": {"/": "/foo/*"}"#, url: "https://example.com/bar",
            expected: .notMatched),
        MatchCase(
            components: ##"[{"#": "*"}]"##, applinks: #""defaults": {"/": "/foo/*"}"#,
            url: "https://example.com/foo/1", expected: .handled(0)),
        MatchCase(
            components: ##"[{"#": "*"}]"##, entry: #""defaults": {"/": "/foo/*"}"#, url: "https://example.com/bar",
            expected: .notMatched),
        MatchCase(
            components: #"[{"/": "/bar"}]"#, applinks: #""defaults": {"/": "/foo/*"}"#, url: "https://example.com/bar",
            expected: .handled(0)),
        MatchCase(
            components: ##"[{"#": "*"}]"##, applinks: #""defaults": {"/": "/foo/*"}"#,
            entry: #""defaults": {"/": "/bar"}"#, url: "https://example.com/bar", expected: .handled(0)),
        MatchCase(
            components: ##"[{"#": "*"}]"##, applinks: #""defaults": {"exclude": true}"#,
            url: "https://example.com/bar", expected: .excluded(0)),
        MatchCase(
            components: ##"[{"#": "*", "exclude": false}]"##, applinks: #""defaults": {"exclude": true}"#,
            url: "https://example.com/bar", expected: .handled(0)),
        MatchCase(
            components: ##"[{"#": "*"}]"##, applinks: #""defaults": {"?": {"id": "??"}}"#,
            url: "https://example.com/bar?id=77", expected: .handled(0)),
        MatchCase(
            components: ##"[{"#": "*"}]"##, applinks: #""defaults": {"?": {"id": "??"}}"#,
            url: "https://example.com/bar?id=7", expected: .notMatched),
        MatchCase(
            components: #"[{"/": "/a"}]"#, entry: ##""defaults": {"#": "x"}"##, url: "https://example.com/a#y",
            expected: .notMatched),
        // Percent encoding: the URL side is compared as written unless percentEncoded is false.
        MatchCase(components: #"[{"/": "/caf%C3%A9"}]"#, url: "https://example.com/caf%C3%A9", expected: .handled(0)),
        MatchCase(components: #"[{"/": "/café"}]"#, url: "https://example.com/caf%C3%A9", expected: .notMatched),
        MatchCase(
            components: #"[{"/": "/café", "percentEncoded": false}]"#, url: "https://example.com/caf%C3%A9",
            expected: .handled(0)),
        MatchCase(
            components: #"[{"/": "/café", "percentEncoded": false}]"#, url: "https://example.com/café",
            expected: .handled(0)),
        MatchCase(
            components: #"[{"/": "/café"}]"#, applinks: #""defaults": {"percentEncoded": false}"#,
            url: "https://example.com/caf%C3%A9", expected: .handled(0)),
        MatchCase(components: #"[{"/": "/a/b"}]"#, url: "https://example.com/a%2Fb", expected: .notMatched),
        MatchCase(
            components: #"[{"/": "/a/b", "percentEncoded": false}]"#, url: "https://example.com/a%2Fb",
            expected: .handled(0)),
        // `?` counts ASCII characters of the encoded URL (§3.4, WWDC 2019-717).
        MatchCase(components: #"[{"/": "/?"}]"#, url: "https://example.com/é", expected: .notMatched),
        MatchCase(
            components: #"[{"/": "/?", "percentEncoded": false}]"#, url: "https://example.com/é",
            expected: .handled(0)),
        // Substitution variables: Apple's example.
        MatchCase(
            components: #"[{"/": "/$(lang)_$(region)/$(food)/"}]"#,
            applinks: #""substitutionVariables": {"food": ["burrito", "tacos"]}"#,
            url: "https://example.com/en_US/tacos/", expected: .handled(0)),
        MatchCase(
            components: #"[{"/": "/$(lang)_$(region)/$(food)/"}]"#,
            applinks: #""substitutionVariables": {"food": ["burrito", "tacos"]}"#,
            url: "https://example.com/fr_CA/burrito", expected: .handled(0)),
        MatchCase(
            components: #"[{"/": "/$(lang)_$(region)/$(food)/"}]"#,
            applinks: #""substitutionVariables": {"food": ["burrito", "tacos"]}"#,
            url: "https://example.com/en_US/pizza/", expected: .notMatched),
        MatchCase(
            components: #"[{"/": "/$(lang)_$(region)/$(food)/"}]"#,
            applinks: #""substitutionVariables": {"food": ["burrito", "tacos"]}"#,
            url: "https://example.com/xx_US/tacos/", expected: .notMatched),
        // `$(region)` does not contain `UK` (the ISO code is GB) [3P-oracle].
        MatchCase(
            components: #"[{"/": "/$(lang)_$(region)/$(food)/"}]"#,
            applinks: #""substitutionVariables": {"food": ["burrito", "tacos"]}"#,
            url: "https://example.com/en_UK/tacos/", expected: .notMatched),
        MatchCase(components: #"[{"/": "/$(region)"}]"#, url: "https://example.com/GB", expected: .handled(0)),
        MatchCase(components: #"[{"/": "/$(region)"}]"#, url: "https://example.com/UK", expected: .notMatched),
        MatchCase(components: #"[{"/": "/$(region)"}]"#, url: "https://example.com/gb", expected: .notMatched),
        MatchCase(
            components: #"[{"/": "/$(region)", "caseSensitive": false}]"#, url: "https://example.com/gb",
            expected: .handled(0)),
        MatchCase(components: #"[{"/": "/$(lang)/*"}]"#, url: "https://example.com/de/x", expected: .handled(0)),
        MatchCase(components: #"[{"/": "/$(lang)/*"}]"#, url: "https://example.com/qq/x", expected: .notMatched),
        // Predefined single-character classes.
        MatchCase(
            components: #"[{"/": "/$(digit)$(digit)"}]"#, url: "https://example.com/42", expected: .handled(0)),
        MatchCase(components: #"[{"/": "/$(digit)$(digit)"}]"#, url: "https://example.com/4a", expected: .notMatched),
        MatchCase(components: #"[{"/": "/$(upper)"}]"#, url: "https://example.com/A", expected: .handled(0)),
        MatchCase(components: #"[{"/": "/$(upper)"}]"#, url: "https://example.com/a", expected: .notMatched),
        MatchCase(
            components: #"[{"/": "/$(upper)", "caseSensitive": false}]"#, url: "https://example.com/a",
            expected: .handled(0)),
        MatchCase(components: #"[{"/": "/$(lower)"}]"#, url: "https://example.com/a", expected: .handled(0)),
        MatchCase(components: #"[{"/": "/$(lower)"}]"#, url: "https://example.com/A", expected: .notMatched),
        MatchCase(components: #"[{"/": "/$(alpha)"}]"#, url: "https://example.com/Z", expected: .handled(0)),
        MatchCase(components: #"[{"/": "/$(alpha)"}]"#, url: "https://example.com/1", expected: .notMatched),
        MatchCase(components: #"[{"/": "/$(alnum)"}]"#, url: "https://example.com/1", expected: .handled(0)),
        MatchCase(components: #"[{"/": "/$(alnum)"}]"#, url: "https://example.com/-", expected: .notMatched),
        MatchCase(components: #"[{"/": "/$(xdigit)"}]"#, url: "https://example.com/f", expected: .handled(0)),
        MatchCase(components: #"[{"/": "/$(xdigit)"}]"#, url: "https://example.com/g", expected: .notMatched),
        // Custom values may hold wildcards; names are case-sensitive; undefined variables match nothing.
        MatchCase(
            components: #"[{"/": "/$(cat)/*"}]"#, applinks: #""substitutionVariables": {"cat": ["shoe?", "hat*"]}"#,
            url: "https://example.com/shoes/x", expected: .handled(0)),
        MatchCase(
            components: #"[{"/": "/$(cat)/*"}]"#, applinks: #""substitutionVariables": {"cat": ["shoe?", "hat*"]}"#,
            url: "https://example.com/hatter/x", expected: .handled(0)),
        MatchCase(
            components: #"[{"/": "/$(cat)/*"}]"#, applinks: #""substitutionVariables": {"cat": ["shoe?", "hat*"]}"#,
            url: "https://example.com/sock/x", expected: .notMatched),
        MatchCase(
            components: #"[{"/": "/$(Cat)"}]"#, applinks: #""substitutionVariables": {"cat": ["x"]}"#,
            url: "https://example.com/x", expected: .notMatched),
        MatchCase(components: #"[{"/": "/$(nope)"}]"#, url: "https://example.com/nope", expected: .notMatched),
        MatchCase(
            components: #"[{"/": "/$(c)", "caseSensitive": false}]"#,
            applinks: #""substitutionVariables": {"c": ["Blue"]}"#, url: "https://example.com/BLUE",
            expected: .handled(0)),
        // Unusable rules (bad types) are skipped, not treated as "anything".
        MatchCase(components: #"[{"/": 5}, {"/": "/x"}]"#, url: "https://example.com/x", expected: .handled(1)),
        MatchCase(
            components: #"[{"/": "/x", "exclude": "yes"}]"#, url: "https://example.com/x", expected: .notMatched),
        // Not universal links.
        MatchCase(components: #"[{}]"#, url: "ftp://example.com/x", expected: .notUniversalLink),
        MatchCase(components: #"[{}]"#, url: "familycinema://movies/up", expected: .notUniversalLink),
        MatchCase(components: #"[{}]"#, url: "not a url", expected: .notUniversalLink),
        MatchCase(components: #"[{"/": "abc"}]"#, url: "http://example.com/abc", expected: .handled(0)),
    ]

    @Test(arguments: componentCases)
    func componentRules(_ testCase: MatchCase) {
        let document = componentsDocument(testCase.components, applinks: testCase.applinks, entry: testCase.entry)
        #expect(Expected(document.match(testCase.url, appID: testAppID)) == testCase.expected)
    }

    /// Legacy `paths` (§3.3): order, `NOT `, `*`, `?`, path only.
    static let legacyCases: [(String, String, Expected)] = [
        (#"["NOT /videos/wwdc/2010/*", "/videos/wwdc/*"]"#, "https://e.com/videos/wwdc/2010/a", .excluded(0)),
        (#"["NOT /videos/wwdc/2010/*", "/videos/wwdc/*"]"#, "https://e.com/videos/wwdc/2015/a", .handled(1)),
        (#"["NOT /videos/wwdc/2010/*", "/videos/wwdc/*"]"#, "https://e.com/videos/other", .notMatched),
        (#"["*"]"#, "https://e.com/anything?x=1#f", .handled(0)),
        (#"["/a"]"#, "https://e.com/a?b=c#d", .handled(0)),
        (#"["/a?c"]"#, "https://e.com/abc", .handled(0)),
        (#"["/a?c"]"#, "https://e.com/a?c", .notMatched),
        (#"[1, "/x"]"#, "https://e.com/x", .handled(1)),
        (#"["NOT/x", "/y"]"#, "https://e.com/x", .notMatched),
    ]

    @Test(arguments: legacyCases)
    func legacyPaths(_ paths: String, _ url: String, _ expected: Expected) {
        let text = #"{"applinks": {"apps": [], "details": [{"appID": "\#(testAppID)", "paths": \#(paths)}]}}"#
        let document = AASADocument.parse(text).document
        #expect(document.map { Expected($0.match(url, appID: testAppID)) } == expected)
    }

    @Test func pathsAreIgnoredWhenComponentsArePresent() throws {
        let document = try #require(
            AASADocument.parse(
                #"{"applinks": {"details": [{"appIDs": ["\#(testAppID)"], "components": [{"/": "/c"}], "paths": ["/p"]}]}}"#
            ).document)
        #expect(Expected(document.match("https://e.com/p", appID: testAppID)) == .notMatched)
        #expect(Expected(document.match("https://e.com/c", appID: testAppID)) == .handled(0))
    }

    @Test func entriesAreFilteredByAppIDAndTriedInOrder() throws {
        let text = """
            {"applinks": {"details": [
              {"appIDs": ["ZZZZZ99999.com.other"], "components": [{"/": "*"}]},
              {"appID": "\(testAppID)", "components": [{"/": "/x/*", "exclude": true, "comment": "no"}]},
              {"appIDs": ["\(testAppID)"], "components": [{"/": "*"}]}
            ]}}
            """
        let document = try #require(AASADocument.parse(text).document)
        #expect(Expected(document.match("https://e.com/x/1", appID: testAppID)) == .excluded(0, entry: 1))
        #expect(Expected(document.match("https://e.com/y", appID: testAppID)) == .handled(0, entry: 2))
        #expect(Expected(document.match("https://e.com/x/1", appID: "ZZZZZ99999.com.other")) == .handled(0, entry: 0))
        #expect(Expected(document.match("https://e.com/y", appID: "QQQQQ00000.com.absent")) == .notMatched)
        guard case .excluded(let rule) = document.match("https://e.com/x/1", appID: testAppID) else {
            Issue.record("expected an exclusion")
            return
        }
        #expect(rule.comment == "no")
        #expect(rule.pattern == #"{"/": "/x/*"}"#)
        #expect(rule.path == "applinks.details[1].components[0]")
    }

    /// `details` in the obsolete dictionary form: each member is the entry of the app ID keying it, as
    /// `swcutil` matches it (UL009 still warns).
    @Test func obsoleteDetailsDictionaryIsMatchedPerAppID() throws {
        let other = "ZZZZZ99999.com.other"
        let text = """
            {"applinks": {"apps": [], "details": {
              "\(testAppID)": {"paths": ["NOT /wwdc/internal/*", "/wwdc/*"]},
              "\(other)": {"components": [{"/": "/b/*"}]}
            }}}
            """
        let parsed = AASADocument.parse(text)
        let document = try #require(parsed.document)
        #expect(parsed.problems.map(\.ruleID) == ["UL009"])
        #expect(document.applinks?.usesObsoleteDetailsDictionary == true)
        #expect(document.applinks?.details.map(\.appIDs) == [[testAppID], [other]])
        #expect(Expected(document.match("https://e.com/wwdc/news/", appID: testAppID)) == .handled(1))
        #expect(Expected(document.match("https://e.com/wwdc/internal/x", appID: testAppID)) == .excluded(0))
        #expect(Expected(document.match("https://e.com/b/1", appID: testAppID)) == .notMatched)
        #expect(Expected(document.match("https://e.com/b/1", appID: other)) == .handled(0, entry: 1))
        guard case .handled(let rule) = document.match("https://e.com/wwdc/2015", appID: testAppID) else {
            Issue.record("expected a match")
            return
        }
        #expect(rule.path == #"applinks.details["\#(testAppID)"].paths[1]"#)
    }

    /// Where an entry has both `appID` and `appIDs`, iOS takes the apps from `appIDs` alone, and an
    /// empty `appIDs` applies to no app (issue 33; docs/universal-links.md).
    @Test func appIDsAloneDecideWhereBothKeysAreWritten() throws {
        let other = "ZZZZZ99999.com.other"
        let text = """
            {"applinks": {"details": [
              {"appID": "\(testAppID)", "appIDs": [], "components": [{"/": "/a/*"}]},
              {"appID": "\(testAppID)", "appIDs": ["\(other)"], "components": [{"/": "/b/*"}]},
              {"appID": "\(other)", "components": [{"/": "/c/*"}]},
              {"appIDs": ["\(testAppID)"], "components": [{"/": "*"}]}
            ]}}
            """
        let parsed = AASADocument.parse(text)
        let document = try #require(parsed.document)
        #expect(document.applinks?.details.map(\.appIDs) == [[], [other], [other], [testAppID]])
        #expect(Expected(document.match("https://e.com/a/1", appID: testAppID)) == .handled(0, entry: 3))
        #expect(Expected(document.match("https://e.com/b/1", appID: testAppID)) == .handled(0, entry: 3))
        #expect(Expected(document.match("https://e.com/b/1", appID: other)) == .handled(0, entry: 1))
        #expect(Expected(document.match("https://e.com/a/1", appID: other)) == .notMatched)
        let warnings = parsed.problems.filter { $0.rule == .ul012 }.map(\.message)
        #expect(warnings.count == 2)
        #expect(warnings.first?.contains("the empty appIDs matches no app") == true, "\(warnings)")
    }

    @Test(arguments: [
        ("https://www.example.com/a", "www.example.com", Expected.handled(0)),
        ("https://WWW.Example.COM/a", "www.example.com", .handled(0)),
        ("https://www.example.com/a", "WWW.EXAMPLE.COM", .handled(0)),
        ("https://example.com/a", "www.example.com", .notUniversalLink),
        ("https://sub.www.example.com/a", "www.example.com", .notUniversalLink),
    ])
    func hostMustBeTheServedDomain(_ url: String, _ host: String, _ expected: Expected) {
        let document = componentsDocument(#"[{"/": "/a"}]"#)
        #expect(Expected(document.match(url, appID: testAppID, servedForHost: host)) == expected)
    }

    @Test func documentWithoutAppLinksMatchesNothing() {
        #expect(AASADocument().match("https://e.com/", appID: testAppID) == .notMatched)
    }

    /// A pattern that makes a backtracking glob exponential finishes (the automaton is O(n × m)).
    @Test func globIsNotExponential() {
        let pattern = "/" + String(repeating: "*a", count: 40) + "b"
        let document = componentsDocument(#"[{"/": "\#(pattern)"}]"#)
        let url = "https://e.com/" + String(repeating: "a", count: 5000)
        #expect(document.match(url, appID: testAppID) == .notMatched)
        #expect(Expected(document.match(url + "b", appID: testAppID)) == .handled(0))
    }
}
