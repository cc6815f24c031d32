import MarkupExtraction
import Rulebook
import Testing
import Verification

@Suite("X card and App Links rules (§7.5), DL003")
struct TwitterAppLinksRuleTests {
    static func findings(_ head: String) -> [Finding] {
        let html = """
            <html><head><meta name="apple-itunes-app" content="app-id=1234567890, app-argument=https://www.example.com/a">
            <link rel="canonical" href="https://www.example.com/a">
            \(head)</head></html>
            """
        let page = MarkupExtractor().extract(html: Array(html.utf8), url: "https://www.example.com/a")
        return PageVerifier().verify(page)
            .filter { $0.ruleID.hasPrefix("TW") || $0.ruleID.hasPrefix("AL") || $0.ruleID.hasPrefix("DL") }
    }

    static func rules(_ head: String) -> [String] {
        findings(head).map(\.ruleID).sorted()
    }

    /// The card type written in `value=` (X's early markup) is reported as what it is, not as
    /// `twitter:card ""` (issue 33); `content=` wins when both are written.
    @Test(
        arguments: [
            (#"<meta name="twitter:card" value="summary">"#, #"value="summary""#, false),
            (#"<meta value="player" name="twitter:card">"#, #"value="player""#, false),
            (#"<meta name="twitter:card" value="photo">"#, #"value="photo""#, true),
        ])
    func aCardTypeInValueIsNamed(head: String, written: String, unknown: Bool) throws {
        let found = Self.findings(head)
        #expect(found.map(\.ruleID) == ["TW001"])
        let finding = try #require(found.first)
        #expect(finding.message.contains("has no content attribute"), "\(finding.message)")
        #expect(finding.message.contains(written), "\(finding.message)")
        #expect(!finding.message.contains(#"twitter:card """#), "\(finding.message)")
        #expect(finding.message.contains("is not one of them") == unknown, "\(finding.message)")
        #expect(finding.excerpt.contains(written), "\(finding.excerpt)")
    }

    @Test func contentWinsOverValue() {
        #expect(Self.rules(#"<meta name="twitter:card" content="summary" value="gallery">"#) == [])
        #expect(Self.rules(#"<meta name="twitter:card" content="gallery" value="summary">"#) == ["TW001"])
    }

    @Test(
        arguments: [
            (#"<meta name="twitter:card" content="summary_large_image">"#, [String]()),
            (#"<meta name="twitter:card" content="gallery">"#, ["TW001"]),
            ("<meta name=\"twitter:title\" content=\"\(String(repeating: "t", count: 71))\">", ["TW002"]),
            ("<meta name=\"twitter:description\" content=\"\(String(repeating: "d", count: 201))\">", ["TW002"]),
            (#"<meta name="twitter:image" content="https://www.example.com/a.svg?v=2">"#, ["TW003"]),
            (#"<meta name="twitter:app:id:iphone" content="com.example.app">"#, ["TW004"]),
            (#"<meta name="twitter:app:id:iphone" content="1234567890">"#, [String]()),
            (#"<meta name="twitter:app:id:iphone" content="987654321">"#, ["DL003"]),
            (#"<meta name="twitter:app:url:iphone" content="myapp:movies/a">"#, ["TW005"]),
            (
                #"<meta property="al:ios:app_store_id" content="1234567890"><meta property="al:ios:app_name" content="A">"#,
                ["AL001"]
            ),
            (
                #"<meta property="al:ios:url" content="myapp://a"><meta property="al:ios:app_store_id" content="12x">"#,
                ["AL002"]
            ),
            (#"<meta property="al:ios:url" content="my_app://a">"#, ["AL003"]),
            (#"<meta property="al:ios:url" content="not a url">"#, ["AL003"]),
            (#"<meta property="al:ios:url" content="myapp://movies/caf%u00e9">"#, ["AL003"]),
            (#"<meta property="al:ios:url" content="myapp://movies/caf%C3%A9">"#, [String]()),
            (#"<meta property="al:web:should_fallback" content="yes">"#, ["AL004"]),
            (#"<meta property="al:web:url" content="https://www.example.com/b">"#, ["AL005"]),
            (#"<meta property="al:web:url" content="https://www.example.com/a">"#, [String]()),
            (
                #"<meta property="al:ios:url" content="myapp://a"><meta property="al:ios:app_store_id" content="111111111">"#,
                ["DL003"]
            ),
        ] as [(String, [String])])
    func eachRuleFires(head: String, expected: [String]) {
        #expect(Self.rules(head) == expected.sorted(), "\(head)")
    }

    /// DL003 compares like with like (issue 33): the banner, al:ios and the iPhone tags; the iPad
    /// tags only with each other. A separate iPad app (twitter:app:id:ipad) is no disagreement with
    /// al:ios:app_store_id (the banner's app is 1234567890).
    @Test(
        arguments: [
            (
                #"<meta property="al:ios:url" content="myapp://a"><meta property="al:ios:app_store_id" content="1234567890">"#
                    + #"<meta name="twitter:app:id:ipad" content="555555555">"#,
                [String]()
            ),
            (#"<meta name="twitter:app:id:ipad" content="555555555">"#, [String]()),
            (
                #"<meta property="al:ipad:url" content="myapp://a"><meta property="al:ipad:app_store_id" content="555555555">"#
                    + #"<meta name="twitter:app:id:ipad" content="555555555">"#,
                [String]()
            ),
            (
                #"<meta property="al:ipad:url" content="myapp://a"><meta property="al:ipad:app_store_id" content="666666666">"#
                    + #"<meta name="twitter:app:id:ipad" content="555555555">"#,
                ["DL003"]
            ),
            (
                #"<meta property="al:ios:url" content="myapp://a"><meta property="al:ios:app_store_id" content="1234567890">"#
                    + #"<meta name="twitter:app:id:iphone" content="555555555">"#,
                ["DL003"]
            ),
        ] as [(String, [String])])
    func dl003ComparesLikeWithLike(head: String, expected: [String]) {
        #expect(Self.rules(head) == expected, "\(head)")
    }
}
