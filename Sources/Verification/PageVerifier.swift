public import MarkupExtraction
public import Rulebook
public import SpotlightModel

/// Checks one page's markup against the implemented rules and returns its findings, in a fixed
/// order (line, then rule id, then message), with the project's severities; rules switched off
/// are not reported.
public struct PageVerifier: Sendable {
    public var configuration: RuleConfiguration
    /// `--app-id`: the app's App Store ID, for the app-specific rules (SAB020 …).
    public var appStoreID: String?
    /// `--app`: the apps' IDs (TEAMID.bundle.id), for SAB013's parent bundle ID.
    public var appIDs: [String]

    public init(
        configuration: RuleConfiguration = RuleConfiguration(), appStoreID: String? = nil, appIDs: [String] = []
    ) {
        self.configuration = configuration
        self.appStoreID = appStoreID
        self.appIDs = appIDs
    }

    /// The page's findings. `attributes` is the page's attribute set (built here when nil);
    /// `context` is what is known of how the page was served.
    public func verify(_ page: PageMarkup, attributes: PageAttributes? = nil, context: PageContext = PageContext())
        -> [Finding]
    {
        var findings: [Finding] = []
        runChecks(page, attributes: attributes ?? AttributeSetBuilder().build(page), context: context) {
            _, rule, position, excerpt, message in
            if let finding = finding(
                rule, url: page.url, line: position.line, column: position.column, excerpt: excerpt, message: message)
            {
                findings.append(finding)
            }
        }
        return Self.capped(Self.ordered(findings))
    }

    /// Findings of one rule listed per page; past it, one more finding of the rule says how many
    /// were left out (issue 17 §2.4: 50,000 relative `og:image` URLs made 50,000 OG005 findings and
    /// a 37 MB report).
    public static let maximumFindingsPerRule = 100

    /// `findings` (in order) with at most `maximumFindingsPerRule` of each rule, and for a rule with
    /// more, the first left out standing for all of them.
    static func capped(_ findings: [Finding]) -> [Finding] {
        var counts: [RuleID: Int] = [:]
        for finding in findings { counts[finding.rule, default: 0] += 1 }
        guard counts.values.contains(where: { $0 > maximumFindingsPerRule }) else { return findings }
        var listed: [RuleID: Int] = [:]
        var kept: [Finding] = []
        for var finding in findings {
            let index = listed[finding.rule, default: 0]
            listed[finding.rule] = index + 1
            if index < maximumFindingsPerRule {
                kept.append(finding)
            } else if index == maximumFindingsPerRule, let total = counts[finding.rule] {
                let more = total - maximumFindingsPerRule
                finding.message =
                    "\(more) more \(finding.rule) findings on this page are not listed (the first "
                    + "\(maximumFindingsPerRule) of each rule are); the first of them: \(finding.message)"
                kept.append(finding)
            }
        }
        return kept
    }

    /// Runs every page check group and tells `report` which group reported each rule, with the
    /// position, excerpt and message (`verify` makes findings of them; `RuleRegistrationTests` checks
    /// that a group reports only rules it registers).
    func runChecks(
        _ page: PageMarkup, attributes: PageAttributes, context: PageContext,
        _ report: (_ group: any PageRuleGroup.Type, RuleID, SourcePosition, String, String) -> Void
    ) {
        func run<Group: PageRuleGroup>(_ group: Group) {
            group.run { rule, position, excerpt, message in report(Group.self, rule, position, excerpt, message) }
        }
        run(SmartAppBannerChecks(page: page, appStoreID: appStoreID, appIDs: appIDs))
        run(TwitterAppLinksChecks(page: page))
        run(DeepLinkChecks(page: page, attributes: attributes, context: context))
        run(UniversalLinkChecks(page: page, attributes: attributes, context: context))
        run(OpenGraphChecks(page: page))
        run(StructuredDataChecks(page: page))
        run(ContentChecks(page: page, attributes: attributes))
        run(IndexabilityChecks(page: page, context: context))
        run(ConsumerChecks(page: page, context: context))
        run(RenderingChecks(page: page, attributes: attributes, context: context))
    }

    /// IX004 for a response that was never parsed (not 200, or not HTML).
    public func verifyResponse(url: String, status: Int?, mediaType: String?) -> [Finding] {
        IndexabilityChecks.responseFindings(status: status, mediaType: mediaType, url: url).compactMap {
            finding($0.rule, url: url, line: 0, excerpt: $0.excerpt, message: $0.message)
        }
    }

    /// A finding of `rule` with the configured severity and the rule's fix hint; nil when the rule
    /// is switched off.
    public func finding(
        _ rule: RuleID, url: String, line: Int, column: Int? = nil, excerpt: String, message: String,
        milderCase: Severity? = nil
    ) -> Finding? {
        configuration.finding(
            rule, url: url, line: line, column: column, excerpt: excerpt, message: message, milderCase: milderCase)
    }

    /// Findings in a fixed order: line, then rule id, then message.
    public static func ordered(_ findings: [Finding]) -> [Finding] {
        findings.sorted { ($0.line, $0.rule, $0.message) < ($1.line, $1.rule, $1.message) }
    }
}
