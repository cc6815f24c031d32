/// A fast, non-recursive JSON parser with a strict (RFC 8259) and a lenient mode.
///
/// **Strict mode** accepts exactly RFC 8259 JSON texts (any value at the top level, surrounded by optional
/// whitespace). The first problem ends parsing: the result has `value == nil` and one error diagnostic.
///
/// **Lenient mode** repairs what real-world JSON-LD consumers tolerate and records one error diagnostic with
/// `recovered == true` for every repair, at the position where strict mode would have failed:
/// - a byte order mark, non-JSON whitespace (U+000B, U+000C, U+00A0, U+FEFF) between tokens; `;` before or
///   after the top-level value;
/// - HTML comment markers `<!--` / `-->` and whole HTML comments `<!-- … -->` around the top-level value;
///   CDATA wrappers `<![CDATA[` / `]]>` (and `//<![CDATA[` forms, which are JavaScript comments);
/// - JavaScript comments `// …` and `/* … */` between tokens;
/// - raw control characters (U+0000–U+001F) in strings, kept as they are; invalid escapes such as `\'` or
///   `\x`, which keep the escaped character; unterminated strings at the end of input;
/// - invalid UTF-8 in strings, replaced by U+FFFD;
/// - `"` inside a string when the next character on the line is a letter or digit (`"The "Best" Pizza"`);
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
    /// At most this many diagnostics are listed; one warning then says that more were suppressed.
    public static let maximumDiagnostics = 200

    /// Parses UTF-8 bytes. Contiguous collections (`[UInt8]`, `ArraySlice<UInt8>`,
    /// `UnsafeBufferPointer<UInt8>`, `String.UTF8View` of a native string) are read in place.
    ///
    /// - Parameters:
    ///   - bytes: the UTF-8 text.
    ///   - lenient: repair common mistakes instead of failing (see ``JSONParser``).
    ///   - maximumDepth: the deepest accepted nesting, clamped to `1...depthLimit`.
    public static func parse(
        _ bytes: some Collection<UInt8>,
        lenient: Bool,
        maximumDepth: Int = defaultMaximumDepth
    ) -> JSONParseResult {
        let depth = min(max(maximumDepth, 1), depthLimit)
        if let result = bytes.withContiguousStorageIfAvailable({ parse(buffer: $0, lenient: lenient, depth: depth) }) {
            return result
        }
        return Array(bytes).withUnsafeBufferPointer { parse(buffer: $0, lenient: lenient, depth: depth) }
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
        return text.withUTF8 { parse(buffer: $0, lenient: lenient, depth: depth) }
    }

    /// Parses a substring (its UTF-8 bytes; positions are relative to it), in place when it is native.
    public static func parse(
        _ text: Substring,
        lenient: Bool,
        maximumDepth: Int = defaultMaximumDepth
    ) -> JSONParseResult {
        parse(text.utf8, lenient: lenient, maximumDepth: maximumDepth)
    }

    private static func parse(buffer: UnsafeBufferPointer<UInt8>, lenient: Bool, depth: Int) -> JSONParseResult {
        var parser = Parser(bytes: buffer, lenient: lenient, maximumDepth: depth)
        let value = parser.parseDocument()
        return JSONParseResult(
            value: value,
            diagnostics: parser.resolvedDiagnostics(),
            isStrictlyValid: !parser.sawError
        )
    }
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

    /// Records a problem; returns its index in `pending`, or `nil` when the list is full.
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
        if pending.count < JSONParser.maximumDiagnostics {
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
    func resolvedDiagnostics() -> [JSONDiagnostic] {
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
            return locations[low]
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

    // MARK: Values

    /// Parses one value at `pos` (after trivia), iteratively.
    mutating func parseValue() throws(ParseFailure) -> JSONValue {
        var stack: [Frame] = []
        var state = State.value
        while true {
            switch state {
            case .value:
                try skipTrivia(topLevel: stack.isEmpty)
                guard pos < end else {
                    if stack.isEmpty {
                        throw fail("unexpected end of input; expected a JSON value", at: pos)
                    }
                    return try closeAtEndOfInput(&stack)
                }
                let byte = bytes[pos]
                if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                    guard stack.count < maximumDepth else {
                        throw fail("nesting deeper than \(maximumDepth) levels", at: pos)
                    }
                    let isObject = byte == UInt8(ascii: "{")
                    stack.append(Frame(isObject: isObject, openOffset: pos))
                    pos += 1
                    state = isObject ? .firstKey : .firstElement
                } else if lenient, let top = stack.last, let skipped = try skipMissingValue(in: top) {
                    if skipped == .missingValue {
                        state = .afterValue
                    }
                } else {
                    let value = try parseScalar()
                    if stack.isEmpty {
                        return value
                    }
                    Self.append(value, to: &stack)
                    state = .afterValue
                }
            case .firstElement, .firstKey:
                try skipTrivia(topLevel: false)
                let closer = state == .firstKey ? UInt8(ascii: "}") : UInt8(ascii: "]")
                if pos < end, bytes[pos] == closer {
                    pos += 1
                    if let value = Self.close(&stack) {
                        return value
                    }
                    state = .afterValue
                } else {
                    state = state == .firstKey ? .key : .value
                }
            case .key:
                guard let next = try parseKey(&stack) else {
                    return try closeAtEndOfInput(&stack)
                }
                if next == .afterValue, let value = Self.close(&stack) {
                    return value
                }
                state = next
            case .afterValue:
                try skipTrivia(topLevel: false)
                guard pos < end else {
                    return try closeAtEndOfInput(&stack)
                }
                if let value = try afterValue(&stack, state: &state) {
                    return value
                }
            }
        }
    }

    /// What ``skipMissingValue(in:)`` found.
    enum Skipped {
        /// A `,` with no element before it; consumed.
        case emptyElement
        /// A closer where a value should be; not consumed.
        case missingValue
    }

    /// In lenient mode, at a value position inside a container: handles a `,` (empty array element) or a closer
    /// (missing value); `nil` when the byte is neither.
    mutating func skipMissingValue(in top: Frame) throws(ParseFailure) -> Skipped? {
        switch bytes[pos] {
        case UInt8(ascii: ",") where !top.isObject:
            try repair("unexpected ','; empty array element skipped", at: pos)
            pos += 1
            return .emptyElement
        case UInt8(ascii: "]"), UInt8(ascii: "}"):
            if top.isObject {
                try repair("missing value for key \"\(top.key)\"; member dropped", at: pos)
            } else {
                try repair("expected a value before '\(Character(Unicode.Scalar(bytes[pos])))'", at: pos)
            }
            return .missingValue
        default:
            return nil
        }
    }

    /// Parses an object key and the `:` after it. Returns the next state: `.value`, or `.afterValue` when the
    /// object was closed by a `}` in key position (lenient only); `nil` at the end of input.
    mutating func parseKey(_ stack: inout [Frame]) throws(ParseFailure) -> State? {
        let top = stack.count - 1
        while true {
            try skipTrivia(topLevel: false)
            guard pos < end else { return nil }
            let byte = bytes[pos]
            if lenient, byte == UInt8(ascii: ",") {
                try repair("unexpected ','; expected an object key", at: pos)
                pos += 1
                continue
            }
            if lenient, byte == UInt8(ascii: "}") {
                pos += 1
                return .afterValue
            }
            break
        }
        let keyOffset = pos
        let key: String
        switch bytes[pos] {
        case UInt8(ascii: "\""):
            key = try parseString(quote: UInt8(ascii: "\""), isKey: true)
        case UInt8(ascii: "'"):
            try repair("single-quoted string", at: pos)
            key = try parseString(quote: UInt8(ascii: "'"), isKey: true)
        case let byte where lenient && Self.isIdentifierStart(byte):
            try repair("unquoted object key", at: pos)
            key = parseIdentifier()
        default:
            throw fail("expected a string key for an object member, found \(describeCharacter(at: pos))", at: pos)
        }
        noteKey(key, at: keyOffset, in: &stack[top])
        stack[top].key = key
        try skipTrivia(topLevel: false)
        guard pos < end else { return nil }
        if bytes[pos] == UInt8(ascii: ":") {
            pos += 1
        } else if lenient, Self.startsValue(bytes[pos]) {
            try repair("expected ':' after object key", at: pos)
        } else {
            throw fail("expected ':' after object key, found \(describeCharacter(at: pos))", at: pos)
        }
        return .value
    }

    /// After a value inside a container, at a non-trivia byte: handles `,`, the closer and the lenient repairs.
    /// Returns the top-level value when the outermost container closes.
    mutating func afterValue(_ stack: inout [Frame], state: inout State) throws(ParseFailure) -> JSONValue? {
        let isObject = stack[stack.count - 1].isObject
        let closer = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
        let byte = bytes[pos]
        if byte == UInt8(ascii: ",") {
            let commaOffset = pos
            pos += 1
            try skipTrivia(topLevel: false)
            if pos < end, bytes[pos] == closer {
                try repair("trailing comma before '\(Character(Unicode.Scalar(closer)))'", at: commaOffset)
            } else {
                state = isObject ? .key : .value
            }
            return nil
        }
        if byte == closer {
            pos += 1
            return Self.close(&stack)
        }
        if lenient, byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") {
            let isObjectCloser = byte == UInt8(ascii: "}")
            let expected = isObject ? "'}'" : "']'"
            if stack.contains(where: { $0.isObject == isObjectCloser }) {
                try repair("missing \(expected) before '\(Character(Unicode.Scalar(byte)))'", at: pos)
                return Self.close(&stack)
            }
            try repair("unexpected '\(Character(Unicode.Scalar(byte)))' ignored; expected ',' or \(expected)", at: pos)
            pos += 1
            return nil
        }
        if lenient, isObject ? Self.startsKey(byte) : Self.startsValue(byte) {
            let what = isObject ? "object members" : "array elements"
            try repair("missing ',' between \(what)", at: pos)
            state = isObject ? .key : .value
            return nil
        }
        let expected = isObject ? "',' or '}' after an object member" : "',' or ']' after an array element"
        throw fail("expected \(expected), found \(describeCharacter(at: pos))", at: pos)
    }

    /// Lenient: closes every open container at the end of input. Strict: fails.
    mutating func closeAtEndOfInput(_ stack: inout [Frame]) throws(ParseFailure) -> JSONValue {
        while let frame = stack.last {
            let kind = frame.isObject ? "object" : "array"
            try repair("unexpected end of input; unterminated \(kind)", at: end, related: frame.openOffset)
            if let value = Self.close(&stack) {
                return value
            }
        }
        throw fail("unexpected end of input", at: end)
    }

    /// Pops the innermost container; returns its value when it was the outermost one, otherwise adds it to
    /// its parent.
    static func close(_ stack: inout [Frame]) -> JSONValue? {
        guard let frame = stack.popLast() else { return nil }
        let value = frame.isObject ? JSONValue.object(frame.object) : JSONValue.array(frame.elements)
        if stack.isEmpty {
            return value
        }
        append(value, to: &stack)
        return nil
    }

    /// Adds a completed value to the innermost container (as the value of its pending key, for objects).
    static func append(_ value: JSONValue, to stack: inout [Frame]) {
        let top = stack.count - 1
        if stack[top].isObject {
            stack[top].object.members.append(JSONObject.Member(key: stack[top].key, value: value))
        } else {
            stack[top].elements.append(value)
        }
    }

    /// Warns when `key` is already a key of the object being built.
    mutating func noteKey(_ key: String, at offset: Int, in frame: inout Frame) {
        let linearLimit = 12
        let duplicate: Bool
        if frame.keySet == nil, frame.object.members.count < linearLimit {
            duplicate = frame.object.members.contains { $0.key == key }
        } else {
            if frame.keySet == nil {
                frame.keySet = Set(frame.object.members.map(\.key))
            }
            duplicate = frame.keySet?.insert(key).inserted == false
        }
        if duplicate {
            report("duplicate key \"\(key)\"", at: offset, severity: .warning, recovered: false)
        }
    }
}
