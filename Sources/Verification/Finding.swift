public import LenientJSON

/// One rule broken on one page: which rule, how bad (as configured), where (URL, line, column when
/// known), the markup that broke it, what is wrong with the actual values, and how to fix it.
public struct Finding: Sendable, Hashable {
    public var ruleID: String
    public var severity: Severity
    public var url: String
    public var line: Int
    public var column: Int?
    /// The offending markup, as written (shortened to 200 characters).
    public var excerpt: String
    public var message: String
    public var fixHint: String

    public init(
        ruleID: String, severity: Severity, url: String, line: Int, column: Int? = nil, excerpt: String,
        message: String, fixHint: String
    ) {
        self.ruleID = ruleID
        self.severity = severity
        self.url = url
        self.line = line
        self.column = column
        self.excerpt = excerpt.count > 200 ? String(excerpt.prefix(199)) + "…" : excerpt
        self.message = message
        self.fixHint = fixHint
    }

    /// A finding read back from its JSON (as `json` writes it); nil when a key is missing.
    public init?(json: JSONValue) {
        guard let ruleID = json["rule"]?.stringValue,
            let severity = json["severity"]?.stringValue.flatMap(Severity.init),
            let url = json["url"]?.stringValue
        else { return nil }
        self.init(
            ruleID: ruleID, severity: severity, url: url, line: json["line"]?.intValue ?? 0,
            column: json["column"]?.intValue, excerpt: json["excerpt"]?.stringValue ?? "",
            message: json["message"]?.stringValue ?? "", fixHint: json["fix"]?.stringValue ?? "")
    }

    public var json: JSONObject {
        var object = JSONObject()
        object.append("rule", .string(ruleID))
        object.append("severity", .string(severity.rawValue))
        object.append("url", .string(url))
        object.append("line", JSONValue(line))
        object.append("column", column.map { JSONValue($0) } ?? .null)
        object.append("excerpt", .string(excerpt))
        object.append("message", .string(message))
        object.append("fix", .string(fixHint))
        if let rule = RuleCatalogue.rule(ruleID) {
            object.append("source", .string(rule.source))
            object.append("authority", .string(rule.authority))
        }
        return object
    }
}
