public import LenientJSON
public import Verification

/// Findings as a SARIF 2.1.0 log (OASIS Static Analysis Results Interchange Format): one run, the
/// rule catalogue as the driver's rules (with help text and citations), one result per finding,
/// located in the page (its URL as the artifact, the source line and column as the region).
public struct SARIFLog: Sendable {
    public static let schema = "https://json.schemastore.org/sarif-2.1.0.json"

    public var toolVersion: String
    /// Every page's findings, in report order, then the findings over the whole site.
    public var findings: [Finding]

    public init(toolVersion: String, findings: [Finding]) {
        self.toolVersion = toolVersion
        self.findings = findings
    }

    public var json: JSONValue {
        let rules = RuleCatalogue.all
        let index = Dictionary(uniqueKeysWithValues: rules.enumerated().map { ($1.id, $0) })
        var driver = JSONObject()
        driver.append("name", "spotcheck")
        driver.append("version", .string(toolVersion))
        driver.append("informationUri", "https://github.com/spotcheck/spotcheck")
        driver.append("rules", .array(rules.map { .object(Self.descriptor($0)) }))
        var run = JSONObject()
        run.append("tool", ["driver": .object(driver)])
        run.append(
            "results",
            .array(
                findings.map { finding in
                    var result = JSONObject()
                    result.append("ruleId", .string(finding.ruleID))
                    if let position = index[finding.rule] { result.append("ruleIndex", JSONValue(position)) }
                    result.append("level", .string(Self.level(finding.severity)))
                    result.append("message", ["text": .string(finding.message)])
                    var physical = JSONObject()
                    physical.append("artifactLocation", ["uri": .string(finding.url)])
                    if finding.line > 0 {
                        var region = JSONObject()
                        region.append("startLine", JSONValue(finding.line))
                        if let column = finding.column, column > 0 { region.append("startColumn", JSONValue(column)) }
                        if !finding.excerpt.isEmpty { region.append("snippet", ["text": .string(finding.excerpt)]) }
                        physical.append("region", .object(region))
                    }
                    result.append("locations", .array([["physicalLocation": .object(physical)]]))
                    if !finding.fixHint.isEmpty {
                        result.append("properties", ["fix": .string(finding.fixHint)])
                    }
                    return .object(result)
                }))
        var log = JSONObject()
        log.append("$schema", .string(Self.schema))
        log.append("version", "2.1.0")
        log.append("runs", .array([.object(run)]))
        return .object(log)
    }

    static func descriptor(_ rule: Rule) -> JSONObject {
        var object = JSONObject()
        object.append("id", .string(rule.id.rawValue))
        object.append("name", .string(rule.id.rawValue))
        object.append("shortDescription", ["text": .string(rule.check)])
        let fix = RuleCatalogue.fixHints[rule.id]
        var help = "\(rule.check) Source: \(rule.source) (\(rule.authority); \(RuleCatalogue.reference))."
        if let fix { help += " Fix: \(fix)" }
        object.append("fullDescription", ["text": .string("\(rule.check) Affects: \(rule.consumer).")])
        object.append("help", ["text": .string(help)])
        object.append(
            "defaultConfiguration", ["level": .string(level(rule.severity)), "enabled": JSONValue(rule.isImplemented)])
        object.append(
            "properties",
            [
                "tags": .array([.string(rule.group), .string(rule.authority)]), "source": .string(rule.source),
                "section": .string(rule.section), "implemented": JSONValue(rule.isImplemented),
            ])
        return object
    }

    /// SARIF's levels: error, warning, note.
    static func level(_ severity: Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .info: "note"
        }
    }
}
