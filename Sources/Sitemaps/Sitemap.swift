import URLNormalization

/// A sitemap read by the sitemaps.org protocol: a `urlset` (pages), a `sitemapindex` (child
/// sitemaps) or a text sitemap (one URL a line), gzip or not.
public struct Sitemap: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        case urlset, sitemapIndex = "sitemapindex", text
    }

    public struct Entry: Sendable, Hashable {
        /// The `<loc>` as written (entities and CDATA decoded, white space trimmed).
        public var location: String
        public var lastModified: String?
        public var changeFrequency: String?
        public var priority: String?
        public var line: Int
    }

    public struct Dropped: Sendable, Hashable {
        public var location: String
        public var reason: String
        public var line: Int
    }

    public var kind: Kind
    /// Entries that pass the location rule (urlset: pages; sitemapindex: child sitemaps).
    public var entries: [Entry]
    /// Entries left out, with the reason (another host, outside the sitemap's folder …).
    public var dropped: [Dropped]
    public var warnings: [String]
}

/// Why a sitemap was refused as a whole.
public struct SitemapError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: String, Sendable, Hashable {
        case notASitemap = "not-a-sitemap"
        case malformedXML = "malformed-xml"
        case doctypeRefused = "doctype-refused"
        case wrongNamespace = "wrong-namespace"
        case tooManyEntries = "too-many-entries"
        case tooLarge = "too-large"
        case badCompression = "bad-compression"
    }

    public var code: Code
    public var message: String
    public var line: Int?

    public var description: String { line.map { "line \($0): \(message)" } ?? message }
}

public enum SitemapReader {
    public static let maximumEntries = 50_000
    /// 50 MiB, uncompressed.
    public static let maximumBytes = 52_428_800
    public static let namespace = "http://www.sitemaps.org/schemas/sitemap/0.9"

    /// Characters kept of a dropped entry's location (issue 17 §2.10: twenty sitemaps of one 40 MB
    /// `<loc>` each kept 1 GB of rejected URLs for the report).
    public static let maximumDroppedLocationLength = 512

    /// Reads a sitemap served from `sitemapURL`. `sameHostOnly` relaxes the location rule to
    /// scheme + host + port (Google's practice) instead of also requiring the sitemap's folder.
    public static func read(
        _ body: [UInt8], sitemapURL: String, sameHostOnly: Bool = false, lenientNamespace: Bool = false
    ) throws(SitemapError) -> Sitemap {
        var bytes = body
        if bytes.starts(with: [0x1F, 0x8B]) {
            do {
                bytes = try Inflater.inflate(bytes, limit: maximumBytes)
            } catch {
                switch error {
                case .tooLarge(let limit):
                    throw SitemapError(code: .tooLarge, message: "inflates to more than \(limit) bytes (50 MiB)")
                case .corrupt(let code, let message):
                    throw SitemapError(
                        code: .badCompression, message: "gzip data is corrupt: \(message) (zlib \(code))")
                }
            }
        }
        guard bytes.count <= maximumBytes else {
            throw SitemapError(code: .tooLarge, message: "\(bytes.count) bytes is over the 50 MiB limit")
        }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        let firstVisible = bytes.first { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) }
        var sitemap: Sitemap
        if firstVisible == UInt8(ascii: "<") {
            let start = bytes.firstIndex(of: UInt8(ascii: "<")) ?? 0
            sitemap = try readXML(Array(bytes[start...]), lenientNamespace: lenientNamespace)
        } else {
            sitemap = try readText(bytes)
        }
        guard sitemap.entries.count <= maximumEntries else {
            throw SitemapError(code: .tooManyEntries, message: "\(sitemap.entries.count) entries (the limit is 50,000)")
        }
        // The location rule.
        var kept: [Sitemap.Entry] = []
        for entry in sitemap.entries {
            let listsItself =
                sitemap.kind == .sitemapIndex
                && URLParser.parse(entry.location)?.deduplicationKey == URLParser.parse(sitemapURL)?.deduplicationKey
            if let reason = listsItself
                ? "the index lists itself"
                : SitemapLocation.violation(
                    of: entry.location, sitemapURL: sitemapURL,
                    checkFolder: sitemap.kind != .sitemapIndex && !sameHostOnly)
            {
                sitemap.dropped.append(
                    Sitemap.Dropped(
                        location: entry.location.abbreviated(toScalars: maximumDroppedLocationLength), reason: reason,
                        line: entry.line))
            } else {
                kept.append(entry)
            }
        }
        sitemap.entries = kept
        return sitemap
    }

    static func readText(_ bytes: [UInt8]) throws(SitemapError) -> Sitemap {
        var sitemap = Sitemap(kind: .text, entries: [], dropped: [], warnings: [])
        var sawURL = false
        for (index, rawLine) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            let line = String(decoding: rawLine, as: UTF8.self).trimmingWhitespace()
            if line.isEmpty { continue }
            let lower = line.lowercased()
            if lower.hasPrefix("http://") || lower.hasPrefix("https://") { sawURL = true }
            sitemap.entries.append(Sitemap.Entry(location: line, line: index + 1))
        }
        guard sawURL else {
            throw SitemapError(code: .notASitemap, message: "neither XML nor a list of http(s) URLs")
        }
        return sitemap
    }

    static func readXML(_ bytes: [UInt8], lenientNamespace: Bool) throws(SitemapError) -> Sitemap {
        let collector = XMLEventCollector()
        var kind: Sitemap.Kind?
        var rootNamespace: String?
        var rootName: String?
        var depth = 0
        var entries: [Sitemap.Entry] = []
        var current: Sitemap.Entry?
        var field: String?
        var text: [UInt8] = []
        collector.onStart = { name, namespace, line in
            depth += 1
            if depth == 1 {
                rootName = name
                rootNamespace = namespace
                kind = name == "urlset" ? .urlset : name == "sitemapindex" ? .sitemapIndex : nil
                return
            }
            // Only the protocol's own elements count (extensions live in other namespaces).
            guard kind != nil, namespace == rootNamespace else { return }
            if depth == 2, name == (kind == .urlset ? "url" : "sitemap") {
                current = Sitemap.Entry(location: "", line: line)
            } else if depth == 3, current != nil, ["loc", "lastmod", "changefreq", "priority"].contains(name) {
                field = name
                text = []
            }
        }
        collector.onCharacters = { bytes in
            if field != nil { text.append(contentsOf: bytes) }
        }
        collector.onEnd = { endName in
            defer { depth -= 1 }
            if depth == 3, let open = field, open == endName {
                let value = String(decoding: text, as: UTF8.self).trimmingWhitespace()
                switch open {
                case "loc": current?.location = value
                case "lastmod": current?.lastModified = value
                case "changefreq": current?.changeFrequency = value
                case "priority": current?.priority = value
                default: break
                }
                field = nil
            } else if depth == 2, let entry = current {
                if !entry.location.isEmpty { entries.append(entry) }
                current = nil
            }
        }
        guard let report = collector.scan(bytes) else {
            throw SitemapError(code: .malformedXML, message: "the XML parser could not start")
        }
        if report.hasDoctype {
            throw SitemapError(code: .doctypeRefused, message: "a DOCTYPE (entities are never expanded or loaded)")
        }
        guard report.wellFormed else {
            throw SitemapError(
                code: .malformedXML, message: "not well-formed XML: \(report.errorMessage)", line: report.errorLine)
        }
        guard let kind else {
            throw SitemapError(
                code: .notASitemap, message: "the root element <\(rootName ?? "?")> is not urlset or sitemapindex")
        }
        var warnings: [String] = []
        if rootNamespace != namespace {
            let found = rootNamespace ?? "no namespace"
            guard lenientNamespace || rootNamespace == nil else {
                throw SitemapError(code: .wrongNamespace, message: "namespace \(found), not \(namespace)")
            }
            warnings.append("namespace \(found), not \(namespace)")
        }
        if report.cappedElements > 0 {
            warnings.append(
                "line \(report.cappedFirstLine): \(report.cappedElements) start tag(s) with more than "
                    + "\(XMLEventCollector.maximumAttributes) attributes; the rest of each was not read")
        }
        for entry in entries where entry.location.unicodeScalars.contains(where: { !$0.isASCII }) {
            warnings.append("line \(entry.line): <loc> has unescaped non-ASCII characters")
        }
        return Sitemap(kind: kind, entries: entries, dropped: [], warnings: warnings)
    }
}

/// The sitemaps.org location rule.
public enum SitemapLocation {
    /// Why `url` may not be listed by the sitemap at `sitemapURL`, or nil when it may: an absolute
    /// http(s) URL under 2,048 characters, with the sitemap's scheme, host and port, and (when
    /// `checkFolder`) a path inside the sitemap's folder.
    public static func violation(of url: String, sitemapURL: String, checkFolder: Bool) -> String? {
        guard url.count < 2048 else { return "2,048 characters or more" }
        guard let sitemap = URLParser.parse(sitemapURL) else { return "the sitemap URL does not parse" }
        guard let scheme = url.split(separator: ":", maxSplits: 1).first, !url.hasPrefix("/"), url.contains(":") else {
            return "not absolute"
        }
        let lowered = scheme.lowercased()
        guard lowered == "http" || lowered == "https" else { return "not http(s)" }
        guard let parsed = URLParser.parse(url) else { return "does not parse" }
        if !parsed.username.isEmpty || !parsed.password.isEmpty { return "has user information" }
        if parsed.scheme != sitemap.scheme { return "scheme differs" }
        if parsed.host != sitemap.host { return "host differs" }
        if parsed.port != sitemap.port { return "port differs" }
        if checkFolder {
            let folder = sitemap.pathSegments.dropLast().joined(separator: "/")
            let prefix = "/" + folder + (folder.isEmpty ? "" : "/")
            if !parsed.path.hasPrefix(prefix) { return "outside the sitemap's folder \(prefix)" }
        }
        return nil
    }
}

extension String {
    func trimmingWhitespace() -> String {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace })
        else {
            return ""
        }
        return String(self[first...last])
    }
}
