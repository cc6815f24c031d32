import Foundation
import MarkupExtraction
import PageAnalysis
import Rulebook
import Testing
import UniversalLinks
import Verification

/// The one page pipeline: the same bytes give the same verdicts whatever asks (validate, crawl),
/// and switching a rule off changes findings, never what a page is.
@Suite("the one page pipeline")
struct PagePipelineTests {
    static let noindexPage = """
        <!DOCTYPE html><html><head><title>Spirited Away</title>
        <meta name="description" content="A ten-year-old works in a bathhouse for spirits.">
        <meta name="robots" content="noindex">
        <meta name="apple-itunes-app" content="app-id=1234567890, app-argument=https://www.example.com/a.html">
        </head><body><a href="/b.html">b</a></body></html>
        """

    @Test("noindex comes from candidacy: --rule IX002=off silences the finding, not the page's noindex")
    func noindexDoesNotDependOnTheRuleSwitch() throws {
        var silenced = RuleConfiguration()
        try silenced.apply(option: "IX002=off")
        let input = PageInput(path: "a.html", url: "https://www.example.com/a.html")
        var on = PageAnalyzer()
        on.verifier = PageVerifier()
        var off = PageAnalyzer()
        off.verifier = PageVerifier(configuration: silenced)
        let withRule = on.analyze(html: Array(Self.noindexPage.utf8), input: input)
        let withoutRule = off.analyze(html: Array(Self.noindexPage.utf8), input: input)
        #expect(withRule.findings?.contains { $0.ruleID == "IX002" } == true)
        #expect(withoutRule.findings?.contains { $0.ruleID == "IX002" } == false)
        #expect(withRule.sitePage.isNoindex && withoutRule.sitePage.isNoindex)
        #expect(withRule.candidacy == withoutRule.candidacy)
        #expect(withRule.candidacy.failing.contains(.noindex))
    }

    @Test("validate's analyzer and a crawl's pipeline call give the same page for the same bytes and facts")
    func analyzerIsThePipeline() async throws {
        let verifier = PageVerifier()
        let html = Array(Self.noindexPage.utf8)
        let url = "https://www.example.com/a.html"
        var analyzer = PageAnalyzer()
        analyzer.verifier = verifier
        let validated = analyzer.analyze(html: html, input: PageInput(path: "a.html", url: url))
        let crawled = await PagePipeline(verifier: verifier).check(html: html, url: url, facts: ServedFacts()) {
            _ async in PageLookups()
        }
        #expect(validated.findings == crawled.findings)
        #expect(validated.candidacy == crawled.candidacy)
        #expect(validated.sitePage == crawled.sitePage(url: url))
    }

    @Test("served facts reach the verdicts: X-Robots-Tag, a Link canonical resolved against the page, the charset")
    func servedFactsBecomeTheContext() throws {
        let html = Array("<html><head><meta charset=iso-8859-1><title>T</title></head><body></body></html>".utf8)
        let facts = ServedFacts(
            status: 200, mediaType: "text/html",
            headers: [
                (name: "X-Robots-Tag", value: "noindex"), (name: "Link", value: "</c.html>; rel=\"canonical\""),
            ],
            charset: "utf-8", applebotAllowed: false)
        let page = PagePipeline(verifier: PageVerifier()).check(
            html: html, url: "https://www.example.com/dir/a.html", facts: facts
        ) { _ in PageLookups() }
        #expect(page.context.robotsHeaders == ["noindex"])
        #expect(page.context.headerCanonicals == ["https://www.example.com/c.html"])
        #expect(page.candidacy.failing.contains(.noindex))
        #expect(page.candidacy.failing.contains(.blockedForApplebot))
        #expect(page.markup.diagnostics.contains { $0.code == .charsetConflict })
    }

    @Test("the pipeline asks for the canonical's and the https app-argument's verdicts, and uses the answers")
    func lookupsAreAskedAndUsed() throws {
        let pipeline = PagePipeline(verifier: PageVerifier())
        let pending = pipeline.begin(html: Array(Self.noindexPage.utf8), url: "https://www.example.com/a.html")
        #expect(pending.canonicalLinkURL == "https://www.example.com/a.html")
        #expect(pending.appArgumentLinkURL == "https://www.example.com/a.html")
        let handled = pipeline.finish(
            pending, lookups: PageLookups(canonicalLink: .handled(rule: "/*"), appArgumentLink: .handled(rule: "/*")))
        #expect(handled.context.canonicalLink == .handled(rule: "/*"))
        let unknown = pipeline.finish(pending, lookups: PageLookups())
        #expect(unknown.context.canonicalLink == nil)
    }
}
