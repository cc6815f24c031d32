import MarkupExtraction
import RuleIDs

/// A group of checks (one file of rules, or the universal-link file rules): it registers every rule
/// it can report. What `spotcheck rules` and ``RuleCatalogue`` call implemented is derived from these
/// registrations (``RuleCatalogue/groups``), so a new check adds its id here or is listed as not
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
