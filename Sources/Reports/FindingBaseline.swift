import Foundation
public import LenientJSON
public import ReportModel
public import Rulebook

/// The findings a project has accepted (`--baseline`), by fingerprint and count: what a run finds
/// again is suppressed — out of the console listing, `--fail-on`, JUnit's failures, and marked in
/// SARIF — and only new findings count. Read from a baseline file (`--write-baseline` writes one)
/// or from an earlier `report.json`, whose findings are the known set (and which is also compared
/// page by page, `ReportDiff`). The file format is documented in docs/cli.md.
public struct FindingBaseline: Sendable, Hashable {
    /// The `kind` of a baseline file.
    public static let kind = "baseline"
    /// The version of the file format (and of `FindingFingerprint`).
    public static let schemaVersion = 1

    /// One accepted finding: its fingerprint, what it is made of, and how many times it occurs.
    public struct Entry: Sendable, Hashable {
        public var fingerprint: FindingFingerprint
        public var rule: String
        /// The page key (`FindingFingerprint.pageKey`).
        public var page: String
        /// The normalised excerpt.
        public var excerpt: String
        /// For people reading the file; not part of the match.
        public var severity: String?
        public var message: String?
        public var count: Int

        public init(
            fingerprint: FindingFingerprint, rule: String, page: String, excerpt: String, severity: String? = nil,
            message: String? = nil, count: Int = 1
        ) {
            self.fingerprint = fingerprint
            self.rule = rule
            self.page = page
            self.excerpt = excerpt
            self.severity = severity
            self.message = message
            self.count = count
        }
    }

    /// What `--baseline` named.
    public enum Source: String, Sendable, Hashable {
        /// A baseline file (`--write-baseline`).
        case baselineFile = "baseline"
        /// An earlier `report.json` (or its crawl folder).
        case report
    }

    private var byFingerprint: [FindingFingerprint: Entry] = [:]
    /// The file it was read from (nil: made from findings).
    public var file: String?
    public var source: Source
    /// The `file://` URL (ending in `/`) file pages are named relative to: `validate` gives the
    /// working directory; nil for crawls (http(s) pages).
    public var sourceRoot: String?
    /// With `--baseline REPORT`: that report as `ReportDiff` compares it (each page's URLs,
    /// findings, attribute set and candidacy; the site findings), read before the run starts.
    public var earlierReport: JSONValue?

    /// The accepted findings made from a run's findings (`--write-baseline`), counted by fingerprint.
    public init(findings: [Finding] = [], sourceRoot: String? = nil) {
        self.init(entries: [], source: .baselineFile, sourceRoot: sourceRoot)
        add(findings)
    }

    public init(entries: [Entry], file: String? = nil, source: Source, sourceRoot: String? = nil) {
        self.file = file
        self.source = source
        self.sourceRoot = sourceRoot
        for entry in entries { add(entry) }
    }

    /// Adds findings (a run's, as they come: page by page, then the site's).
    public mutating func add(_ findings: [Finding]) {
        for finding in findings {
            let parts = FindingFingerprint.parts(of: finding, sourceRoot: sourceRoot)
            add(
                Entry(
                    fingerprint: FindingFingerprint(
                        rule: finding.ruleID, pageKey: parts.pageKey, normalisedExcerpt: parts.excerpt),
                    rule: finding.ruleID, page: parts.pageKey, excerpt: parts.excerpt,
                    severity: finding.severity.rawValue, message: finding.message))
        }
    }

    private mutating func add(_ entry: Entry) {
        if byFingerprint[entry.fingerprint] != nil {
            byFingerprint[entry.fingerprint]?.count += entry.count
        } else {
            byFingerprint[entry.fingerprint] = entry
        }
    }

    /// One entry per fingerprint, sorted by page, rule and fingerprint (as the file lists them).
    public var entries: [Entry] {
        byFingerprint.values.sorted { ($0.page, $0.rule, $0.fingerprint) < ($1.page, $1.rule, $1.fingerprint) }
    }

    /// How many findings it accepts (each entry's count).
    public var findingCount: Int { byFingerprint.values.reduce(0) { $0 + $1.count } }

    /// The counts by fingerprint, as a match consumes them.
    var counts: [FindingFingerprint: Int] { byFingerprint.mapValues(\.count) }

    // MARK: - The file

    /// The baseline file: `tool`, `kind` ("baseline"), `schemaVersion`, `fingerprint` (how
    /// fingerprints are made), and `findings` (one object per fingerprint: `fingerprint`, `rule`,
    /// `page`, `excerpt`, `count`, and `severity`, `message` for people). No timestamp, so a file
    /// written again from the same findings is the same file.
    public var json: JSONValue {
        var object = JSONObject()
        object.append("tool", "spotcheck")
        object.append("kind", .string(Self.kind))
        object.append("schemaVersion", JSONValue(Self.schemaVersion))
        object.append("fingerprint", "sha256(v1, rule, page, normalised excerpt), first 16 bytes as hex")
        object.append(
            "findings",
            .array(
                entries.map { entry in
                    var item = JSONObject()
                    item.append("fingerprint", .string(entry.fingerprint.value))
                    item.append("rule", .string(entry.rule))
                    item.append("page", .string(entry.page))
                    item.append("excerpt", .string(entry.excerpt))
                    item.append("count", JSONValue(entry.count))
                    if let severity = entry.severity { item.append("severity", .string(severity)) }
                    if let message = entry.message { item.append("message", .string(message)) }
                    return .object(item)
                }))
        return .object(object)
    }

    /// Writes the baseline file (atomically) to `path`.
    public func write(to path: String) throws(BaselineError) {
        try Self.checkWritable(path)
        do {
            try Data((json.serialized(pretty: true) + "\n").utf8).write(
                to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw BaselineError(path: path, message: "cannot be written (\(error.localizedDescription))")
        }
    }

    /// Throws unless a file can be written at `path`: its folder exists and is a folder, and
    /// `path` is not a folder (checked before a run starts, so a crawl is not wasted on it).
    public static func checkWritable(_ path: String) throws(BaselineError) {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
            throw BaselineError(
                path: path,
                message: "is a folder; name the baseline file to write, e.g. \(path)/spotcheck-baseline.json")
        }
        let parent = (path as NSString).deletingLastPathComponent
        let folder = parent.isEmpty ? "." : parent
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw BaselineError(path: path, message: "cannot be written: its folder \(folder) does not exist")
        }
        guard FileManager.default.isWritableFile(atPath: folder) else {
            throw BaselineError(path: path, message: "cannot be written: permission denied in \(folder)")
        }
    }

    /// Reads what `--baseline` names: a baseline file, or a `report.json` (a file, its crawl
    /// folder, or the `crawl.sqlite` beside it) whose findings are the known set.
    public static func load(_ path: String, sourceRoot: String? = nil) throws(BaselineError) -> FindingBaseline {
        var isFolder: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
        let file =
            isFolder.boolValue
            ? (path as NSString).appendingPathComponent("report.json")
            : path.hasSuffix(".sqlite")
                ? ((path as NSString).deletingLastPathComponent as NSString).appendingPathComponent("report.json")
                : path
        guard exists else { throw BaselineError(path: path, message: "no such file or folder") }
        guard let data = FileManager.default.contents(atPath: file) else {
            throw BaselineError(path: file, message: "cannot be read")
        }
        let parsed = JSONParser.parse(String(decoding: data, as: UTF8.self), lenient: false)
        guard let value = parsed.value, value.objectValue != nil else {
            throw BaselineError(path: file, message: "not JSON, so neither a baseline file nor a report.json")
        }
        if value["kind"]?.stringValue == kind {
            return try FindingBaseline(json: value, file: file, sourceRoot: sourceRoot)
        }
        guard value["pages"]?.arrayValue != nil else {
            throw BaselineError(
                path: file,
                message:
                    "neither a baseline file (\"kind\": \"baseline\", written by --write-baseline) nor a report.json")
        }
        return FindingBaseline(report: value, file: file, sourceRoot: sourceRoot)
    }

    /// A baseline file's contents.
    init(json: JSONValue, file: String, sourceRoot: String?) throws(BaselineError) {
        let version = json["schemaVersion"]?.intValue ?? 0
        guard version == Self.schemaVersion else {
            throw BaselineError(
                path: file,
                message: "baseline schemaVersion \(version) is not one this spotcheck reads (\(Self.schemaVersion))")
        }
        guard let items = json["findings"]?.arrayValue else {
            throw BaselineError(path: file, message: "has no \"findings\" array")
        }
        var entries: [Entry] = []
        for (position, item) in items.enumerated() {
            guard let entry = Self.entry(item) else {
                throw BaselineError(
                    path: file,
                    message: "findings[\(position)] needs a \"fingerprint\", or \"rule\", \"page\" and \"excerpt\"")
            }
            entries.append(entry)
        }
        self.init(entries: entries, file: file, source: .baselineFile, sourceRoot: sourceRoot)
    }

    /// One entry of a baseline file: its fingerprint as written, or made from its rule, page and
    /// excerpt (an entry written by hand); nil when it has neither.
    static func entry(_ item: JSONValue) -> Entry? {
        let rule = item["rule"]?.stringValue
        let page = item["page"]?.stringValue
        let excerpt = item["excerpt"]?.stringValue.map { FindingFingerprint.normalisedExcerpt($0, origin: nil) }
        let fingerprint =
            item["fingerprint"]?.stringValue.map(FindingFingerprint.init(value:))
            ?? rule.flatMap { rule in
                page.flatMap { page in
                    excerpt.map { FindingFingerprint(rule: rule, pageKey: page, normalisedExcerpt: $0) }
                }
            }
        guard let fingerprint else { return nil }
        return Entry(
            fingerprint: fingerprint, rule: rule ?? "", page: page ?? "", excerpt: excerpt ?? "",
            severity: item["severity"]?.stringValue, message: item["message"]?.stringValue,
            count: max(1, item["count"]?.intValue ?? 1))
    }

    /// An earlier report's findings (every page's and the site's) as the known set, and the report
    /// as `ReportDiff` compares it.
    init(report: JSONValue, file: String, sourceRoot: String?) {
        var findings: [JSONValue] = report["siteFindings"]?.arrayValue ?? []
        var comparable: [JSONValue] = []
        for page in report["pages"]?.arrayValue ?? [] {
            findings += page["findings"]?.arrayValue ?? []
            if let object = page.objectValue { comparable.append(ReportDiff.comparablePage(object)) }
        }
        var entries: [Entry] = []
        for finding in findings {
            let rule = finding["rule"]?.stringValue ?? ""
            let url = finding["url"]?.stringValue ?? ""
            let page = FindingFingerprint.pageKey(url, sourceRoot: sourceRoot)
            let excerpt = FindingFingerprint.normalisedExcerpt(
                finding["excerpt"]?.stringValue ?? "", origin: FindingFingerprint.origin(url))
            entries.append(
                Entry(
                    fingerprint: FindingFingerprint(rule: rule, pageKey: page, normalisedExcerpt: excerpt), rule: rule,
                    page: page, excerpt: excerpt, severity: finding["severity"]?.stringValue,
                    message: finding["message"]?.stringValue))
        }
        self.init(entries: entries, file: file, source: .report, sourceRoot: sourceRoot)
        earlierReport = .object(["pages": .array(comparable), "siteFindings": report["siteFindings"] ?? []])
    }
}

/// Why `--baseline` or `--write-baseline` failed: the file and what is wrong, in words.
public struct BaselineError: Error, Sendable, Hashable, CustomStringConvertible {
    public var path: String
    public var message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}

/// A run's findings matched against a baseline, in report order (every page's, then the site's):
/// a finding whose fingerprint the baseline still has a count for is known (suppressed) and uses
/// one of that count up; the rest are new. The same findings in the same order always match the
/// same way, so every output (report.json, the console, SARIF, JUnit) agrees.
public struct BaselineMatch: Sendable {
    public let baseline: FindingBaseline
    private var remaining: [FindingFingerprint: Int]
    public private(set) var suppressedBySeverity: [Severity: Int] = [:]
    public private(set) var newBySeverity: [Severity: Int] = [:]
    /// The new findings by rule, with the severity each was reported with.
    public private(set) var newByRule: [String: (severity: Severity, count: Int)] = [:]

    public init(_ baseline: FindingBaseline) {
        self.baseline = baseline
        remaining = baseline.counts
    }

    /// Whether each finding is known to the baseline (true: suppressed), in order.
    public mutating func classify(_ findings: [Finding]) -> [Bool] {
        findings.map { finding in
            let fingerprint = FindingFingerprint(finding, sourceRoot: baseline.sourceRoot)
            if let count = remaining[fingerprint], count > 0 {
                remaining[fingerprint] = count - 1
                suppressedBySeverity[finding.severity, default: 0] += 1
                return true
            }
            newBySeverity[finding.severity, default: 0] += 1
            newByRule[finding.ruleID, default: (finding.severity, 0)].count += 1
            return false
        }
    }

    /// The findings the baseline does not know, in order.
    public mutating func newFindings(_ findings: [Finding]) -> [Finding] {
        marked(findings).filter { !$0.isSuppressed }
    }

    /// The findings, those the baseline knows marked `isSuppressed`: the one place the baseline
    /// is applied; every output then reads the mark.
    public mutating func marked(_ findings: [Finding]) -> [Finding] {
        zip(findings, classify(findings)).map { finding, known in
            var finding = finding
            finding.isSuppressed = known
            return finding
        }
    }

    public var suppressed: Int { suppressedBySeverity.values.reduce(0, +) }
    public var new: Int { newBySeverity.values.reduce(0, +) }

    /// `summary.baseline` of the reports.
    public var summary: BaselineSummary {
        BaselineSummary(
            file: baseline.file, format: baseline.source.rawValue, known: baseline.findingCount,
            suppressed: suppressed, newBySeverity: newBySeverity)
    }
}
