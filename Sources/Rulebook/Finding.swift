public import LenientJSON

/// One rule broken on one page: which rule, how bad (as configured), where (URL, line, column when
/// known), the markup that broke it, what is wrong with the actual values, and how to fix it.
public struct Finding: Sendable, Hashable, Codable {
    public var rule: RuleID
    public var severity: Severity
    public var url: String
    public var line: Int
    public var column: Int?
    /// The offending markup, as written (shortened to 200 characters).
    public var excerpt: String
    public var message: String
    public var fixHint: String
    /// Accepted by the `--baseline`: report.json keeps it and SARIF marks it suppressed; the
    /// console, GitHub, GitLab, JUnit and `--fail-on` leave it out. Set once, by `BaselineMatch`.
    public var isSuppressed = false

    public init(
        rule: RuleID, severity: Severity, url: String, line: Int, column: Int? = nil, excerpt: String,
        message: String, fixHint: String
    ) {
        self.rule = rule
        self.severity = severity
        self.url = url
        self.line = line
        self.column = column
        self.excerpt = excerpt.count > 200 ? String(excerpt.prefix(199)) + "…" : excerpt
        self.message = message
        self.fixHint = fixHint
    }

    /// `line 12, column 5` (`line 12` when the column is not known, `line 0` for no line), as the
    /// text outputs write where a finding is.
    public var lineAndColumn: String {
        guard line > 0, let column, column > 0 else { return "line \(line)" }
        return "line \(line), column \(column)"
    }

    /// The rule's id as text (`SAB003`), as reports print it.
    public var ruleID: String { rule.rawValue }

    /// A finding read back from its JSON (as `json` writes it); nil when a key is missing or the
    /// rule is not in the catalogue.
    public init?(json: JSONValue) {
        guard let rule = json["rule"]?.stringValue.flatMap(RuleID.init(rawValue:)),
            let severity = json["severity"]?.stringValue.flatMap(Severity.init),
            let url = json["url"]?.stringValue
        else { return nil }
        self.init(
            rule: rule, severity: severity, url: url, line: json["line"]?.intValue ?? 0,
            column: json["column"]?.intValue, excerpt: json["excerpt"]?.stringValue ?? "",
            message: json["message"]?.stringValue ?? "", fixHint: json["fix"]?.stringValue ?? "")
        isSuppressed = json["suppressed"]?.boolValue ?? false
    }

    public var json: JSONObject {
        var object = JSONObject()
        object.append("rule", .string(rule.rawValue))
        object.append("severity", .string(severity.rawValue))
        object.append("url", .string(url))
        object.append("line", JSONValue(line))
        object.append("column", column.map { JSONValue($0) } ?? .null)
        object.append("excerpt", .string(excerpt))
        object.append("message", .string(message))
        object.append("fix", .string(fixHint))
        let entry = RuleCatalogue.rule(rule)
        object.append("source", .string(entry.source))
        object.append("authority", .string(entry.authority))
        if isSuppressed { object.append("suppressed", true) }
        return object
    }
}
