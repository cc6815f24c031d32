import LenientJSON
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
    static let report: JSONValue = [
        "kind": "crawl",
        "pages": [
            ["url": "https://a/1", "finalURL": "https://a/1", "findings": []],
            ["url": "https://a/2", "finalURL": "https://a/2", "findings": []],
        ],
        "siteFindings": [],
        "linking": ["links": [["entry": "<movie-1>", "page": "https://a/1", "key": "contentURL"]]],
    ]

    @Test func pagesSayWhetherALocalItemLinksThem() {
        let html = HTMLReport(report: Self.report).html
        #expect(html.contains(#"<select name="linked">"#))
        #expect(html.components(separatedBy: #"data-linked="yes""#).count == 2)
        #expect(html.components(separatedBy: #"data-linked="no""#).count == 2)
        #expect(html.contains("<code>&lt;movie-1&gt;</code> by contentURL"))
        #expect(!html.contains("<movie-1>"))
    }

    @Test func withoutLinkingThereIsNoFilter() {
        var object = Self.report.objectValue ?? JSONObject()
        _ = object.removeValue(forKey: "linking")
        let html = HTMLReport(report: .object(object)).html
        #expect(!html.contains(#"name="linked""#))
        #expect(!html.contains("data-linked"))
    }

    @Test func theBaselineSectionListsTheChanges() {
        var report = HTMLReport(report: Self.report)
        report.baseline = ReportDiff(old: ["pages": []], new: Self.report)
        let html = report.html
        #expect(html.contains("Changes since the baseline"))
        #expect(html.contains("Pages added (2)"))
    }
}
