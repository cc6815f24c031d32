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

    /// The cache key: absolute hrefs resolve the same on every page, root-relative ones on every
    /// page of an origin; anything else depends on the whole base URL.
    static func key(href: String, base: String) -> String {
        if let colon = href.utf8.firstIndex(of: UInt8(ascii: ":")),
            !href.utf8[..<colon].contains(where: {
                $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#")
            }),
            href.utf8[..<colon].allSatisfy({
                ($0 | 0x20) >= UInt8(ascii: "a") && ($0 | 0x20) <= UInt8(ascii: "z") || $0 == UInt8(ascii: "+")
                    || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
                    || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))
            }),
            href.utf8.first.map({ ($0 | 0x20) >= UInt8(ascii: "a") && ($0 | 0x20) <= UInt8(ascii: "z") }) == true
        {
            // "scheme:…" — except the special schemes, whose relative forms ("http:foo") still
            // use the base when the scheme matches it.
            let scheme = href[..<colon].lowercased()
            if !(scheme == "http" || scheme == "https" || scheme == "ftp" || scheme == "ws" || scheme == "wss"
                || scheme == "file")
                || href.utf8[href.utf8.index(after: colon)...].starts(with: "//".utf8)
            {
                return "\u{1}" + href
            }
        }
        if href.hasPrefix("/"), !href.hasPrefix("//"), let origin = Self.origin(of: base) {
            return origin + "\u{2}" + href
        }
        return base + "\u{3}" + href
    }

    /// `scheme://authority` of an absolute http(s) URL string, without parsing it.
    private static func origin(of base: String) -> String? {
        guard let schemeEnd = base.range(of: "://") else { return nil }
        let rest = base[schemeEnd.upperBound...]
        let end = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" || $0 == "\\" }) ?? rest.endIndex
        return String(base[..<end])
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
