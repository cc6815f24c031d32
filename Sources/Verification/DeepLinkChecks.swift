import MarkupExtraction
import RuleIDs
import SpotlightModel
import URLNormalization

/// The deep-link rules (apple-markup-rules.md §7.2) besides DL003 (with the X/App Links checks).
/// DL005 (deep links that appear only after JavaScript) needs a rendering fetch, which SpotCheck
/// does not do.
struct DeepLinkChecks: PageRuleGroup {
    let page: PageMarkup
    let attributes: PageAttributes
    let context: PageContext

    static let rules: Set<RuleID> = [.dl001, .dl002, .dl004]

    func run(_ report: (RuleID, Int, String, String) -> Void) {
        let links = attributes.deepLinks
        let universalLink = context.canonicalIsUniversalLink
        if links.isEmpty, !universalLink {
            var message =
                "no deep link: no Smart App Banner app-argument, al:ios:url / al:iphone:url or twitter:app:url:iphone"
            switch context.canonicalLink {
            case .excluded(let rule)?: message += ", and the AASA excludes the canonical URL (\(rule))"
            case .notMatched?: message += ", and no AASA rule matches the canonical URL"
            case .noFile(let reason)?: message += ", and no usable AASA file (\(reason))"
            case .handled?, nil: break
            }
            if let store = storeLinks.first {
                message +=
                    "; \(store.key) is an App Store link (\(store.url), line \(store.line)), which opens the store page, not the content"
            }
            report(.dl001, 0, "", message)
            return
        }

        // DL002: links of one kind must name the same content. Web links are compared by their
        // de-duplication key; app-scheme links by scheme, host and path (queries carry tracking
        // parameters), and only within one device family, since iPhone and iPad apps may differ.
        var web: [DeepLink] = []
        var custom: [DeepLink] = []
        for link in links {
            guard let parsed = URLParser.parse(link.url) else { continue }
            if parsed.isCrawlable { web.append(link) } else { custom.append(link) }
        }
        func disagreement(_ group: [DeepLink], key: (DeepLink) -> String) -> Bool {
            guard let first = group.first, let other = group.first(where: { key($0) != key(first) }) else {
                return false
            }
            report(
                .dl002, other.source.line, "\(other.source.source)=\(other.url)",
                "\(other.source.source) is \(other.url) (line \(other.source.line)) but \(first.source.source) is \(first.url) (line \(first.source.line))"
            )
            return true
        }
        if !disagreement(web, key: { URLParser.parse($0.url)?.deduplicationKey ?? $0.url }) {
            let content: (DeepLink) -> String = { link in
                guard let parsed = URLParser.parse(link.url) else { return link.url }
                return "\(parsed.scheme)://\(parsed.host ?? "")\(parsed.path)"
            }
            for family in ["iphone", "ipad"] {
                let other = family == "iphone" ? "ipad" : "iphone"
                let members = custom.filter { !$0.source.source.split(separator: ":").contains(Substring(other)) }
                if disagreement(members, key: content) { break }
            }
        }

        if web.isEmpty, !universalLink, let first = custom.first {
            report(
                .dl004, first.source.line, "\(first.source.source)=\(first.url)",
                "only custom-scheme deep links (\(custom.map(\.url).joined(separator: ", "))); no https link the app handles as a universal link"
            )
        }
    }
}

extension DeepLinkChecks {
    /// The page's would-be deep links that point at the App Store (`DeepLink.isAppStoreLink`),
    /// which the attribute set does not count as deep links.
    var storeLinks: [(key: String, url: String, line: Int)] {
        let banners = page.smartAppBanners.compactMap { banner in
            banner.appArgument.map { (key: "apple-itunes-app app-argument", url: $0, line: banner.line) }
        }
        let keys: Set = [
            "al:iphone:url", "al:ipad:url", "al:ios:url", "twitter:app:url:iphone", "twitter:app:url:ipad",
        ]
        let tags = (page.appLinks + page.twitter).filter { keys.contains($0.key.lowercased()) }
            .map { (key: $0.key, url: $0.content, line: $0.line) }
        return (banners + tags).filter { DeepLink.isAppStoreLink($0.url) }
    }
}

extension RuleCatalogue {
    static let deepLinkFixHints: [RuleID: String] = [
        .dl001:
            "Add a deep link: apple-itunes-app app-argument=<canonical URL>, al:ios:url, or twitter:app:url:iphone (and list the URL in the AASA).",
        .dl002: "Make every deep link on the page open the same content.",
        .dl004: "Add an https deep link the app handles as a universal link (app-argument=<canonical URL> + AASA).",
    ]
}
