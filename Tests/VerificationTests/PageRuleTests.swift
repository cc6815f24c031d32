import MarkupExtraction
import Testing
import Verification

extension FixtureSiteRuleTests {
    /// The deep-link, content and indexability rules each fixture page must trigger
    /// (Fixtures/html/MANIFEST.md), checked without a crawl context.
    static let expectedPageRules: [String: [String]] = [
        "broken/missing-description.html": ["CT002"],
        "broken/no-deep-link.html": ["DL001"],
        "broken/noindex.html": ["IX002"],
        "broken/title-too-long.html": ["CT003"],
        // Its description, og:image, JSON-LD and Smart App Banner come only from a script (DL005 and
        // IX015 need --render): the served HTML lacks them.
        "rendered/injected.html": ["CT002", "CT007", "DL001", "OG003"],
    ]
}

/// A complete, clean page (no finding in the DL, CT and IX groups) with `head` added to its head.
private func page(
    title: String = "Up — a house carried away by balloons",
    description: String = "An old balloon seller flies his house to South America, with a boy scout on the porch.",
    head: String = "", lang: String = "en"
) -> String {
    """
    <!doctype html>
    <html lang="\(lang)"><head><title>\(title)</title>
    <meta name="description" content="\(description)">
    <link rel="canonical" href="https://www.example.com/movies/up.html">
    <meta property="og:image" content="https://www.example.com/images/up.png">
    <meta name="apple-itunes-app" content="app-id=1234567890, app-argument=https://www.example.com/movies/up.html">
    \(head)
    </head><body><p>Up</p></body></html>
    """
}

private func rules(
    _ html: String, context: PageContext = PageContext(), groups: [String] = ["DL", "CT", "IX"]
) -> [String] {
    let markup = MarkupExtractor().extract(html: Array(html.utf8), url: "https://www.example.com/movies/up.html")
    return PageVerifier().verify(markup, context: context).map(\.ruleID)
        .filter { id in groups.contains { id.hasPrefix($0) } && id != "DL003" }.sorted()
}

@Suite("Content rules (§7.7)")
struct ContentRuleTests {
    @Test func cleanPageHasNoFinding() {
        #expect(rules(page()) == [])
    }

    @Test(
        arguments: [
            (page(title: ""), [String]()),  // <title> empty, but og/JSON-LD absent too → CT001 below
            (page(title: String(repeating: "a", count: 91)), ["CT003"]),
            // A trailing og:site_name is not part of the title (reference §6): 80 + " | TechCrunch" is fine.
            (
                page(
                    title: "Balloons " + String(repeating: "a", count: 71) + " | TechCrunch",
                    head: #"<meta property="og:site_name" content="TechCrunch">"#), []
            ),
            (
                page(
                    title: "Balloons " + String(repeating: "a", count: 82) + " | TechCrunch",
                    head: #"<meta property="og:site_name" content="TechCrunch">"#), ["CT003"]
            ),
            (page(description: String(repeating: "word ", count: 61)), ["CT004"]),
            (page(description: "A short film text."), ["CT005"]),
            (page(description: "Up — a house carried away by balloons."), ["CT005", "CT006"]),
            (page(title: "Balloon balloon balloon balloon: the house flies"), ["CT013"]),
            (page(head: #"<meta name="keywords" content="a, b, c, d, e, f">"#), ["CT012"]),
            (page(head: #"<meta name="keywords" content="balloon, house, Balloon">"#), ["CT013"]),
            (page(head: #"<meta property="og:locale" content="fr_FR">"#), ["CT015"]),
            (page(head: #"<meta property="og:locale" content="en_GB">"#), []),
            (
                page(head: #"<script type="application/ld+json">{"@type":"Movie","keywords":"a,b,c,d,e,f"}</script>"#),
                ["CT012"]
            ),
        ] as [(String, [String])])
    func eachRuleFires(html: String, expected: [String]) {
        let found = rules(html, groups: ["CT"]).filter { $0 != "CT001" }
        #expect(found == expected, "\(html)")
    }

    /// CT003 measures the title without its trailing og:site_name, and says so with the length as
    /// written (issue 33: a 117-character og:title was reported as 97 characters).
    @Test(
        arguments: [
            (
                "Balloons " + String(repeating: "a", count: 82) + " | TechCrunch", true,
                "has 104 characters as written, 91 without its trailing site name \"TechCrunch\" (og:site_name), which is what is measured; Apple recommends at most 90"
            ),
            (String(repeating: "a", count: 95), false, "has 95 characters; Apple recommends at most 90"),
        ])
    func ct003SaysWhichLengthItMeasured(title: String, siteName: Bool, ending: String) throws {
        let html = page(title: title, head: siteName ? #"<meta property="og:site_name" content="TechCrunch">"# : "")
        let markup = MarkupExtractor().extract(html: Array(html.utf8), url: "https://www.example.com/movies/up.html")
        let finding = try #require(PageVerifier().verify(markup).first { $0.ruleID == "CT003" })
        #expect(finding.message == "the title (from <title>) " + ending)
    }

    @Test func noTitleAnywhereIsCT001() {
        let html = page(title: "").replacingOccurrences(of: "<title></title>", with: "")
        #expect(rules(html, groups: ["CT001"]) == ["CT001"])
    }

    @Test func noDescriptionAnywhereIsCT002() {
        let html = page().replacingOccurrences(of: "<meta name=\"description\"", with: "<meta name=\"x\"")
        #expect(rules(html, groups: ["CT"]) == ["CT002"])
    }

    @Test func onlyATouchIconIsNoContentImage() {
        let html = page(head: #"<link rel="apple-touch-icon" href="/icon.png">"#)
            .replacingOccurrences(of: "og:image", with: "og:x")
        #expect(rules(html, groups: ["CT007"]) == ["CT007"])
    }
}

@Suite("Indexability rules (§7.8)")
struct IndexabilityRuleTests {
    @Test(
        arguments: [
            (#"<meta name="robots" content="noindex, follow">"#, ["IX002"]),
            (#"<meta name="applebot" content="none">"#, ["IX002"]),
            (#"<meta name="googlebot" content="noindex">"#, []),
            (#"<meta name="robots" content="nosnippet">"#, ["IX003"]),
            (#"<meta http-equiv="refresh" content="0; url=/movies/up-2.html">"#, ["IX005"]),
            (#"<meta http-equiv="refresh" content="300">"#, []),
            (#"<link rel="canonical" href="https://www.example.com/movies/up-2.html">"#, ["IX007"]),
        ] as [(String, [String])])
    func eachMarkupRuleFires(head: String, expected: [String]) {
        #expect(rules(page(head: head), groups: ["IX"]) == expected, "\(head)")
    }

    @Test func aCanonicalElsewhereIsADuplicate() {
        let html = page().replacingOccurrences(
            of: "https://www.example.com/movies/up.html\">", with: "https://www.example.com/movies/up-2.html\">")
        #expect(rules(html, groups: ["IX"]) == ["IX006"])
    }

    /// An empty href names no URL (it resolves to the page itself): IX007 says it is empty
    /// (issue 33), not that it is relative.
    @Test(arguments: ["", " ", "\n"])
    func anEmptyCanonicalIsIX007(href: String) throws {
        let html = page().replacingOccurrences(
            of: "href=\"https://www.example.com/movies/up.html\"", with: "href=\"\(href)\"")
        let markup = MarkupExtractor().extract(html: Array(html.utf8), url: "https://www.example.com/movies/up.html")
        let found = PageVerifier().verify(markup).filter { $0.ruleID.hasPrefix("IX") }
        #expect(found.map(\.ruleID) == ["IX007"])
        let finding = try #require(found.first)
        #expect(finding.message == "the canonical link's href is empty: it names no URL", "\(finding.message)")
    }

    /// A canonical `<link>` without an `href` attribute names no URL either; it was not recorded
    /// at all before (issue 33).
    @Test func aCanonicalWithoutHrefIsIX007() throws {
        let html = page().replacingOccurrences(
            of: "<link rel=\"canonical\" href=\"https://www.example.com/movies/up.html\">",
            with: "<link rel=\"canonical\"><link rel=\"canonical\" href=\"https://www.example.com/movies/up.html\">")
        let markup = MarkupExtractor().extract(html: Array(html.utf8), url: "https://www.example.com/movies/up.html")
        #expect(markup.canonicals.count == 1)
        #expect(markup.canonicalsWithoutHref.count == 1)
        let found = PageVerifier().verify(markup).filter { $0.ruleID.hasPrefix("IX") }
        #expect(found.map(\.ruleID) == ["IX007"])
        let finding = try #require(found.first)
        #expect(finding.message.contains("has no href attribute"), "\(finding.message)")
    }

    @Test func aRelativeCanonicalIsIX007() {
        let html = page().replacingOccurrences(
            of: "href=\"https://www.example.com/movies/up.html\"", with: "href=\"/movies/up.html\"")
        #expect(rules(html, groups: ["IX"]) == ["IX007"])
    }

    @Test(
        arguments: [
            (PageContext(applebotAllowed: false), ["IX001"]),
            (PageContext(applebotAllowed: true), []),
            (PageContext(status: 200, mediaType: "text/html"), []),
            (PageContext(status: 404, mediaType: "text/html"), ["IX004"]),
            (PageContext(robotsHeaders: ["noindex"]), ["IX002"]),
            (PageContext(robotsHeaders: ["applebot: noindex, nofollow"]), ["IX002"]),
            (PageContext(robotsHeaders: ["googlebot: noindex"]), []),
            (PageContext(robotsHeaders: ["unavailable_after: 25 Jun 2030 15:00:00 PST"]), []),
            (PageContext(robotsHeaders: ["nosnippet"]), ["IX003"]),
            (PageContext(headerCanonicals: ["https://www.example.com/movies/up-2.html"]), ["IX007"]),
            (PageContext(bodyBytes: 2 << 20), ["IX008"]),
            (PageContext(bodyBytes: 500_000), []),
        ] as [(PageContext, [String])])
    func eachResponseRuleFires(context: PageContext, expected: [String]) {
        #expect(rules(page(), context: context, groups: ["IX"]) == expected)
    }

    @Test func responsesThatAreNotHTMLAreIX004() {
        let verifier = PageVerifier()
        #expect(
            verifier.verifyResponse(url: "https://a/", status: 200, mediaType: "image/png").map(\.ruleID) == ["IX004"])
        #expect(verifier.verifyResponse(url: "https://a/", status: 410, mediaType: nil).map(\.ruleID) == ["IX004"])
        #expect(verifier.verifyResponse(url: "https://a/", status: 200, mediaType: "text/html").isEmpty)
    }
}

@Suite("Deep-link rules (§7.2)")
struct DeepLinkRuleTests {
    static let noBanner = page().replacingOccurrences(of: "apple-itunes-app", with: "x-app")

    @Test func noDeepLinkIsDL001() {
        #expect(rules(Self.noBanner, groups: ["DL"]) == ["DL001"])
    }

    /// Issue 13 §4: an App Store link opens the store page, not the content: no deep link.
    @Test(
        arguments: [
            #"<meta name="twitter:app:url:iphone" content="https://apps.apple.com/us/app/family-cinema/id1234567890">"#,
            #"<meta name="twitter:app:url:iphone" content="https://itunes.apple.com/app/id1234567890?mt=8">"#,
            #"<meta property="al:ios:url" content="itms-apps://itunes.apple.com/app/id1234567890">"#,
        ])
    func anAppStoreLinkIsNoDeepLink(head: String) throws {
        let html = Self.noBanner.replacingOccurrences(of: "</head>", with: head + "</head>")
        #expect(rules(html, groups: ["DL"]) == ["DL001"])
        let markup = MarkupExtractor().extract(html: Array(html.utf8), url: "https://www.example.com/movies/up.html")
        let finding = try #require(PageVerifier().verify(markup).first { $0.rule == .dl001 })
        #expect(finding.message.contains("is an App Store link"), "\(finding.message)")
    }

    @Test func aUniversalLinkForTheCanonicalIsADeepLink() {
        let handled = PageContext(canonicalLink: .handled(rule: "components[0] /movies/*"))
        #expect(rules(Self.noBanner, context: handled, groups: ["DL"]) == [])
        let excluded = PageContext(canonicalLink: .excluded(rule: "components[0] /movies/* (exclude)"))
        #expect(rules(Self.noBanner, context: excluded, groups: ["DL"]) == ["DL001"])
    }

    @Test(
        arguments: [
            (#"<meta property="al:ios:url" content="familycinema://movies/up">"#, [String]()),
            (
                #"<meta property="al:ios:url" content="familycinema://movies/up"><meta name="twitter:app:url:iphone" content="familycinema://movies/cars">"#,
                ["DL002"]
            ),
            (#"<meta property="al:ios:url" content="https://www.example.com/movies/cars.html">"#, ["DL002"]),
            (#"<meta property="al:ios:url" content="https://www.example.com/movies/up.html#top">"#, []),
        ] as [(String, [String])])
    func deepLinksMustAgree(head: String, expected: [String]) {
        #expect(rules(page(head: head), groups: ["DL"]) == expected, "\(head)")
    }

    @Test func onlyCustomSchemeLinksAreDL004() {
        let html = Self.noBanner.replacingOccurrences(
            of: "</head>", with: #"<meta property="al:ios:url" content="familycinema://movies/up"></head>"#)
        #expect(rules(html, groups: ["DL"]) == ["DL004"])
        let handled = PageContext(canonicalLink: .handled(rule: "components[0] /movies/*"))
        #expect(rules(html, context: handled, groups: ["DL"]) == [])
    }
}

@Suite("Universal-link page rules (UL020, UL021, SAB021)")
struct UniversalLinkPageRuleTests {
    static let rule = "applinks.details[0].components[1] /movies/*"

    @Test(
        arguments: [
            (PageContext(canonicalLink: .handled(rule: rule)), [String]()),
            (PageContext(canonicalLink: .excluded(rule: rule + " (exclude)")), ["UL021"]),
            (PageContext(canonicalLink: .notMatched), ["UL020"]),
            (PageContext(canonicalLink: .noFile(reason: "HTTP 404")), []),
            (PageContext(), []),
            (PageContext(canonicalLink: .handled(rule: rule), appArgumentLink: .notMatched), ["SAB021"]),
            (PageContext(canonicalLink: .handled(rule: rule), appArgumentLink: .excluded(rule: rule)), ["SAB021"]),
        ] as [(PageContext, [String])])
    func verdictsBecomeFindings(context: PageContext, expected: [String]) {
        #expect(rules(page(), context: context, groups: ["UL", "SAB"]) == expected)
    }

    @Test func noDeepLinkOnThePageIsNotUL020() {
        let html = DeepLinkRuleTests.noBanner
        #expect(rules(html, context: PageContext(canonicalLink: .notMatched), groups: ["UL"]) == [])
    }
}

@Suite("Deep links and App Store IDs per device family (false positives found on real pages)")
struct DeviceFamilyTests {
    @Test func iPhoneAndIPadAppsMayDiffer() {
        // nytimes.com: one app for iPhone, another for iPad; engadget.com: two schemes.
        let head = """
            <meta property="al:iphone:app_store_id" content="284862083"><meta property="al:iphone:url" content="nyt://a">
            <meta property="al:ipad:app_store_id" content="357066198"><meta property="al:ipad:url" content="nytimes://a">
            <meta name="twitter:app:url:iphone" content="nyt://a?source=twitter">
            """
        let html = DeepLinkRuleTests.noBanner.replacingOccurrences(of: "</head>", with: head + "</head>")
        #expect(rules(html, groups: ["DL"]).filter { $0 != "DL004" } == [])
    }

    /// guardian.com-shaped Twitter app tags: an iPhone and an iPad deep link that differ.
    static func twitterApps(iphoneID: String?, ipadID: String?) -> String {
        let head =
            (iphoneID.map { #"<meta name="twitter:app:id:iphone" content="\#($0)">"# } ?? "")
            + (ipadID.map { #"<meta name="twitter:app:id:ipad" content="\#($0)">"# } ?? "")
            + #"<meta name="twitter:app:url:iphone" content="https://www.example.com/movies/up.html">"#
            + #"<meta name="twitter:app:url:ipad" content="https://ipad.example.com/films/up">"#
        return DeepLinkRuleTests.noBanner.replacingOccurrences(of: "</head>", with: head + "</head>")
    }

    @Test(
        "twitter:app:url:iphone and :ipad are compared only when they open the same app (or an id is absent)",
        arguments: [
            ("409128287", "409128288", [String]()), ("409128287", "409128287", ["DL002"]),
            ("409128287", nil, ["DL002"]), (nil, nil, ["DL002"]),
        ] as [(String?, String?, [String])])
    func separateAppsMayHaveDifferentDeepLinks(iphoneID: String?, ipadID: String?, expected: [String]) {
        #expect(rules(Self.twitterApps(iphoneID: iphoneID, ipadID: ipadID), groups: ["DL"]) == expected)
    }

    /// With separate iPhone and iPad apps, al:ios is the iPhone (or universal) app's, as DL003
    /// takes it: an iPad link that differs from it is no DL002; an iPhone link that differs is.
    @Test(
        "al:ios is compared with the iPhone's links, not a separate iPad app's (issue 33)",
        arguments: [
            ("https://www.example.com/movies/up.html", [String]()),
            ("https://www.example.com/movies/cars.html", ["DL002"]),
        ])
    func alIOSBelongsToTheIPhoneFamily(alIOSURL: String, expected: [String]) {
        let html = Self.twitterApps(iphoneID: "409128287", ipadID: "409128288").replacingOccurrences(
            of: "</head>", with: #"<meta property="al:ios:url" content="\#(alIOSURL)"></head>"#)
        #expect(rules(html, groups: ["DL"]) == expected)
    }

    /// The iPad tags agree with each other (al:ipad and twitter:app:id:ipad); al:ios is the iPhone
    /// or universal app's, which a separate iPad app need not share (issue 33).
    @Test func theSameFamilyMustAgree() {
        let head = """
            <meta property="al:ios:app_store_id" content="284862083"><meta property="al:ios:url" content="nyt://a">
            <meta property="al:ipad:app_store_id" content="284862083"><meta property="al:ipad:url" content="nyt://a">
            <meta name="twitter:app:id:ipad" content="357066198"><meta name="twitter:app:url:ipad" content="nyt://b">
            """
        let html = DeepLinkRuleTests.noBanner.replacingOccurrences(of: "</head>", with: head + "</head>")
        let markup = MarkupExtractor().extract(html: Array(html.utf8), url: "https://www.example.com/movies/up.html")
        let found = PageVerifier().verify(markup).map(\.ruleID).filter { $0 == "DL002" || $0 == "DL003" }
        #expect(found.sorted() == ["DL002", "DL003"])
    }
}
