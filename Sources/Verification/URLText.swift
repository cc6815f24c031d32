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
}
