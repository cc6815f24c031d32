import MarkupExtraction
import Rulebook
import SpotlightModel

/// The universal-link rules that judge one page against its host's `apple-app-site-association`
/// (apple-markup-rules.md §7.3 UL020, UL021; §7.1 SAB021). The file's own rules (UL001–UL019,
/// UL022, UL024, UL025) are checked once per host by the crawl (`UniversalLinks`).
struct UniversalLinkChecks: PageRuleGroup {
    let page: PageMarkup
    let attributes: PageAttributes
    let context: PageContext

    static let rules = RuleCatalogue.universalLinkPageRules

    func run(_ report: (RuleID, SourcePosition, String, String) -> Void) {
        let canonical = page.canonicals.first
        let canonicalURL = canonical?.content ?? page.url
        let excerpt = canonical.map { "<link rel=\"canonical\" href=\"\($0.asWritten ?? $0.content)\">" } ?? page.url
        switch context.canonicalLink {
        case .excluded(let rule)?:
            report(
                .ul021, canonical?.position ?? .page, excerpt,
                "the AASA excludes \(canonicalURL) for the app: \(rule)")
        case .notMatched?:
            if let link = attributes.deepLinks.first {
                report(
                    .ul020, canonical?.position ?? .page, excerpt,
                    "no AASA rule matches \(canonicalURL) for the app, though the page advertises a deep link (\(link.source.source) \(link.url))"
                )
            }
        case .handled?, .noFile?, nil:
            // Without a usable file the host's UL001/UL003/UL006 finding says it once.
            break
        }
        if let banner = page.smartAppBanner, let argument = banner.appArgument {
            let excerpt = "<meta name=\"apple-itunes-app\" content=\"\(banner.content)\">"
            switch context.appArgumentLink {
            case .excluded(let rule)?:
                report(
                    .sab021, banner.position, excerpt,
                    "app-argument \(argument) is excluded by its host's AASA: \(rule)")
            case .notMatched?:
                report(
                    .sab021, banner.position, excerpt,
                    "no rule of its host's AASA matches app-argument \(argument) for the app")
            case .handled?, .noFile?, nil:
                break
            }
        }
    }
}
