import LenientJSON
import MarkupExtraction
import Testing

@Suite("Smart App Banner")
struct SmartAppBannerTests {
    typealias Oddity = SmartAppBanner.Oddity

    /// A `content` attribute and what the tolerant parse must make of it.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var content: String
        /// `key=value` of every parameter, in order (duplicates included).
        var parameters: [String]
        var oddities: [Oddity]
        var testDescription: String { name }
    }

    static let contentCases: [Case] = [
        Case(
            name: "standard app-id and app-argument", content: "app-id=123, app-argument=https://x/y",
            parameters: ["app-id=123", "app-argument=https://x/y"], oddities: []),
        Case(
            name: "space after '='", content: "app-id= 123, app-argument=https://x/y",
            parameters: ["app-id=123", "app-argument=https://x/y"], oddities: [.whitespaceAroundEquals(key: "app-id")]),
        Case(
            name: "space before '='", content: "app-id =123",
            parameters: ["app-id=123"], oddities: [.whitespaceAroundEquals(key: "app-id")]),
        Case(
            name: "whitespace around the whole content is trimmed",
            content: " \n app-id=123, app-argument=https://x/y \t",
            parameters: ["app-id=123", "app-argument=https://x/y"], oddities: []),
        Case(
            name: "no space after commas", content: "app-id=123,app-argument=https://x/y",
            parameters: ["app-id=123", "app-argument=https://x/y"], oddities: [.missingSpaceAfterComma]),
        Case(
            name: "comma-space inside app-argument is re-joined",
            content: "app-id=123, app-argument=https://x/y?a=1, b=2",
            parameters: ["app-id=123", "app-argument=https://x/y?a=1, b=2"], oddities: [.commaInAppArgument]),
        Case(
            name: "re-joining stops at the next known key", content: "app-argument=https://x/a, b, app-id=5",
            parameters: ["app-argument=https://x/a, b", "app-id=5"], oddities: [.commaInAppArgument]),
        Case(
            name: "affiliate-data keeps '=' and '&'",
            content: "app-id=123, affiliate-data=pt=1&ct=2, app-argument=https://x",
            parameters: ["app-id=123", "affiliate-data=pt=1&ct=2", "app-argument=https://x"], oddities: []),
        Case(
            name: "missing comma before app-argument", content: "affiliate-data=pt=1&ct=2 app-argument=https://x",
            parameters: ["affiliate-data=pt=1&ct=2", "app-argument=https://x"], oddities: [.missingComma]),
        Case(
            name: "duplicate key: both kept, oddity names the ignored value", content: "app-id=1, app-id=2",
            parameters: ["app-id=1", "app-id=2"], oddities: [.duplicateKey(key: "app-id", ignoredValue: "2")]),
        Case(
            name: "unknown key", content: "app-id=1, foo=bar",
            parameters: ["app-id=1", "foo=bar"], oddities: [.unknownKey("foo")]),
        Case(
            name: "key not lower-case is matched lower-cased", content: "App-ID=1",
            parameters: ["app-id=1"], oddities: [.keyNotLowercase("App-ID")]),
        Case(name: "empty content", content: "", parameters: [], oddities: [.emptyContent]),
        Case(name: "whitespace-only content", content: "  \t ", parameters: [], oddities: [.emptyContent]),
        Case(
            name: "piece without '='", content: "app-id=1, banner",
            parameters: ["app-id=1", "banner="], oddities: [.pieceWithoutValue("banner")]),
        Case(
            name: "empty value", content: "app-id=, app-argument=https://x",
            parameters: ["app-id=", "app-argument=https://x"], oddities: [.emptyValue(key: "app-id")]),
        Case(
            name: "trailing comma is ignored", content: "app-id=1,",
            parameters: ["app-id=1"], oddities: []),
        Case(
            name: "App Clip keys", content: "app-id=1, app-clip-bundle-id=com.example.app.Clip, app-clip-display=card",
            parameters: ["app-id=1", "app-clip-bundle-id=com.example.app.Clip", "app-clip-display=card"], oddities: []),
    ]

    @Test("content parsing", arguments: contentCases)
    func parsesContent(_ testCase: Case) {
        let banner = SmartAppBanner(content: testCase.content, line: 7, section: .head)
        #expect(banner.parameters.map { "\($0.key)=\($0.value)" } == testCase.parameters)
        #expect(banner.oddities == testCase.oddities)
        #expect(banner.content == testCase.content)
        #expect(banner.line == 7)
    }

    @Test("accessors return the first value of each known key")
    func accessors() {
        let banner = SmartAppBanner(
            content:
                "app-id=1, app-id=2, affiliate-data=pt=1&ct=2, app-clip-bundle-id=com.x.Clip, app-clip-display=card, app-argument=https://x/y",
            line: 1, section: .head)
        #expect(banner.appID == "1")
        #expect(banner.appArgument == "https://x/y")
        #expect(banner.affiliateData == "pt=1&ct=2")
        #expect(banner.appClipBundleID == "com.x.Clip")
        #expect(banner.appClipDisplay == "card")
        #expect(banner["unknown"] == nil)
    }

    @Test("a comma without a space inside the app-argument URL is not a separator oddity")
    func commaWithoutSpaceInsideURL() {
        let banner = SmartAppBanner(
            content: "app-id=123, app-argument=https://x/list?ids=1,2,3", line: 1, section: .head)
        #expect(banner.appArgument == "https://x/list?ids=1,2,3")
        #expect(banner.oddities.contains(.commaInAppArgument))
        // Every parameter separator in this content is ", "; the commas without a space belong to the URL.
        #expect(banner.oddities == [.commaInAppArgument])
    }

    // MARK: In a page

    @Test("the meta tag in a page: app-id, app-argument, line and section")
    func standardTag() throws {
        let page = extract(
            """
            <html><head>
            <title>t</title>
            <meta name="apple-itunes-app" content="app-id=123, app-argument=https://x/y">
            </head><body><p>x</p></body></html>
            """)
        let banner = try #require(page.smartAppBanner)
        #expect(banner.appID == "123")
        #expect(banner.appArgument == "https://x/y")
        #expect(banner.line == 3)
        #expect(banner.section == .head)
        #expect(banner.oddities.isEmpty)
    }

    @Test("property= instead of name= is read and marked .writtenWithProperty")
    func writtenWithProperty() throws {
        let page = extract(#"<html><head><meta property="apple-itunes-app" content="app-id=5"></head></html>"#)
        let banner = try #require(page.smartAppBanner)
        #expect(banner.appID == "5")
        #expect(banner.oddities == [.writtenWithProperty])
        #expect(page.openGraph.isEmpty)
    }

    @Test("a name that is not lower-case is matched and marked .nameNotLowercase")
    func nameNotLowercase() throws {
        let page = extract(#"<html><head><meta name="Apple-iTunes-App" content="app-id=5"></head></html>"#)
        let banner = try #require(page.smartAppBanner)
        #expect(banner.appID == "5")
        #expect(banner.oddities == [.nameNotLowercase("Apple-iTunes-App")])
    }

    @Test("several tags: all kept in order, the first is the page's banner")
    func severalTags() throws {
        let page = extract(
            """
            <html><head>
            <meta name="apple-itunes-app" content="app-id=111, app-argument=https://x/first">
            <meta name="apple-itunes-app" content="app-id=222, app-argument=https://x/second">
            </head></html>
            """)
        #expect(page.smartAppBanners.count == 2)
        #expect(page.smartAppBanners.map(\.appID) == ["111", "222"])
        #expect(page.smartAppBanners.map(\.line) == [2, 3])
        #expect(page.smartAppBanner?.appID == "111")
        #expect(page.contractJSON["smartAppBanner"]?["appID"] == "111")
        #expect(page.contractJSON["smartAppBanners"]?.arrayValue?.count == 2)
    }

    @Test("entities in content are decoded before parsing (&amp; in affiliate-data)")
    func entitiesDecoded() throws {
        let page = extract(
            #"<html><head><meta name="apple-itunes-app" content="app-id=1, affiliate-data=pt=1&amp;ct=2, app-argument=https://x/?a=1&amp;b=2"></head></html>"#
        )
        let banner = try #require(page.smartAppBanner)
        #expect(banner.affiliateData == "pt=1&ct=2")
        #expect(banner.appArgument == "https://x/?a=1&b=2")
    }

    @Test("missing comma in a page: affiliate-data and app-argument split, .missingComma")
    func missingCommaInPage() throws {
        let page = extract(
            #"<html><head><meta name="apple-itunes-app" content="app-id=9, affiliate-data=pt=1&ct=2 app-argument=https://x"></head></html>"#
        )
        let banner = try #require(page.smartAppBanner)
        #expect(banner.appID == "9")
        #expect(banner.affiliateData == "pt=1&ct=2")
        #expect(banner.appArgument == "https://x")
        #expect(banner.oddities == [.missingComma])
    }

    @Test("contract JSON: appID, appArgument, parameters (first value per key) and oddity texts")
    func contractJSON() throws {
        let page = extract(
            #"<html><head><meta name="apple-itunes-app" content="app-id=1,app-id=2, app-argument=https://x/a, b"></head></html>"#
        )
        let json = try #require(page.contractJSON["smartAppBanner"]?.objectValue)
        #expect(json["appID"] == "1")
        #expect(json["appArgument"] == "https://x/a, b")
        #expect(json["parameters"] == ["app-id": "1", "app-argument": "https://x/a, b"])
        #expect(json["line"] == 1)
        #expect(json["section"] == "head")
        #expect(
            json["oddities"] == [
                "parameters separated by ',' without a following space",
                "duplicate \"app-id\" (ignored value \"2\")",
                "app-argument contains ',' (re-joined; write %2C)",
            ])
    }

    @Test("a page without a banner has smartAppBanner null in the contract")
    func noBanner() {
        let page = extract("<html><head><title>t</title></head></html>")
        #expect(page.smartAppBanner == nil)
        #expect(page.contractJSON["smartAppBanner"] == .null)
    }
}
