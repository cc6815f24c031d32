import LenientJSON
import MarkupExtraction
import Testing

@Suite("Open Graph, Twitter and App Links")
struct OpenGraphTests {
    @Test("Open Graph tags keep document order, key as written and the carrying attribute")
    func orderAndAttribute() {
        let page = extract(
            """
            <html><head>
            <meta property="og:type" content="video.movie">
            <meta property="og:title" content="  Up  ">
            <meta name="og:description" content="Written with name=">
            <meta property="OG:Site_Name" content="Cinema">
            <meta property="video:duration" content="5760">
            <meta property="article:tag" content="family">
            </head></html>
            """)
        #expect(
            page.openGraphPairs == [
                "og:type=video.movie", "og:title=Up", "og:description=Written with name=", "OG:Site_Name=Cinema",
                "video:duration=5760", "article:tag=family",
            ])
        #expect(page.openGraph.map(\.attribute) == [.property, .property, .name, .property, .property, .property])
        #expect(page.openGraph.map(\.line) == [2, 3, 4, 5, 6, 7])
        // Lookups are case-insensitive on the key.
        #expect(page.openGraphValue("og:site_name")?.content == "Cinema")
    }

    /// A common tag says both: it is og:description and the page's description (the name was
    /// dropped once property was read, and the page looked as if it had no description).
    @Test("a tag with property og:description and name description is both")
    func propertyAndNameOnOneTag() {
        let page = extract(
            #"<html><head><meta property="og:description" name="description" content="Both"></head></html>"#)
        #expect(page.openGraphPairs == ["og:description=Both"])
        #expect(page.descriptions.map(\.content) == ["Both"])
        let same = extract(
            #"<html><head><meta property="twitter:card" name="twitter:card" content="app"></head></html>"#)
        #expect(same.twitter.count == 1)
    }

    @Test("name=\"og:title\" is kept and marked \"attribute\": \"name\" in the contract")
    func nameAttributeInContract() throws {
        let page = extract(#"<html><head><meta name="og:title" content="X"></head></html>"#)
        let tag = try #require(page.openGraph.first)
        #expect(tag.attribute == .name)
        #expect(
            page.contractJSON["openGraph"] == [
                ["property": "og:title", "content": "X", "attribute": "name", "line": 1]
            ])
    }

    @Test("the first non-empty tag of a property wins")
    func firstWins() {
        let page = extract(
            """
            <html><head>
            <meta property="og:title" content="">
            <meta property="og:title" content="First">
            <meta property="og:title" content="Second">
            </head></html>
            """)
        #expect(page.openGraphValue("og:title")?.content == "First")
        #expect(page.openGraphValue("og:title")?.line == 3)
        #expect(page.openGraph.count == 3)
    }

    @Test("og:image arrays: structured properties attach to the nearest preceding image")
    func imageArrays() throws {
        let page = extract(
            """
            <html><head>
            <meta property="og:image" content="https://x/1.png">
            <meta property="og:image:width" content="100">
            <meta property="og:image:height" content="50">
            <meta property="og:image:alt" content="first">
            <meta property="og:title" content="interleaved">
            <meta property="og:image" content="http://x/2.png">
            <meta property="og:image:secure_url" content="https://x/2.png">
            <meta property="og:image:type" content="image/png">
            <meta property="og:image:width" content="200">
            <meta property="og:image:width" content="999">
            <meta property="og:image" content="https://x/3.png">
            <meta property="og:image:height" content="1000">
            </head></html>
            """)
        let (media, orphans) = page.openGraphMedia
        #expect(orphans.isEmpty)
        try #require(media.count == 3)
        #expect(media.map(\.url) == ["https://x/1.png", "http://x/2.png", "https://x/3.png"])
        #expect(media.map(\.kind) == [.image, .image, .image])
        #expect(media.map(\.line) == [2, 7, 12])
        #expect(media[0].width == "100")
        #expect(media[0].height == "50")
        #expect(media[0].alt == "first")
        #expect(media[0].secureURL == nil)
        #expect(media[1].secureURL == "https://x/2.png")
        #expect(media[1].type == "image/png")
        // The first value of a structured property wins.
        #expect(media[1].width == "200")
        #expect(media[1].height == nil)
        #expect(media[2].width == nil)
        #expect(media[2].height == "1000")
    }

    @Test("og:image:width before any og:image is an orphan; og:video and og:audio are separate arrays")
    func orphansAndKinds() throws {
        let page = extract(
            """
            <html><head>
            <meta property="og:image:width" content="1200">
            <meta property="og:video:width" content="640">
            <meta property="og:image:url" content="https://x/a.png">
            <meta property="og:image:height" content="630">
            <meta property="og:video" content="https://x/v.mp4">
            <meta property="og:video:width" content="1280">
            <meta property="og:audio" content="https://x/a.mp3">
            <meta property="og:audio:type" content="audio/mpeg">
            </head></html>
            """)
        let (media, orphans) = page.openGraphMedia
        #expect(orphans.map(\.key) == ["og:image:width", "og:video:width"])
        #expect(orphans.map(\.line) == [2, 3])
        #expect(media.map(\.kind) == [.image, .video, .audio])
        #expect(media.map(\.url) == ["https://x/a.png", "https://x/v.mp4", "https://x/a.mp3"])
        #expect(media[0].height == "630")
        #expect(media[0].width == nil)
        #expect(media[1].width == "1280")
        #expect(media[2].type == "audio/mpeg")
    }

    @Test("prefixes: fb is Open Graph, a declared prefix is Open Graph, an undeclared one is not")
    func prefixes() {
        let page = extract(
            """
            <html prefix="fb: http://ogp.me/ns/fb# my: http://example.com/ns#  dc: http://purl.org/dc/terms/"><head>
            <meta property="fb:app_id" content="42">
            <meta property="my:thing" content="declared">
            <meta property="other:thing" content="undeclared">
            <meta property="dc:title" content="Dublin Core">
            </head></html>
            """)
        #expect(page.openGraphPairs == ["fb:app_id=42", "my:thing=declared"])
        #expect(page.prefixes.map(\.prefix) == ["fb", "my", "dc"])
        #expect(
            page.prefixes.map(\.iri) == ["http://ogp.me/ns/fb#", "http://example.com/ns#", "http://purl.org/dc/terms/"])
        #expect(page.prefixes.allSatisfy { $0.line == 1 })
    }

    @Test("property is split on whitespace (RDFa): an og: term that is not first is Open Graph")
    func spaceSeparatedProperties() {
        let page = extract(
            """
            <html prefix="dc: http://purl.org/dc/terms/"><head>
            <meta property="dc:title og:title" content="Up">
            <meta property="dc:description  og:description" content="A house flies.">
            <meta property="dc:creator" content="Pete Docter">
            </head></html>
            """)
        #expect(page.openGraphPairs == ["og:title=Up", "og:description=A house flies."])
    }

    @Test("xmlns:og on <html> declares a prefix, as prefix= does")
    func xmlnsDeclaresPrefixes() {
        let page = extract(
            """
            <html xmlns:og="http://ogp.me/ns#" xmlns:fb="http://www.facebook.com/2008/fbml" xmlns:my="https://my.example/ns#"><head>
            <meta property="my:thing" content="x">
            </head></html>
            """)
        #expect(page.prefixes.map(\.prefix) == ["og", "fb", "my"])
        #expect(page.prefixes.first?.iri == "http://ogp.me/ns#")
        #expect(page.openGraphPairs == ["my:thing=x"])
    }

    @Test("without a prefix declaration my:thing is not Open Graph")
    func undeclaredPrefix() {
        let page = extract(#"<html><head><meta property="my:thing" content="x"></head></html>"#)
        #expect(page.openGraph.isEmpty)
    }

    @Test("a property tag without content is not an Open Graph value")
    func noContent() {
        let page = extract(#"<html><head><meta property="og:title"><meta property="og:type" content=""></head></html>"#)
        #expect(page.openGraphPairs == ["og:type="])
        #expect(page.openGraphValue("og:type") == nil)
    }

    @Test("twitter:* (name or property) and al:* go to their own lists, not to Open Graph")
    func twitterAndAppLinks() {
        let page = extract(
            """
            <html><head>
            <meta name="twitter:card" content="app">
            <meta property="twitter:title" content="Via property">
            <meta name="twitter:app:id:iphone" content="123">
            <meta property="al:ios:url" content="cinema://up">
            <meta property="al:ios:app_store_id" content="123">
            <meta property="og:title" content="OG">
            </head></html>
            """)
        #expect(page.twitter.map(\.key) == ["twitter:card", "twitter:title", "twitter:app:id:iphone"])
        #expect(page.twitter.map(\.attribute) == [.name, .property, .name])
        #expect(page.appLinks.map(\.key) == ["al:ios:url", "al:ios:app_store_id"])
        #expect(page.openGraphPairs == ["og:title=OG"])
        #expect(page.twitterValue("twitter:title")?.content == "Via property")
        #expect(page.appLinksValue("al:ios:url")?.content == "cinema://up")
    }

    @Test("contract JSON has openGraph, twitter, appLinks and smartAppBanner in the documented shape")
    func contractShape() throws {
        let page = extract(
            """
            <html><head>
            <meta property="og:title" content="T">
            <meta name="twitter:app:id:iphone" content="123">
            <meta property="twitter:site" content="@x">
            <meta property="al:ios:url" content="cinema://up">
            <meta name="apple-itunes-app" content="app-id=123, app-argument=https://x/up">
            </head></html>
            """)
        let json = page.contractJSON
        for key in [
            "url", "jsonLD", "microdata", "rdfa", "openGraph", "twitter", "appLinks", "smartAppBanner", "title",
            "description", "canonical", "robots", "lang",
        ] {
            #expect(json.contains(key: key), "contract key \(key)")
        }
        #expect(json["openGraph"] == [["property": "og:title", "content": "T", "line": 2]])
        #expect(
            json["twitter"] == [
                ["name": "twitter:app:id:iphone", "content": "123", "line": 3],
                ["name": "twitter:site", "content": "@x", "attribute": "property", "line": 4],
            ])
        #expect(json["appLinks"] == [["property": "al:ios:url", "content": "cinema://up", "line": 5]])
        #expect(json["smartAppBanner"]?["appID"] == "123")
        #expect(json["smartAppBanner"]?["appArgument"] == "https://x/up")
        #expect(json["sources"]?["openGraph"] == [["line": 2, "section": "head"]])
    }
}
