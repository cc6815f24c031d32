import Foundation

/// Path patterns (docs/config.md), shared by the ignore list and the per-path rule levels of
/// `.spotcheck.json`: matched against a path split at `/`, `*` standing for any characters within
/// one segment and a `**` segment for any number of segments; a pattern without `/` matches any
/// one segment (a file's or a folder's name, at any depth).
public enum PathPattern {
    /// The URL's path without the leading `/`, percent-decoded (so `my page.html` matches
    /// `my%20page.html`); nil when it has none.
    public static func path(of url: String) -> String? {
        guard let schemeEnd = url.range(of: "://") else { return nil }
        let afterAuthority = url[schemeEnd.upperBound...].drop { $0 != "/" }
        let path = afterAuthority.prefix { $0 != "?" && $0 != "#" }.dropFirst()
        return path.removingPercentEncoding ?? String(path)
    }

    /// A path pattern against a path, segment by segment.
    public static func matches(_ pattern: String, path: String) -> Bool {
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
    /// matcher of the project: `IgnoreList`, `CrawlScope`'s --include/--exclude and the per-path rule
    /// levels use it.
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
