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
        let summary = try #require(report["summary"])

        // Each page once: a collapsed details element whose summary is its row in the list, most
        // severe first (errors, then warnings, then info, then by number), its anchor its number.
        let details = audit.tags.filter { $0.name == "details" && $0.attributes.contains { $0 == ("class", "page") } }
        #expect(details.count == pages.count)
        func order(_ index: Int) -> (Int, Int, Int, Int) {
            let levels = (pages[index]["findings"]?.arrayValue ?? []).compactMap { $0["severity"]?.stringValue }
            let count = { (level: String) in -levels.filter { $0 == level }.count }
            return (count("error"), count("warning"), count("info"), index)
        }
        let listed = pages.indices.sorted { order($0) < order($1) }
        let ids = details.map { $0.attributes.first { $0.name == "id" }?.value ?? "" }
        #expect(ids == listed.map { "p-\($0 + 1)" })
        for (id, index) in zip(ids, listed) {
            #expect(html.contains("<details class=\"page\" id=\"\(id)\" data-n=\"\(index + 1)\""))
            #expect(html.contains("<summary><span class=\"c-n\">\(index + 1)</span>"))
        }
        let candidates = details.filter { $0.attributes.contains { $0 == ("data-candidate", "yes") } }.count
        #expect(candidates == report["summary"]?["candidates"]?.intValue)
        // The rule filter offers every rule a page finding names, each with its title.
        let rules = Set(pages.flatMap { $0["findings"]?.arrayValue ?? [] }.compactMap { $0["rule"]?.stringValue })
        let ruleOptions = audit.tags.filter { $0.name == "option" }.compactMap { $0.attributes.first?.value }
        #expect(!rules.isEmpty && rules.isSubset(of: Set(ruleOptions)))
        #expect(
            html.contains("(2) &lt;script type=&quot;application/ld+json&quot;&gt; body is not valid JSON.</option>"))
        for rule in rules {
            #expect(html.contains("<b>\(rule)</b> <span class=\"rtitle\">"), "the rules table titles \(rule)")
        }

        // Every in-report link has its anchor.
        let anchors = Set(audit.tags.compactMap { $0.attributes.first { $0.name == "id" }?.value })
        let fragments = Set(
            audit.tags.compactMap { $0.attributes.first { $0.name == "href" }?.value }.filter { $0.hasPrefix("#") })
        #expect(fragments.count > 20)
        #expect(fragments.filter { !anchors.contains(String($0.dropFirst())) }.isEmpty)

        // Fix first: the error rules as report.json has them, the rule on most pages first, with
        // how many pages (and site findings) each.
        var errorPages: [String: Set<String>] = [:]
        var errorFindings: [String: Int] = [:]
        var siteErrors: [String: Int] = [:]
        for page in pages {
            for finding in page["findings"]?.arrayValue ?? [] where finding["severity"]?.stringValue == "error" {
                let rule = finding["rule"]?.stringValue ?? ""
                errorPages[rule, default: []].insert(page["url"]?.stringValue ?? "")
                errorFindings[rule, default: 0] += 1
            }
        }
        for finding in report["siteFindings"]?.arrayValue ?? [] where finding["severity"]?.stringValue == "error" {
            let rule = finding["rule"]?.stringValue ?? ""
            siteErrors[rule, default: 0] += 1
            errorFindings[rule, default: 0] += 1
        }
        let expectedOrder = errorFindings.keys.sorted { a, b in
            let reach = { (rule: String) in (errorPages[rule]?.count ?? 0) + (siteErrors[rule] ?? 0) }
            if reach(a) != reach(b) { return reach(a) > reach(b) }
            let (countA, countB) = (errorFindings[a] ?? 0, errorFindings[b] ?? 0)
            return countA != countB ? countA > countB : a < b
        }
        let fixFirst =
            html.components(separatedBy: "<section id=\"fix-first\">").last?
            .components(separatedBy: "</section>").first ?? ""
        let shownOrder = fixFirst.components(separatedBy: "id=\"fix-").dropFirst().map {
            String($0.prefix { $0 != "\"" })
        }
        #expect(shownOrder == expectedOrder)
        let errors = summary["findings"]?["error"]?.intValue ?? -1
        #expect(fixFirst.contains("\(errors) errors of \(expectedOrder.count) rules"))
        #expect(errorFindings.values.reduce(0, +) == errors)
        for rule in expectedOrder {
            let row =
                fixFirst.components(separatedBy: "id=\"fix-\(rule)\"").last?.components(separatedBy: "</tr>").first
                ?? ""
            if let pageCount = errorPages[rule]?.count {
                #expect(row.contains(">\(pageCount) page\(pageCount == 1 ? "" : "s")</a>"), "\(rule)")
            }
            if let site = siteErrors[rule] {
                #expect(row.contains(">\(site) site finding\(site == 1 ? "" : "s")</a>"), "\(rule)")
            }
            #expect(row.contains("<span class=\"rtitle\">"), "\(rule) has its title")
        }

        // SD001's excerpt is the broken line, not the <script> tag.
        let sd001 = pages.flatMap { $0["findings"]?.arrayValue ?? [] }.filter { $0["rule"]?.stringValue == "SD001" }
        #expect(sd001.map { $0["line"]?.intValue } == [52, 61])
        #expect(sd001.first?["excerpt"]?.stringValue == "},")
        #expect(html.contains("<span class=\"line\">line 52, column 4</span>"))
        #expect(html.contains("<pre class=\"excerpt\"><code>},</code></pre>"))
        #expect(!html.contains("<code>&lt;script type=&quot;application/ld+json&quot;&gt; (line"))

        // Where the pages came from: the folder, not the embedded server's loopback address.
        #expect(html.contains("pages from the folder "))
        #expect(!html.contains("fetched from http://127.0.0.1"))

        // The overview: tiles from the summary, the charts, the app and coverage.
        #expect(html.contains("<span class=\"n\">\(pages.count)</span> <span class=\"l\">pages</span>"))
        #expect(
            html.contains(
                "<span class=\"n\">\(summary["findings"]?["error"]?.intValue ?? -1)</span> <span class=\"l\">\u{2716} errors</span>"
            ))
        #expect(audit.tags.filter { $0.name == "svg" }.count >= 4)
        #expect(html.contains("<code>ABCDE12345.com.example.familycinema</code>"))
        #expect(html.contains("Not crawled: <b>robots</b>"))
        // Call and Directions on the office page; stars on a rated movie.
        #expect(html.contains("Directions 37.78253, -122.39367"))
        #expect(html.contains("\u{2605}\u{2605}\u{2605}\u{2605}\u{2606}</span> 4.4 · 142 ratings"))

        // `report STORE --format html` writes the same page list again from the store.
        let again = try await runProcess(
            executable, ["report", folder, "--output", folder + "-again", "--format", "html"])
        #expect(again.status == 0, "\(again.output)")
        let rewritten = try String(contentsOfFile: folder + "-again/index.html", encoding: .utf8)
        #expect(
            HTMLAudit(rewritten).tags.filter { $0.name == "details" }.count
                == audit.tags.filter { $0.name == "details" }.count)
    }
}
