import MarkupExtraction
import Testing
import UniversalLinks
import Verification

@Suite("Universal-link verdicts for pages (validate --aasa)")
struct UniversalLinkJudgeTests {
    static let file =
        #"{"applinks": {"apps": [], "details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": [{"/": "/private/*", "exclude": true, "comment": "staff only"}, {"/": "/movies/*"}]}]}}"#

    static func judge(apps: [String] = ["ABCDE12345.com.example.app"], host: String? = nil) throws -> UniversalLinkJudge
    {
        let document = try #require(AASADocument.parse(Self.file).document)
        return UniversalLinkJudge(document: document, appIDs: apps, host: host)
    }

    @Test func verdictsFollowTheFirstMatchingRule() throws {
        let judge = try Self.judge()
        guard case .handled(let rule)? = judge.verdict(for: "https://www.example.com/movies/up.html") else {
            Issue.record("not handled")
            return
        }
        #expect(rule.contains("components[1]"))
        guard case .excluded(let excluded)? = judge.verdict(for: "https://www.example.com/private/a.html") else {
            Issue.record("not excluded")
            return
        }
        #expect(excluded.contains("staff only"))
        #expect(judge.verdict(for: "https://www.example.com/about.html") == .notMatched)
        #expect(judge.verdict(for: "myapp://movies/up") == nil)
        #expect(
            try Self.judge(apps: ["OTHER12345.com.x"]).verdict(for: "https://www.example.com/movies/up.html")
                == .notMatched)
        #expect(try Self.judge(host: "www.example.com").verdict(for: "https://example.org/movies/up.html") == nil)
    }

    @Test func aPageOutsideTheFileIsUL020AndSAB021() throws {
        let html = """
            <html><head><link rel="canonical" href="https://www.example.com/about.html">
            <meta name="apple-itunes-app" content="app-id=1234567890, app-argument=https://www.example.com/about.html">
            </head></html>
            """
        let page = MarkupExtractor().extract(html: Array(html.utf8), url: "https://www.example.com/about.html")
        let judge = try Self.judge()
        var context = PageContext()
        context.canonicalLink = judge.verdict(for: "https://www.example.com/about.html")
        context.appArgumentLink = page.smartAppBanner?.appArgument.flatMap(judge.verdict(for:))
        let rules = PageVerifier().verify(page, context: context).map(\.ruleID)
        #expect(rules.contains("UL020"))
        #expect(rules.contains("SAB021"))
    }
}
