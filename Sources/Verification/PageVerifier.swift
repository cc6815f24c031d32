public import MarkupExtraction
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
        let attributes = attributes ?? AttributeSetBuilder().build(page)
        var findings: [Finding] = []
        func report(_ ruleID: String, _ line: Int, _ excerpt: String, _ message: String) {
            guard let finding = self.finding(ruleID, url: page.url, line: line, excerpt: excerpt, message: message)
            else { return }
            findings.append(finding)
        }
        SmartAppBannerChecks(page: page, appStoreID: appStoreID, appIDs: appIDs).run(report)
        TwitterAppLinksChecks(page: page).run(report)
        DeepLinkChecks(page: page, attributes: attributes, context: context).run(report)
        UniversalLinkChecks(page: page, attributes: attributes, context: context).run(report)
        OpenGraphChecks(page: page).run(report)
        StructuredDataChecks(page: page).run(report)
        ContentChecks(page: page, attributes: attributes).run(report)
        IndexabilityChecks(page: page, context: context).run(report)
        return Self.ordered(findings)
    }

    /// IX004 for a response that was never parsed (not 200, or not HTML).
    public func verifyResponse(url: String, status: Int?, mediaType: String?) -> [Finding] {
        IndexabilityChecks.responseFindings(status: status, mediaType: mediaType, url: url).compactMap {
            finding($0.ruleID, url: url, line: 0, excerpt: $0.excerpt, message: $0.message)
        }
    }

    /// A finding of `ruleID` with the configured severity; nil when the rule is switched off.
    public func finding(_ ruleID: String, url: String, line: Int, excerpt: String, message: String) -> Finding? {
        guard let rule = RuleCatalogue.rule(ruleID), let severity = configuration.severity(of: rule) else { return nil }
        return Finding(
            ruleID: ruleID, severity: severity, url: url, line: line, excerpt: excerpt, message: message,
            fixHint: RuleCatalogue.fixHints[ruleID] ?? "")
    }

    /// Findings in a fixed order: line, then rule id, then message.
    public static func ordered(_ findings: [Finding]) -> [Finding] {
        findings.sorted { ($0.line, $0.ruleID, $0.message) < ($1.line, $1.ruleID, $1.message) }
    }
}
