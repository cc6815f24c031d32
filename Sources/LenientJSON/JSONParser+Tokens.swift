extension Parser {
    // MARK: Trivia

    /// Skips whitespace and, as repairs, comments, markers and other non-JSON filler. Markers and `;` are
    /// only filler around the top-level value.
    mutating func skipTrivia(topLevel: Bool) throws(ParseFailure) {
        while pos < end {
            switch bytes[pos] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
                pos += 1
            case UInt8(ascii: "/"):
                guard try skipJavaScriptComment() else { return }
            case UInt8(ascii: "<") where topLevel:
                guard try skipHTMLMarker() else { return }
            case UInt8(ascii: "-") where topLevel && matches("-->"):
                try repair("HTML comment marker '-->'", at: pos)
                pos += 3
            case UInt8(ascii: "]") where topLevel && matches("]]>"):
                try repair("CDATA end marker ']]>'", at: pos)
                pos += 3
            case UInt8(ascii: ";") where topLevel:
                try repair("stray ';' outside the JSON value", at: pos)
                pos += 1
            case 0x0B, 0x0C:
                try repair("invalid whitespace \(describeCharacter(at: pos))", at: pos)
                pos += 1
            case 0xC2 where pos + 1 < end && bytes[pos + 1] == 0xA0:
                try repair("invalid whitespace U+00A0 (no-break space)", at: pos)
                pos += 2
            case 0xEF where matches([0xEF, 0xBB, 0xBF]):
                try repair("byte order mark U+FEFF outside a string", at: pos)
                pos += 3
            default:
                return
            }
        }
    }

    /// At `/`: skips a `//` or `/* */` comment. Returns `false` when `/` does not start a comment.
    private mutating func skipJavaScriptComment() throws(ParseFailure) -> Bool {
        guard pos + 1 < end else { return false }
        let start = pos
        switch bytes[pos + 1] {
        case UInt8(ascii: "/"):
            try repair("JavaScript comment '//'", at: start)
            pos += 2
            while pos < end, bytes[pos] != UInt8(ascii: "\n"), bytes[pos] != UInt8(ascii: "\r") {
                pos += 1
            }
            return true
        case UInt8(ascii: "*"):
            try repair("JavaScript comment '/* */'", at: start)
            pos += 2
            while pos + 1 < end, !(bytes[pos] == UInt8(ascii: "*") && bytes[pos + 1] == UInt8(ascii: "/")) {
                pos += 1
            }
            if pos + 1 < end {
                pos += 2
            } else {
                try repair("unterminated comment '/*'", at: end, related: start)
                pos = end
            }
            return true
        default:
            return false
        }
    }

    /// At `<` around the top-level value: skips `<!--`, a whole `<!-- … -->` comment, or `<![CDATA[`.
    /// Returns `false` when `<` starts none of them.
    private mutating func skipHTMLMarker() throws(ParseFailure) -> Bool {
        if matches("<![CDATA[") {
            try repair("CDATA marker '<![CDATA['", at: pos)
            pos += 9
            return true
        }
        guard matches("<!--") else { return false }
        // `<!--` followed by JSON (or a script comment) is a wrapper marker; followed by text, it is a comment.
        var next = pos + 4
        while next < end, Self.isJSONWhitespace(bytes[next]) {
            next += 1
        }
        if next < end, !Self.isWrapperFollower(bytes[next]), let close = find("-->", from: next) {
            try repair("HTML comment '<!-- … -->'", at: pos)
            pos = close + 3
        } else {
            try repair("HTML comment marker '<!--'", at: pos)
            pos += 4
        }
        return true
    }

    private static func isWrapperFollower(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "\""), UInt8(ascii: "/"), UInt8(ascii: "<"):
            true
        default:
            false
        }
    }

    static func isJSONWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
            || byte == UInt8(ascii: "\t")
    }

    /// Whether the bytes at `pos` are `literal`.
    func matches(_ literal: StaticString) -> Bool {
        literal.withUTF8Buffer { matches($0) }
    }

    func matches(_ literal: [UInt8]) -> Bool {
        literal.withUnsafeBufferPointer { matches($0) }
    }

    private func matches(_ literal: UnsafeBufferPointer<UInt8>) -> Bool {
        guard end - pos >= literal.count else { return false }
        for index in literal.indices where bytes[pos + index] != literal[index] {
            return false
        }
        return true
    }

    /// The offset of the first `literal` at or after `start`.
    private func find(_ literal: StaticString, from start: Int) -> Int? {
        literal.withUTF8Buffer { needle -> Int? in
            guard let first = needle.first, end - start >= needle.count else { return nil }
            var index = start
            let last = end - needle.count
            while index <= last {
                if bytes[index] == first {
                    var matched = true
                    for offset in 1..<needle.count where bytes[index + offset] != needle[offset] {
                        matched = false
                        break
                    }
                    if matched {
                        return index
                    }
                }
                index += 1
            }
            return nil
        }
    }

    // MARK: Scalars

    /// Parses a string, number or literal at `pos`.
    mutating func parseScalar() throws(ParseFailure) -> JSONValue {
        let byte = bytes[pos]
        switch byte {
        case UInt8(ascii: "\""):
            return .string(try parseString(quote: byte))
        case UInt8(ascii: "'"):
            try repair("single-quoted string", at: pos)
            return .string(try parseString(quote: byte))
        case UInt8(ascii: "-"):
            if pos + 1 < end, bytes[pos + 1] == UInt8(ascii: "I") {
                pos += 1
                return try parseWord(negative: true)
            }
            return try parseNumber()
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try parseNumber()
        case UInt8(ascii: "+"), UInt8(ascii: "."):
            guard lenient, pos + 1 < end, JSONNumberSyntax.isDigit(bytes[pos + 1]) else { break }
            return try parseNumber()
        case _ where Self.isIdentifierStart(byte):
            return try parseWord(negative: false)
        default:
            break
        }
        throw fail("unexpected \(describeCharacter(at: pos)); expected a JSON value", at: pos)
    }

    /// Parses `true`, `false`, `null` and, leniently, `NaN`, `Infinity` (after `-` when `negative`) and
    /// `undefined`.
    private mutating func parseWord(negative: Bool) throws(ParseFailure) -> JSONValue {
        let start = negative ? pos - 1 : pos
        var wordEnd = pos
        while wordEnd < end, Self.isIdentifierByte(bytes[wordEnd]) {
            wordEnd += 1
        }
        let word = UnsafeBufferPointer(rebasing: bytes[pos..<wordEnd])
        var value: JSONValue?
        if !negative {
            if word.elementsEqual("true".utf8) {
                value = .bool(true)
            } else if word.elementsEqual("false".utf8) {
                value = .bool(false)
            } else if word.elementsEqual("null".utf8) {
                value = .null
            }
        }
        if value == nil, lenient,
            word.elementsEqual("Infinity".utf8)
                || (!negative && (word.elementsEqual("NaN".utf8) || word.elementsEqual("undefined".utf8)))
        {
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<wordEnd]), as: UTF8.self)
            try repair("\(text) is not a JSON value; replaced with null", at: start)
            value = .null
        }
        guard let value else {
            let shown = String(decoding: word.prefix(40), as: UTF8.self)
            throw fail("unexpected '\(negative ? "-" : "")\(shown)'; expected a JSON value", at: start)
        }
        pos = wordEnd
        return value
    }

    /// Parses a number at `pos` (`-`, a digit, or leniently `+` or `.` followed by a digit).
    private mutating func parseNumber() throws(ParseFailure) -> JSONValue {
        let start = pos
        var problem: (offset: Int, reason: String)
        switch bytes[start] {
        case UInt8(ascii: "+"):
            problem = (start, "leading '+' in number")
        case UInt8(ascii: "."):
            problem = (start, "number starts with '.'")
        default:
            switch JSONNumberSyntax.scan(bytes, from: start, end: end) {
            case .valid(let numberEnd):
                pos = numberEnd
                return .number(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<numberEnd]), as: UTF8.self))
            case .invalid(let offset, let reason):
                problem = (offset, reason)
            }
        }
        guard lenient else {
            throw fail(problem.reason, at: problem.offset)
        }
        var runEnd = start + 1
        while runEnd < end, Self.isNumberByte(bytes[runEnd]) {
            runEnd += 1
        }
        guard let text = JSONNumberSyntax.normalize(bytes, from: start, end: runEnd) else {
            throw fail(problem.reason, at: problem.offset)
        }
        try repair("\(problem.reason); read as \(text)", at: problem.offset)
        pos = runEnd
        return .number(text)
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"),
            UInt8(ascii: "+"), UInt8(ascii: "-"):
            true
        default:
            false
        }
    }

    // MARK: Identifiers

    /// Parses an unquoted key (lenient mode).
    mutating func parseIdentifier() -> String {
        let start = pos
        while pos < end, Self.isIdentifierByte(bytes[pos]) {
            pos += 1
        }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<pos]), as: UTF8.self)
    }

    /// ASCII letters, `_`, `$`, `@` and non-ASCII bytes.
    static func isIdentifierStart(_ byte: UInt8) -> Bool {
        let lower = byte | 0x20
        return (lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z")) || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: "$") || byte == UInt8(ascii: "@") || byte >= 0x80
    }

    /// Identifier starts, digits and `-`.
    static func isIdentifierByte(_ byte: UInt8) -> Bool {
        isIdentifierStart(byte) || JSONNumberSyntax.isDigit(byte) || byte == UInt8(ascii: "-")
    }

    /// Whether `byte` can start a value (used to recognize a missing `,` or `:`).
    static func startsValue(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "-"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            true
        default:
            false
        }
    }

    /// Whether `byte` clearly starts an object key (used to recognize a missing `,`).
    static func startsKey(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
    }

    // MARK: Messages

    /// `'x'` for printable ASCII, `U+XXXX` for other characters, `invalid UTF-8 byte 0xXX`, or `end of input`.
    func describeCharacter(at offset: Int) -> String {
        guard offset < end else { return "end of input" }
        let byte = bytes[offset]
        if byte == UInt8(ascii: "'") {
            return "\"'\""
        }
        if byte > 0x20, byte < 0x7F {
            return "'\(Character(Unicode.Scalar(byte)))'"
        }
        if byte < 0x80 {
            return "character " + Self.codePoint(UInt32(byte))
        }
        let sequence = utf8Sequence(at: offset)
        guard sequence.valid else {
            return "invalid UTF-8 byte " + Self.hexByte(byte)
        }
        return "character " + Self.codePoint(scalarValue(at: offset, length: sequence.length))
    }

    /// `U+XXXX` (at least four hex digits).
    static func codePoint(_ value: UInt32) -> String {
        let hex = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// `0xXX`.
    static func hexByte(_ byte: UInt8) -> String {
        let hex = String(byte, radix: 16, uppercase: true)
        return "0x" + (hex.count < 2 ? "0" : "") + hex
    }
}
