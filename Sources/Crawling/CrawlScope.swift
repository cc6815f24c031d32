public import ProjectConfiguration
public import URLNormalization

/// Which URLs a crawl may fetch: http(s) only, on the seed's host or an allowed host, matching the
/// include patterns (when there are any) and none of the exclude patterns, and not on the project's
/// ignore list. Include and exclude patterns are globs on the whole URL: `*` matches any run of
/// characters, everything else matches itself; the ignore list also takes path patterns
/// (`IgnoreList`). For a served folder (`--as`), a pattern matches when it matches the public URL
/// or the loopback fetch URL.
public struct CrawlScope: Sendable, Hashable {
    public var hosts: Set<String>
    public var include: [String]
    public var exclude: [String]
    /// `"ignore"` in `.spotcheck.json`, `--ignore`: URLs that would be crawled but are skipped as
    /// `ignored` (and counted so).
    public var ignore: IgnoreList
    /// `--as`: URLs are fetched on the loopback origin, patterns are written for the public one.
    public var mapping: OriginMapping?

    /// `hosts` are host names (lower-case, without port), e.g. the seed's host plus `--allow-host`.
    public init(
        hosts: Set<String>, include: [String] = [], exclude: [String] = [], ignore: IgnoreList = IgnoreList(),
        mapping: OriginMapping? = nil
    ) {
        self.hosts = Set(hosts.map { $0.lowercased() })
        self.include = include
        self.exclude = exclude
        self.ignore = ignore
        self.mapping = mapping
    }

    /// Why `url` is out of scope (a reason and a detail), or nil when it may be fetched.
    public func violation(of url: ParsedURL) -> (reason: SkipReason, detail: String)? {
        guard url.isCrawlable else { return (.scheme, "\(url.scheme): links are recorded, not followed") }
        guard let host = url.host, hosts.contains(host) else {
            return (
                .scope,
                "host \(url.host ?? "(none)") is not crawled (allowed: \(hosts.sorted().joined(separator: ", ")))"
            )
        }
        let text = url.serialized(includingFragment: false)
        // The public form first (what the user sees and writes), then the fetch form.
        var forms = [text]
        if let visible = mapping?.publicURL(text), visible != text { forms.insert(visible, at: 0) }
        func matches(_ pattern: String) -> Bool { forms.contains { Self.glob(pattern, matches: $0) } }
        if !include.isEmpty, !include.contains(where: matches) {
            return (.scope, "matches no --include pattern")
        }
        if let pattern = exclude.first(where: matches) {
            return (.scope, "matches --exclude \(pattern)")
        }
        if let pattern = forms.lazy.compactMap(ignore.pattern(ignoringURL:)).first {
            return (.ignored, "matches the ignore pattern \(pattern)")
        }
        return nil
    }

    /// `*` matches any run of characters (including none); the rest matches literally.
    public static func glob(_ pattern: String, matches text: String) -> Bool {
        IgnoreList.wildcard(Array(pattern.utf8), matches: Array(text.utf8))
    }
}

/// Why a URL was not fetched; the report's coverage section counts these.
public enum SkipReason: String, Sendable, Hashable, Codable, CaseIterable {
    /// robots.txt disallows it for SpotCheck's token.
    case robots
    /// robots.txt could not be fetched (5xx, timeout, no answer): nothing on its host is fetched
    /// meanwhile (RFC 9309 §2.3.1.4). Not a "disallows": no Applebot verdict is drawn from it.
    case robotsUnreachable = "robots-unreachable"
    /// Another host, or excluded by the include/exclude patterns.
    case scope
    /// Not http(s): `javascript:`, `mailto:`, `data:`, `tel:` …
    case scheme
    /// Deeper than `--depth`, or beyond `--max-pages`.
    case budget
    /// The link does not parse as a URL.
    case invalid
    /// Listed by a sitemap that may not list it (the sitemaps.org location rule).
    case sitemapLocation = "sitemap-location"
    /// On the project's ignore list (`"ignore"` in `.spotcheck.json`, `--ignore`).
    case ignored
}

/// A served folder standing for a real site (`--as`): URLs on the loopback origin are reported
/// and compared as URLs on the public origin, and links to the public origin are fetched from the
/// loopback one.
public struct OriginMapping: Sendable, Hashable {
    /// e.g. `http://127.0.0.1:8123`
    public var fetchOrigin: String
    /// e.g. `https://www.example.com`
    public var publicOrigin: String

    public init?(fetchOrigin: String, publicOrigin: String) {
        guard let fetch = URLParser.parse(fetchOrigin), let visible = URLParser.parse(publicOrigin),
            fetch.isCrawlable, visible.isCrawlable
        else { return nil }
        self.fetchOrigin = Self.origin(of: fetch)
        self.publicOrigin = Self.origin(of: visible)
    }

    /// `scheme://host[:port]` of a URL.
    public static func origin(of url: ParsedURL) -> String {
        var origin = "\(url.scheme)://\(url.host ?? "")"
        if let port = url.port { origin += ":\(port)" }
        return origin
    }

    /// The public form of a fetched URL (unchanged when it is on another origin).
    public func publicURL(_ url: String) -> String {
        Self.replace(prefix: fetchOrigin, with: publicOrigin, in: url)
    }

    /// The URL to fetch for a public URL (unchanged when it is on another origin).
    public func fetchURL(_ url: String) -> String {
        Self.replace(prefix: publicOrigin, with: fetchOrigin, in: url)
    }

    private static func replace(prefix: String, with replacement: String, in url: String) -> String {
        guard url.hasPrefix(prefix) else { return url }
        let rest = url.dropFirst(prefix.count)
        guard rest.isEmpty || rest.first == "/" || rest.first == "?" || rest.first == "#" else { return url }
        return replacement + rest
    }
}
