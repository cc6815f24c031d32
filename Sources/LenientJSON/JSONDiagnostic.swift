/// One problem found while parsing a JSON text.
///
/// Positions are relative to the parsed text:
/// - `line` is 1-based; a line ends at LF, CR LF or a lone CR (also inside strings).
/// - `column` is 1-based and counts **Unicode scalars** from the start of the line; invalid UTF-8 counts one
///   column per maximal invalid subpart (what becomes one U+FFFD). A tab counts as one column.
/// - `byteOffset` is the 0-based offset in the UTF-8 bytes of the input (the BOM included, if any).
///
/// In strict mode every problem is an unrecovered `error`. In lenient mode a problem that was repaired has
/// `severity == .error` and `recovered == true`; an unrepairable one has `recovered == false` and ends parsing.
/// Warnings are valid JSON that is probably a mistake, in either mode: a duplicate key (`recovered == false`,
/// every member is kept) or a lone UTF-16 surrogate escape (`recovered == true`: it became U+FFFD).
public struct JSONDiagnostic: Sendable, Hashable, Codable, CustomStringConvertible {
    /// How serious a diagnostic is.
    public enum Severity: String, Sendable, Hashable, Codable {
        /// The text is not valid RFC 8259 JSON at this position.
        case error
        /// The text is valid JSON but probably not what the author meant (for example a duplicate key).
        case warning
    }

    /// 1-based line number of the problem.
    public var line: Int
    /// 1-based column of the problem, counted in Unicode scalars.
    public var column: Int
    /// 0-based offset of the problem in the UTF-8 bytes of the input.
    public var byteOffset: Int
    /// Human-readable description naming the problem, e.g. `trailing comma before ']'`.
    public var reason: String
    /// Whether the problem makes the text invalid JSON (`error`) or is only suspicious (`warning`).
    public var severity: Severity
    /// `true` when lenient mode repaired the problem and parsing continued.
    public var recovered: Bool

    /// Creates a diagnostic.
    public init(
        line: Int,
        column: Int,
        byteOffset: Int,
        reason: String,
        severity: Severity = .error,
        recovered: Bool = false
    ) {
        self.line = line
        self.column = column
        self.byteOffset = byteOffset
        self.reason = reason
        self.severity = severity
        self.recovered = recovered
    }

    /// This diagnostic with its position moved into a larger document in which the parsed text starts at
    /// `line`, `column` and `byteOffset` (all of the text's first character; line and column 1-based). Use it
    /// to report a problem in a `<script>` body at its position in the page.
    public func shifted(toTextStartingAtLine line: Int, column: Int, byteOffset: Int) -> JSONDiagnostic {
        var moved = self
        if moved.line == 1 {
            moved.column += column - 1
        }
        moved.line += line - 1
        moved.byteOffset += byteOffset
        return moved
    }

    /// `line L, column C: reason`, followed by ` (warning)` or ` (repaired)` where it applies.
    public var description: String {
        var text = "line \(line), column \(column): \(reason)"
        if severity == .warning {
            text += " (warning)"
        } else if recovered {
            text += " (repaired)"
        }
        return text
    }
}

/// The outcome of `JSONParser.parse(_:lenient:)`.
public struct JSONParseResult: Sendable, Hashable {
    /// The parsed value; `nil` when nothing could be recovered.
    public var value: JSONValue?
    /// Every problem found, sorted by position: at most ``JSONParser/maximumDiagnostics`` repairs and warnings,
    /// then one warning saying that more were suppressed, and always the error that stopped parsing, if any.
    public var diagnostics: [JSONDiagnostic]
    /// `true` when no error-severity diagnostic was produced, i.e. the text is valid RFC 8259 JSON.
    /// Warnings do not affect it.
    public var isStrictlyValid: Bool

    /// Creates a parse result.
    public init(value: JSONValue?, diagnostics: [JSONDiagnostic], isStrictlyValid: Bool) {
        self.value = value
        self.diagnostics = diagnostics
        self.isStrictlyValid = isStrictlyValid
    }

    /// The error-severity diagnostics (repaired or not).
    public var errors: [JSONDiagnostic] {
        diagnostics.filter { $0.severity == .error }
    }

    /// The warning-severity diagnostics.
    public var warnings: [JSONDiagnostic] {
        diagnostics.filter { $0.severity == .warning }
    }

    /// The unrecovered error that stopped parsing; present exactly when `value` is `nil`. (In lenient mode,
    /// unparsable text after a complete top-level value is ignored and its diagnostic marked recovered.)
    public var failure: JSONDiagnostic? {
        diagnostics.first { $0.severity == .error && !$0.recovered }
    }

    /// The first error-severity diagnostic, if any: the position to report for an invalid text.
    public var firstError: JSONDiagnostic? {
        diagnostics.first { $0.severity == .error }
    }
}
