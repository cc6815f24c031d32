import LenientJSON

/// One page of a `report.json`, as the HTML report shows it. Reads both shapes: a crawl's page
/// (the analysis under `markup`) and a `validate` page (the analysis at the top level).
struct ReportPage: Sendable {
    /// The page's position in the report (0-based); it is shown as `number`.
    let index: Int
    let json: JSONValue
    /// The page analysis: `markup` of a crawl page, the page itself for `validate`.
    let analysis: JSONValue

    init(index: Int, json: JSONValue) {
        self.index = index
        self.json = json
        self.analysis = json["markup"] ?? json
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

    var url: String { json["url"]?.stringValue ?? json["file"]?.stringValue ?? "(page \(index + 1))" }

    var finalURL: String { json["finalURL"]?.stringValue ?? url }

    var status: Int? { json["status"]?.intValue }

    /// Seconds from request to the last byte, when the crawl measured it.
    var totalSeconds: Double? { json["timings"]?["total"]?.numberValue }

    var problem: String? {
        guard let problem = json["problem"] else { return nil }
        return [problem["kind"]?.stringValue, problem["message"]?.stringValue].compactMap { $0 }.joined(
            separator: ": ")
    }

    var findings: [JSONValue] { json["findings"]?.arrayValue ?? [] }

    var attributeSet: JSONObject { analysis["attributeSet"]?.objectValue ?? JSONObject() }

    var provenance: [JSONValue] { analysis["provenance"]?.arrayValue ?? [] }

    var deepLinks: [JSONValue] { analysis["deepLinks"]?.arrayValue ?? [] }

    var appStoreIDs: [JSONValue] { analysis["appStoreIDs"]?.arrayValue ?? [] }

    /// The universal-link verdict for the canonical URL (crawl only).
    var universalLink: String? { analysis["universalLink"]?.stringValue }

    /// nil when the report does not say (a page that was not parsed, or `validate`).
    var isCandidate: Bool? { analysis["candidate"]?["isCandidate"]?.boolValue }

    var failingConditions: [String] {
        analysis["candidate"]?["failing"]?.arrayValue?.compactMap(\.stringValue) ?? []
    }

    var title: String? { attributeSet["title"]?.stringValue ?? attributeSet["displayName"]?.stringValue }

    /// Findings per severity.
    var counts: SeverityCounts { SeverityCounts(findings) }

    /// The rule IDs of the page's findings, once each, in order.
    var ruleIDs: [String] {
        var seen: Set<String> = []
        return findings.compactMap { $0["rule"]?.stringValue }.filter { seen.insert($0).inserted }
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

    init(_ findings: [JSONValue]) {
        for finding in findings {
            switch finding["severity"]?.stringValue {
            case "error": error += 1
            case "warning": warning += 1
            case "info": info += 1
            default: break
            }
        }
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
