import Foundation

/// Resolves references found in a page against its base URL (RFC 3986 via Foundation), after the
/// clean-up WHATWG URL parsing does first: leading/trailing whitespace trimmed, tabs and newlines
/// removed, spaces and non-ASCII percent-encoded. A reference that cannot be resolved is returned
/// as written, so nothing is lost.
public struct URLResolver: Sendable {
    public let base: String
    private let baseURL: URL?

    public init(base: String) {
        self.base = base
        self.baseURL = URL(string: Self.clean(base))
    }

    /// `reference` resolved against the base.
    public func resolve(_ reference: String) -> String {
        let cleaned = Self.clean(reference)
        guard let baseURL else { return cleaned }
        if cleaned.isEmpty {
            return Self.withoutFragment(baseURL.absoluteString)
        }
        guard let url = URL(string: cleaned, relativeTo: baseURL) else { return cleaned }
        return url.absoluteString
    }

    /// A resolver for `<base href>`, itself resolved against this one.
    public func rebased(onto href: String) -> URLResolver {
        URLResolver(base: resolve(href))
    }

    static func withoutFragment(_ url: String) -> String {
        guard let hash = url.firstIndex(of: "#") else { return url }
        return String(url[..<hash])
    }

    /// Trims ASCII whitespace, drops tab/CR/LF, and percent-encodes spaces, `"`, `<`, `>`, `` ` ``,
    /// `{`, `}`, `|`, `\`-free control characters and non-ASCII bytes.
    static func clean(_ reference: String) -> String {
        let trimmed = reference.trimmingASCIIWhitespace()
        var needsWork = false
        for byte in trimmed.utf8
        where byte <= 0x20 || byte >= 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "<")
            || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "`") || byte == UInt8(ascii: "{")
            || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "|") || byte == UInt8(ascii: "^")
        {
            needsWork = true
            break
        }
        guard needsWork else { return trimmed }
        let hex: [UInt8] = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(trimmed.utf8.count + 16)
        for byte in trimmed.utf8 {
            switch byte {
            case 0x09, 0x0A, 0x0D:
                continue
            case 0...0x20, 0x7F...0xFF, UInt8(ascii: "\""), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "`"),
                UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "|"), UInt8(ascii: "^"):
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0x0F)])
            default:
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
