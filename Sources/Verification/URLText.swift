import URLNormalization

/// Facts about URL text as written, shared by the checks.
enum URLText {
    /// Whether the text starts with an RFC 3986 scheme and a colon: an ASCII letter, then ASCII
    /// letters, digits, `+`, `-` or `.`.
    static func hasScheme(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":"), let first = text.first, first.isASCII, first.isLetter else {
            return false
        }
        return text[..<colon].allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
    }

    /// The first `%` that does not start a percent-encoded octet (RFC 3986 §2.1: `%` and two hex
    /// digits), with what follows it, e.g. `%u2026` (JavaScript's `escape`) or `%E2%8`; nil when
    /// every `%` is followed by two hex digits.
    static func invalidPercentEncoding(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "%") {
            let octet = bytes[(index + 1)...].prefix(2)
            if octet.count < 2 || !octet.allSatisfy({ ParsedURL.hexValue($0) != nil }) {
                return String(decoding: bytes[index...].prefix(6), as: UTF8.self)
            }
        }
        return nil
    }
}
