import Foundation
import LenientJSON
import SpotCheckTestSupport
import Testing

/// The fixture site crawled with `--format json,html`: index.html follows report.json, and the
/// hostile fixture page (Fixtures/html/broken/hostile.html: script tags, attribute injection and
/// javascript: URLs in every field) comes out as text only.
@Suite("HTML report of the fixture crawl", .serialized)
struct HTMLReportEndToEndTests {
    @Test func theFixtureCrawlsHTMLReportShowsEveryPageAndEscapesTheHostileOne() async throws {
        let executable = try spotcheckExecutable()
        let folder = try temporaryFolder("html-report")
        let run = try await runProcess(
            executable,
            [
                "crawl", TestSite.fixtureRoot, "--output", folder, "--quiet", "--app-id", "1234567890", "--app",
                "ABCDE12345.com.example.familycinema", "--format", "json,html",
            ])
        #expect(run.status == 0, "\(run.output)")
        let html = try String(contentsOfFile: folder + "/index.html", encoding: .utf8)
        let report = try #require(
            JSONParser.parse(try String(contentsOfFile: folder + "/report.json", encoding: .utf8), lenient: false)
                .value)
        let pages = try #require(report["pages"]?.arrayValue)
        let audit = HTMLAudit(html)

        // Nothing but the report's own markup, hostile page included.
        #expect(audit.problems == [])
        #expect(html.components(separatedBy: "<script").count - 1 == 1)
        #expect(!html.lowercased().contains("href=\"javascript:"))
        #expect(!html.lowercased().contains("src=\"javascript:"))
        #expect(html.contains(#"<code>javascript:alert(1)//&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;</code>"#))
        #expect(html.contains("&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(html.contains("&lt;img src=x onerror=alert(&#39;director&#39;)&gt;"))
        #expect(html.contains("content=\"default-src 'none'"))

        // A row and a collapsed details element per page, in report order.
        let rows = audit.tags.filter { $0.name == "tr" && $0.attributes.contains { $0.name == "data-candidate" } }
        #expect(rows.count == pages.count)
        let details = audit.tags.filter { $0.name == "details" && $0.attributes.contains { $0 == ("class", "page") } }
        #expect(details.map { $0.attributes.first { $0.name == "id" }?.value } == pages.indices.map { "p-\($0)" })
        let candidates = rows.filter { $0.attributes.contains { $0 == ("data-candidate", "yes") } }.count
        #expect(candidates == report["summary"]?["candidates"]?.intValue)
        // The rule filter offers every rule a page finding names.
        let rules = Set(pages.flatMap { $0["findings"]?.arrayValue ?? [] }.compactMap { $0["rule"]?.stringValue })
        let ruleOptions = audit.tags.filter { $0.name == "option" }.compactMap { $0.attributes.first?.value }
        #expect(!rules.isEmpty && rules.isSubset(of: Set(ruleOptions)))

        // The overview: tiles from the summary, the charts, the app and coverage.
        let summary = try #require(report["summary"])
        #expect(html.contains("<span class=\"n\">\(pages.count)</span> <span class=\"l\">pages</span>"))
        #expect(
            html.contains(
                "<span class=\"n\">\(summary["findings"]?["error"]?.intValue ?? -1)</span> <span class=\"l\">errors</span>"
            ))
        #expect(audit.tags.filter { $0.name == "svg" }.count >= 4)
        #expect(html.contains("<code>ABCDE12345.com.example.familycinema</code>"))
        #expect(html.contains("Not crawled: <b>robots</b>"))
        // Call and Directions on the office page; stars on a rated movie.
        #expect(html.contains("Directions 37.78253, -122.39367"))
        #expect(html.contains("\u{2605}\u{2605}\u{2605}\u{2605}\u{2606}</span> 4.4 · 142 ratings"))

        // `report STORE --format html` writes the same page table again from the store.
        let again = try await runProcess(
            executable, ["report", folder, "--output", folder + "-again", "--format", "html"])
        #expect(again.status == 0, "\(again.output)")
        let rewritten = try String(contentsOfFile: folder + "-again/index.html", encoding: .utf8)
        #expect(
            HTMLAudit(rewritten).tags.filter { $0.name == "details" }.count
                == audit.tags.filter { $0.name == "details" }.count)
    }
}
