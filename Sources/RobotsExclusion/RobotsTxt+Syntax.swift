import URLNormalization

extension RobotsTxt {
    /// Splits a line into a lower-cased key and a trimmed value; nil for blank lines, comments and
    /// lines without a key.
    static func keyValue(_ line: ArraySlice<UInt8>, mode: Mode) -> (String, String)? {
        var content = line
        if let hash = content.firstIndex(of: UInt8(ascii: "#")) { content = content[..<hash] }
        let trimmed = content.trimmingSpaces()
        guard !trimmed.isEmpty else { return nil }
        let key: ArraySlice<UInt8>
        let value: ArraySlice<UInt8>
        if let colon = trimmed.firstIndex(of: UInt8(ascii: ":")) {
            key = trimmed[..<colon].trimmingSpaces()
            value = trimmed[trimmed.index(after: colon)...].trimmingSpaces()
        } else if mode == .google, let space = trimmed.firstIndex(where: { $0 == 0x20 || $0 == 0x09 }) {
            // Google accepts `user-agent FooBot` / `disallow /` without the colon.
            key = trimmed[..<space]
            value = trimmed[space...].trimmingSpaces()
            guard value.first.map({ $0 != UInt8(ascii: ":") }) ?? true else { return nil }
        } else {
            return nil
        }
        let name = String(decoding: key, as: UTF8.self).lowercased()
        return (name, String(decoding: value, as: UTF8.self))
    }

    /// The product token a `user-agent` value names, lower-cased.
    static func agentValue(_ value: String, mode: Mode) -> String {
        guard mode == .google, value != "*" else { return value.lowercased() }
        // Google: the token ends at the first character outside [A-Za-z_-].
        let token = value.prefix { $0.isASCII && ($0.isLetter || $0 == "_" || $0 == "-") }
        return token.lowercased()
    }

    /// A rule's path pattern, normalised (§2.2.2), with `*` as nil and a final `$` as the anchor.
    static func pattern(_ raw: [UInt8], mode: Mode) -> ([UInt8?], Bool) {
        var bytes = raw
        var anchored = false
        if bytes.last == UInt8(ascii: "$") {
            anchored = true
            bytes.removeLast()
        }
        var tokens: [UInt8?] = []
        var literal: [UInt8] = []
        func flush() {
            tokens += normalize(literal, mode: mode, forPattern: true).map { Optional($0) }
            literal.removeAll()
        }
        for byte in bytes {
            if byte == UInt8(ascii: "*") {
                flush()
                if tokens.last.map({ $0 != nil }) ?? true { tokens.append(nil) }
            } else {
                literal.append(byte)
            }
        }
        flush()
        return (tokens, anchored)
    }

    /// The path and query of a URL (or the path given), normalised; "/" when empty.
    static func normalizedPath(of url: String, mode: Mode) -> [UInt8] {
        var bytes = Array(url.utf8)
        if let hash = bytes.firstIndex(of: UInt8(ascii: "#")) { bytes = Array(bytes[..<hash]) }
        if let schemeEnd = firstIndex(of: Array("://".utf8), in: bytes) {
            let afterAuthority = bytes[(schemeEnd + 3)...].firstIndex {
                $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?")
            }
            bytes = afterAuthority.map { Array(bytes[$0...]) } ?? []
        }
        if bytes.first == UInt8(ascii: "?") { bytes.insert(UInt8(ascii: "/"), at: 0) }
        if bytes.isEmpty { bytes = [UInt8(ascii: "/")] }
        return normalize(bytes, mode: mode)
    }

    /// RFC 9309 §2.2.2: octets outside US-ASCII are percent-encoded; percent-encoded octets are
    /// decoded when they stand for an unreserved character (or `*`/`$`, matched literally); hex
    /// digits are upper-cased.
    /// (Google mode encodes non-ASCII octets in patterns only, leaves the URL as the caller gave
    /// it, and decodes nothing.)
    static func normalize(_ bytes: [UInt8], mode: Mode, forPattern: Bool = false) -> [UInt8] {
        let hex = Array("0123456789ABCDEF".utf8)
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count, let high = ParsedURL.hexValue(bytes[index + 1]),
                let low = ParsedURL.hexValue(bytes[index + 2])
            {
                let decoded = high << 4 | low
                // `%2A` and `%24` stand for a literal `*` or `$` (never a wildcard or anchor).
                if mode == .rfc9309,
                    ParsedURL.isUnreserved(decoded) || decoded == UInt8(ascii: "*") || decoded == UInt8(ascii: "$")
                {
                    result.append(decoded)
                } else {
                    result += [UInt8(ascii: "%"), hex[Int(high)], hex[Int(low)]]
                }
                index += 3
                continue
            }
            if byte >= 0x80, mode == .rfc9309 || forPattern {
                result += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            } else {
                result.append(byte)
            }
            index += 1
        }
        return result
    }

    static func firstIndex(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        for start in 0...(haystack.count - needle.count)
        where haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return start
        }
        return nil
    }
}

extension ArraySlice<UInt8> {
    func trimmingSpaces() -> ArraySlice<UInt8> {
        var slice = self
        while let first = slice.first, first == 0x20 || first == 0x09 { slice = slice.dropFirst() }
        while let last = slice.last, last == 0x20 || last == 0x09 { slice = slice.dropLast() }
        return slice
    }
}
