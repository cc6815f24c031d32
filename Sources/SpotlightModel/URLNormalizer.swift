/// The normalisation reference §6 uses for identity: scheme and host lower-cased, the default port
/// dropped, the fragment dropped, an empty path made `/`; the query is kept as written.
public enum URLNormalizer {
    public static func normalize(_ url: String) -> String {
        let trimmed = url.trimmingWhitespace()
        guard let schemeEnd = trimmed.range(of: "://") else { return trimmed }
        let scheme = trimmed[..<schemeEnd.lowerBound].lowercased()
        var rest = trimmed[schemeEnd.upperBound...]
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        var authority = rest[..<authorityEnd].lowercased()
        var tail = String(rest[authorityEnd...])
        if let at = authority.lastIndex(of: "@") { authority = String(authority[authority.index(after: at)...]) }
        if (scheme == "http" && authority.hasSuffix(":80")) || (scheme == "https" && authority.hasSuffix(":443")) {
            authority = String(authority.dropLast(scheme == "http" ? 3 : 4))
        }
        if authority.hasSuffix(".") { authority.removeLast() }
        if tail.isEmpty || tail.hasPrefix("?") { tail = "/" + tail }
        return "\(scheme)://\(authority)\(tail)"
    }
}
