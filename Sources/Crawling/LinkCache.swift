import Synchronization

/// What an href on a page comes to.
enum ResolvedLink: Sendable, Hashable {
    case follow(url: String, key: String, host: String)
    case outside(url: String, key: String, reason: SkipReason, detail: String)
    case invalid
}

/// Resolved links by (base, href), shared by the page tasks of one crawl. Sites repeat their
/// navigation on every page, so most hrefs were resolved before; the WHATWG parse they skip is
/// the largest cost of link discovery. Bounded: emptied when it reaches `capacity` entries, so
/// memory stays flat however long the crawl.
final class LinkCache: Sendable {
    private let entries = Mutex<[String: ResolvedLink]>([:])
    let capacity: Int

    init(capacity: Int = 20_000) {
        self.capacity = capacity
    }

    /// How one page's hrefs are keyed: absolute hrefs resolve the same on every page,
    /// root-relative ones on every page of an origin, path-relative ones on every page of a
    /// folder; only `?…` hrefs (and odd cases) depend on the whole base URL.
    struct PageKeys {
        let base: String
        let scheme: String
        let origin: String
        let folder: String

        init(base: String) {
            self.base = base
            let bytes = Array(base.utf8)
            // scheme "://" authority, then the path up to the last "/" before any "?" or "#".
            var authorityStart = 0
            if let colon = bytes.firstIndex(of: UInt8(ascii: ":")), bytes.count > colon + 2,
                bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/")
            {
                authorityStart = colon + 3
            }
            let pathStart =
                bytes[authorityStart...].firstIndex {
                    $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#")
                }
                ?? bytes.count
            let queryStart =
                bytes[pathStart...].firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.count
            let lastSlash = bytes[pathStart..<queryStart].lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? pathStart
            scheme = String(decoding: bytes[..<max(0, authorityStart - 3)], as: UTF8.self)
            origin = String(decoding: bytes[..<pathStart], as: UTF8.self)
            folder = String(decoding: bytes[..<lastSlash], as: UTF8.self)
        }

        func key(for href: String) -> String {
            let bytes = href.utf8
            guard let first = bytes.first else { return base + "\u{3}" }
            if first == UInt8(ascii: "/") {
                let second = bytes.dropFirst().first
                // "//host/…" takes the base's scheme.
                if second == UInt8(ascii: "/") || second == UInt8(ascii: "\\") { return scheme + "\u{5}" + href }
                return origin + "\u{2}" + href
            }
            if let scheme = Self.schemeLength(bytes) {
                // Special schemes written without "//" ("http:foo") are relative to a base of the
                // same scheme; everything else with a scheme is absolute.
                let rest = bytes.dropFirst(scheme + 1)
                if rest.starts(with: "//".utf8) || !Self.isSpecial(bytes.prefix(scheme)) { return "\u{1}" + href }
                return base + "\u{3}" + href
            }
            if first == UInt8(ascii: "?") || first == UInt8(ascii: "#") || first == UInt8(ascii: "\\") {
                return base + "\u{3}" + href
            }
            return folder + "\u{4}" + href
        }

        /// The length of a leading `scheme:` (RFC 3986: a letter, then letters, digits, + - .).
        private static func schemeLength(_ bytes: String.UTF8View) -> Int? {
            var length = 0
            for byte in bytes {
                let letter = (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
                if byte == UInt8(ascii: ":") { return length > 0 ? length : nil }
                guard
                    letter
                        || (length > 0
                            && ((byte >= 0x30 && byte <= 0x39) || byte == 0x2B || byte == 0x2D || byte == 0x2E))
                else { return nil }
                length += 1
            }
            return nil
        }

        private static func isSpecial(_ scheme: Substring.UTF8View) -> Bool {
            let name = String(decoding: scheme, as: UTF8.self).lowercased()
            return name == "http" || name == "https" || name == "ftp" || name == "ws" || name == "wss" || name == "file"
        }
    }

    func value(for key: String) -> ResolvedLink? {
        entries.withLock { $0[key] }
    }

    func store(_ link: ResolvedLink, for key: String) {
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = link
        }
    }
}
