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
        if let opaque = Self.opaqueURL(reference) { return opaque }
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

    /// Schemes the URL Standard calls special: their URLs have a host and a hierarchical path.
    private static let specialSchemes: Set<String> = ["http", "https", "ftp", "ws", "wss", "file"]

    /// An absolute URL with an opaque path (`mailto:`, `data:`, `tel:`, `javascript:` … — a scheme
    /// that is not special, and no `/` after its colon) as the URL Standard's basic URL parser
    /// gives it: leading and trailing C0 controls and spaces stripped, tabs and newlines removed,
    /// the scheme lower-cased, and only what the standard encodes percent-encoded — C0 controls
    /// and non-ASCII in the path ("opaque path state"; a space there stays, or is %20 before a `?`
    /// or `#`), plus space, `"`, `<`, `>` in the query and `` ` `` too in the fragment. Nil for any
    /// other reference, which `clean` and Foundation resolve.
    static func opaqueURL(_ reference: String) -> String? {
        var bytes = Array(reference.utf8)
        while let first = bytes.first, first <= 0x20 { bytes.removeFirst() }
        while let last = bytes.last, last <= 0x20 { bytes.removeLast() }
        bytes.removeAll { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0 else { return nil }
        let scheme = bytes[..<colon]
        func isAlpha(_ byte: UInt8) -> Bool { (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }
        guard let first = scheme.first, isAlpha(first),
            scheme.allSatisfy({
                isAlpha($0) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: "+")
                    || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
            })
        else { return nil }
        let loweredScheme = String(decoding: scheme.map { isAlpha($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
        guard !specialSchemes.contains(loweredScheme), colon + 1 < bytes.count,
            bytes[colon + 1] != UInt8(ascii: "/")
        else { return nil }
        let hex: [UInt8] = Array("0123456789ABCDEF".utf8)
        var output = Array(loweredScheme.utf8) + [UInt8(ascii: ":")]
        enum Part { case path, query, fragment }
        var part = Part.path
        var index = colon + 1
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "?"), part == .path {
                part = .query
                output.append(byte)
            } else if byte == UInt8(ascii: "#"), part != .fragment {
                part = .fragment
                output.append(byte)
            } else {
                let encodes: Bool
                switch part {
                case .path:
                    let next = index + 1 < bytes.count ? bytes[index + 1] : 0
                    encodes =
                        byte < 0x20 || byte > 0x7E
                        || (byte == 0x20 && (next == UInt8(ascii: "?") || next == UInt8(ascii: "#")))
                case .query:
                    encodes =
                        byte <= 0x20 || byte > 0x7E || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "<")
                        || byte == UInt8(ascii: ">")
                case .fragment:
                    encodes =
                        byte <= 0x20 || byte > 0x7E || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "<")
                        || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "`")
                }
                if encodes {
                    output += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
                } else {
                    output.append(byte)
                }
            }
            index += 1
        }
        return String(decoding: output, as: UTF8.self)
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
