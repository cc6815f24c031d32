import Foundation
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
            universalLinks: [AssociationFileSummary(url: "https://a.example/.well-known/apple-app-site-association")],
            coverage: coverage)
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

    /// The crawl store keeps each association file's summary as the JSON text `json` writes, as
    /// earlier versions did: that text decodes (Codable) and encodes back to the same text.
    @Test(
        "an association file's summary: stored text, typed value and report.json member agree",
        arguments: [
            #"{"url":"https://a.example/.well-known/apple-app-site-association","status":null,"error":"timeout: no answer","configuredAppIDs":["ABCDE12345.com.example.app"],"usable":false}"#,
            #"{"url":"https://a.example/.well-known/apple-app-site-association","status":200,"contentType":"application/json","bytes":512,"onlyAtRootPath":false,"notApplicable":[{"rule":"UL004","reason":"served on loopback"}],"apps":["ABCDE12345.com.example.app"],"configuredAppIDs":[],"usable":true}"#,
            #"{"url":"https://a.example/.well-known/apple-app-site-association","status":404,"contentType":null,"bytes":0,"onlyAtRootPath":false,"notApplicable":[],"configuredAppIDs":[],"usable":false}"#,
        ])
    func associationFileSummary(stored: String) throws {
        let summary = try JSONDecoder().decode(AssociationFileSummary.self, from: Data(stored.utf8))
        #expect(JSONValue.object(summary.json).serialized(pretty: false) == stored)
    }

    @Test("a stored association-file summary needs only its url; one without it is an error")
    func associationFileSummaryMembers() throws {
        let bare = try JSONDecoder().decode(
            AssociationFileSummary.self, from: Data(#"{"url":"https://a.example/x"}"#.utf8))
        #expect(bare == AssociationFileSummary(url: "https://a.example/x"))
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(AssociationFileSummary.self, from: Data(#"{"status":200}"#.utf8))
        }
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
