import Foundation
import LenientJSON
import MarkupExtraction
import PageAnalysis
import Rulebook
import Testing
import Verification

@Suite("Validation report")
struct ValidationReportTests {
    static let date = Date(timeIntervalSince1970: 1_714_557_600)  // 2024-05-01T10:00:00Z

    static func report() -> ValidationRun {
        var analyzer = PageAnalyzer()
        // The Smart App Banner rules only: these pages test the report, not the other groups.
        let others = RuleCatalogue.all.filter { $0.group != "SAB" }.map { ($0.id, RuleConfiguration.Setting.off) }
        analyzer.verifier = PageVerifier(
            configuration: RuleConfiguration(settings: Dictionary(uniqueKeysWithValues: others)))
        var report = ValidationRun(arguments: ["Fixtures/html"], generatedAt: date)
        report.pages = [
            analyzer.analyze(
                html: Array(
                    #"<html><head><meta name="apple-itunes-app" content="app-id=1, app-argument=https://x/a"><script type="application/ld+json">[{"@type": "A"}, {"@type": "B",}]</script></head></html>"#
                        .utf8),
                input: PageInput(path: "a.html", url: "https://www.example.com/a.html")),
            analyzer.analyze(
                html: Array(
                    #"<html><head><title>B</title><script type="application/ld+json">nope</script><script type="application/ld+json">{}</script></head></html>"#
                        .utf8),
                input: PageInput(path: "b.html", url: "https://www.example.com/b.html")),
        ]
        report.problems = [InputProblem(.binary, path: "logo.html", message: "is binary (PNG image), not HTML")]
        return report
    }

    @Test("json has the tool, schemaVersion, time, inputs and summary counts")
    func summary() throws {
        let json = Self.report().json
        #expect(json["tool"] == "spotcheck")
        #expect(json["kind"] == "validate")
        #expect(json["schemaVersion"] == 3)
        #expect(json["generatedAt"] == "2024-05-01T10:00:00Z")
        #expect(json["inputs"] == ["Fixtures/html"])
        #expect(
            json["summary"] == [
                "pages": 2, "problems": 1, "ignored": 0, "pagesWithSmartAppBanner": 1, "pagesWithDeepLink": 1,
                "jsonLDScripts": 3,
                "extractionDiagnostics": 2, "findings": ["error": 0, "warning": 0, "info": 1],
            ])
        // app-id=1 has one digit: SAB004 (info), with its line and fix.
        let finding = json["pages"]?[0]?["findings"]?[0]
        #expect(finding?["rule"] == "SAB004")
        #expect(finding?["line"] == 1)
        #expect(finding?["fix"]?.stringValue?.isEmpty == false)
        #expect(json["pages"]?[1]?["findings"] == [])
        #expect(
            json["problems"] == [["file": "logo.html", "code": "binary", "message": "is binary (PNG image), not HTML"]])
    }

    @Test("each page has a crawl page's shape: URL, file, findings, and the analysis and extract contract under markup")
    func pages() throws {
        let pages = try #require(Self.report().json["pages"]?.arrayValue)
        #expect(pages.count == 2)
        let first = try #require(pages.first?.objectValue)
        #expect(first["file"] == "a.html")
        #expect(first["url"] == "https://www.example.com/a.html")
        #expect(first["finalURL"] == "https://www.example.com/a.html")
        #expect(first["status"] == nil, "a file has no fetch facts")
        let markup = try #require(first["markup"]?.objectValue)
        #expect(markup["jsonLD"] == [["@type": "A"], ["@type": "B"]])
        #expect(markup["smartAppBanner"]?["appID"] == "1")
        #expect(markup["uniqueIdentifier"] == "https://www.example.com/a.html")
        #expect(markup["deepLinks"]?[0]?["url"] == "https://x/a")
        #expect(markup["appStoreIDs"]?[0]?["id"] == "1")
        for key in ["attributeSet", "provenance", "candidate", "openGraph", "microdata", "rdfa", "diagnostics"] {
            #expect(markup.contains(key: key), "markup key \(key)")
        }
        #expect(pages[1]["markup"]?["title"] == "B")
        #expect(pages[1]["markup"]?["attributeSet"]?["title"] == "B")
    }

    @Test("write(into:) creates the folder and a report.json that parses back to the same JSON")
    func write() throws {
        let folder = try TemporaryFolder()
        let target = folder.path + "/nested/out"
        let report = Self.report()
        let path = try report.write(into: target)
        #expect(path == target + "/report.json")
        let data = try #require(FileManager.default.contents(atPath: path))
        let parsed = JSONParser.parse([UInt8](data), lenient: false)
        #expect(parsed.isStrictlyValid)
        #expect(parsed.value == report.json)
    }

    @Test("default folder: reports/<safe name>-<compact UTC time>")
    func defaultFolder() {
        #expect(
            ValidationRun.defaultFolder(name: "Fixtures html/ä", date: Self.date)
                == "reports/Fixtures-html-ä-20240501T100000Z")
        #expect(
            ValidationRun.defaultFolder(root: "out", name: "", date: Date(timeIntervalSince1970: 0))
                == "out/pages-19700101T000000Z")
    }

    @Test("an analysed file with a NUL byte after the first 8 KB keeps the markup that follows it")
    func lateNULByte() throws {
        let folder = try TemporaryFolder()
        let html =
            Array("<html><head><!-- \(String(repeating: "x", count: 9000)) -->".utf8) + [0]
            + Array(#"<meta property="og:title" content="After"><title>T</title></head></html>"#.utf8)
        let path = try folder.write("late-nul.html", bytes: html)
        let result = PageAnalyzer().analyze(PageInput(path: path, url: "https://www.example.com/late-nul.html"))
        let page = try result.get()
        #expect(page.markup.openGraphValue("og:title")?.content == "After")
        #expect(!page.markup.diagnostics.isEmpty)
    }
}

@Suite("validate over a folder: the site-level rules (issue 13 §3)")
struct ValidationSiteRuleTests {
    @Test("four pages titled the same with one image: CT014 and CT008 in siteFindings and report.json")
    func crossPageRulesFire() throws {
        let folder = try TemporaryFolder()
        for index in 1...4 {
            try folder.write(
                "rtl-\(index).html",
                """
                <!DOCTYPE html><html dir="rtl"><head><meta charset="utf-8"><title>RTL Test</title>
                <meta property="og:image" content="https://www.example.com/default.png"></head>
                <body><main><article><h1>Lorem \(index)</h1></article></main></body></html>
                """)
        }
        var analyzer = PageAnalyzer()
        analyzer.verifier = PageVerifier()
        let report = PageValidation(analyzer: analyzer, baseURL: "https://www.example.com/", jobs: 2).run([folder.path])
        #expect(report.pages.count == 4)
        #expect(report.siteFindings.map(\.ruleID) == ["CT008", "CT014"])
        #expect(report.siteFindings.first { $0.ruleID == "CT014" }?.message.contains("is on 4 pages") == true)
        let listed = report.json["siteFindings"]?.arrayValue?.compactMap { $0["rule"]?.stringValue }
        #expect(listed == ["CT008", "CT014"])
    }
}
