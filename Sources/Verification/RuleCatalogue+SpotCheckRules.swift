// SpotCheck's own rules, beyond the reference's 153: consistency checks issue 4 §4 asks for that
// the reference's catalogue has no row for. Each is tagged [I] (SpotCheck's inference) and is
// never presented as Apple's.

extension RuleCatalogue {
    /// The section SpotCheck's own rules are listed under.
    static let ownSection = "SpotCheck additions (consistency across signals)"

    /// SpotCheck's own rows: section, id, severity, check, source (same shape as `entries`).
    static let ownEntries: [(section: String, id: String, severity: String, check: String, source: String)] = [
        (
            ownSection, "IX012", "warning",
            "`rel=canonical` points to a URL the crawl found not to be a 200 HTML page (error, redirect, not HTML), blocked for Applebot, or `noindex`.",
            "[I] SpotCheck; RFC 6596 [S] (the target is the preferred, indexable version)"
        ),
        (
            ownSection, "IX013", "warning",
            "Canonical chain or cycle: the canonical target itself names another canonical URL.",
            "[I] SpotCheck; RFC 6596 [S]"
        ),
        (
            ownSection, "IX014", "info",
            "A sitemap `<loc>` is not the page's canonical URL (the sitemap lists a duplicate).",
            "[I] SpotCheck; sitemaps.org [S] (list canonical URLs)"
        ),
        (
            ownSection, "TW006", "info", "`twitter:url` differs from the canonical URL after normalization.",
            "[I] SpotCheck"
        ),
    ]
}
