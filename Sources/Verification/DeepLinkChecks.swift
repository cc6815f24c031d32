import MarkupExtraction
import Rulebook
import SpotlightModel
import URLNormalization

/// The deep-link rules (apple-markup-rules.md §7.2) besides DL003 (with the X/App Links checks).
/// DL005 (deep links that appear only after JavaScript) compares the rendered page:
/// `RenderingChecks`.
struct DeepLinkChecks: PageRuleGroup {
    let page: PageMarkup
    let attributes: PageAttributes
    let context: PageContext

    static let rules = RuleCatalogue.deepLinkRules

    func run(_ report: (RuleID, SourcePosition, String, String) -> Void) {
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
            report(.dl001, .page, "", message)
            return
        }

        // DL002: links of one kind must name the same content. Web links are compared by their
        // de-duplication key; app-scheme links by scheme, host and path (queries carry tracking
        // parameters), and only within one device family, since iPhone and iPad apps may differ.
        // When the page names different App Store apps for iPhone and iPad (twitter:app:id:*,
        // al:*:app_store_id), web links are compared within one family too; when one family's id
        // is absent, nothing says the apps differ, and the links are compared across families.
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
                .dl002, other.source.position, "\(other.source.source)=\(other.url)",
                "\(other.source.source) is \(other.url) (line \(other.source.line)) but \(first.source.source) is \(first.url) (line \(first.source.line))"
            )
            return true
        }
        // The banner's and al:ios links go with the iPhone's, as DL003 takes their IDs: a separate
        // iPad app's links (al:ipad, twitter:app:url:ipad) are compared only with each other.
        func disagreementWithinFamilies(_ group: [DeepLink], key: (DeepLink) -> String) -> Bool {
            disagreement(group.filter { Self.family(of: $0) != "ipad" }, key: key)
                || disagreement(group.filter { Self.family(of: $0) == "ipad" }, key: key)
        }
        let webKey: (DeepLink) -> String = { URLParser.parse($0.url)?.deduplicationKey ?? $0.url }
        let webDisagrees =
            Self.separateApps(attributes.appStoreIDs)
            ? disagreementWithinFamilies(web, key: webKey) : disagreement(web, key: webKey)
        if !webDisagrees {
            let content: (DeepLink) -> String = { link in
                guard let parsed = URLParser.parse(link.url) else { return link.url }
                return "\(parsed.scheme)://\(parsed.host ?? "")\(parsed.path)"
            }
            _ = disagreementWithinFamilies(custom, key: content)
        }

        if web.isEmpty, !universalLink, let first = custom.first {
            report(
                .dl004, first.source.position, "\(first.source.source)=\(first.url)",
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
        let keys = Set(DeepLink.tagKeys)
        let tags = (page.appLinks + page.twitter).filter { keys.contains($0.key.lowercased()) }
            .map { (key: $0.key, url: $0.content, line: $0.line) }
        return (banners + tags).filter { DeepLink.isAppStoreLink($0.url) }
    }

    /// "iphone" or "ipad" for a link or App Store ID from a device-specific tag
    /// (`twitter:app:url:ipad`, `al:iphone:app_store_id`); nil for the banner and `al:ios:*`.
    static func family(of link: DeepLink) -> String? {
        let parts = link.source.source.lowercased().split(separator: ":")
        return parts.contains("iphone") ? "iphone" : parts.contains("ipad") ? "ipad" : nil
    }

    /// Whether the page names different apps for iPhone and iPad: both families have App Store
    /// IDs and none is shared.
    static func separateApps(_ appStoreIDs: [DeepLink]) -> Bool {
        func ids(_ family: String) -> Set<String> {
            Set(appStoreIDs.filter { Self.family(of: $0) == family }.map { $0.url.trimmedWhitespace })
        }
        let (iphone, ipad) = (ids("iphone"), ids("ipad"))
        return !iphone.isEmpty && !ipad.isEmpty && iphone.isDisjoint(with: ipad)
    }
}
