import Foundation
import Rulebook

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

    /// The URL's path without the leading `/`, percent-decoded; nil when it has none.
    static func path(of url: String) -> String? { PathPattern.path(of: url) }

    /// A path pattern against a path, segment by segment (`PathPattern`).
    static func pathPattern(_ pattern: String, matches path: String) -> Bool {
        PathPattern.matches(pattern, path: path)
    }

    /// `*` matches any run of characters (including none); the rest matches itself
    /// (`PathPattern.wildcard`, the one glob matcher).
    public static func wildcard(_ pattern: [UInt8], matches text: [UInt8]) -> Bool {
        PathPattern.wildcard(pattern, matches: text)
    }
}
