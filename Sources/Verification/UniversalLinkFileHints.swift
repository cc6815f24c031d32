import Rulebook
import UniversalLinks

/// The rules of the apple-app-site-association file itself, checked by `UniversalLinks` once per
/// host (crawl, `aasa check`): what ``AASAValidator`` registers, and UL023 (the file differs for
/// another User-Agent), which the crawl's second request reports (`AssociationBook`).
enum UniversalLinkFileRules: RuleGroup {
    static let rules = RuleCatalogue.universalLinkFileRules
}
