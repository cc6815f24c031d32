import URLNormalization

/// The identity normalisation for canonical URLs and join keys: the WHATWG parse's
/// de-duplication key (scheme and host lower-cased, IDNA, default port and fragment dropped,
/// unreserved escapes in the path decoded; the query kept as written). A URL that is not http(s)
/// keeps its WHATWG href without the fragment; one that does not parse is returned trimmed.
public enum URLNormalizer {
    public static func normalize(_ url: String) -> String {
        guard let parsed = URLParser.parse(url) else { return url.trimmingWhitespace() }
        return parsed.deduplicationKey ?? parsed.serialized(includingFragment: false)
    }
}
