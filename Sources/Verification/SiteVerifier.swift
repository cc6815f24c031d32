public import Rulebook
import URLNormalization

/// What the site-level rules need to know of one crawled page.
public struct SitePage: Sendable, Hashable {
    /// The page's public URL (after redirects).
    public var url: String
    /// The HTTP status of the final response (nil when the fetch failed).
    public var status: Int?
    /// Whether the response was parsed as HTML.
    public var isHTML: Bool
    /// Whether robots.txt lets Applebot fetch it (nil: unknown).
    public var applebotAllowed: Bool?
    /// Whether the page says `noindex` (meta robots/applebot or X-Robots-Tag).
    public var isNoindex: Bool
    /// The first `rel=canonical` target, resolved.
    public var canonical: String?
    public var title: String?
    public var contentDescription: String?
    public var thumbnailURL: String?
    /// The Smart App Banner `app-argument`.
    public var appArgument: String?

    public init(
        url: String, status: Int?, isHTML: Bool, applebotAllowed: Bool? = nil, isNoindex: Bool = false,
        canonical: String? = nil, title: String? = nil, contentDescription: String? = nil,
        thumbnailURL: String? = nil, appArgument: String? = nil
    ) {
        self.url = url
        self.status = status
        self.isHTML = isHTML
        self.applebotAllowed = applebotAllowed
        self.isNoindex = isNoindex
        self.canonical = canonical
        self.title = title
        self.contentDescription = contentDescription
        self.thumbnailURL = thumbnailURL
        self.appArgument = appArgument
    }
}

/// A `<loc>` a sitemap lists.
public struct SitemapListing: Sendable, Hashable {
    public var location: String
    public var sitemapURL: String
    public var line: Int

    public init(location: String, sitemapURL: String, line: Int) {
        self.location = location
        self.sitemapURL = sitemapURL
        self.line = line
    }
}

/// The rules that need the whole crawl: the same title, description, image or `app-argument` on
/// many pages (CT014, CT008, SAB007), canonicals to pages that are not indexable (IX012), canonical
/// chains and cycles (IX013), and sitemaps listing non-canonical URLs (IX014). Findings come in
/// a fixed order (URL, rule, message).
public struct SiteVerifier: Sendable, RuleGroup {
    public var configuration: RuleConfiguration

    /// Pages sharing a title or description before CT014 fires (SpotCheck's threshold).
    public static let duplicateTextPages = 2
    /// Pages sharing an image or `app-argument` before CT008 / SAB007 fire (SpotCheck's threshold:
    /// a default image on a few section pages is common; on three or more it is the site default).
    public static let duplicateLinkPages = 3

    static let rules = RuleCatalogue.siteRules

    public init(configuration: RuleConfiguration = RuleConfiguration()) {
        self.configuration = configuration
    }

    public func verify(_ pages: [SitePage], sitemapListings: [SitemapListing] = []) -> [Finding] {
        let verifier = PageVerifier(configuration: configuration)
        var findings: [Finding] = []
        func report(_ rule: RuleID, _ url: String, _ excerpt: String, _ message: String) {
            if let finding = verifier.finding(rule, url: url, line: 0, excerpt: excerpt, message: message) {
                findings.append(finding)
            }
        }
        // Pages with content: 200 HTML from a crawl, or HTML files (no status).
        let candidates = pages.filter { $0.isHTML && ($0.status == nil || $0.status == 200) }

        // One finding per group of pages sharing a value (on the group's first URL, naming the
        // others), so a site of 20,000 near-identical pages gives a handful of findings, not
        // one per page.
        func duplicates(
            _ value: (SitePage) -> String?, normalize: (String) -> String, threshold: Int,
            _ flag: (_ first: SitePage, _ value: String, _ pages: [String]) -> Void
        ) {
            var groups: [String: [SitePage]] = [:]
            for page in candidates {
                guard let text = value(page), !text.isEmpty else { continue }
                groups[normalize(text), default: []].append(page)
            }
            for group in groups.values where group.count >= threshold {
                let sorted = group.sorted { $0.url < $1.url }
                flag(sorted[0], value(sorted[0]) ?? "", sorted.map(\.url))
            }
        }
        func listed(_ urls: [String]) -> String {
            urls.prefix(5).joined(separator: ", ") + (urls.count > 5 ? " and \(urls.count - 5) more" : "")
        }
        let text: (String) -> String = { $0.lowercased().split { $0.isWhitespace }.joined(separator: " ") }
        let link: (String) -> String = { URLParser.parse($0)?.deduplicationKey ?? $0 }
        duplicates(\.title, normalize: text, threshold: Self.duplicateTextPages) { first, title, urls in
            report(.ct014, first.url, title, "the title \"\(title)\" is on \(urls.count) pages: \(listed(urls))")
        }
        duplicates(\.contentDescription, normalize: text, threshold: Self.duplicateTextPages) { first, value, urls in
            report(.ct014, first.url, value, "the same description is on \(urls.count) pages: \(listed(urls))")
        }
        duplicates(\.thumbnailURL, normalize: link, threshold: Self.duplicateLinkPages) { first, image, urls in
            report(.ct008, first.url, image, "the image \(image) is the image of \(urls.count) pages: \(listed(urls))")
        }
        duplicates(\.appArgument, normalize: link, threshold: Self.duplicateLinkPages) { first, argument, urls in
            report(
                .sab007, first.url, "app-argument=\(argument)",
                "the same app-argument \(argument) is on \(urls.count) pages: \(listed(urls))")
        }

        // Canonicals, through the crawl's pages by de-duplication key.
        var byKey: [String: SitePage] = [:]
        for page in pages {
            let key = link(page.url)
            if byKey[key] == nil || page.status == 200 || page.status == nil { byKey[key] = page }
        }
        for page in candidates {
            guard let canonical = page.canonical, link(canonical) != link(page.url),
                let target = byKey[link(canonical)]
            else { continue }
            let excerpt = "<link rel=\"canonical\" href=\"\(canonical)\">"
            if (target.status != nil && target.status != 200) || !target.isHTML {
                let what = target.status.map { "HTTP \($0)" } ?? "a failed fetch"
                report(
                    .ix012, page.url, excerpt,
                    "canonical \(canonical) is \(target.isHTML || target.status != 200 ? what : "not HTML"), not a 200 HTML page"
                )
            } else if target.applebotAllowed == false {
                report(.ix012, page.url, excerpt, "canonical \(canonical) is blocked for Applebot by robots.txt")
            } else if target.isNoindex {
                report(.ix012, page.url, excerpt, "canonical \(canonical) says noindex")
            }
            guard let next = target.canonical, link(next) != link(target.url) else { continue }
            if link(next) == link(page.url) {
                report(
                    .ix013, page.url, excerpt,
                    "canonical cycle: this page names \(canonical), which names this page back")
            } else {
                report(
                    .ix013, page.url, excerpt,
                    "canonical chain: this page names \(canonical), which names \(next); name the final URL directly")
            }
        }

        // IX009: distinct pages whose canonical URLs (or sitemap locations) differ only by #fragment.
        var byDocument: [String: Set<String>] = [:]
        var pageOf: [String: SitePage] = [:]
        for page in candidates {
            guard let canonical = page.canonical, let parsed = URLParser.parse(canonical), parsed.fragment != nil
            else { continue }
            byDocument[parsed.serialized(includingFragment: false), default: []].insert(canonical)
            pageOf[canonical] = page
        }
        for listing in sitemapListings {
            guard let parsed = URLParser.parse(listing.location), parsed.fragment != nil else { continue }
            byDocument[parsed.serialized(includingFragment: false), default: []].insert(listing.location)
        }
        for (document, urls) in byDocument where urls.count > 1 {
            let listed = urls.sorted()
            for url in listed {
                report(
                    .ix009, pageOf[url]?.url ?? url, url,
                    "\(listed.count) URLs differ from \(document) only by their #fragment (\(listed.joined(separator: ", "))); Applebot may take them for one page"
                )
            }
        }

        for listing in sitemapListings {
            guard let page = byKey[link(listing.location)], page.isHTML, page.status == nil || page.status == 200,
                let canonical = page.canonical,
                link(canonical) != link(listing.location)
            else { continue }
            report(
                .ix014, page.url, "<loc>\(listing.location)</loc>",
                "\(listing.sitemapURL) (line \(listing.line)) lists \(listing.location), whose canonical is \(canonical)"
            )
        }
        return findings.sorted { ($0.url, $0.rule, $0.message) < ($1.url, $1.rule, $1.message) }
    }
}
