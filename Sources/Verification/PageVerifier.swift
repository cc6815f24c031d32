public import MarkupExtraction

/// Checks one page's markup against the implemented rules and returns its findings, in a fixed
/// order (line, then rule id, then message), with the project's severities; rules switched off
/// are not reported.
public struct PageVerifier: Sendable {
    public var configuration: RuleConfiguration
    /// `--app-id`: the app's App Store ID, for the app-specific rules (SAB020 …).
    public var appStoreID: String?

    public init(configuration: RuleConfiguration = RuleConfiguration(), appStoreID: String? = nil) {
        self.configuration = configuration
        self.appStoreID = appStoreID
    }

    public func verify(_ page: PageMarkup) -> [Finding] {
        var findings: [Finding] = []
        func report(_ ruleID: String, _ line: Int, _ excerpt: String, _ message: String) {
            guard let rule = RuleCatalogue.rule(ruleID), let severity = configuration.severity(of: rule) else { return }
            findings.append(
                Finding(
                    ruleID: ruleID, severity: severity, url: page.url, line: line, excerpt: excerpt, message: message,
                    fixHint: RuleCatalogue.fixHints[ruleID] ?? ""))
        }
        SmartAppBannerChecks(page: page, appStoreID: appStoreID).run(report)
        TwitterAppLinksChecks(page: page).run(report)
        OpenGraphChecks(page: page).run(report)
        StructuredDataChecks(page: page).run(report)
        return findings.sorted { ($0.line, $0.ruleID, $0.message) < ($1.line, $1.ruleID, $1.message) }
    }
}
