import MarkupExtraction
import Rulebook
import URLNormalization

/// The X card (TW) and App Links (AL) rules (apple-markup-rules.md §7.5), and DL003 (App Store IDs
/// that disagree across the Smart App Banner, App Links and X tags).
struct TwitterAppLinksChecks: PageRuleGroup {
    let page: PageMarkup

    static let rules = RuleCatalogue.twitterAppLinksRules

    func run(_ report: (RuleID, SourcePosition, String, String) -> Void) {
        func flag(_ id: RuleID, _ tag: MetaTag, _ message: String) {
            report(
                id, tag.position, "<meta \(tag.attribute.rawValue)=\"\(tag.key)\" content=\"\(tag.content)\">", message)
        }
        for tag in page.twitter {
            let key = tag.key.lowercased()
            let value = tag.content
            switch key {
            case "twitter:card":
                if let written = tag.valueAttribute {
                    // `value=` for `content=`, the markup of X's first cards (2012 pages such as
                    // YouTube's carried `<meta name="twitter:card" value="player">`). X's markup
                    // reference reads name/property and content only, and whether its parser still
                    // reads value= is not documented, so it is not taken as the card type: TW001
                    // names what was written (docs/realpages-findings.md, issue 33).
                    let known = Self.cardTypes.contains(written) ? "" : ", and \"\(written)\" is not one of them"
                    report(
                        .tw001, tag.position, "<meta \(tag.attribute.rawValue)=\"\(tag.key)\" value=\"\(written)\">",
                        "twitter:card has no content attribute: its card type is written as value=\"\(written)\", an early form of X's markup; X's markup reference reads content= (summary, summary_large_image, app or player)\(known)"
                    )
                } else if !Self.cardTypes.contains(value) {
                    flag(.tw001, tag, "twitter:card \"\(value)\" is not summary, summary_large_image, app or player")
                }
            case "twitter:title" where value.count > 70:
                flag(.tw002, tag, "twitter:title has \(value.count) characters; X shows at most 70")
            case "twitter:description" where value.count > 200:
                flag(.tw002, tag, "twitter:description has \(value.count) characters; X shows at most 200")
            case "twitter:image", "twitter:image:src":
                if Self.path(of: value).lowercased().hasSuffix(".svg") {
                    flag(.tw003, tag, "\(key) \"\(value)\" is an SVG image, which X does not show")
                }
            case "twitter:image:alt" where value.count > 420:
                flag(.tw003, tag, "twitter:image:alt has \(value.count) characters; the limit is 420")
            case "twitter:app:id:iphone", "twitter:app:id:ipad":
                if !Self.isNumeric(value) {
                    flag(.tw004, tag, "\(key) \"\(value)\" is not the numeric App Store ID (a bundle ID?)")
                }
            case "twitter:url":
                if let canonical = page.canonicals.first?.content,
                    let canonicalKey = URLParser.parse(canonical)?.deduplicationKey,
                    URLParser.parse(value)?.deduplicationKey != canonicalKey
                {
                    flag(.tw006, tag, "twitter:url \"\(value)\" differs from the canonical URL \(canonical)")
                }
            case let name where name.hasPrefix("twitter:app:url:"):
                if !value.contains("://") { flag(.tw005, tag, "\(key) \"\(value)\" has no \"://\"") }
            default:
                break
            }
        }

        // App Links: per platform group (al:ios, al:iphone, al:ipad), :url is required.
        var groups: [String: [MetaTag]] = [:]
        for tag in page.appLinks {
            let key = tag.key.lowercased()
            let parts = key.split(separator: ":")
            if parts.count >= 3, ["ios", "iphone", "ipad"].contains(parts[1]) {
                groups[String(parts[1]), default: []].append(tag)
            }
            if key.hasSuffix(":app_store_id"), !Self.isNumeric(tag.content) {
                flag(.al002, tag, "\(key) \"\(tag.content)\" is not the numeric App Store ID")
            }
            if key.hasSuffix(":url"), key != "al:web:url" {
                if !Self.isURL(tag.content) {
                    flag(.al003, tag, "\(key) \"\(tag.content)\" is not a URL")
                } else if let bad = URLText.invalidPercentEncoding(tag.content) {
                    flag(
                        .al003, tag,
                        "\(key) \"\(tag.content)\" is not a valid URL: \"\(bad)\" is not percent-encoding (% and two hex digits)"
                    )
                } else if let scheme = tag.content.split(separator: ":").first, scheme.contains("_") {
                    flag(.al003, tag, "\(key) scheme \"\(scheme)\" contains \"_\", which URL schemes may not")
                }
            }
            if key == "al:web:should_fallback", !["true", "false"].contains(tag.content.lowercased()) {
                flag(.al004, tag, "al:web:should_fallback \"\(tag.content)\" is not true or false")
            }
            if key == "al:web:url" {
                if let url = URLParser.parse(tag.content), url.isCrawlable {
                    if let canonical = page.canonicals.first?.content, let canonicalURL = URLParser.parse(canonical),
                        canonicalURL.deduplicationKey != url.deduplicationKey
                    {
                        flag(.al005, tag, "al:web:url \"\(tag.content)\" differs from the canonical URL \(canonical)")
                    }
                } else {
                    flag(.al005, tag, "al:web:url \"\(tag.content)\" is not an absolute http(s) URL")
                }
            }
        }
        for platform in ["ios", "iphone", "ipad"] {
            guard let tags = groups[platform], let first = tags.first else { continue }
            if !tags.contains(where: { $0.key.lowercased() == "al:\(platform):url" }) {
                flag(.al001, first, "al:\(platform):* tags without al:\(platform):url")
            }
        }

        // DL003: the App Store IDs the page names must agree, like with like: the Smart App
        // Banner, al:ios (the iOS app, universal or iPhone) and the iPhone tags, which the
        // catalogue's row names; the iPad tags (al:ipad, twitter:app:id:ipad) only with each other.
        // An iPad app may be another app than the iPhone one, as some publishers have, and al:ios
        // does not say which iPad app (App Links: al:ipad is the "iPad-specific app").
        var iPhone: [(String, String, SourcePosition)] = []
        var iPad: [(String, String, SourcePosition)] = []
        if let banner = page.smartAppBanners.first, let id = banner.appID, Self.isNumeric(id) {
            iPhone.append(("apple-itunes-app app-id", id, banner.position))
        }
        for tag in page.appLinks + page.twitter {
            let key = tag.key.lowercased()
            guard Self.isNumeric(tag.content) else { continue }
            switch key {
            case "al:ios:app_store_id", "al:iphone:app_store_id", "twitter:app:id:iphone":
                iPhone.append((key, tag.content, tag.position))
            case "al:ipad:app_store_id", "twitter:app:id:ipad": iPad.append((key, tag.content, tag.position))
            default: break
            }
        }
        for ids in [iPhone, iPad] {
            if let first = ids.first, let other = ids.first(where: { $0.1 != first.1 }) {
                report(
                    .dl003, other.2, "\(other.0)=\(other.1)",
                    "\(other.0) is \(other.1) (line \(other.2.line)) but \(first.0) is \(first.1) (line \(first.2.line))"
                )
                break
            }
        }
    }

    /// X's card types (apple-markup-rules.md §4.4).
    static let cardTypes: Set<String> = ["summary", "summary_large_image", "app", "player"]

    static func isNumeric(_ value: String) -> Bool {
        !value.isEmpty && value.allSatisfy { $0.isASCII && $0.isNumber }
    }

    static func isURL(_ value: String) -> Bool {
        guard let colon = value.firstIndex(of: ":"), value.first?.isLetter == true else { return false }
        return value[..<colon].allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-._".contains($0)) }
            && value.index(after: colon) < value.endIndex
    }

    private static func path(of url: String) -> Substring {
        url.split(separator: "?", maxSplits: 1).first?.split(separator: "#", maxSplits: 1).first ?? Substring(url)
    }
}
