import CompactBinary
import Foundation
import LenientJSON
import MarkupExtraction
import ReportModel
import Rulebook
import SpotlightModel
import Testing

/// The page every output reads: stored and read back whole, and written as report.json's page.
@Suite("PageReport and the stored page payload")
struct PageReportTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Fixtures/html").standardized

    /// A fixture page extracted and built as the crawl does, with a failing condition and findings.
    static func analysed(_ path: String) throws -> (PageMarkup, PageAttributes) {
        let bytes = try [UInt8](Data(contentsOf: fixtures.appendingPathComponent(path)))
        let markup = MarkupExtractor().extract(html: bytes, url: "https://www.example.com/\(path)")
        return (markup, AttributeSetBuilder().build(markup))
    }

    static func finding(_ rule: RuleID, line: Int) -> Finding {
        Finding(
            rule: rule, severity: .warning, url: "https://www.example.com/", line: line, excerpt: "<meta>",
            message: "m", fixHint: "f")
    }

    @Test(
        "a real page's payload and markup come back from their stored bytes equal to what was stored",
        arguments: ["index.html", "markup-tests.html", "movies/up.html"])
    func storedValuesRoundTrip(path: String) throws {
        let (markup, attributes) = try Self.analysed(path)
        let payload = PagePayload(
            headers: [HeaderField(name: "Content-Type", value: "text/html; charset=utf-8")],
            redirects: [RedirectHop(url: "http://www.example.com/", status: 301, location: "https://www.example.com/")],
            timings: ResponseTimings(dns: 0.001, connect: 0.002, firstByte: 0.01, total: 0.02),
            findings: [Self.finding(.ix006, line: 3)],
            analysis: MarkupAnalysis(
                attributes: attributes, summary: MarkupSummary(markup), failingConditions: [.notAtCanonicalURL],
                universalLink: "handled",
                rendered: RenderingReport(
                    attributeSet: attributes.attributeSet, onlyAfterJavaScript: ["title"], timedOut: true,
                    blockedForApplebot: [.init(url: "https://www.example.com/app.js", resourceType: "Script")]),
                consumers: [
                    ConsumerReport(consumer: "applebot", userAgent: "Applebot/0.1", outcome: .disallowedByRobots),
                    ConsumerReport(
                        consumer: "twitterbot", userAgent: "Twitterbot/1.0",
                        outcome: .answered(
                            status: 200, finalURL: "https://www.example.com/",
                            reads: [.init(field: "og:title", value: "Up"), .init(field: "og:image", value: nil)])),
                    ConsumerReport(consumer: "safari", userAgent: "Safari", outcome: .failed(reason: "timed out")),
                ]))
        #expect(try PagePayload(stored: payload.stored()) == payload)
        var withoutScriptText = markup
        withoutScriptText.jsonLD = markup.jsonLD.map { script in
            var script = script
            script.text = ""
            return script
        }
        #expect(try PageMarkup(stored: markup.stored()) == withoutScriptText, "the script text is not stored")
        #expect(!markup.jsonLD.isEmpty || path != "movies/up.html")
    }

    @Test("bytes that are not a payload are an error, not a crash", arguments: [[], [0xFF], Array("{}".utf8)])
    func garbageIsAnError(bytes: [UInt8]) {
        #expect(throws: CompactBinaryError.self) { try PagePayload(stored: bytes) }
    }

    @Test("each failing candidacy condition points at the findings of its rule, by position")
    func candidacyReasonsPointAtFindings() throws {
        let (markup, attributes) = try Self.analysed("index.html")
        let findings = [
            Self.finding(.sab007, line: 12), Self.finding(.ix006, line: 8), Self.finding(.ct002, line: 9),
            Self.finding(.ix006, line: 30),
        ]
        let page = PageReport(
            url: "https://www.example.com/", finalURL: "https://www.example.com/", location: .file("index.html"),
            findings: findings,
            analysis: MarkupAnalysis(
                attributes: attributes, summary: MarkupSummary(markup),
                failingConditions: [.notAtCanonicalURL, .noDeepLink]))
        #expect(
            page.candidacyReasons == [
                CandidacyReason(condition: .notAtCanonicalURL, findings: [1, 3]),
                CandidacyReason(condition: .noDeepLink, findings: []),
            ])
        let candidate = try #require(page.json(includingMarkup: false)["markup"]?["candidate"])
        #expect(candidate["isCandidate"] == false)
        #expect(candidate["failing"] == ["not-at-canonical-url", "no-deep-link"])
        #expect(candidate["reasons"]?[0]?["rule"] == "IX006")
        #expect(candidate["reasons"]?[0]?["findings"] == [1, 3])
        #expect(candidate["reasons"]?[1]?["findings"] == [])
    }

    @Test("report.json's page: the raw markup only when asked, the location as file or link")
    func pageJSON() throws {
        let (markup, attributes) = try Self.analysed("index.html")
        var page = PageReport(
            url: "https://www.example.com/gone", finalURL: "https://www.example.com/gone",
            location: .linkedFrom(file: "index.html", line: 40, column: 7),
            fetch: FetchFacts(depth: 1, status: 404, contentType: "text/html"),
            analysis: MarkupAnalysis(attributes: attributes, summary: MarkupSummary(markup), failingConditions: []),
            markup: markup)
        let lean = page.json(includingMarkup: false)
        #expect(lean["linkedFrom"] == ["file": "index.html", "line": 40, "column": 7])
        #expect(lean["status"] == 404)
        #expect(lean["markup"]?["jsonLD"] == nil)
        #expect(lean["markup"]?["attributeSet"]?["title"] == JSONValue.string(attributes.attributeSet.title ?? ""))
        let full = page.json(includingMarkup: true)
        #expect(full["markup"]?["jsonLD"] != nil && full["markup"]?["links"] != nil)
        page.fetch = nil
        page.location = .file("index.html")
        #expect(page.json(includingMarkup: false)["status"] == nil)
        #expect(page.json(includingMarkup: false)["file"] == "index.html")
    }

    @Test("provenance is kept as the reports show it: a long value once, in the attribute set")
    func longProvenanceValuesAreShortened() throws {
        let long = String(repeating: "x", count: 5_000)
        let html = #"<html><head><meta property="og:title" content="\#(long)"></head></html>"#
        let markup = MarkupExtractor().extract(html: Array(html.utf8), url: "https://www.example.com/")
        let analysis = MarkupAnalysis(
            attributes: AttributeSetBuilder().build(markup), summary: MarkupSummary(markup), failingConditions: [])
        #expect(analysis.attributes.attributeSet.title == long)
        let shown = try #require(analysis.attributes.provenance(of: "title")?.chosen.value)
        #expect(shown.count < 1_100 && shown.hasPrefix("xxx"))
    }
}
