import URLNormalization

/// Resolves references found in a page against its base URL as the WHATWG URL Standard does, with
/// the crawler's parser (`URLParser`), so that extraction, the rules and the crawl read every link
/// as a browser does. A reference the standard cannot parse is returned as written (trimmed, tabs
/// and newlines removed, what no URL may hold percent-encoded), so nothing is lost.
public struct URLResolver: Sendable {
    public let base: String
    /// The base as the standard parses it; nil where it does not parse, and then only absolute
    /// references resolve.
    private let parsedBase: ParsedURL?

    public init(base: String) {
        self.base = base
        self.parsedBase = URLParser.parse(base)
    }

    /// `reference` resolved against the base.
    public func resolve(_ reference: String) -> String {
        if let nonSpecial = Self.nonSpecialURL(reference) { return nonSpecial }
        if let url = URLParser.parse(reference, base: parsedBase) { return url.description }
        let cleaned = Self.clean(reference)
        // The standard fails an empty reference against an opaque base (`about:blank`) or none;
        // it stands for the page itself, as it did before.
        return cleaned.isEmpty ? Self.withoutFragment(Self.clean(base)) : cleaned
    }

    /// A URL written as a structured-data value (a Microdata `href`/`src`/`itemid`, an RDFa IRI)
    /// resolved as RFC 3986 (§5.2.2) does, which RDFa Core names and the structured-data references
    /// follow (the W3C RDFa suite, extruct): an absolute reference of a special scheme is kept as
    /// written, only its dot segments removed, where the URL Standard would also add a `/` to an
    /// empty path and lower-case the host. Relative references resolve as `resolve` does; the two
    /// standards agree on them against an HTTP base.
    public func resolveStructuredDataURL(_ reference: String) -> String {
        let cleaned = Self.clean(reference)
        guard let colon = cleaned.utf8.firstIndex(of: UInt8(ascii: ":")),
            Self.isSpecialScheme(cleaned.utf8[..<colon])
        else { return resolve(reference) }
        return Self.removingDotSegments(fromAbsolute: cleaned, afterScheme: cleaned.utf8.index(after: colon))
    }

    /// RFC 3986 §5.2.4 applied to the path of an absolute reference: the part after the authority
    /// (when `//` starts one) up to `?` or `#`.
    static func removingDotSegments(fromAbsolute url: String, afterScheme start: String.Index) -> String {
        // Byte offsets: every delimiter looked for is ASCII, so they fall on character boundaries.
        let bytes = url.utf8
        let slash = UInt8(ascii: "/"), question = UInt8(ascii: "?"), hash = UInt8(ascii: "#")
        var pathStart = start
        if bytes[start...].starts(with: [slash, slash]) {
            let authority = bytes.index(start, offsetBy: 2)
            pathStart =
                bytes[authority...].firstIndex(where: { $0 == slash || $0 == question || $0 == hash }) ?? bytes.endIndex
        }
        let pathEnd = bytes[pathStart...].firstIndex(where: { $0 == question || $0 == hash }) ?? bytes.endIndex
        guard Self.hasDotSegment(bytes[pathStart..<pathEnd]) else { return url }
        let path = Self.removingDotSegments(Array(bytes[pathStart..<pathEnd]))
        return String(url[..<pathStart]) + String(decoding: path, as: UTF8.self) + String(url[pathEnd...])
    }

    /// RFC 3986 §5.2.4's `remove_dot_segments`, step by step as the RFC writes it (rules A to E), so
    /// that a path without a leading `/` (`http:a/../b`, which gives `/b`) comes out as it says too.
    static func removingDotSegments(_ path: [UInt8]) -> [UInt8] {
        let dot = UInt8(ascii: "."), slash = UInt8(ascii: "/")
        var input = path[...]
        var output: [UInt8] = []
        output.reserveCapacity(path.count)
        while !input.isEmpty {
            if input.starts(with: [dot, dot, slash]) {
                input = input.dropFirst(3)  // A
            } else if input.starts(with: [dot, slash]) {
                input = input.dropFirst(2)  // A
            } else if input.starts(with: [slash, dot, slash]) {
                input = input.dropFirst(2)  // B: "/./" becomes "/"
            } else if input.elementsEqual([slash, dot]) {
                input = [slash]  // B
            } else if input.starts(with: [slash, dot, dot, slash]) || input.elementsEqual([slash, dot, dot]) {
                // C: "/../" or a final "/.." becomes "/", and the output's last segment goes.
                input = input.count == 3 ? [slash] : input.dropFirst(3)
                output.removeSubrange((output.lastIndex(of: slash) ?? 0)..<output.endIndex)
            } else if input.elementsEqual([dot]) || input.elementsEqual([dot, dot]) {
                input = []  // D
            } else {
                // E: the first segment, with its leading "/", moves to the output.
                let end = input.dropFirst().firstIndex(of: slash) ?? input.endIndex
                output += input[..<end]
                input = input[end...]
            }
        }
        return output
    }

    /// True when a segment of `path` is `.` or `..`, the only ones §5.2.4 changes: most paths
    /// have none, and are kept without splitting them.
    static func hasDotSegment(_ path: Substring.UTF8View) -> Bool {
        let dot = UInt8(ascii: "."), slash = UInt8(ascii: "/")
        var index = path.startIndex
        while index < path.endIndex {
            // `index` starts a segment here.
            var cursor = index
            if path[cursor] == dot {
                cursor = path.index(after: cursor)
                if cursor < path.endIndex, path[cursor] == dot { cursor = path.index(after: cursor) }
                if cursor == path.endIndex || path[cursor] == slash { return true }
            }
            guard let next = path[cursor...].firstIndex(of: slash) else { return false }
            index = path.index(after: next)
        }
        return false
    }

    /// `scheme` (as written) is one of `specialSchemes`, in any case.
    private static func isSpecialScheme(_ scheme: Substring.UTF8View) -> Bool {
        guard scheme.count <= 5 else { return false }
        let lowered = String(decoding: scheme.map { $0 | ($0 >= 0x41 && $0 <= 0x5A ? 0x20 : 0) }, as: UTF8.self)
        return specialSchemes.contains(lowered)
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

    /// An absolute URL of a scheme that is not special (`mailto:`, `data:`, `tel:`, `javascript:`,
    /// `android-app://` …) as the URL Standard's basic URL parser gives it, where `URLParser` (which
    /// keeps every such URL opaque, only C0 controls and non-ASCII encoded) does not: leading and
    /// trailing C0 controls and spaces stripped, tabs and newlines removed, the scheme lower-cased,
    /// and only what the standard encodes percent-encoded — in an opaque path (no `/` after the
    /// colon; "opaque path state") C0 controls and non-ASCII, and a space only right before a `?`
    /// or `#`; in a path that starts with `/` the path percent-encode set (space, `"`, `<`, `>`,
    /// `` ` ``, `{`, `}` too); space, `"`, `<`, `>` in the query and `` ` `` too in the fragment.
    /// Nil for any other reference, which `URLParser` resolves.
    static func nonSpecialURL(_ reference: String) -> String? {
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
        guard !specialSchemes.contains(loweredScheme), colon + 1 < bytes.count else { return nil }
        let hierarchical = bytes[colon + 1] == UInt8(ascii: "/")
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
                case .path where hierarchical:
                    encodes =
                        byte <= 0x20 || byte > 0x7E || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "<")
                        || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "`") || byte == UInt8(ascii: "{")
                        || byte == UInt8(ascii: "}")
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

    /// A reference the standard cannot parse, as written: ASCII whitespace trimmed, tab/CR/LF
    /// dropped, and spaces, `"`, `<`, `>`, `` ` ``, `{`, `}`, `|`, `^`, control characters and
    /// non-ASCII bytes percent-encoded.
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
