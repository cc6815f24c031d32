import LenientJSON
import ReportModel
import Reports
import Testing

@Suite("Report diffs")
struct ReportDiffTests {
    static func page(_ url: String, title: String, candidate: Bool, findings: [String]) -> JSONValue {
        [
            "url": .string(url), "finalURL": .string(url),
            "findings": .array(
                findings.map { ["rule": .string($0), "url": .string(url), "excerpt": "x", "message": "m"] }),
            "markup": ["attributeSet": ["title": .string(title)], "candidate": ["isCandidate": JSONValue(candidate)]],
        ]
    }

    static let old: JSONValue = [
        "pages": [
            page("https://a/1", title: "One", candidate: true, findings: ["CT003"]),
            page("https://a/2", title: "Two", candidate: false, findings: ["CT002", "DL001"]),
            page("https://a/gone", title: "Gone", candidate: true, findings: []),
        ],
        "siteFindings": [["rule": "CT014", "url": "https://a/1", "excerpt": "One"]],
    ]

    static let new: JSONValue = [
        "pages": [
            page("https://a/1", title: "One, renamed", candidate: true, findings: ["CT003"]),
            page("https://a/2", title: "Two", candidate: true, findings: ["SAB007"]),
            page("https://a/3", title: "Three", candidate: true, findings: []),
        ],
        "siteFindings": [],
    ]

    @Test func everyKindOfChangeIsFound() {
        let diff = ReportDiff(old: Self.old, new: Self.new)
        #expect(diff.pagesAdded == ["https://a/3"])
        #expect(diff.pagesRemoved == ["https://a/gone"])
        #expect(Set(diff.findingsFixed.map(\.rule)) == ["CT014", "CT002", "DL001"])
        #expect(diff.findingsNew.map(\.rule) == ["SAB007"])
        #expect(diff.fieldsChanged.map(\.field) == ["title"])
        #expect(diff.fieldsChanged.first?.new == "One, renamed")
        #expect(Set(diff.candidatesGained) == ["https://a/2", "https://a/3"])
        #expect(diff.candidatesLost == ["https://a/gone"])
        #expect(!diff.isEmpty)
    }

    @Test func aReportDoesNotDifferFromItself() {
        let diff = ReportDiff(old: Self.new, new: Self.new)
        #expect(diff.isEmpty)
        #expect(diff.text == "no differences\n")
    }
}

@Suite("HTML report: linked local items and the baseline")
struct HTMLLinkingTests {
    /// Two fixture pages at https://a/1 and https://a/2, the first linked to a local entry.
    static var pages: [PageReport] {
        ["movies/up.html", "about.html"].enumerated().map { index, path in
            var page = FixturePages.crawled(path)
            page.url = "https://a/\(index + 1)"
            page.finalURL = page.url
            return page
        }
    }

    static var crawl: CrawlReport {
        var report = FixturePages.crawlReport(pages)
        report.linking = LocalItemLinking(
            links: [LocalItemLink(entry: "<movie-1>", page: "https://a/1", key: "contentURL")])
        return report
    }

    /// The pages as report.json has them, for the comparison with an earlier report.
    static var reportJSON: JSONValue {
        ["pages": .array(pages.map { .object($0.json(includingMarkup: false)) }), "siteFindings": []]
    }

    @Test func pagesSayWhetherALocalItemLinksThem() {
        let html = HTMLReport(crawl: Self.crawl, pages: Self.pages).html
        #expect(html.contains(#"<select name="linked">"#))
        #expect(html.components(separatedBy: #"data-linked="yes""#).count == 2)
        #expect(html.components(separatedBy: #"data-linked="no""#).count == 2)
        #expect(html.contains("<code>&lt;movie-1&gt;</code> by contentURL"))
        #expect(!html.contains("<movie-1>"))
    }

    @Test func withoutLinkingThereIsNoFilter() {
        var crawl = Self.crawl
        crawl.linking = nil
        let html = HTMLReport(crawl: crawl, pages: Self.pages).html
        #expect(!html.contains(#"name="linked""#))
        #expect(!html.contains("data-linked"))
    }

    @Test func theBaselineSectionListsTheChanges() {
        var report = HTMLReport(crawl: Self.crawl, pages: Self.pages)
        report.baseline = ReportDiff(old: ["pages": []], new: Self.reportJSON)
        let html = report.html
        #expect(html.contains("Changes since the baseline"))
        #expect(html.contains("Pages added (2)"))
    }
}
