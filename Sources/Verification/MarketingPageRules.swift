public import Rulebook

/// IX011: the app's marketing and support URLs in App Store Connect are where Applebot learns of
/// the site, so each must answer and lead to the crawled pages. The crawl fetches them
/// (`MarketingPageCheck` in `Crawling`, `crawl --marketing-url`); this group registers the rule,
/// words its finding and says how to fix it.
public enum MarketingPageRules: RuleGroup {
    static let rules = RuleCatalogue.marketingPageRules

    /// The finding for a marketing or support URL that does not lead to the site, `problem` saying
    /// why (not fetched, its status, no link into the site); nil when the rule is switched off.
    public static func finding(url: String, problem: String, verifier: PageVerifier) -> Finding? {
        verifier.finding(.ix011, url: url, line: 0, excerpt: url, message: problem)
    }
}
