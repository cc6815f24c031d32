extension Parser {
    /// Parses a string starting at the opening `quote` at `pos` (`"`, or `'` in lenient mode). Keys never get
    /// the embedded-quote repair, so that `{"a" 1}` reads as a missing `:`.
    mutating func parseString(quote: UInt8, isKey: Bool = false) throws(ParseFailure) -> String {
        let repairsQuotes = lenient && !isKey
        let open = pos
        var index = pos + 1
        // Fast path: no escapes, no control characters; non-ASCII text is validated once, by String(validating:).
        var seen: UInt8 = 0
        while index < end {
            let byte = bytes[index]
            if byte == quote {
                if repairsQuotes, isEmbeddedQuote(at: index) {
                    break
                }
                let content = UnsafeBufferPointer(rebasing: bytes[(open + 1)..<index])
                if seen < 0x80 {
                    pos = index + 1
                    return String(decoding: content, as: UTF8.self)
                }
                if let string = String(validating: content, as: UTF8.self) {
                    pos = index + 1
                    return string
                }
                break
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 {
                break
            }
            seen |= byte
            index += 1
        }
        // Slow path: keep the ASCII prefix, or start over when it has non-ASCII bytes still to validate.
        scratch.removeAll(keepingCapacity: true)
        if seen < 0x80 {
            scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[(open + 1)..<index]))
        } else {
            index = open + 1
        }
        return try parseStringSlowly(open: open, from: index, quote: quote, repairsQuotes: repairsQuotes)
    }

    private mutating func parseStringSlowly(open: Int, from start: Int, quote: UInt8, repairsQuotes: Bool)
        throws(ParseFailure) -> String
    {
        var index = start
        while index < end {
            let runStart = index
            while index < end {
                let byte = bytes[index]
                if byte == quote || byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 {
                    break
                }
                index += 1
            }
            if runStart < index {
                scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
            }
            guard index < end else { break }
            let byte = bytes[index]
            if byte == quote {
                if repairsQuotes, isEmbeddedQuote(at: index) {
                    try repair("unescaped '\(Character(Unicode.Scalar(quote)))' inside a string", at: index)
                    scratch.append(byte)
                    index += 1
                    continue
                }
                pos = index + 1
                return String(decoding: scratch, as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") {
                index = try parseEscape(at: index, quote: quote)
            } else if byte < 0x20 {
                try repair("unescaped control character \(Self.codePoint(UInt32(byte))) in string", at: index)
                scratch.append(byte)
                index += 1
            } else {
                let sequence = utf8Sequence(at: index)
                if sequence.valid {
                    scratch.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<(index + sequence.length)]))
                } else {
                    try repair("invalid UTF-8 byte \(Self.hexByte(byte)) in string; replaced with U+FFFD", at: index)
                    scratch.append(contentsOf: [0xEF, 0xBF, 0xBD])
                }
                index += sequence.length
            }
        }
        try repair("unexpected end of input; unterminated string", at: end, related: open)
        pos = end
        return String(decoding: scratch, as: UTF8.self)
    }

    /// Decodes the escape whose backslash is at `backslash`; returns the offset after it. An invalid escape in
    /// lenient mode drops the backslash and returns the offset of the escaped character, which is then kept.
    private mutating func parseEscape(at backslash: Int, quote: UInt8) throws(ParseFailure) -> Int {
        let index = backslash + 1
        guard index < end else { return index }
        let escaped = bytes[index]
        switch escaped {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"):
            scratch.append(escaped)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            return try parseUnicodeEscape(at: backslash)
        case quote:
            // `\'` inside a single-quoted string (lenient mode only).
            scratch.append(escaped)
        case 0x21..<0x7F:
            try repair("invalid escape sequence '\\\(Character(Unicode.Scalar(escaped)))' in string", at: backslash)
            return index
        default:
            try repair("invalid escape sequence: '\\' before \(describeCharacter(at: index)) in string", at: backslash)
            return index
        }
        return index + 1
    }

    /// Decodes `\uXXXX`, combining a surrogate pair; a lone surrogate becomes U+FFFD with a warning.
    private mutating func parseUnicodeEscape(at backslash: Int) throws(ParseFailure) -> Int {
        guard let unit = hex4(at: backslash + 2) else {
            try repair("invalid escape sequence '\\u': expected four hexadecimal digits", at: backslash)
            return backslash + 1
        }
        var next = backslash + 6
        var scalar = unit
        if (0xD800...0xDBFF).contains(unit), next + 1 < end, bytes[next] == UInt8(ascii: "\\"),
            bytes[next + 1] == UInt8(ascii: "u"), let low = hex4(at: next + 2), (0xDC00...0xDFFF).contains(low)
        {
            scalar = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
            next += 6
        } else if (0xD800...0xDFFF).contains(unit) {
            scalar = 0xFFFD
            let reason = "lone UTF-16 surrogate '\\u\(Self.codePoint(unit).dropFirst(2))' replaced with U+FFFD"
            report(reason, at: backslash, severity: .warning, recovered: true)
        }
        appendUTF8(scalar)
        return next
    }

    /// The value of four hexadecimal digits at `offset`.
    private func hex4(at offset: Int) -> UInt32? {
        guard offset + 4 <= end else { return nil }
        var value: UInt32 = 0
        for index in offset..<(offset + 4) {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    private mutating func appendUTF8(_ scalar: UInt32) {
        switch scalar {
        case 0..<0x80:
            scratch.append(UInt8(scalar))
        case 0x80..<0x800:
            scratch.append(UInt8(0xC0 | scalar >> 6))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        case 0x800..<0x10000:
            scratch.append(UInt8(0xE0 | scalar >> 12))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        default:
            scratch.append(UInt8(0xF0 | scalar >> 18 & 0x07))
            scratch.append(UInt8(0x80 | scalar >> 12 & 0x3F))
            scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
            scratch.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    /// Lenient heuristic: a quote followed (on the same line, after spaces or tabs) by an ASCII letter is part of
    /// the string, as in `"The "Best" Pizza"`.
    func isEmbeddedQuote(at index: Int) -> Bool {
        var next = index + 1
        while next < end, bytes[next] == UInt8(ascii: " ") || bytes[next] == UInt8(ascii: "\t") {
            next += 1
        }
        guard next < end else { return false }
        let lower = bytes[next] | 0x20
        return lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z")
    }

    // MARK: UTF-8

    /// See ``UTF8Sequence/check(_:at:end:)``.
    func utf8Sequence(at index: Int) -> (valid: Bool, length: Int) {
        UTF8Sequence.check(bytes, at: index, end: end)
    }

    /// See ``UTF8Sequence/scalarValue(_:at:length:)``.
    func scalarValue(at index: Int, length: Int) -> UInt32 {
        UTF8Sequence.scalarValue(bytes, at: index, length: length)
    }
}
