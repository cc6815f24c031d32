public import LenientJSON
public import Rulebook

/// `validate`'s report.json: the inputs named, the totals, the inputs that could not be read, every
/// page (a `PageReport` located at its file, with its full markup) and the findings about the
/// pages together.
public struct ValidationReport: Sendable, Hashable, Codable {
    public var generatedAt: String
    public var inputs: [String]
    public var summary: ValidationSummary
    public var problems: [InputProblemEntry]
    public var pages: [PageReport]
    public var siteFindings: [Finding]

    public init(
        generatedAt: String, inputs: [String], summary: ValidationSummary, problems: [InputProblemEntry] = [],
        pages: [PageReport] = [], siteFindings: [Finding] = []
    ) {
        self.generatedAt = generatedAt
        self.inputs = inputs
        self.summary = summary
        self.problems = problems
        self.pages = pages
        self.siteFindings = siteFindings
    }

    /// report.json (docs/report.schema.json, `kind` "validate").
    public var json: JSONObject {
        var object = ReportFormat.header(kind: "validate", generatedAt: generatedAt)
        object.append("inputs", .array(inputs.map(JSONValue.string)))
        object.append("summary", .object(summary.json))
        object.append(
            "problems",
            .array(
                problems.map { ["file": .string($0.file), "code": .string($0.code), "message": .string($0.message)] }))
        object.append("pages", .array(pages.map { .object($0.json(includingMarkup: true)) }))
        object.append("siteFindings", .array(siteFindings.map { .object($0.json) }))
        return object
    }
}

/// `validate`'s totals.
public struct ValidationSummary: Sendable, Hashable, Codable {
    public var pages = 0
    public var problems = 0
    /// Inputs left out by the ignore list.
    public var ignored = 0
    public var pagesWithSmartAppBanner = 0
    public var pagesWithDeepLink = 0
    public var jsonLDScripts = 0
    public var extractionDiagnostics = 0
    /// Every finding of the pages and the site, by severity (`byRule` is not part of validate's report).
    public var findings = FindingTotals()
    /// `--baseline`: what it suppressed and what is new.
    public var baseline: BaselineSummary?

    public init() {}

    var json: JSONObject {
        var object = JSONObject()
        object.append("pages", JSONValue(pages))
        object.append("problems", JSONValue(problems))
        object.append("ignored", JSONValue(ignored))
        object.append("pagesWithSmartAppBanner", JSONValue(pagesWithSmartAppBanner))
        object.append("pagesWithDeepLink", JSONValue(pagesWithDeepLink))
        object.append("jsonLDScripts", JSONValue(jsonLDScripts))
        object.append("extractionDiagnostics", JSONValue(extractionDiagnostics))
        object.append(
            "findings",
            .object([
                "error": JSONValue(findings.errors), "warning": JSONValue(findings.warnings),
                "info": JSONValue(findings.infos),
            ]))
        if let baseline { object.append("baseline", .object(baseline.json)) }
        return object
    }
}

/// An input `validate` could not read: the file, a stable code and the reason in words.
public struct InputProblemEntry: Sendable, Hashable, Codable {
    public var file: String
    public var code: String
    public var message: String

    public init(file: String, code: String, message: String) {
        self.file = file
        self.code = code
        self.message = message
    }
}
