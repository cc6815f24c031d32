public import LenientJSON

/// What changed between two reports (`report.json` of `crawl` or `validate`): pages added and
/// removed, findings fixed and new, attribute-set fields changed, candidates gained and lost.
/// Pages are matched by URL; findings by page, rule and excerpt (messages may carry values that
/// change while the problem stays).
public struct ReportDiff: Sendable {
    public struct FindingKey: Sendable, Hashable, Comparable {
        public var url: String
        public var rule: String
        public var excerpt: String

        public static func < (lhs: FindingKey, rhs: FindingKey) -> Bool {
            (lhs.url, lhs.rule, lhs.excerpt) < (rhs.url, rhs.rule, rhs.excerpt)
        }
    }

    public struct FieldChange: Sendable, Hashable {
        public var url: String
        public var field: String
        public var old: JSONValue?
        public var new: JSONValue?
    }

    public var pagesAdded: [String] = []
    public var pagesRemoved: [String] = []
    public var findingsFixed: [FindingKey] = []
    public var findingsNew: [FindingKey] = []
    public var fieldsChanged: [FieldChange] = []
    public var candidatesGained: [String] = []
    public var candidatesLost: [String] = []

    public var isEmpty: Bool {
        pagesAdded.isEmpty && pagesRemoved.isEmpty && findingsFixed.isEmpty && findingsNew.isEmpty
            && fieldsChanged.isEmpty && candidatesGained.isEmpty && candidatesLost.isEmpty
    }

    public init(old: JSONValue, new: JSONValue) {
        let oldPages = Self.pages(old)
        let newPages = Self.pages(new)
        pagesAdded = newPages.keys.filter { oldPages[$0] == nil }.sorted()
        pagesRemoved = oldPages.keys.filter { newPages[$0] == nil }.sorted()

        let oldFindings = Self.findings(old)
        let newFindings = Self.findings(new)
        findingsFixed = Self.subtract(oldFindings, newFindings)
        findingsNew = Self.subtract(newFindings, oldFindings)

        for url in newPages.keys.sorted() {
            guard let before = oldPages[url], let after = newPages[url] else { continue }
            let oldSet = Self.attributeSet(before)?.objectValue
            let newSet = Self.attributeSet(after)?.objectValue
            let fields = Set((oldSet?.members.map(\.key) ?? []) + (newSet?.members.map(\.key) ?? [])).sorted()
            for field in fields where oldSet?[field] != newSet?[field] {
                fieldsChanged.append(FieldChange(url: url, field: field, old: oldSet?[field], new: newSet?[field]))
            }
            switch (Self.isCandidate(before), Self.isCandidate(after)) {
            case (false?, true?), (nil, true?): candidatesGained.append(url)
            case (true?, false?), (true?, nil): candidatesLost.append(url)
            default: break
            }
        }
        for url in pagesAdded where Self.isCandidate(newPages[url]) == true { candidatesGained.append(url) }
        for url in pagesRemoved where Self.isCandidate(oldPages[url]) == true { candidatesLost.append(url) }
    }

    /// What the comparison reads of a report.json page (its URLs, findings, attribute set and
    /// candidacy), so a report pass can keep just that of each page for `--baseline`.
    public static func comparablePage(_ page: JSONObject) -> JSONValue {
        var kept = JSONObject()
        for key in ["url", "finalURL", "findings"] { if let value = page[key] { kept.append(key, value) } }
        let analysis = page["markup"] ?? .object(page)
        var markup = JSONObject()
        for key in ["attributeSet", "candidate"] { if let value = analysis[key] { markup.append(key, value) } }
        kept.append("markup", .object(markup))
        return .object(kept)
    }

    /// Pages by URL (`finalURL` for crawls, `url` for validate).
    static func pages(_ report: JSONValue) -> [String: JSONValue] {
        var pages: [String: JSONValue] = [:]
        for page in report["pages"]?.arrayValue ?? [] {
            if let url = page["finalURL"]?.stringValue ?? page["url"]?.stringValue { pages[url] = page }
        }
        return pages
    }

    static func attributeSet(_ page: JSONValue) -> JSONValue? {
        page["markup"]?["attributeSet"] ?? page["attributeSet"]
    }

    static func isCandidate(_ page: JSONValue?) -> Bool? {
        page?["markup"]?["candidate"]?["isCandidate"]?.boolValue
    }

    /// Every finding of the report, page-level and site-level, as keys (with repeats).
    static func findings(_ report: JSONValue) -> [FindingKey: Int] {
        var counts: [FindingKey: Int] = [:]
        var all: [JSONValue] = report["siteFindings"]?.arrayValue ?? []
        for page in report["pages"]?.arrayValue ?? [] { all += page["findings"]?.arrayValue ?? [] }
        for finding in all {
            let key = FindingKey(
                url: finding["url"]?.stringValue ?? "", rule: finding["rule"]?.stringValue ?? "",
                excerpt: finding["excerpt"]?.stringValue ?? "")
            counts[key, default: 0] += 1
        }
        return counts
    }

    static func subtract(_ a: [FindingKey: Int], _ b: [FindingKey: Int]) -> [FindingKey] {
        var result: [FindingKey] = []
        for (key, count) in a {
            let extra = count - (b[key] ?? 0)
            if extra > 0 { result += Array(repeating: key, count: extra) }
        }
        return result.sorted()
    }

    public var json: JSONValue {
        func keys(_ list: [FindingKey]) -> JSONValue {
            .array(list.map { ["url": .string($0.url), "rule": .string($0.rule), "excerpt": .string($0.excerpt)] })
        }
        var object = JSONObject()
        object.append("pagesAdded", .array(pagesAdded.map(JSONValue.string)))
        object.append("pagesRemoved", .array(pagesRemoved.map(JSONValue.string)))
        object.append("findingsFixed", keys(findingsFixed))
        object.append("findingsNew", keys(findingsNew))
        object.append(
            "fieldsChanged",
            .array(
                fieldsChanged.map {
                    [
                        "url": .string($0.url), "field": .string($0.field), "old": $0.old ?? .null,
                        "new": $0.new ?? .null,
                    ]
                }))
        object.append("candidatesGained", .array(candidatesGained.map(JSONValue.string)))
        object.append("candidatesLost", .array(candidatesLost.map(JSONValue.string)))
        return .object(object)
    }

    public var text: String {
        var lines: [String] = []
        func section(_ title: String, _ items: [String]) {
            guard !items.isEmpty else { return }
            lines.append("\(title) (\(items.count)):")
            lines += items.map { "  " + $0 }
        }
        section("pages added", pagesAdded)
        section("pages removed", pagesRemoved)
        section("findings fixed", findingsFixed.map { "\($0.rule) \($0.url)" })
        section("new findings", findingsNew.map { "\($0.rule) \($0.url)" })
        section(
            "attribute-set fields changed",
            fieldsChanged.map {
                "\($0.url) \($0.field): \($0.old?.serialized(pretty: false) ?? "(none)") → \($0.new?.serialized(pretty: false) ?? "(none)")"
            })
        section("candidates gained", candidatesGained)
        section("candidates lost", candidatesLost)
        return lines.isEmpty ? "no differences\n" : lines.joined(separator: "\n") + "\n"
    }
}
