import MarkupExtraction
import Rulebook
import Testing
import Verification

extension FixtureSiteRuleTests {
    /// The Open Graph rules each fixture page must trigger (Fixtures/html/MANIFEST.md).
    static let expectedOpenGraph: [String: [String]] = [
        "broken/og-missing-image.html": ["OG003"],
        "broken/og-image-relative-url.html": ["OG005"],
        "broken/og-orphan-image-width.html": ["OG009"],
        "broken/canonical-mismatch.html": ["OG006"],
    ]
}

@Suite("Open Graph rules (§7.4)")
struct OpenGraphRuleTests {
    static let url = "https://www.example.com/movies/up.html"

    /// A complete, valid Open Graph block; each test case replaces or adds tags.
    static let validTags: [String: String] = [
        "og:type": #"<meta property="og:type" content="video.movie">"#,
        "og:title": #"<meta property="og:title" content="Up">"#,
        "og:url": #"<meta property="og:url" content="https://www.example.com/movies/up.html">"#,
        "og:site_name": #"<meta property="og:site_name" content="Family Cinema">"#,
        "og:image": """
        <meta property="og:image" content="https://www.example.com/up.png">
        <meta property="og:image:type" content="image/png">
        <meta property="og:image:width" content="1200">
        <meta property="og:image:height" content="630">
        <meta property="og:image:alt" content="Balloons over a house">
        """,
    ]

    /// The page: `prefix` on `<html>`, a canonical link, the valid tags with `replacing` swapped
    /// in (a nil value removes the tag), then `extra`. Returns the OG findings.
    static func findings(
        replacing: [String: String?] = [:], extra: String = "",
        prefix: String? = "og: https://ogp.me/ns# video: https://ogp.me/ns/video#",
        canonical: String = "https://www.example.com/movies/up.html"
    ) -> [Finding] {
        var tags = validTags
        for (key, replacement) in replacing { tags[key] = replacement }
        let order = ["og:type", "og:title", "og:url", "og:site_name", "og:image"]
        let head = order.compactMap { tags[$0] }.joined(separator: "\n")
        let prefixAttribute = prefix.map { " prefix=\"\($0)\"" } ?? ""
        let html = """
            <!doctype html>
            <html\(prefixAttribute)><head><title>Up – Family Cinema</title>
            <link rel="canonical" href="\(canonical)">
            \(head)
            \(extra)
            </head><body><p>x</p></body></html>
            """
        let page = MarkupExtractor().extract(html: Array(html.utf8), url: url)
        return PageVerifier().verify(page).filter { $0.ruleID.hasPrefix("OG") }
    }

    static func rules(replacing: [String: String?] = [:], extra: String = "") -> [String] {
        findings(replacing: replacing, extra: extra).map(\.ruleID).sorted()
    }

    @Test func aCompletePageHasNoFindings() {
        #expect(Self.findings().isEmpty)
    }

    @Test(
        arguments: [
            ("og:title", "OG001"), ("og:type", "OG002"), ("og:image", "OG003"), ("og:url", "OG004"),
        ])
    func aMissingRequiredPropertyIsFound(property: String, rule: String) {
        #expect(Self.rules(replacing: [property: String?.none]) == [rule])
        let empty = "<meta property=\"\(property)\" content=\"\">"
        let found = Self.findings(replacing: [property: empty])
        #expect(found.map(\.ruleID) == [rule])
        #expect(found.first?.message.contains("\(property) is empty") == true)
    }

    @Test func anImageGivenOnlyAsImageURLIsNotMissing() {
        let image = """
            <meta property="og:image:url" content="https://www.example.com/up.png">
            <meta property="og:image:alt" content="Balloons">
            """
        #expect(Self.rules(replacing: ["og:image": image]).isEmpty)
    }

    @Test(
        arguments: [
            (#"<meta property="og:url" content="/movies/up.html">"#, "og:url"),
            (#"<meta property="og:url" content="//www.example.com/movies/up.html">"#, "og:url"),
            (#"<meta property="og:url" content="ftp://www.example.com/movies/up.html">"#, "og:url"),
        ])
    func aRelativeOrNonWebOGURLIsAnError(tag: String, key: String) {
        let found = Self.findings(replacing: ["og:url": tag])
        #expect(found.map(\.ruleID) == ["OG005"], "\(tag)")
        #expect(found.first?.severity == .error)
        #expect(found.first?.message.hasPrefix(key) == true)
    }

    @Test(
        arguments: [
            #"<meta property="og:image:secure_url" content="up.png">"#,
            #"<meta property="og:video" content="/up.mp4">"#,
            #"<meta property="og:video:url" content="javascript:alert(1)">"#,
            #"<meta property="og:audio" content="theme.mp3">"#,
            #"<meta property="og:audio:url" content="https:theme.mp3">"#,
        ])
    func everyURLPropertyMustBeAbsolute(tag: String) {
        #expect(Self.rules(extra: tag) == ["OG005"], "\(tag)")
    }

    /// An empty URL is no URL (issue 33): OG005, unless it is the page's only og:image or og:url,
    /// which OG003/OG004 report as empty (aMissingRequiredPropertyIsFound).
    @Test(
        arguments: [
            (#"<meta property="og:image" content=""><meta property="og:image:alt" content="Up">"#, "og:image"),
            (#"<meta property="og:image:secure_url" content="">"#, "og:image:secure_url"),
            (#"<meta property="og:video" content="">"#, "og:video"),
            (
                #"<meta property="og:audio" content="https://www.example.com/up.mp3"><meta property="og:audio:secure_url" content="">"#,
                "og:audio:secure_url"
            ),
            (#"<meta property="og:url" content="">"#, "og:url"),
        ])
    func anEmptyURLIsOG005(tag: String, key: String) throws {
        let found = Self.findings(extra: tag)
        #expect(found.map(\.ruleID) == ["OG005"], "\(tag)")
        let finding = try #require(found.first)
        #expect(finding.message.hasPrefix("\(key) is empty, not an absolute http(s) URL"), "\(finding.message)")
    }

    @Test func aRelativeImageIsFoundWithItsValue() throws {
        let image = #"<meta property="og:image" content="/up.png"><meta property="og:image:alt" content="Up">"#
        let finding = try #require(Self.findings(replacing: ["og:image": image]).first)
        #expect(finding.ruleID == "OG005")
        #expect(finding.line == 8)
        #expect(finding.excerpt == #"<meta property="og:image" content="/up.png">"#)
        #expect(finding.message == #"og:image "/up.png" is not an absolute http(s) URL"#)
        #expect(!finding.fixHint.isEmpty)
    }

    @Test(
        arguments: [
            ("https://www.example.com/movies/up.html", [String]()),
            ("https://WWW.example.com:443/movies/up.html#top", [String]()),
            ("https://www.example.com/movies/up-2009.html", ["OG006"]),
            ("http://www.example.com/movies/up.html", ["OG006"]),
        ])
    func ogURLMustBeTheCanonicalURL(canonical: String, expected: [String]) {
        #expect(Self.findings(canonical: canonical).map(\.ruleID) == expected, "\(canonical)")
    }

    @Test(
        arguments: [
            ("http://www.example.com/movies/up.html", "only the scheme differs"),
            ("https://www.example.com/movies/up.html/", "only a trailing slash differs"),
        ])
    func anEasilyOverlookedDifferenceIsNamed(canonical: String, detail: String) {
        let found = Self.findings(canonical: canonical)
        #expect(found.map(\.ruleID) == ["OG006"])
        #expect(found.first?.message.hasSuffix(detail) == true, "\(canonical)")
    }

    @Test func aSitesOwnNameTagInATypeNamespaceIsNeitherOG007NorOG021() {
        let extra = #"<meta name="video:playerId" content="123"><meta name="article:word_count" content="900">"#
        #expect(Self.rules(extra: extra).isEmpty)
    }

    @Test func aPropertyListCountsForEachOpenGraphPropertyInIt() {
        let title = #"<meta property="og:title twitter:title" content="Up">"#
        #expect(Self.rules(replacing: ["og:title": title]).isEmpty)
        let repeated = #"<meta property="og:title og:description" content="Up (2009)">"#
        #expect(Self.rules(extra: repeated) == ["OG018"])
    }

    @Test func nameInsteadOfPropertyIsFound() throws {
        let found = Self.findings(replacing: ["og:title": #"<meta name="og:title" content="Up">"#])
        #expect(found.map(\.ruleID) == ["OG007"])
        #expect(found.first?.excerpt == #"<meta name="og:title" content="Up">"#)
    }

    @Test(
        arguments: [
            (nil, 1),
            ("video: https://ogp.me/ns/video#", 1),
            ("og: http://opengraphprotocol.org/schema/ video: https://ogp.me/ns/video#", 1),
            ("og: http://ogp.me/ns# video: http://ogp.me/ns/video#", 0),
            ("og: https://ogp.me/ns#", 1),
        ] as [(String?, Int)])
    func prefixesMustBeDeclaredWithOGPNamespaces(prefix: String?, count: Int) {
        let extra = #"<meta property="video:duration" content="5760">"#
        let found = Self.findings(extra: extra, prefix: prefix)
        #expect(found.map(\.ruleID) == Array(repeating: "OG008", count: count), "\(prefix ?? "none")")
        #expect(found.allSatisfy { $0.severity == .info })
    }

    @Test(
        "xmlns:og on <html> is a declaration OG008 accepts (and checks)",
        arguments: [
            (#"xmlns:og="http://ogp.me/ns#" xmlns:video="http://ogp.me/ns/video#""#, 0),
            (#"xmlns:og="http://opengraphprotocol.org/schema/" xmlns:video="http://ogp.me/ns/video#""#, 1),
        ] as [(String, Int)])
    func xmlnsDeclaresPrefixes(attributes: String, count: Int) {
        let found = Self.findings(extra: #"<meta property="video:duration" content="5760">"#, prefix: nil)
            .filter { $0.ruleID == "OG008" }
        #expect(found.count == 1)  // no declaration at all
        let html = """
            <!doctype html>
            <html \(attributes)><head><title>Up</title>
            <link rel="canonical" href="https://www.example.com/movies/up.html">
            \(Self.validTags.values.sorted().joined(separator: "\n"))
            <meta property="video:duration" content="5760">
            </head><body><p>x</p></body></html>
            """
        let page = MarkupExtractor().extract(html: Array(html.utf8), url: Self.url)
        let declared = PageVerifier().verify(page).filter { $0.ruleID == "OG008" }
        #expect(declared.count == count, "\(declared.map(\.message))")
    }

    @Test func anOrphanedStructuredPropertyIsAnError() throws {
        let image = """
            <meta property="og:image:width" content="1200">
            <meta property="og:image" content="https://www.example.com/up.png">
            <meta property="og:image:alt" content="Up">
            """
        let found = Self.findings(replacing: ["og:image": image])
        #expect(found.map(\.ruleID) == ["OG009"])
        #expect(found.first?.line == 8)
        #expect(found.first?.message.contains("og:image:width") == true)
    }

    @Test(
        arguments: [
            (#"<meta property="og:image:width" content="1200px">"#, ["OG010"]),
            (#"<meta property="og:image:height" content="0">"#, ["OG010"]),
            (#"<meta property="og:image:height" content="-630">"#, ["OG010"]),
            (#"<meta property="og:image:height" content="630.5">"#, ["OG010"]),
            (#"<meta property="og:image:width" content="99999999999">"#, ["OG010"]),
            (#"<meta property="og:image:type" content="jpg">"#, ["OG011"]),
            (#"<meta property="og:image:type" content="video/mp4">"#, ["OG011"]),
            (#"<meta property="og:image:type" content="image/webp">"#, []),
            (#"<meta property="og:image:secure_url" content="http://www.example.com/up.png">"#, ["OG012"]),
            (#"<meta property="og:image:secure_url" content="https://www.example.com/up.png">"#, []),
        ] as [(String, [String])])
    func imageStructuredPropertiesAreChecked(tag: String, expected: [String]) {
        // Written right after an image with only its alt text, so it describes that image.
        let image = """
            <meta property="og:image" content="https://www.example.com/up.png">
            <meta property="og:image:alt" content="Balloons over a house">
            \(tag)
            """
        #expect(Self.rules(replacing: ["og:image": image]) == expected.sorted(), "\(tag)")
    }

    @Test(
        arguments: [
            (#"<meta property="og:video:type" content="text/html">"#, ["OG011"]),
            (#"<meta property="og:video:type" content="video/mp4">"#, []),
            (#"<meta property="og:video:type" content="application/x-shockwave-flash">"#, []),
            (#"<meta property="og:video:width" content="wide">"#, ["OG010"]),
            (#"<meta property="og:audio:type" content="audio/mpeg">"#, []),
            (#"<meta property="og:audio:type" content="image/png">"#, ["OG011"]),
        ] as [(String, [String])])
    func videoAndAudioPropertiesAreChecked(tag: String, expected: [String]) {
        let root = tag.contains("og:video") ? "og:video" : "og:audio"
        let extra = "<meta property=\"\(root)\" content=\"https://www.example.com/media\">\n\(tag)"
        #expect(Self.rules(extra: extra) == expected.sorted(), "\(tag)")
    }

    @Test func everyImageNeedsAnAltText() {
        let images = """
            <meta property="og:image" content="https://www.example.com/up.png">
            <meta property="og:image:alt" content="Up">
            <meta property="og:image" content="https://www.example.com/poster.jpg">
            <meta property="og:image" content="https://www.example.com/third.jpg">
            <meta property="og:image:alt" content="">
            """
        let found = Self.findings(replacing: ["og:image": images])
        #expect(found.map(\.ruleID) == ["OG013"])
        #expect(found.first?.line == 10)
        #expect(
            found.first?.message
                == #"og:image "https://www.example.com/poster.jpg" has no og:image:alt; 1 more og:image has none (line 11)"#
        )
        let emptyAlt =
            #"<meta property="og:image" content="https://www.example.com/a.png"><meta property="og:image:alt" content="">"#
        #expect(
            Self.findings(replacing: ["og:image": emptyAlt]).first?.message.hasSuffix("has an empty og:image:alt")
                == true)
    }

    @Test func anImageRepeatedAsImageURLIsOneImage() {
        let images = """
            <meta property="og:image" content="https://www.example.com/up.png">
            <meta property="og:image:url" content="https://www.example.com/up.png">
            <meta property="og:image:alt" content="Up">
            """
        #expect(Self.rules(replacing: ["og:image": images]).isEmpty)
    }

    @Test(
        arguments: [
            ("og:determiner", "the", []), ("og:determiner", "", []), ("og:determiner", "auto", []),
            ("og:determiner", "some", ["OG014"]), ("og:locale", "en_US", []), ("og:locale", "es_419", []),
            ("og:locale", "en-US", ["OG015"]), ("og:locale", "en", ["OG015"]),
            ("og:locale:alternate", "fr_fr", ["OG015"]), ("og:locale:alternate", "fr_FR", []),
        ] as [(String, String, [String])])
    func enumeratedValuesAreChecked(property: String, value: String, expected: [String]) {
        let extra = "<meta property=\"\(property)\" content=\"\(value)\">"
        #expect(Self.rules(extra: extra) == expected, "\(property)=\(value)")
    }

    @Test(
        arguments: [
            ("website", []), ("music.radio_station", []), ("video.tv_show", []), ("product", ["OG016"]),
            ("Article", ["OG016"]), ("mine:recipe", ["OG016"]), ("video:recipe", []),
        ] as [(String, [String])])
    func theTypeMustBeGlobalOrADeclaredCURIE(type: String, expected: [String]) {
        let tag = "<meta property=\"og:type\" content=\"\(type)\">"
        #expect(Self.rules(replacing: ["og:type": tag]) == expected, "\(type)")
    }

    @Test(
        arguments: [
            ("video.movie", "video:release_date", "2009-05-29", []),
            ("video.movie", "video:release_date", "2009-05-29T10:00:00+02:00", []),
            ("video.movie", "video:release_date", "29 May 2009", ["OG017"]),
            ("video.movie", "video:duration", "5760", []),
            ("video.movie", "video:duration", "PT1H36M", ["OG017"]),
            ("video.movie", "video:duration", "0", ["OG017"]),
            ("article", "article:published_time", "2024-13-01", ["OG017"]),
            ("article", "article:modified_time", "2024-05-01T10:00:00Z", []),
            // Issue 13 §4: the same forms get the same verdict as SD016 gives them in JSON-LD.
            ("article", "article:published_time", "2016-04-25 23:37:17", ["OG017"]),
            ("article", "article:published_time", "2016-04-25T23:37:17+0000", ["OG017"]),
            ("article", "article:published_time", "2016-04-25T23:37:17+00:00", []),
            ("music.song", "music:album:track", "-1", ["OG017"]),
            ("profile", "profile:gender", "female", []),
            ("profile", "profile:gender", "other", ["OG017"]),
        ] as [(String, String, String, [String])])
    func typeSpecificValuesHaveTheirDataType(type: String, property: String, value: String, expected: [String]) {
        let typeTag = "<meta property=\"og:type\" content=\"\(type)\">"
        let extra = "<meta property=\"\(property)\" content=\"\(value)\">"
        let found = Self.findings(
            replacing: ["og:type": typeTag], extra: extra,
            prefix: "og: https://ogp.me/ns# video: https://ogp.me/ns/video# article: https://ogp.me/ns/article# "
                + "music: https://ogp.me/ns/music# profile: https://ogp.me/ns/profile#")
        #expect(found.map(\.ruleID) == expected, "\(property)=\(value)")
    }

    @Test(
        arguments: [
            (#"<meta property="og:title" content="Up">"#, []),
            (#"<meta property="og:title" content="Up (2009)">"#, ["OG018"]),
            (#"<meta property="og:type" content="website">"#, ["OG018"]),
            (#"<meta property="video:tag" content="a"><meta property="video:tag" content="b">"#, []),
            (
                #"<meta property="og:locale:alternate" content="fr_FR"><meta property="og:locale:alternate" content="de_DE">"#,
                []
            ),
        ] as [(String, [String])])
    func aSingleValuedPropertyRepeatedWithAnotherValueIsFound(extra: String, expected: [String]) {
        #expect(Self.rules(extra: extra) == expected, "\(extra)")
    }

    @Test func aStructuredPropertyRepeatedForOneImageIsFound() {
        let image = (Self.validTags["og:image"] ?? "") + "\n" + #"<meta property="og:image:width" content="600">"#
        let found = Self.findings(replacing: ["og:image": image])
        #expect(found.map(\.ruleID) == ["OG018"])
        #expect(found.first?.message.contains("\"600\"") == true)
    }

    @Test(
        arguments: [
            ("Up | Family Cinema", ["OG019"]), ("Family Cinema – Up", ["OG019"]), ("Up - family cinema", ["OG019"]),
            ("Family Cinema: Up", ["OG019"]), ("Family Cinema", []), ("About Family Cinema", []),
            ("Family Cinema San Francisco office", []), ("Up: the Family Cinema review", []),
        ] as [(String, [String])])
    func theTitleMustNotRepeatTheSiteName(title: String, expected: [String]) {
        let tag = "<meta property=\"og:title\" content=\"\(title)\">"
        #expect(Self.rules(replacing: ["og:title": tag]) == expected, "\(title)")
    }

    @Test(
        arguments: [
            (#"<meta property="og:email" content="a@example.com">"#, ["OG020"]),
            (
                #"<meta property="og:latitude" content="37.4"><meta property="og:longitude" content="-122.1">"#,
                ["OG020", "OG020"]
            ),
            (#"<meta property="og:description" content="A house flies.">"#, []),
        ] as [(String, [String])])
    func deprecatedPropertiesAreNoted(extra: String, expected: [String]) {
        let found = Self.findings(extra: extra)
        #expect(found.map(\.ruleID) == expected, "\(extra)")
        #expect(found.allSatisfy { $0.severity == .info })
    }

    @Test(
        arguments: [
            ("website", #"<meta property="article:published_time" content="2024-05-01">"#, ["OG021"]),
            ("article", #"<meta property="article:published_time" content="2024-05-01">"#, []),
            ("video.movie", #"<meta property="video:series" content="https://www.example.com/s">"#, ["OG021"]),
            ("video.episode", #"<meta property="video:series" content="https://www.example.com/s">"#, []),
            ("music.album", #"<meta property="music:duration" content="200">"#, ["OG021"]),
            ("music.song", #"<meta property="music:duration" content="200">"#, []),
            (
                "website",
                #"<meta property="article:author" content="https://a.example/"><meta property="article:tag" content="x">"#,
                ["OG021"]
            ),
        ] as [(String, String, [String])])
    func typeSpecificPropertiesMustMatchTheType(type: String, extra: String, expected: [String]) {
        let typeTag = "<meta property=\"og:type\" content=\"\(type)\">"
        let found = Self.findings(
            replacing: ["og:type": typeTag], extra: extra,
            prefix: "og: https://ogp.me/ns# video: https://ogp.me/ns/video# article: https://ogp.me/ns/article# "
                + "music: https://ogp.me/ns/music#")
        #expect(found.map(\.ruleID) == expected, "\(type): \(extra)")
        if let finding = found.first {
            #expect(finding.message.contains("og:type is \(type)"))
        }
    }

    /// Issue 13 §4: a page with no Open Graph at all gets one finding that says so (link previews
    /// will be bare), not one per missing property and not only SD025's info.
    @Test func aPageWithoutOpenGraphHasOneFindingSayingSo() {
        let html = "<html><head><title>Plain</title></head><body><p>x</p></body></html>"
        let page = MarkupExtractor().extract(html: Array(html.utf8), url: Self.url)
        let found = PageVerifier().verify(page).filter { $0.ruleID.hasPrefix("OG") }
        #expect(found.map(\.rule) == [.og001])
        #expect(found.first?.severity == .warning)
        #expect(found.first?.message.contains("no Open Graph tags at all") == true)
    }

    @Test func aPageWithOnlySomeOpenGraphMissesTheRest() throws {
        let html = """
            <html prefix="og: https://ogp.me/ns#"><head><title>Up</title>
            <meta property="og:site_name" content="Family Cinema">
            </head></html>
            """
        let page = MarkupExtractor().extract(html: Array(html.utf8), url: Self.url)
        let found = PageVerifier().verify(page).filter { $0.ruleID.hasPrefix("OG") }
        #expect(found.map(\.ruleID).sorted() == ["OG001", "OG002", "OG003", "OG004"])
        #expect(found.allSatisfy { $0.line == 2 && $0.excerpt.contains("og:site_name") })
    }

    @Test func hugeValuesAreShortenedInMessagesAndExcerpts() throws {
        let long = String(repeating: "x", count: 5000)
        let found = Self.findings(extra: "<meta property=\"og:locale\" content=\"\(long)\">")
        let finding = try #require(found.first)
        #expect(finding.message.count < 300)
        #expect(finding.excerpt.count < 400)
    }
}

extension OpenGraphRuleTests {
    /// Issue 17 §2.4: 50,000 relative `og:image` URLs made 50,000 OG005 findings (a 37 MB report).
    @Test("at most 100 findings of one rule per page; one more says how many were left out")
    func findingsOfOneRuleAreCapped() throws {
        let images = (0..<250).map { #"<meta property="og:image" content="/img/\#($0).png">"# }.joined(separator: "\n")
        let relative = Self.findings(extra: images).filter { $0.ruleID == "OG005" }
        #expect(relative.count == PageVerifier.maximumFindingsPerRule + 1)
        let last = try #require(relative.last)
        #expect(last.message.hasPrefix("150 more OG005 findings on this page are not listed"))
        #expect(last.message.contains(#"og:image "/img/100.png""#))
        #expect(
            Self.findings(extra: (0..<100).map { #"<meta property="og:image" content="/i\#($0).png">"# }.joined())
                .filter { $0.ruleID == "OG005" }.count == 100)
    }
}
