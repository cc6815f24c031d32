import ReportModel
import Rulebook
import SpotlightModel

/// One page of the HTML report: the `PageReport` every output reads (a crawl's page or a
/// `validate` page alike), and its place in the report.
struct ReportPage: Sendable {
    /// The page's position in the report (0-based); it is shown as `number`.
    let index: Int
    let report: PageReport

    init(index: Int, report: PageReport) {
        self.index = index
        self.report = report
    }

    /// The number the report shows for the page (its position in report.json, from 1).
    var number: Int { index + 1 }

    /// `p-<number>`: the fragment matches the number on screen.
    var anchor: String { "p-\(number)" }

    /// The page list's order: most errors first, then most warnings, then most info, then by
    /// number.
    static func listedBefore(_ a: ReportPage, _ b: ReportPage) -> Bool {
        a.counts.listOrder(number: a.number) < b.counts.listOrder(number: b.number)
    }

    var url: String { report.url }

    var finalURL: String { report.finalURL }

    /// nil for a page read from a file (`validate`) or one without an HTTP answer.
    var status: Int? { report.fetch?.status }

    /// Seconds from request to the last byte, when the crawl measured it (report.json has no
    /// number for an infinite or NaN time, and neither does the report).
    var totalSeconds: Double? { report.fetch.map(\.timings.total).flatMap { $0.isFinite ? $0 : nil } }

    /// Why the page has no usable answer: `kind: message`.
    var problem: String? { report.fetch?.problem.map { "\($0.kind): \($0.message)" } }

    var redirectCount: Int { report.fetch?.redirects.count ?? 0 }

    var findings: [Finding] { report.findings }

    /// What the page pipeline made of the page; nil for a page that was not parsed.
    var analysis: MarkupAnalysis? { report.analysis }

    /// The attribute set; nil for a page that was not parsed.
    var attributeSet: AttributeSet? { analysis?.attributes.attributeSet }

    var provenance: [Provenance] { analysis?.attributes.provenance ?? [] }

    var deepLinks: [DeepLink] { analysis?.attributes.deepLinks ?? [] }

    /// The App Store IDs the page names (a `DeepLink` whose `url` is the ID).
    var appStoreIDs: [DeepLink] { analysis?.attributes.appStoreIDs ?? [] }

    /// The universal-link verdict for the canonical URL (crawl only).
    var universalLink: String? { analysis?.universalLink }

    /// nil when the page was not analysed.
    var isCandidate: Bool? { analysis?.isCandidate }

    var failingConditions: [CandidacyCondition] { analysis?.failingConditions ?? [] }

    var title: String? { attributeSet.flatMap { $0.title ?? $0.displayName } }

    /// Findings per severity.
    var counts: SeverityCounts { SeverityCounts(findings) }

    /// The rule IDs of the page's findings, once each, in order.
    var ruleIDs: [String] {
        var seen: Set<String> = []
        return findings.map(\.ruleID).filter { seen.insert($0).inserted }
    }
}

/// Findings counted by severity.
struct SeverityCounts: Sendable, Hashable {
    var error = 0
    var warning = 0
    var info = 0

    init(error: Int = 0, warning: Int = 0, info: Int = 0) {
        self.error = error
        self.warning = warning
        self.info = info
    }

    init(_ findings: [Finding]) {
        for finding in findings {
            switch finding.severity {
            case .error: error += 1
            case .warning: warning += 1
            case .info: info += 1
            }
        }
    }

    init(_ totals: FindingTotals) {
        self.init(error: totals.errors, warning: totals.warnings, info: totals.infos)
    }

    var total: Int { error + warning + info }

    /// The most severe level present, or `none`.
    var worst: String { error > 0 ? "error" : warning > 0 ? "warning" : info > 0 ? "info" : "none" }

    /// The sort key of the page list: more severe pages first, then by number.
    func listOrder(number: Int) -> ListOrder {
        ListOrder(error: -error, warning: -warning, info: -info, number: number)
    }

    struct ListOrder: Comparable, Sendable {
        let error: Int
        let warning: Int
        let info: Int
        let number: Int

        static func < (a: ListOrder, b: ListOrder) -> Bool {
            (a.error, a.warning, a.info, a.number) < (b.error, b.warning, b.info, b.number)
        }
    }

    /// The levels present, space-separated (for `data-severities`).
    var present: String {
        [("error", error), ("warning", warning), ("info", info)].filter { $0.1 > 0 }.map(\.0).joined(separator: " ")
    }
}
