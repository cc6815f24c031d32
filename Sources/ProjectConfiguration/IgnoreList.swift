import Foundation

/// The project's ignore list (`"ignore"` in `.spotcheck.json`, `--ignore PATTERN`): pages that are
/// neither fetched nor checked, and are counted as ignored. Two kinds of pattern (docs/config.md):
///
/// - a **URL pattern** has a scheme (`https://www.example.com/private/*`) and is matched against
///   the whole URL, `*` standing for any characters, as `--exclude` is;
/// - a **path pattern** (`drafts/**`, `*.draft.html`) is matched against a path split at `/`:
///   `*` stands for any characters within one segment, a `**` segment for any number of segments;
///   a pattern without `/` matches any one segment (a file's or a folder's name, at any depth).
///   `validate` matches it against the file's path under the folder named on the command line and
///   against the path as found; `crawl` against the URL's path (without the leading `/`).
public struct IgnoreList: Sendable, Hashable {
    public var patterns: [String]

    public init(_ patterns: [String] = []) {
        self.patterns = patterns
    }

    public var isEmpty: Bool { patterns.isEmpty }

    /// The first pattern that ignores `url`, or nil.
    public func pattern(ignoringURL url: String) -> String? {
        let path = Self.path(of: url)
        return patterns.first { pattern in
            Self.isURLPattern(pattern)
                ? Self.wildcard(Array(pattern.utf8), matches: Array(url.utf8))
                : path.map { Self.pathPattern(pattern, matches: $0) } ?? false
        }
    }

    /// The first pattern that ignores a file: `path` as found, `relativePath` under the folder named
    /// on the command line (nil for a file named itself), `url` the URL it is read as.
    public func pattern(ignoringFile path: String, relativePath: String?, url: String) -> String? {
        let candidates = [relativePath, path.hasPrefix("./") ? String(path.dropFirst(2)) : path].compactMap { $0 }
        return patterns.first { pattern in
            Self.isURLPattern(pattern)
                ? Self.wildcard(Array(pattern.utf8), matches: Array(url.utf8))
                : candidates.contains { Self.pathPattern(pattern, matches: $0) }
        }
    }

    /// A pattern with a scheme (`https://…`, `file:///…`) is a URL pattern.
    static func isURLPattern(_ pattern: String) -> Bool {
        pattern.contains("://")
    }

    /// The URL's path without the leading `/`, percent-decoded (so `my page.html` matches
    /// `my%20page.html`); nil when it has none.
    static func path(of url: String) -> String? {
        guard let schemeEnd = url.range(of: "://") else { return nil }
        let afterAuthority = url[schemeEnd.upperBound...].drop { $0 != "/" }
        let path = afterAuthority.prefix { $0 != "?" && $0 != "#" }.dropFirst()
        return path.removingPercentEncoding ?? String(path)
    }

    /// A path pattern against a path, segment by segment.
    static func pathPattern(_ pattern: String, matches path: String) -> Bool {
        let segments = path.split(separator: "/")
        let trimmed = pattern.hasPrefix("/") ? String(pattern.dropFirst()) : pattern
        guard trimmed.contains("/") else {
            return segments.contains { wildcard(Array(trimmed.utf8), matches: Array($0.utf8)) }
        }
        return match(trimmed.split(separator: "/")[...], segments[...])
    }

    private static func match(_ pattern: ArraySlice<Substring>, _ path: ArraySlice<Substring>) -> Bool {
        guard let first = pattern.first else { return path.isEmpty }
        if first == "**" {
            var rest = path
            while true {
                if match(pattern.dropFirst(), rest) { return true }
                guard !rest.isEmpty else { return false }
                rest = rest.dropFirst()
            }
        }
        guard let segment = path.first, wildcard(Array(first.utf8), matches: Array(segment.utf8)) else { return false }
        return match(pattern.dropFirst(), path.dropFirst())
    }

    /// `*` matches any run of characters (including none); the rest matches itself. The one glob
    /// matcher of the project: `CrawlScope`'s --include/--exclude patterns use it too.
    public static func wildcard(_ pattern: [UInt8], matches text: [UInt8]) -> Bool {
        var p = 0
        var t = 0
        var star: Int?
        var resume = 0
        while t < text.count {
            if p < pattern.count, pattern[p] == UInt8(ascii: "*") {
                star = p
                resume = t
                p += 1
            } else if p < pattern.count, pattern[p] == text[t] {
                p += 1
                t += 1
            } else if let star {
                p = star + 1
                resume += 1
                t = resume
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == UInt8(ascii: "*") { p += 1 }
        return p == pattern.count
    }
}
