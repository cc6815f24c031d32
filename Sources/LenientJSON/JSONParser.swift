/// A fast, non-recursive JSON parser with a strict (RFC 8259) and a lenient mode.
///
/// **Strict mode** accepts exactly RFC 8259 JSON texts (any value at the top level, surrounded by optional
/// whitespace). The first problem ends parsing: the result has `value == nil` and one error diagnostic.
///
/// **Lenient mode** repairs what real-world JSON-LD consumers tolerate and records one error diagnostic with
/// `recovered == true` for every repair, normally at the position where strict mode fails:
/// - a byte order mark, non-JSON whitespace (U+000B, U+000C, U+00A0, U+FEFF) between tokens; `;` before or
///   after the top-level value;
/// - HTML comment markers `<!--` / `-->` and whole HTML comments `<!-- … -->` around the top-level value;
///   CDATA wrappers `<![CDATA[` / `]]>` (and `//<![CDATA[` forms, which are JavaScript comments);
/// - JavaScript comments `// …` and `/* … */` between tokens;
/// - raw control characters (U+0000–U+001F) in strings, kept as they are; invalid escapes such as `\'` or
///   `\x`, which keep the escaped character; unterminated strings at the end of input;
/// - invalid UTF-8 in strings, replaced by U+FFFD;
/// - `"` inside a string value when the next character on the line is a letter (`"The "Best" Pizza"`);
/// - trailing commas, repeated commas, missing commas before an element or a quoted key, a missing `:`
///   before a value, a missing value before a closer (the member is dropped), a closer that does not match
///   (the inner containers are closed), and a closer with no container (ignored);
/// - several top-level values (`{…}{…}` or `{…},{…}`), returned as an array; text after the value, ignored;
/// - containers still open at the end of input, closed;
/// - single-quoted strings, unquoted object keys, `NaN`, `Infinity`, `-Infinity` and `undefined` (which
///   become `null`), and malformed numbers such as `+1`, `.5`, `5.`, `007` (rewritten as valid numbers).
///
/// In both modes a lone UTF-16 surrogate escape (`"\ud800"`) becomes U+FFFD with a warning, and a duplicate
/// object key is kept with a warning. Nesting deeper than ``defaultMaximumDepth`` is an unrecoverable error.
/// The parser never recurses, so hostile input cannot exhaust the stack.
public enum JSONParser {
    /// The nesting depth (arrays and objects) beyond which parsing fails.
    public static let defaultMaximumDepth = 512
    /// The largest accepted `maximumDepth`; values are also compared, hashed and serialized recursively.
    public static let depthLimit = 1024
    /// At most this many repairs and warnings are listed; one warning then says that more were suppressed.
    /// The error that stops parsing is always listed.
    public static let maximumDiagnostics = 200

    /// Parses UTF-8 bytes. Contiguous collections (`[UInt8]`, `ArraySlice<UInt8>`,
    /// `UnsafeBufferPointer<UInt8>`, `String.UTF8View` of a native string) are read in place.
    ///
    /// - Parameters:
    ///   - bytes: the UTF-8 text.
    ///   - lenient: repair common mistakes instead of failing (see ``JSONParser``).
    ///   - maximumDepth: the deepest accepted nesting, clamped to `1...depthLimit`.
    /// `origin` is where the text starts in a larger document (a script body in a page): every
    /// line and column reported, those quoted in reasons included, is then a document position.
    public static func parse(
        _ bytes: some Collection<UInt8>,
        lenient: Bool,
        maximumDepth: Int = defaultMaximumDepth,
        origin: JSONTextOrigin = .start
    ) -> JSONParseResult {
        let depth = min(max(maximumDepth, 1), depthLimit)
        if let result = bytes.withContiguousStorageIfAvailable({
            parse(buffer: $0, lenient: lenient, depth: depth, origin: origin)
        }) {
            return result
        }
        return Array(bytes).withUnsafeBufferPointer {
            parse(buffer: $0, lenient: lenient, depth: depth, origin: origin)
        }
    }

    /// Parses a string (its UTF-8 bytes; positions are relative to it).
    ///
    /// - Parameters:
    ///   - text: the JSON text.
    ///   - lenient: repair common mistakes instead of failing (see ``JSONParser``).
    ///   - maximumDepth: the deepest accepted nesting, clamped to `1...depthLimit`.
    public static func parse(
        _ text: String,
        lenient: Bool,
        maximumDepth: Int = defaultMaximumDepth
    ) -> JSONParseResult {
        var text = text
        let depth = min(max(maximumDepth, 1), depthLimit)
        return text.withUTF8 { parse(buffer: $0, lenient: lenient, depth: depth, origin: .start) }
    }

    /// Parses a substring (its UTF-8 bytes; positions are relative to it), in place when it is native.
    public static func parse(
        _ text: Substring,
        lenient: Bool,
        maximumDepth: Int = defaultMaximumDepth
    ) -> JSONParseResult {
        parse(text.utf8, lenient: lenient, maximumDepth: maximumDepth)
    }

    private static func parse(
        buffer: UnsafeBufferPointer<UInt8>, lenient: Bool, depth: Int, origin: JSONTextOrigin
    ) -> JSONParseResult {
        var parser = Parser(bytes: buffer, lenient: lenient, maximumDepth: depth)
        let value = parser.parseDocument()
        return JSONParseResult(
            value: value,
            diagnostics: parser.resolvedDiagnostics(origin: origin),
            isStrictlyValid: !parser.sawError
        )
    }
}

/// Where a parsed text starts in the document it was taken from (1-based).
public struct JSONTextOrigin: Sendable, Hashable {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// The text is the whole document.
    public static let start = JSONTextOrigin(line: 1, column: 1)
}

/// Thrown when parsing cannot continue; the diagnostic has already been recorded.
struct ParseFailure: Error {}

/// The parser state over one input buffer. Only used inside `withUnsafeBufferPointer`-style closures.
struct Parser {
    /// A problem whose line and column are computed once parsing is over.
    struct Pending {
        var offset: Int
        var reason: String
        /// An earlier position named in the reason (where an unterminated container or string opened).
        var related: Int?
        var severity: JSONDiagnostic.Severity
        var recovered: Bool
    }

    /// An open array or object.
    struct Frame {
        var isObject: Bool
        var openOffset: Int
        var elements: [JSONValue] = []
        var object = JSONObject()
        var key = ""
        /// Built once an object has many members, for duplicate-key detection.
        var keySet: Set<String>?
    }

    /// What the container loop expects next.
    enum State {
        case value, firstElement, firstKey, key, afterValue
    }

    let bytes: UnsafeBufferPointer<UInt8>
    let end: Int
    let lenient: Bool
    let maximumDepth: Int
    var pos = 0
    var pending: [Pending] = []
    var sawError = false
    var suppressed = false
    var lastFailure: Int?
    /// Reused buffer for strings that need unescaping or repair.
    var scratch: [UInt8] = []

    init(bytes: UnsafeBufferPointer<UInt8>, lenient: Bool, maximumDepth: Int) {
        self.bytes = bytes
        self.end = bytes.count
        self.lenient = lenient
        self.maximumDepth = maximumDepth
    }

    // MARK: Diagnostics

    /// Records a problem; returns its index in `pending`, or `nil` when the list is full. The error that stops
    /// parsing is always recorded.
    @discardableResult
    mutating func report(
        _ reason: String,
        at offset: Int,
        related: Int? = nil,
        severity: JSONDiagnostic.Severity = .error,
        recovered: Bool
    ) -> Int? {
        if severity == .error {
            sawError = true
        }
        if pending.count < JSONParser.maximumDiagnostics || (severity == .error && !recovered) {
            let problem = Pending(
                offset: offset, reason: reason, related: related, severity: severity, recovered: recovered)
            pending.append(problem)
            return pending.count - 1
        }
        if !suppressed {
            suppressed = true
            let reason = "more than \(JSONParser.maximumDiagnostics) problems; the rest are not listed"
            pending.append(Pending(offset: offset, reason: reason, related: nil, severity: .warning, recovered: false))
        }
        return nil
    }

    /// Records a repair in lenient mode; in strict mode records the problem as fatal and throws.
    mutating func repair(_ reason: String, at offset: Int, related: Int? = nil)
        throws(ParseFailure)
    {
        guard lenient else {
            throw fail(reason, at: offset, related: related)
        }
        report(reason, at: offset, related: related, recovered: true)
    }

    /// Records an unrecoverable problem; the caller throws the result.
    mutating func fail(_ reason: String, at offset: Int, related: Int? = nil) -> ParseFailure {
        lastFailure = report(reason, at: offset, related: related, recovered: false)
        return ParseFailure()
    }

    /// The diagnostics with their lines and columns, sorted by position (stable).
    func resolvedDiagnostics(origin: JSONTextOrigin = .start) -> [JSONDiagnostic] {
        guard !pending.isEmpty else { return [] }
        var offsets = pending.map(\.offset) + pending.compactMap(\.related)
        offsets.sort()
        let locations = SourceLocator.locate(sortedOffsets: offsets, in: bytes)
        func location(of offset: Int) -> (line: Int, column: Int) {
            var low = 0
            var high = offsets.count - 1
            while low < high {
                let middle = (low + high) / 2
                if offsets[middle] < offset { low = middle + 1 } else { high = middle }
            }
            let local = locations[low]
            return (local.line + origin.line - 1, local.line == 1 ? local.column + origin.column - 1 : local.column)
        }
        let ordered = pending.indices.sorted { (pending[$0].offset, $0) < (pending[$1].offset, $1) }
        return ordered.map { index in
            let problem = pending[index]
            let here = location(of: problem.offset)
            var reason = problem.reason
            if let related = problem.related {
                let there = location(of: related)
                reason += " (opened at line \(there.line), column \(there.column))"
            }
            return JSONDiagnostic(
                line: here.line, column: here.column, byteOffset: problem.offset, reason: reason,
                severity: problem.severity, recovered: problem.recovered)
        }
    }

    // MARK: Document

    /// Parses the whole input; `nil` when nothing could be recovered.
    mutating func parseDocument() -> JSONValue? {
        do {
            if end >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
                try repair("byte order mark U+FEFF at start of input", at: 0)
                pos = 3
            }
            try skipTrivia(topLevel: true)
            guard pos < end else {
                throw fail(pos == 0 ? "empty input" : "unexpected end of input; expected a JSON value", at: pos)
            }
            var values = [try parseValue()]
            while true {
                try skipTrivia(topLevel: true)
                guard pos < end else { break }
                guard lenient else {
                    throw fail("unexpected \(describeCharacter(at: pos)) after the JSON value", at: pos)
                }
                guard try parseAnotherTopLevelValue(into: &values) else { break }
            }
            return values.count == 1 ? values[0] : .array(values)
        } catch {
            return nil
        }
    }

    /// In lenient mode, after a complete top-level value: parses a following `{…}` or `[…]` (optionally after a
    /// comma) into `values`, or ignores the rest of the input. Returns whether to continue.
    mutating func parseAnotherTopLevelValue(into values: inout [JSONValue]) throws(ParseFailure) -> Bool {
        let commaOffset = pos
        if bytes[pos] == UInt8(ascii: ",") {
            pos += 1
            try skipTrivia(topLevel: true)
            guard pos < end else {
                try repair("trailing comma after the JSON value", at: commaOffset)
                return false
            }
        }
        let byte = bytes[pos]
        guard byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") else {
            try repair(
                "unexpected \(describeCharacter(at: pos)) after the JSON value; ignored the rest of the input",
                at: pos)
            return false
        }
        try repair("several top-level values; returned as an array", at: pos)
        do {
            values.append(try parseValue())
            return true
        } catch {
            if let index = lastFailure {
                pending[index].recovered = true
                pending[index].reason += "; ignored the rest of the input"
            }
            return false
        }
    }
}
