public import MarkupExtraction
import Rulebook
public import SpotlightModel

/// The page as headless Chromium left it (`crawl --render`): its markup extracted from the
/// rendered DOM, and the page's own requests that robots.txt kept from Applebot.
public struct RenderedView: Sendable, Hashable {
    /// A request of the page that robots.txt disallows for Applebot (not made while rendering).
    public struct BlockedRequest: Sendable, Hashable {
        public var url: String
        /// DevTools' resource type: `Script`, `Stylesheet`, `XHR`, `Fetch`, `Image` …
        public var resourceType: String

        public init(url: String, resourceType: String) {
            self.url = url
            self.resourceType = resourceType
        }
    }

    /// The rendered DOM's markup; nil when the page could not be rendered.
    public let markup: PageMarkup?
    /// The rendered markup's attribute set and deep links, built once with the view.
    public let attributes: PageAttributes?
    public var blocked: [BlockedRequest]
    /// Why there is no rendered markup.
    public var failure: String?
    /// The network was still busy at the render timeout.
    public var timedOut: Bool

    public init(markup: PageMarkup?, blocked: [BlockedRequest] = [], failure: String? = nil, timedOut: Bool = false) {
        self.markup = markup
        attributes = markup.map { AttributeSetBuilder().build($0) }
        self.blocked = blocked
        self.failure = failure
        self.timedOut = timedOut
    }

    /// The metadata fields (in `ConsumerMetadata.Field` order) the rendered page has and `served`
    /// lacks, with their rendered values: what only JavaScript added.
    public func onlyAfterJavaScript(served: PageMarkup) -> [(field: ConsumerMetadata.Field, value: String)] {
        guard let markup else { return [] }
        let before = ConsumerMetadata(served).values
        let after = ConsumerMetadata(markup).values
        return ConsumerMetadata.Field.allCases.compactMap { field in
            guard before[field] == nil, let value = after[field] else { return nil }
            return (field, value)
        }
    }
}

/// The served page against the rendered one (issue 14 §2): DL005 (apple-markup-rules.md §7.2:
/// deep-link markup only after JavaScript), IX015 (metadata only after JavaScript, which link
/// previews never run) and IX016 (render-critical requests robots.txt keeps from Applebot).
struct RenderingChecks: PageRuleGroup {
    let page: PageMarkup
    let attributes: PageAttributes
    let context: PageContext

    static let rules = RuleCatalogue.renderingRules

    /// The metadata IX015 compares: what link previews and search results show.
    static let comparedFields: [ConsumerMetadata.Field] = [
        .title, .description, .ogTitle, .ogDescription, .ogImage, .jsonLD,
    ]

    /// The requests whose loss changes what a page renders (IX016).
    static let renderCritical: Set<String> = ["Script", "Stylesheet", "XHR", "Fetch"]

    func run(_ report: (RuleID, SourcePosition, String, String) -> Void) {
        guard let view = context.rendered else { return }
        for request in view.blocked where Self.renderCritical.contains(request.resourceType) {
            report(
                .ix016, .page, request.url,
                "robots.txt disallows \(request.url) (\(request.resourceType.lowercased())) for Applebot, "
                    + "which then renders the page without it")
        }
        guard let rendered = view.markup, let renderedAttributes = view.attributes else { return }
        if attributes.deepLinks.isEmpty, !renderedAttributes.deepLinks.isEmpty {
            let links = renderedAttributes.deepLinks.map(\.url)
            report(
                .dl005, .page, links.first ?? "",
                "the deep link\(links.count == 1 ? "" : "s") \(links.prefix(3).joined(separator: ", ")) "
                    + "appear\(links.count == 1 ? "s" : "") only after JavaScript: the served HTML has none")
        } else if page.smartAppBanner == nil, let banner = rendered.smartAppBanner {
            report(
                .dl005, .page, "apple-itunes-app",
                "the Smart App Banner (app-id=\(banner.appID ?? "none")) is only added by JavaScript: the served HTML has none"
            )
        }
        for (field, value) in view.onlyAfterJavaScript(served: page) where Self.comparedFields.contains(field) {
            report(
                .ix015, .page, field.rawValue,
                "\(field.rawValue) \(ConsumerChecks.shown(value)) is only there after JavaScript: link previews "
                    + "(Messages, Facebook, X, Slack) and plain fetches read the served HTML, which has none")
        }
    }
}
