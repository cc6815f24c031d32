public import Foundation
public import LenientJSON
import NumericClamping
public import ReportModel
public import Rulebook
import Verification

/// What `validate` found: every page analysed (`AnalyzedPage`, for the text outputs and the site
/// rules), every input problem, the site findings, and what the arguments named. Its report.json
/// is ReportModel's `ValidationReport` (`report`), whose pages are `PageReport`s, as a crawl's.
public struct ValidationRun: Sendable {
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
    public var baselineSummary: BaselineSummary?

    public init(arguments: [String], generatedAt: Date = Date()) {
        self.arguments = arguments
        self.generatedAt = generatedAt
    }

    /// The report as report.json has it.
    public var report: ValidationReport {
        var summary = ValidationSummary()
        summary.pages = pages.count
        summary.problems = problems.count
        summary.ignored = ignored.count
        summary.pagesWithSmartAppBanner = pages.filter { $0.markup.smartAppBanner != nil }.count
        summary.pagesWithDeepLink = pages.filter { !$0.attributes.deepLinks.isEmpty }.count
        summary.jsonLDScripts = pages.reduce(0) { $0 + $1.markup.jsonLD.count }
        summary.extractionDiagnostics = pages.reduce(0) { $0 + $1.markup.diagnostics.count }
        for finding in pages.flatMap({ $0.findings ?? [] }) + siteFindings {
            switch finding.severity {
            case .error: summary.findings.errors += 1
            case .warning: summary.findings.warnings += 1
            case .info: summary.findings.infos += 1
            }
        }
        summary.baseline = baselineSummary
        return ValidationReport(
            generatedAt: Self.timestamp(generatedAt, compact: false), inputs: arguments, summary: summary,
            problems: problems.map { InputProblemEntry(file: $0.path, code: $0.code.rawValue, message: $0.message) },
            pages: pages.map(\.report), siteFindings: siteFindings)
    }

    public var json: JSONValue { .object(report.json) }

    /// Writes `report.json` into `folder` (created if needed) and returns its path.
    public func write(into folder: String) throws -> String {
        try Self.write(report, into: folder)
    }

    /// Writes `report` (a run's `report`, built once by a caller that also needs it for other
    /// outputs) as `report.json` into `folder` (created if needed) and returns its path.
    public static func write(_ report: ValidationReport, into folder: String) throws -> String {
        try OutputFolder.create(folder)
        let path = folder.hasSuffix("/") ? folder + "report.json" : folder + "/report.json"
        let text = JSONValue.object(report.json).serialized(pretty: true) + "\n"
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
