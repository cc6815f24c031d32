public import CrawlStore

/// How many URLs skipped over the budget are recorded per page or sitemap (issue 35 §2).
///
/// A page of 620,000 links past `--max-pages`, or ten sitemaps of 50,000 URLs, became as many
/// `skipped` rows, and report writing held them all (1.2 GB for the page; 8 GB for the
/// sitemaps). What the budget refuses is recorded for the first `examplesPerSource` URLs of each
/// source (the page or sitemap that listed them, `foundOn`); the last example kept says how many
/// more there were. Other reasons (robots, scope, scheme …) say something about each URL and
/// are kept here; a page's own off-site, other-scheme and unparsable links are bounded where they
/// are found (`PageProcessor.discover`, the same number per reason per page).
public enum SkipRecording {
    public static let examplesPerSource = 1_000

    /// `skipped` with the budget's refusals bounded per source, in order. `alsoRefused`: refusals
    /// per source that were counted, not listed (a page's links past `PageProcessor.linksExamined`).
    /// `naming`: how a source is named in the note (its public URL).
    public static func bounded(
        _ skipped: [SkippedURL], examplesPerSource cap: Int = examplesPerSource, alsoRefused: [String: Int] = [:],
        naming: (String) -> String = { $0 }
    ) -> [SkippedURL] {
        var recorder = SkipRecorder(examplesPerSource: cap)
        recorder.record(skipped)
        for (source, count) in alsoRefused { recorder.countRefused(count, on: source) }
        return recorder.recorded(naming: naming)
    }
}

/// `SkipRecording.bounded` over several batches: a sitemap harvest of 500,000 URLs is admitted
/// a chunk at a time, with one count per source across the chunks.
public struct SkipRecorder: Sendable {
    public let examplesPerSource: Int
    private var kept: [SkippedURL] = []
    private var counts: [String: Int] = [:]
    private var lastKept: [String: Int] = [:]

    public init(examplesPerSource: Int = SkipRecording.examplesPerSource) {
        self.examplesPerSource = examplesPerSource
    }

    /// Keeps every URL skipped for another reason than the budget, and the budget's first
    /// `examplesPerSource` per source.
    public mutating func record(_ skipped: [SkippedURL]) {
        let budget = SkipReason.budget.rawValue
        for url in skipped {
            guard url.reason == budget else {
                kept.append(url)
                continue
            }
            let source = url.foundOn ?? ""
            let seen = counts[source, default: 0]
            counts[source] = seen + 1
            guard seen < examplesPerSource else { continue }
            lastKept[source] = kept.count
            kept.append(url)
        }
    }

    /// Refusals of the budget on `source` that were counted, not listed.
    public mutating func countRefused(_ count: Int, on source: String) {
        guard count > 0 else { return }
        counts[source, default: 0] += count
    }

    /// What to record, in order: the last example kept of a source says how many more there were,
    /// naming the source with `naming` (its public URL).
    public func recorded(naming: (String) -> String = { $0 }) -> [SkippedURL] {
        var recorded = kept
        for (source, count) in counts where count > examplesPerSource {
            guard let index = lastKept[source] else { continue }
            let place = source.isEmpty ? "" : " on \(naming(source))"
            recorded[index].detail +=
                "; \(count - examplesPerSource) more URLs\(place) over the budget are not recorded (the first \(examplesPerSource) are)"
        }
        return recorded
    }
}
