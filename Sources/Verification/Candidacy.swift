public import MarkupExtraction
public import RuleIDs
public import SpotlightModel
import URLNormalization

/// Whether a page can reach Apple's public index, as DESIGN.md and apple-markup-rules.md §2.6
/// define a candidate [I]: HTTP 200 HTML at its canonical URL, crawlable by Applebot and not
/// `noindex`, with a title, a description and a deep link, in the served HTML. Every condition
/// that fails is named, so a non-candidate says why.
public struct Candidacy: Sendable, Hashable {
    public enum Condition: String, Sendable, Hashable, CaseIterable {
        case notOK = "not-200-html"
        case notAtCanonicalURL = "not-at-canonical-url"
        case blockedForApplebot = "blocked-for-applebot"
        case noindex
        case noTitle = "no-title"
        case noDescription = "no-description"
        case noDeepLink = "no-deep-link"
    }

    /// The conditions that fail, in the order above; empty for a candidate.
    public var failing: [Condition]
    public var isCandidate: Bool { failing.isEmpty }

    public init(failing: [Condition]) {
        self.failing = failing
    }

    /// Judges a parsed page; `context` says how it was served (status, headers, Applebot, AASA).
    public init(page: PageMarkup, attributes: PageAttributes, context: PageContext) {
        var failing: [Condition] = []
        if let status = context.status, status != 200 { failing.append(.notOK) }
        if let canonical = page.canonicals.first?.content,
            URLParser.parse(canonical)?.deduplicationKey != URLParser.parse(page.url)?.deduplicationKey
        {
            failing.append(.notAtCanonicalURL)
        }
        if context.applebotAllowed == false { failing.append(.blockedForApplebot) }
        let metaNoindex = page.robots.contains { tag in
            (tag.key == "robots" || tag.key == "applebot")
                && !IndexabilityChecks.directives(tag.content).isDisjoint(with: ["noindex", "none"])
        }
        let headerNoindex = context.robotsHeaders.contains { header in
            !(IndexabilityChecks.headerDirectives(header) ?? []).isDisjoint(with: ["noindex", "none"])
        }
        if metaNoindex || headerNoindex { failing.append(.noindex) }
        if attributes.attributeSet.title?.isEmpty ?? true { failing.append(.noTitle) }
        if attributes.attributeSet.contentDescription?.isEmpty ?? true { failing.append(.noDescription) }
        let universalLink = context.canonicalIsUniversalLink
        if attributes.deepLinks.isEmpty, !universalLink { failing.append(.noDeepLink) }
        self.failing = failing
    }

    /// The rule whose finding says why the condition fails (the report links the two).
    public static func rule(_ condition: Condition) -> RuleID {
        switch condition {
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
    public static func explanation(_ condition: Condition) -> String {
        switch condition {
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
