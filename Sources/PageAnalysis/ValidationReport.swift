public import Foundation
public import LenientJSON
import NumericClamping
public import ReportModel
public import Rulebook
public import Verification

/// The JSON report `validate` writes: every page (as a crawl's report shows one: `PageReport`,
/// located at its file, with its full markup), every input problem, and a summary. `kind` is
/// `"validate"` (a crawl's report says `"crawl"`); both kinds are described by
/// docs/report.schema.json under one `schemaVersion` (`ReportFormat`).
public struct ValidationReport: Sendable {
    public static let kind = "validate"
    public static let schemaVersion = ReportFormat.schemaVersion

    public var pages: [AnalyzedPage] = []
    public var problems: [InputProblem] = []
    /// Findings of the rules over all the pages (duplicates, canonical targets).
    public var siteFindings: [Finding] = []
    /// How many page inputs the arguments named (readable or not), not counting the ignored ones.
    public var inputCount = 0
    /// The files left out by the ignore list (`"ignore"` in `.spotcheck.json`, `--ignore`).
    public var ignored: [String] = []
    public var generatedAt: Date
    public var arguments: [String]
    /// `summary.baseline` (`--baseline`): what the baseline suppressed and what is new.
    public var baselineSummary: JSONValue?

    public init(arguments: [String], generatedAt: Date = Date()) {
        self.arguments = arguments
        self.generatedAt = generatedAt
    }

    public var json: JSONValue {
        var object = JSONObject()
        object.append("tool", "spotcheck")
        object.append("kind", .string(Self.kind))
        object.append("schemaVersion", JSONValue(Self.schemaVersion))
        object.append("generatedAt", .string(Self.timestamp(generatedAt, compact: false)))
        object.append("inputs", .array(arguments.map(JSONValue.string)))
        var summary = JSONObject()
        summary.append("pages", JSONValue(pages.count))
        summary.append("problems", JSONValue(problems.count))
        summary.append("ignored", JSONValue(ignored.count))
        summary.append("pagesWithSmartAppBanner", JSONValue(pages.filter { $0.markup.smartAppBanner != nil }.count))
        summary.append("pagesWithDeepLink", JSONValue(pages.filter { !$0.attributes.deepLinks.isEmpty }.count))
        summary.append("jsonLDScripts", JSONValue(pages.reduce(0) { $0 + $1.markup.jsonLD.count }))
        summary.append("extractionDiagnostics", JSONValue(pages.reduce(0) { $0 + $1.markup.diagnostics.count }))
        var bySeverity = JSONObject()
        for severity in Severity.allCases.reversed() {
            bySeverity.append(
                severity.rawValue,
                JSONValue(
                    pages.reduce(0) { $0 + ($1.findings ?? []).filter { $0.severity == severity }.count }
                        + siteFindings.filter { $0.severity == severity }.count))
        }
        summary.append("findings", .object(bySeverity))
        if let baselineSummary { summary.append("baseline", baselineSummary) }
        object.append("summary", .object(summary))
        object.append(
            "problems",
            .array(
                problems.map {
                    ["file": .string($0.path), "code": .string($0.code.rawValue), "message": .string($0.message)]
                }))
        object.append(
            "pages",
            .array(pages.map { .object($0.report.json(includingMarkup: true)) }))
        object.append("siteFindings", .array(siteFindings.map { .object($0.json) }))
        return .object(object)
    }

    /// Writes `report.json` into `folder` (created if needed) and returns its path.
    public func write(into folder: String) throws -> String {
        try OutputFolder.create(folder)
        let path = folder.hasSuffix("/") ? folder + "report.json" : folder + "/report.json"
        let text = json.serialized(pretty: true) + "\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        return path
    }

    /// `reports/<name>-<UTC timestamp>/`.
    public static func defaultFolder(root: String = "reports", name: String, date: Date = Date()) -> String {
        let safe = String(name.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" ? $0 : "-" })
        return "\(root)/\(safe.isEmpty ? "pages" : safe)-\(timestamp(date, compact: true))"
    }

    static func timestamp(_ date: Date, compact: Bool) -> String {
        let seconds = clampedInt(date.timeIntervalSince1970)
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        // Civil date from days (Howard Hinnant's algorithm).
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let hour = secondOfDay / 3600
        let minute = secondOfDay % 3600 / 60
        let second = secondOfDay % 60
        if compact {
            return "\(year)\(two(month))\(two(day))T\(two(hour))\(two(minute))\(two(second))Z"
        }
        return "\(year)-\(two(month))-\(two(day))T\(two(hour)):\(two(minute)):\(two(second))Z"
    }
}
