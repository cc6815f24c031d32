/// A condition a page must meet to be a public-index candidate (DESIGN.md, apple-markup-rules.md
/// §2.6), by the token reports and the store use for it when it fails.
public enum CandidacyCondition: String, Sendable, Hashable, Codable, CaseIterable {
    case notOK = "not-200-html"
    case notAtCanonicalURL = "not-at-canonical-url"
    case blockedForApplebot = "blocked-for-applebot"
    case noindex
    case noTitle = "no-title"
    case noDescription = "no-description"
    case noDeepLink = "no-deep-link"

    /// The rule whose finding says why the condition fails (the report links the two).
    public var rule: RuleID {
        switch self {
        case .notOK: .ix004
        case .notAtCanonicalURL: .ix006
        case .blockedForApplebot: .ix001
        case .noindex: .ix002
        case .noTitle: .ct001
        case .noDescription: .ct002
        case .noDeepLink: .dl001
        }
    }

    /// What a non-candidate's condition means, for reports.
    public var explanation: String {
        switch self {
        case .notOK: "the final response is not HTTP 200 HTML (IX004)"
        case .notAtCanonicalURL: "rel=canonical names another URL (IX006)"
        case .blockedForApplebot: "robots.txt disallows it for Applebot (IX001)"
        case .noindex: "noindex in meta robots/applebot or X-Robots-Tag (IX002)"
        case .noTitle: "no title (CT001)"
        case .noDescription: "no description (CT002)"
        case .noDeepLink: "no deep link: no app-argument, al:ios:url, twitter:app:url:iphone or AASA match (DL001)"
        }
    }
}
