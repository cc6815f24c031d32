/// Escaping for the HTML report: every string that comes from a crawled page goes through here
/// before it reaches the document. Pages are hostile (Fixtures/html/broken/hostile.html).
public enum HTMLEscaping {
    /// `text` made safe as element content and as a quoted attribute value: `& < > " '` become
    /// character references; C0 controls other than tab, line feed and carriage return, DEL and
    /// the noncharacters U+FFFE/U+FFFF become U+FFFD (HTML forbids them).
    public static func escape(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsWork) else { return text }
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            case _ where isForbidden(scalar): escaped.unicodeScalars.append("\u{FFFD}")
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// The URL, escaped for an `href` or `src` attribute, when it is an absolute http(s) URL
    /// without whitespace or controls (which browsers strip, so `java\nscript:` cannot pass); nil
    /// otherwise: `javascript:`, `data:`, relative and protocol-relative URLs are never linked.
    public static func safeURL(_ url: String) -> String? {
        let lowercased = url.lowercased()
        guard lowercased.hasPrefix("https://") || lowercased.hasPrefix("http://"),
            !url.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F || $0 == "\\" })
        else { return nil }
        return escape(url)
    }

    private static func needsWork(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "&", "<", ">", "\"", "'": true
        default: isForbidden(scalar)
        }
    }

    private static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: false
        case 0x00...0x1F, 0x7F, 0xFFFE, 0xFFFF: true
        default: false
        }
    }
}
