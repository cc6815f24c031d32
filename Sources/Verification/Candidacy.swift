public import MarkupExtraction
public import Rulebook
public import SpotlightModel
import URLNormalization

/// Whether a page can reach Apple's public index, as DESIGN.md and apple-markup-rules.md §2.6
/// define a candidate [I]: HTTP 200 HTML at its canonical URL, crawlable by Applebot and not
/// `noindex`, with a title, a description and a deep link, in the served HTML. Every condition
/// that fails is named, so a non-candidate says why.
public struct Candidacy: Sendable, Hashable {
    /// A condition of candidacy (`Rulebook`'s, so that reports can name it without the checks).
    public typealias Condition = CandidacyCondition

    /// The conditions that fail, in the order of `CandidacyCondition`'s cases; empty for a candidate.
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
    public static func rule(_ condition: Condition) -> RuleID { condition.rule }

    /// What a non-candidate's condition means, for reports.
    public static func explanation(_ condition: Condition) -> String { condition.explanation }
}
