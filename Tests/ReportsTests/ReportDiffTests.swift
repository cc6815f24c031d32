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
