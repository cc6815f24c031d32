import MarkupExtraction
import Rulebook

/// A group of checks (one file of rules, or the universal-link file rules): it registers every rule
/// it can report. What `spotcheck rules` and ``RuleCatalogue`` call implemented is derived from these
/// registrations (each group's set is `Rulebook` data, ``RuleCatalogue/groups`` lists the groups),
/// so a new check adds its id there or is listed as not
/// implemented; `RuleRegistrationTests` checks that the fixture pages and the check files report
/// nothing a group has not registered. (`SendableMetatype`: the catalogue keeps the groups' types
/// in a global.)
protocol RuleGroup: SendableMetatype {
    /// Every rule the group's checks can report.
    static var rules: Set<RuleID> { get }
}

/// A group of checks over one page, run by ``PageVerifier``.
protocol PageRuleGroup: RuleGroup {
    /// Calls `report(rule, position, excerpt, message)` for each broken rule: the position of the
    /// markup it flags (its line and column), ``SourcePosition/page`` for the page as a whole.
    func run(_ report: (RuleID, SourcePosition, String, String) -> Void)
}

extension RuleCatalogue {
    /// Every group of checks, each registering the rules it can report (`RuleCatalogue`'s
    /// implemented rules are theirs: `RuleRegistrationTests`).
    static let groups: [any RuleGroup.Type] = [
        SmartAppBannerChecks.self, TwitterAppLinksChecks.self, OpenGraphChecks.self, StructuredDataChecks.self,
        ContentChecks.self, IndexabilityChecks.self, ConsumerChecks.self, RenderingChecks.self, DeepLinkChecks.self,
        UniversalLinkChecks.self,
        AssetChecks.self, SiteVerifier.self, UniversalLinkFileRules.self, LocalItemRules.self,
        MarketingPageRules.self,
    ]
}

/// The app's local items' rules (AS), which `ItemLinking`'s `LocalItemLinker` reports when it joins
/// the items to the pages.
enum LocalItemRules: RuleGroup {
    static let rules = RuleCatalogue.localItemRules
}
