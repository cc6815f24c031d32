public import Rulebook

/// One problem with an `apple-app-site-association` file or the way it is served, tied to a rule of the
/// catalogue (apple-markup-rules.md §7.3, `UL001`–`UL025`).
public struct AASAProblem: Sendable, Hashable, CustomStringConvertible {
    /// How serious a problem is (the catalogue's severity for the rule and case).
    public enum Severity: String, Sendable, Hashable {
        /// The file is invalid or an Apple requirement is violated.
        case error
        /// Likely to misbehave, deprecated or ambiguous.
        case warning
        /// Advice.
        case info
    }

    /// The catalogue rule, e.g. `UL014`.
    public var rule: RuleID
    /// The catalogue severity (UL009 is a warning for the obsolete dictionary form, an error otherwise).
    public var severity: Severity
    /// What is wrong, naming the values found.
    public var message: String
    /// Where in the file; `nil` for serving problems and entitlement checks.
    public var location: AASALocation?

    /// Creates a problem.
    public init(rule: RuleID, severity: Severity, message: String, location: AASALocation? = nil) {
        self.rule = rule
        self.severity = severity
        self.message = message
        self.location = location
    }

    /// The rule's id as text, e.g. `UL014`.
    public var ruleID: String { rule.rawValue }

    /// `UL014 error at applinks.details[0] (line 3, column 5): message`.
    public var description: String {
        var text = "\(ruleID) \(severity.rawValue)"
        if let location {
            text += " at \(location)"
        }
        return text + ": " + message
    }
}

/// A position in an AASA file: a JSON path and, when known, the line and column of the value.
public struct AASALocation: Sendable, Hashable, CustomStringConvertible {
    /// The path of the value, e.g. `applinks.details[0].components[2]["?"]`; `$` is the whole file.
    public var path: String
    /// 1-based line of the value's first character, when known.
    public var line: Int?
    /// 1-based column (in Unicode scalars, as `JSONDiagnostic`), when known.
    public var column: Int?

    /// Creates a location.
    public init(path: String, line: Int? = nil, column: Int? = nil) {
        self.path = path
        self.line = line
        self.column = column
    }

    /// `path (line L, column C)`, or just the path.
    public var description: String {
        guard let line, let column else { return path }
        return "\(path) (line \(line), column \(column))"
    }
}

/// A JSON path under construction; its text is the ``AASALocation/path`` format.
struct JSONPath: Hashable, Sendable, CustomStringConvertible {
    private(set) var text: String

    static let root = JSONPath(text: "")

    /// `.key` for identifier-like keys, `["key"]` otherwise (`?`, `/`, keys with spaces or quotes).
    func key(_ key: String) -> JSONPath {
        if Self.isIdentifier(key) {
            return JSONPath(text: text.isEmpty ? key : text + "." + key)
        }
        return JSONPath(text: text + "[" + Self.quoted(key) + "]")
    }

    func index(_ index: Int) -> JSONPath {
        JSONPath(text: text + "[\(index)]")
    }

    var description: String { text.isEmpty ? "$" : text }

    var location: AASALocation { AASALocation(path: description) }

    private static func isIdentifier(_ key: String) -> Bool {
        guard let first = key.unicodeScalars.first, first.properties.isAlphabetic || first == "_" else {
            return false
        }
        return key.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || $0 == "_" || ("0"..."9").contains($0))
        }
    }

    private static func quoted(_ key: String) -> String {
        var output = "\""
        for scalar in key.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            default:
                if scalar.value < 0x20 {
                    output +=
                        "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                        + String(scalar.value, radix: 16)
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        return output + "\""
    }
}
