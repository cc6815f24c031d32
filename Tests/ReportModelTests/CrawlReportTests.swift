import LenientJSON
import ReportModel
import Rulebook
import Testing

/// report.json around the pages: its keys in the documented order, counts in key order.
@Suite("CrawlReport")
struct CrawlReportTests {
    @Test("the header and the tail are report.json's members before and after the pages, in order")
    func membersInOrder() {
        var summary = CrawlSummary()
        summary.pages = 3
        summary.byStatus = ["404": 1, "200": 2]
        summary.findings.errors = 1
        summary.findings.byRule = ["SAB002": 1]
        var coverage = CrawlCoverage()
        coverage.skipped = [SkippedLink(url: "https://a.example/x", reason: "robots", detail: "disallowed")]
        let report = CrawlReport(
            generatedAt: "2026-11-29T16:00:00Z",
            crawl: CrawlRunFacts(seed: "https://a.example/", generation: 2, startedAt: "2026-11-29T15:59:00Z"),
            summary: summary,
            siteFindings: [
                Finding(
                    rule: .sab002, severity: .error, url: "https://a.example/", line: 0, excerpt: "", message: "m",
                    fixHint: "f")
            ],
            universalLinks: [["url": "https://a.example/.well-known/apple-app-site-association"]], coverage: coverage)
        #expect(
            report.header.members.map(\.key) == ["tool", "kind", "schemaVersion", "generatedAt", "crawl", "summary"])
        #expect(report.header["schemaVersion"] == JSONValue(ReportFormat.schemaVersion))
        #expect(report.header["crawl"]?["finishedAt"] == .null)
        #expect(report.header["summary"]?["byStatus"]?.objectValue?.members.map(\.key) == ["200", "404"])
        #expect(
            report.header["summary"]?["findings"] == ["error": 1, "warning": 0, "info": 0, "byRule": ["SAB002": 1]])
        #expect(report.tail.members.map(\.key) == ["siteFindings", "universalLinks", "coverage"])
        #expect(report.tail["coverage"]?["skipped"]?[0]?["foundOn"] == nil)
        #expect(report.jsonWithoutPages.members.count == 9)
    }

    @Test("the local-item linking is typed and written as report.json's linking, after the site findings")
    func linkingInOrder() {
        var report = CrawlReport(
            generatedAt: "2026-11-29T16:00:00Z", crawl: CrawlRunFacts(seed: "https://a.example/", generation: 1),
            summary: CrawlSummary())
        report.linking = LocalItemLinking(
            links: [LocalItemLink(entry: "movie-1", page: "https://a.example/1", key: "contentURL")],
            unmatched: [UnmatchedEntry(entry: "movie-2", reason: "no page has its URL")],
            pagesWithoutEntries: ["https://a.example/3"])
        #expect(report.tail.members.map(\.key) == ["siteFindings", "linking", "universalLinks", "coverage"])
        #expect(
            report.tail["linking"]
                == [
                    "links": [["entry": "movie-1", "page": "https://a.example/1", "key": "contentURL"]],
                    "unmatched": [["entry": "movie-2", "reason": "no page has its URL"]],
                    "pagesWithoutEntries": ["https://a.example/3"],
                ])
        #expect(
            report.tail["linking"]?.objectValue?.members.map(\.key) == ["links", "unmatched", "pagesWithoutEntries"])
    }

    @Test("a served folder's crawl names the folder from its stored settings")
    func sourceFolder() {
        #expect(
            CrawlRunFacts(seed: "http://127.0.0.1:1/", generation: 1, settings: ["source": "/srv/site"]).sourceFolder
                == "/srv/site")
        #expect(CrawlRunFacts(seed: "https://a.example/", generation: 1).sourceFolder == nil)
    }
}
