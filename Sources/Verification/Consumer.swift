import LenientJSON
public import MarkupExtraction

/// A program that fetches a page itself to read its metadata: Apple's crawler, Safari, and the
/// link-preview bots of Messages and the social networks. `crawl --consumers` fetches every HTML
/// page once more as each named consumer does (its User-Agent, its robots.txt group) and IX010
/// compares what it gets with SpotCheck's own fetch (issue 14 §3).
///
/// The table is data with sources: [A] Apple, [S] the consumer's own documentation, [3P] seen by
/// third parties. None of these programs runs JavaScript (TN3156 for Messages; the social bots
/// and Applebot's plain fetch read the served HTML).
public struct Consumer: Sendable, Hashable {
    /// The name `--consumers` takes.
    public var name: String
    public var userAgent: String
    /// The robots.txt product tokens it obeys, the first named by a group winning (Applebot falls
    /// back to Googlebot's group); empty when it does not read robots.txt (a browser, Messages).
    public var robotsTokens: [String]
    /// The metadata it reads, which IX010 compares.
    public var reads: [ConsumerMetadata.Field]
    /// Where the User-Agent and the behaviour come from.
    public var source: String

    /// Every consumer `--consumers` knows.
    public static let all: [Consumer] = [
        Consumer(
            name: "applebot",
            userAgent:
                "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) "
                + "Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)",
            robotsTokens: ["Applebot", "Googlebot"],
            reads: [.title, .description, .ogTitle, .ogDescription, .ogImage, .jsonLD, .smartAppBanner],
            source: "[A] About Applebot (support.apple.com/en-us/119829): user agent, robots.txt with the Googlebot "
                + "fallback"),
        Consumer(
            name: "safari",
            userAgent:
                "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
                + "Version/17.5 Mobile/15E148 Safari/604.1",
            robotsTokens: [],
            reads: [.title, .smartAppBanner],
            source: "[A] Promoting Apps with Smart App Banners (Safari shows the banner); [3P] Safari on iOS 17's "
                + "user agent"),
        Consumer(
            name: "messages",
            userAgent:
                "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_11_1) AppleWebKit/601.2.4 (KHTML, like Gecko) "
                + "Version/9.0.1 Safari/601.2.4 facebookexternalhit/1.1 Facebot Twitterbot/1.0",
            robotsTokens: [],
            reads: [.title, .ogTitle, .ogImage],
            source: "[A] TN3156 Create rich previews for Messages (what it reads; same metadata for all user "
                + "agents); [3P] the user agent Messages' previews send (peter.upfold.org.uk, 2019)"),
        Consumer(
            name: "facebookexternalhit",
            userAgent: "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
            robotsTokens: ["facebookexternalhit"],
            reads: [.ogTitle, .ogDescription, .ogImage],
            source: "[S] developers.facebook.com/docs/sharing/webmasters/web-crawlers"),
        Consumer(
            name: "twitterbot",
            userAgent: "Twitterbot/1.0",
            robotsTokens: ["Twitterbot"],
            reads: [.twitterCard, .twitterImage, .ogTitle, .ogDescription, .ogImage],
            source: "[S] developer.x.com cards: getting started (Twitterbot, robots.txt, og: fallbacks)"),
        Consumer(
            name: "slackbot",
            userAgent: "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
            robotsTokens: ["Slackbot-LinkExpanding", "Slackbot"],
            reads: [.ogTitle, .ogDescription, .ogImage, .twitterImage],
            source: "[S] api.slack.com/robots"),
        Consumer(
            name: "linkedinbot",
            userAgent: "LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)",
            robotsTokens: ["LinkedInBot"],
            reads: [.ogTitle, .ogDescription, .ogImage],
            source: "[S] linkedin.com/help/linkedin/answer/a521928 (Post Inspector, og: tags); [3P] its user agent"),
    ]

    /// The consumer `name` names (case-insensitive), if any.
    public static func named(_ name: String) -> Consumer? {
        all.first { $0.name == name.lowercased() }
    }
}

/// What a consumer reads of a page, as text to compare: each field's first value as written.
public struct ConsumerMetadata: Sendable, Hashable {
    public enum Field: String, Sendable, Hashable, CaseIterable {
        case title
        case description = "meta description"
        case ogTitle = "og:title"
        case ogDescription = "og:description"
        case ogImage = "og:image"
        case twitterCard = "twitter:card"
        case twitterImage = "twitter:image"
        /// The schema.org types of the page's JSON-LD, sorted.
        case jsonLD = "JSON-LD types"
        /// The Smart App Banner's `app-id` and `app-argument`.
        case smartAppBanner = "apple-itunes-app"
    }

    public var values: [Field: String]

    public init(values: [Field: String] = [:]) {
        self.values = values
    }

    /// The fields of `page` (absent ones left out).
    public init(_ page: PageMarkup) {
        var values: [Field: String] = [:]
        func put(_ field: Field, _ value: String?) {
            guard let value, !value.isEmpty else { return }
            values[field] = value
        }
        func first(_ tags: [MetaTag], _ key: String) -> String? {
            tags.first { $0.key.lowercased() == key }?.content
        }
        put(.title, page.title?.text)
        put(.description, page.descriptions.first?.content)
        put(.ogTitle, first(page.openGraph, "og:title"))
        put(.ogDescription, first(page.openGraph, "og:description"))
        put(.ogImage, first(page.openGraph, "og:image") ?? first(page.openGraph, "og:image:url"))
        put(.twitterCard, first(page.twitter, "twitter:card"))
        put(.twitterImage, first(page.twitter, "twitter:image") ?? first(page.twitter, "twitter:image:src"))
        let types = Set(page.jsonLD.flatMap { Self.types(in: $0.value) })
        put(.jsonLD, types.sorted().joined(separator: ", "))
        if let banner = page.smartAppBanner {
            put(
                .smartAppBanner,
                ["app-id=\(banner.appID ?? "")", banner.appArgument.map { "app-argument=\($0)" }]
                    .compactMap { $0 }.joined(separator: ", "))
        }
        self.values = values
    }

    /// The `@type` values of a JSON-LD document, its `@graph` and arrays (top level only).
    private static func types(in value: JSONValue?) -> [String] {
        switch value {
        case .array(let items): items.flatMap { types(in: $0) }
        case .object(let object):
            (object["@graph"].map { types(in: $0) } ?? [])
                + (object["@type"].map { type in
                    type.arrayValue?.compactMap(\.stringValue) ?? type.stringValue.map { [$0] } ?? []
                } ?? [])
        default: []
        }
    }
}

/// What one consumer got when it fetched a page.
public struct ConsumerView: Sendable, Hashable {
    public enum Outcome: Sendable, Hashable {
        /// An answer after redirects: its status, final URL, and its metadata when it was HTML.
        case answered(status: Int, finalURL: String, metadata: ConsumerMetadata?)
        /// robots.txt disallows the page for the consumer's tokens: it does not fetch it.
        case disallowedByRobots
        /// No answer (the failure's kind and message).
        case failed(String)
    }

    public var consumer: Consumer
    public var outcome: Outcome

    public init(consumer: Consumer, outcome: Outcome) {
        self.consumer = consumer
        self.outcome = outcome
    }
}
