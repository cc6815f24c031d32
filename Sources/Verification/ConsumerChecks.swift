import MarkupExtraction
import Rulebook
import URLNormalization

/// IX010 (apple-markup-rules.md §7.8, [A] TN3156: a page should give every user agent the same
/// metadata): what each consumer `crawl --consumers` fetched the page as got, against SpotCheck's
/// own fetch. A consumer that is refused (403, 429, 503, a bot challenge page), kept out by
/// robots.txt, redirected elsewhere or served other values of the fields it reads sees other
/// metadata than the page shows; each difference is one finding naming the consumer and the field.
struct ConsumerChecks: PageRuleGroup {
    let page: PageMarkup
    let context: PageContext

    static let rules = RuleCatalogue.consumerRules

    /// Titles of the interstitial pages bot-blocking services serve instead of the page (Cloudflare,
    /// Akamai, Imperva, DataDome, as seen by third parties) [3P]; compared case-insensitively.
    static let challengeTitles = [
        "just a moment...", "attention required! | cloudflare", "access denied", "pardon our interruption",
        "please verify you are a human", "are you a robot?",
    ]

    func run(_ report: (RuleID, SourcePosition, String, String) -> Void) {
        guard !context.consumerViews.isEmpty else { return }
        let served = ConsumerMetadata(page)
        let status = context.status ?? 200
        for view in context.consumerViews {
            let name = view.consumer.name
            let excerpt = "User-Agent: \(view.consumer.userAgent)"
            switch view.outcome {
            case .disallowedByRobots:
                report(
                    .ix010, .page, excerpt,
                    "robots.txt disallows this page for \(name) (\(view.consumer.robotsTokens.joined(separator: ", then "))): "
                        + "it reads none of its metadata")
            case .failed(let reason):
                report(
                    .ix010, .page, excerpt,
                    "the fetch as \(name) got no answer (\(reason)): it reads none of the metadata")
            case .answered(let answered, let finalURL, let metadata):
                if answered != status {
                    let blocked = [401, 403, 429, 503].contains(answered) ? " (blocked)" : ""
                    report(
                        .ix010, .page, excerpt,
                        "\(name) gets HTTP \(answered)\(blocked) where SpotCheck's fetch got \(status): "
                            + "it reads none of the page's metadata")
                    continue
                }
                if let title = metadata?.values[.title], Self.challengeTitles.contains(title.lowercased()) {
                    report(
                        .ix010, .page, excerpt,
                        "\(name) gets a bot challenge page (\"\(title)\") instead of the page: it reads none of its metadata"
                    )
                    continue
                }
                if Self.key(finalURL) != Self.key(page.url) {
                    report(.ix010, .page, excerpt, "\(name) ends at \(finalURL), SpotCheck's fetch at \(page.url)")
                }
                guard let metadata else {
                    report(
                        .ix010, .page, excerpt, "\(name) gets an answer that is not HTML: it reads none of the metadata"
                    )
                    continue
                }
                for field in view.consumer.reads where metadata.values[field] != served.values[field] {
                    report(
                        .ix010, .page, excerpt,
                        "\(name) gets \(field.rawValue) \(Self.shown(metadata.values[field])) where the page as "
                            + "SpotCheck fetched it has \(Self.shown(served.values[field]))")
                }
            }
        }
    }

    static func key(_ url: String) -> String { URLParser.parse(url)?.deduplicationKey ?? url }

    static func shown(_ value: String?) -> String {
        guard let value else { return "none" }
        return "\"" + (value.count > 120 ? String(value.prefix(119)) + "…" : value) + "\""
    }
}
