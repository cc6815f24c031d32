public import CrawlStore

/// How many URLs skipped over the budget are recorded per page or sitemap (issue 35 §2).
///
/// A page of 620,000 links past `--max-pages`, or ten sitemaps of 50,000 URLs, became as many
/// `skipped` rows, and report writing held them all (1.2 GB for the page; 8 GB for the
/// sitemaps). What the budget refuses is recorded for the first `examplesPerSource` URLs of each
/// source (the page or sitemap that listed them, `foundOn`); the last example kept says how many
/// more there were. Other reasons (robots, scope, scheme …) are recorded as before: they say
/// something about each URL, the budget only about the crawl.
public enum SkipRecording {
    public static let examplesPerSource = 1_000

    /// `skipped` with the budget's refusals bounded per source, in order.
    public static func bounded(_ skipped: [SkippedURL], examplesPerSource cap: Int = examplesPerSource)
        -> [SkippedURL]
    {
        let budget = SkipReason.budget.rawValue
        var kept: [SkippedURL] = []
        var counts: [String: Int] = [:]
        var lastKept: [String: Int] = [:]
        for url in skipped {
            guard url.reason == budget else {
                kept.append(url)
                continue
            }
            let source = url.foundOn ?? ""
            let seen = counts[source, default: 0]
            counts[source] = seen + 1
            guard seen < cap else { continue }
            lastKept[source] = kept.count
            kept.append(url)
        }
        for (source, count) in counts where count > cap {
            guard let index = lastKept[source] else { continue }
            let place = source.isEmpty ? "" : " on \(source)"
            kept[index].detail +=
                "; \(count - cap) more URLs\(place) over the budget are not recorded (the first \(cap) are)"
        }
        return kept
    }
}
