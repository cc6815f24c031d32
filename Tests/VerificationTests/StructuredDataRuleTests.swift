import Foundation
import MarkupExtraction
import Rulebook
import Testing

@testable import Verification

extension FixtureSiteRuleTests {
    /// The structured-data rules each fixture page must trigger (Fixtures/html/MANIFEST.md).
    static let expectedStructuredData: [String: [String]] = [
        "broken/jsonld-trailing-comma.html": ["SD001"],
        "broken/jsonld-unrecoverable.html": ["SD001"],
        "broken/microdata-relative-itemtype.html": ["SD007"],
        "broken/rating-out-of-range.html": ["SD009"],
    ]
}

@Suite("Structured-data rules (§7.6)")
struct StructuredDataRuleTests {
    static let openGraph = #"<meta property="og:type" content="website">"#

    /// The SD rules a page with this head and body triggers (canonical https://www.example.com/a).
    static func rules(head: String = openGraph, body: String = "") -> [String] {
        let html = """
            <html><head><title>A</title><link rel="canonical" href="https://www.example.com/a">
            \(head)</head><body>\(body)</body></html>
            """
        let page = MarkupExtractor().extract(html: Array(html.utf8), url: "https://www.example.com/a")
        return PageVerifier().verify(page).map(\.ruleID).filter { $0.hasPrefix("SD") }.sorted()
    }

    /// A JSON-LD script with a schema.org context and `members` added to `{"@type": type}`.
    static func jsonLD(_ type: String, _ members: String) -> String {
        let separator = members.isEmpty ? "" : ", "
        return #"<script type="application/ld+json">{"@context": "https://schema.org", "@type": ""#
            + type + "\"" + separator + members + "}</script>"
    }

    /// The SD001 findings (line, excerpt) of a page.
    static func sd001(_ html: String) -> [(line: Int, excerpt: String)] {
        let page = MarkupExtractor().extract(html: Array(html.utf8), url: "https://www.example.com/a")
        return PageVerifier().verify(page).filter { $0.ruleID == "SD001" }.map { ($0.line, $0.excerpt) }
    }

    @Test func sd001QuotesTheBrokenLineNotTheScriptTag() throws {
        func fixture(_ name: String) throws -> String {
            try String(
                contentsOf: FixtureSiteRuleTests.root.appendingPathComponent("broken/\(name)"), encoding: .utf8)
        }
        // The trailing comma after aggregateRating (line 52), not `<script …>` (line 26).
        let trailing = Self.sd001(try fixture("jsonld-trailing-comma.html"))
        #expect(trailing.map(\.line) == [52])
        #expect(trailing.map(\.excerpt) == ["},"])
        // The unescaped quote in block 2's description (line 61).
        let unrecoverable = Self.sd001(try fixture("jsonld-unrecoverable.html"))
        #expect(unrecoverable.map(\.line) == [61])
        #expect(unrecoverable.first?.excerpt.hasPrefix(#""description": "Woody shouts "Reach for the sky!""#) == true)
        // A minified script is one line: the excerpt is the part around the error.
        let members = (1...40).map { #""k\#($0)": \#($0)"# }.joined(separator: ", ")
        let minified = Self.sd001(
            #"<script type="application/ld+json">{"@context": "https://schema.org", "#
                + members + #", "@type": "Thing",, "z": 1}</script>"#)
        let excerpt = try #require(minified.first?.excerpt)
        #expect(excerpt.hasPrefix("…") && excerpt.contains(#""@type": "Thing",, "z": 1}"#) && excerpt.count <= 122)
        // A script with nothing in it has no line to quote: the tag is named.
        #expect(
            Self.sd001(#"<script type="application/ld+json">  </script>"#).map(\.excerpt) == [
                #"<script type="application/ld+json"> (line 1)"#
            ])
    }

    @Test(arguments: [
        (text: "a\nbb,\ncc", offset: 4, line: "bb,"), ("  x  ", 2, "x"), ("abc", 3, "abc"), ("a\n\nb", 2, ""),
    ])
    func theLineAroundAnOffset(text: String, offset: Int, line: String) {
        #expect(StructuredDataChecks.line(in: text, at: offset) == line)
    }

    @Test(
        arguments: [
            // SD001
            (
                #"<script type="application/ld+json">{"@context": "https://schema.org", "@type": "Thing",}</script>"#,
                ["SD001"]
            ),
            (
                #"<script type="application/ld+json">{"@context": "https://schema.org", "@type": "Thing"</script>"#,
                ["SD001"]
            ),
            (jsonLD("Thing", ""), []),
            // SD002
            (#"<script type="application/ld+json">{"@type": "Thing"}</script>"#, ["SD002"]),
            (
                #"<script type="application/ld+json">{"@context": "https://example.org/vocab", "@type": "Thing"}</script>"#,
                ["SD002"]
            ),
            (#"<script type="application/ld+json">{"@context": "http://schema.org/", "@type": "Thing"}</script>"#, []),
            (
                #"<script type="application/ld+json">{"@context": {"@vocab": "https://schema.org/"}, "@type": "Thing"}</script>"#,
                []
            ),
            (
                #"<script type="application/ld+json">[{"@context": "https://schema.org", "@type": "Thing"}, {"@type": "Thing"}]</script>"#,
                ["SD002"]
            ),
            // SD002: a @graph whose members each carry @context (JSON-LD 1.1 embedded contexts).
            (
                #"<script type="application/ld+json">{"@graph": [{"@context": "https://schema.org", "@type": "WebSite", "name": "A"}, {"@context": "http://schema.org/", "@type": "WebPage", "name": "A"}]}</script>"#,
                []
            ),
            (
                #"<script type="application/ld+json">{"@graph": [{"@context": "https://schema.org", "@type": "WebSite", "name": "A"}, {"@type": "WebPage", "name": "A"}]}</script>"#,
                ["SD002"]
            ),
            (
                #"<script type="application/ld+json">{"@graph": [{"@context": "https://schema.org", "@type": "WebSite", "name": "A"}, {"@context": "https://example.org/v", "@type": "WebPage"}]}</script>"#,
                ["SD002"]
            ),
            (#"<script type="application/ld+json">{"@graph": []}</script>"#, ["SD002"]),
            // SD006
            (jsonLD("VideoObject", #""interactionCount": "UserPlays:12""#), ["SD006"]),
            (jsonLD("Movie", #""actors": {"@type": "Person", "name": "B"}"#), ["SD006"]),
            (
                jsonLD(
                    "VideoObject",
                    #""interactionStatistic": {"@type": "InteractionCounter", "userInteractionCount": 12}"#), []
            ),
            // SD008
            (jsonLD("AggregateRating", #""ratingValue": "4,5", "ratingCount": 3"#), ["SD008"]),
            (jsonLD("AggregateRating", #""ratingValue": "4.5/5", "ratingCount": 3"#), ["SD008"]),
            (jsonLD("AggregateRating", #""ratingValue": "4.5", "bestRating": "5", "ratingCount": "3""#), []),
            // SD009
            (
                jsonLD("AggregateRating", #""ratingValue": 7.8, "bestRating": 5, "worstRating": 1, "ratingCount": 3"#),
                ["SD009"]
            ),
            (jsonLD("AggregateRating", #""ratingValue": 6, "ratingCount": 3"#), ["SD009"]),
            (jsonLD("AggregateRating", #""ratingValue": 0.5, "ratingCount": 3"#), []),
            (
                jsonLD(
                    "AggregateRating", #""ratingValue": 9.1, "bestRating": "10", "worstRating": "1", "ratingCount": 3"#),
                []
            ),
            // SD010
            (
                jsonLD("AggregateRating", #""ratingValue": 3, "bestRating": 1, "worstRating": 5, "ratingCount": 3"#),
                ["SD010"]
            ),
            (jsonLD("AggregateRating", #""ratingValue": 3, "bestRating": 5, "worstRating": 1, "ratingCount": 3"#), []),
            // SD011
            (jsonLD("AggregateRating", #""ratingValue": 4"#), ["SD011"]),
            (jsonLD("AggregateRating", #""ratingValue": 4, "ratingCount": "1,234""#), ["SD011"]),
            (jsonLD("AggregateRating", #""ratingValue": 4, "reviewCount": -2"#), ["SD011"]),
            (jsonLD("AggregateRating", #""ratingValue": 4, "reviewCount": 12"#), []),
            // SD012, SD013, SD014, SD015
            (jsonLD("Offer", #""price": "$9.99", "priceCurrency": "USD""#), ["SD012"]),
            (jsonLD("Offer", #""price": "1,234.50", "priceCurrency": "USD""#), ["SD012"]),
            (jsonLD("Offer", #""price": "9.99", "priceCurrency": "USD""#), []),
            (jsonLD("Offer", #""price": 9.99, "priceCurrency": "$""#), ["SD013"]),
            (jsonLD("Offer", #""price": 9.99, "priceCurrency": "usd""#), ["SD013"]),
            (jsonLD("Offer", #""price": 9.99"#), ["SD014"]),
            (
                jsonLD(
                    "Offer",
                    #""price": 9.99, "priceSpecification": {"@type": "PriceSpecification", "priceCurrency": "EUR"}"#),
                []
            ),
            (jsonLD("AggregateOffer", #""lowPrice": 20, "highPrice": 10, "priceCurrency": "USD""#), ["SD015"]),
            (jsonLD("AggregateOffer", #""lowPrice": 10, "highPrice": "20", "priceCurrency": "USD""#), []),
            // SD016, SD017, SD018
            (jsonLD("Event", #""startDate": "May 5, 2024""#), ["SD016"]),
            (jsonLD("Event", #""startDate": "2024-05-05 19:00""#), ["SD016"]),
            (jsonLD("Event", #""startDate": 2024"#), ["SD016"]),
            (jsonLD("Event", #""startDate": "2016-04-25T23:37:17+0000""#), ["SD016"]),
            (jsonLD("Event", #""startDate": "2016-04-25T23:37+01:00""#), []),
            (jsonLD("Event", #""startDate": "2024-05-05T19:00:00+02:00", "endDate": "2024-05-05""#), []),
            (jsonLD("Event", #""startDate": "2024-05-05", "endDate": "2024-05-04""#), ["SD017"]),
            (jsonLD("Event", #""startDate": "2024-05-05T20:00:00Z", "endDate": "2024-05-05T19:00:00Z""#), ["SD017"]),
            (jsonLD("Article", #""datePublished": "2024-05-05", "dateModified": "2024-05-01""#), ["SD018"]),
            (jsonLD("Article", #""datePublished": "2024-05-05", "dateModified": "2024-06-01T08:00:00Z""#), []),
            // SD019
            (jsonLD("GeoCoordinates", #""latitude": 95, "longitude": 10"#), ["SD019"]),
            (jsonLD("GeoCoordinates", #""latitude": "37,78", "longitude": "-122.39""#), ["SD019"]),
            (jsonLD("GeoCoordinates", #""latitude": 37.78253, "longitude": "-122.39367""#), []),
            // SD020, SD021, SD022
            (jsonLD("Organization", #""telephone": "call us""#), ["SD020"]),
            (jsonLD("Organization", #""telephone": "+1 (415) 555-0100""#), []),
            (jsonLD("Organization", #""email": "mailto:hello@example.com""#), ["SD021"]),
            (jsonLD("Organization", #""email": "hello at example dot com""#), ["SD021"]),
            (jsonLD("Organization", #""email": "hello@example.com""#), []),
            (jsonLD("PostalAddress", #""addressCountry": "USA""#), ["SD022"]),
            (jsonLD("PostalAddress", #""addressCountry": "US""#), []),
            // SD023
            (
                jsonLD(
                    "WebSite",
                    #""potentialAction": {"@type": "SearchAction", "target": "https://www.example.com/s?q={query}", "query-input": "required name=search_term_string"}"#
                ),
                ["SD023"]
            ),
            (
                jsonLD(
                    "WebSite",
                    #""potentialAction": {"@type": "SearchAction", "target": "https://www.example.com/s?q="}"#),
                ["SD023"]
            ),
            (
                jsonLD(
                    "WebSite",
                    #""potentialAction": {"@type": "SearchAction", "target": {"@type": "EntryPoint", "urlTemplate": "https://www.example.com/s?q={q}"}, "query-input": "required name=q"}"#
                ),
                []
            ),
            // SD024
            (jsonLD("Thing", #""image": "/images/a.png""#), ["SD024"]),
            (jsonLD("Thing", #""sameAs": ["https://example.org/a", "javascript:alert(1)"]"#), ["SD024"]),
            (jsonLD("Thing", #""image": "https://www.example.com/images/a.png""#), []),
            // A relative @id is a valid JSON-LD IRI (resolved against the document base); a script scheme is not.
            (jsonLD("CreativeWork", ##""@id": "#thing", "publisher": {"@id": "#thing"}"##), []),
            (jsonLD("CreativeWork", ##""@id": "#organization", "publisher": {"@id": "/about#org"}"##), []),
            (jsonLD("CreativeWork", ##""@id": "javascript:alert(1)""##), ["SD024"]),
            (jsonLD("CreativeWork", ##""@id": "_:b0", "publisher": {"@id": "https://www.example.com/#org"}"##), []),
            (jsonLD("Thing", ##""@id": "urn:isbn:9780140328721", "sameAs": {"@id": "wd:Q349"}"##), []),
            // SD026
            (jsonLD("Movie", #""name": "X""#) + jsonLD("Product", #""name": "Y""#), ["SD026"]),
            (jsonLD("Movie", #""url": "https://www.example.com/b""#), ["SD026"]),
            (jsonLD("Movie", #""url": "https://www.example.com/a""#) + jsonLD("Product", #""name": "Y""#), []),
            (jsonLD("Organization", #""url": "https://www.example.com/""#), []),
            // A relative url is resolved against the document base before it is compared.
            (jsonLD("Movie", #""url": "/a""#), ["SD024"]),
            (jsonLD("Movie", #""url": "/b""#), ["SD024", "SD026"]),
            // SD028
            (
                jsonLD(
                    "Movie",
                    #""url": "https://www.example.com/a", "image": {"@type": "ImageObject", "url": "https://www.example.com/a.png"}"#
                ),
                ["SD028"]
            ),
            (
                jsonLD(
                    "Movie",
                    #""url": "https://www.example.com/a", "image": {"@type": "ImageObject", "contentUrl": "https://www.example.com/a.png"}"#
                ),
                []
            ),
        ] as [(String, [String])])
    func jsonLDRules(script: String, expected: [String]) {
        #expect(Self.rules(head: Self.openGraph + script) == expected.sorted(), "\(script)")
    }

    @Test(
        arguments: [
            // SD007
            (#"<div itemscope itemtype="Movie"><span itemprop="name">A</span></div>"#, ["SD007"]),
            (#"<div><span itemprop="name">A</span></div>"#, ["SD007"]),
            (#"<div itemscope itemtype="https://schema.org/Movie"><span itemprop="name">A</span></div>"#, []),
            (
                #"<div itemscope itemtype="https://schema.org/Person" itemref="b"></div><p id="b"><span itemprop="name">B</span></p>"#,
                []
            ),
            // Values from Microdata attributes
            (
                #"<div itemscope itemtype="https://schema.org/Person"><a itemprop="email" href="mailto:b@example.com">B</a></div>"#,
                []
            ),
            (
                #"<div itemscope itemtype="https://schema.org/Person"><span itemprop="email">b [at] example.com</span></div>"#,
                ["SD021"]
            ),
            (
                #"<div itemscope itemtype="https://schema.org/Person"><a itemprop="telephone" href="tel:+14155550163">Call</a></div>"#,
                []
            ),
            (
                #"<div itemscope itemtype="https://schema.org/Product"><div itemprop="offers" itemscope itemtype="https://schema.org/Offer"><span itemprop="price">€ 12,50</span></div></div>"#,
                ["SD012", "SD014"]
            ),
            // RDFa
            (
                #"<div vocab="https://schema.org/" typeof="Event"><span property="startDate">next Friday</span></div>"#,
                ["SD016"]
            ),
            (
                #"<div vocab="https://schema.org/" typeof="Event"><time property="startDate" datetime="2024-05-05">Sunday</time></div>"#,
                []
            ),
        ] as [(String, [String])])
    func microdataAndRDFaRules(body: String, expected: [String]) {
        #expect(Self.rules(body: body) == expected.sorted(), "\(body)")
    }

    @Test(
        arguments: [
            // SD025: nothing Apple reads.
            ("", "", ["SD025"]),
            ("", jsonLD("Thing", #""name": "A""#), ["SD025"]),
            ("", jsonLD("Organization", #""name": "A""#), []),
            (openGraph, "", []),
            // SD027: the main entity against Open Graph.
            (
                #"<meta property="og:title" content="Up">"#,
                jsonLD("Movie", #""url": "https://www.example.com/a", "name": "Cars""#), ["SD027"]
            ),
            (
                #"<meta property="og:title" content="Up – Family Cinema">"#,
                jsonLD("Movie", #""url": "https://www.example.com/a", "name": "Up""#), []
            ),
            (
                #"<meta property="og:title" content="About Family Cinema">"#,
                jsonLD("Organization", #""@id": "https://www.example.com/a#org", "name": "Family Cinema Inc.""#), []
            ),
            (
                #"<meta property="og:image" content="https://media.example.com/2016/11/GettyImages-621866810.jpg">"#,
                jsonLD(
                    "Movie",
                    #""url": "https://www.example.com/a", "image": "https://media.example.com/2016/11/GettyImages-621866810-640x480.jpg""#
                ),
                []
            ),
            (
                #"<meta property="og:image" content="https://media.example.com/photo/1075029-screenshot.jpg">"#,
                jsonLD(
                    "Movie",
                    #""url": "https://www.example.com/a", "image": "https://static.example.com/images/social-placeholder.jpg""#
                ),
                ["SD027"]
            ),
            (
                #"<meta property="og:image" content="/up.png">"#,
                jsonLD("Movie", #""url": "https://www.example.com/a", "image": "https://cdn.example.com/up.png""#), []
            ),
            (
                #"<meta property="og:image" content="https://www.example.com/up.png">"#,
                jsonLD("Movie", #""url": "https://www.example.com/a", "image": "https://www.example.com/cars.png""#),
                ["SD027"]
            ),
            (
                #"<meta property="og:image" content="https://www.example.com/up.png?w=1200">"#,
                jsonLD("Movie", #""url": "https://www.example.com/a", "image": ["https://www.example.com/up.png"]"#), []
            ),
        ] as [(String, String, [String])])
    func pageRules(head: String, script: String, expected: [String]) {
        #expect(Self.rules(head: head + script) == expected.sorted(), "\(head) \(script)")
    }

    /// SD007's fix for a relative itemtype is the absolute URL it stands for (issue 33: not
    /// `https://schema.org///schema.org/Movie`).
    @Test(
        arguments: [
            ("//schema.org/Movie", "https://schema.org/Movie"),
            ("schema.org/Movie", "https://schema.org/Movie"),
            ("www.schema.org/Movie", "https://schema.org/Movie"),
            ("Movie", "https://schema.org/Movie"),
            ("/Movie", "https://schema.org/Movie"),
            ("//data-vocabulary.org/Breadcrumb", "https://data-vocabulary.org/Breadcrumb"),
        ])
    func sd007SuggestsTheAbsoluteItemtype(itemtype: String, suggestion: String) throws {
        let html = """
            <html><head><title>A</title>\(Self.openGraph)</head>
            <body><div itemscope itemtype="\(itemtype)"><span itemprop="name">A</span></div></body></html>
            """
        let page = MarkupExtractor().extract(html: Array(html.utf8), url: "https://www.example.com/a")
        let finding = try #require(PageVerifier().verify(page).first { $0.ruleID == "SD007" })
        #expect(finding.message.hasSuffix("is not an absolute URL; write \(suggestion)"), "\(finding.message)")
    }

    /// Many orphaned `itemprop` elements: five reported one by one, then one count.
    @Test func orphanedPropertiesAreCapped() {
        let body = String(repeating: "<span itemprop=\"name\">A</span>\n", count: 10_000)
        #expect(Self.rules(body: body) == Array(repeating: "SD007", count: 6))
    }

    /// Deeply nested Microdata items and RDFa subjects: no crash.
    @Test func deepMarkupDoesNotCrash() {
        let microdata =
            String(repeating: #"<div itemprop="x" itemscope itemtype="https://schema.org/Thing">"#, count: 3_000)
            + String(repeating: "</div>", count: 3_000)
        let rdfa =
            #"<div vocab="https://schema.org/">"#
            + String(repeating: #"<div property="x" typeof="Thing">"#, count: 3_000)
            + String(repeating: "</div>", count: 3_001)
        #expect(
            Self.rules(body: #"<div itemscope itemtype="https://schema.org/Thing">"# + microdata + "</div>" + rdfa)
                .count < 100)
    }

    /// Hostile shapes: deep nesting, odd top-level values, huge arrays; no crash, bounded work.
    @Test(
        arguments: [
            String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_000),
            "{\"@context\": \"https://schema.org\", \"@graph\": [1, \"a\", null, true, [[]], {}]}",
            "\"just a string\"",
            "{\"@context\": \"https://schema.org\", \"@type\": [\"Thing\", 3, null], \"@id\": 7, \"name\": {\"@value\": {\"@value\": 2}}}",
            "{\"@context\": \"https://schema.org\", \"@type\": \"Thing\", \"x\": "
                + String(repeating: "{\"@type\": \"Thing\", \"x\": ", count: 2_000) + "1"
                + String(repeating: "}", count: 2_001),
            "["
                + Array(repeating: "{\"@type\": \"AggregateRating\", \"ratingValue\": \"x\"}", count: 3_000)
                .joined(separator: ",") + "]",
        ])
    func hostileJSONShapesDoNotCrash(json: String) {
        let rules = Self.rules(head: Self.openGraph + "<script type=\"application/ld+json\">\(json)</script>")
        #expect(rules.count < 20_000)
    }
}

@Suite("Structured-data rules: JSON-LD as a graph (issue 13 §2)")
struct StructuredDataGraphTests {
    /// A Yoast-shaped page: og:image is the ImageObject's url, which the Article names by
    /// `{"@id": "…#primaryimage"}` from an `@graph`; the ImageObject is in a second script.
    static func yoastPage(imageID: String, imageURL: String) -> String {
        """
        <html><head><title>Up</title><link rel="canonical" href="https://www.example.com/a">
        <meta property="og:title" content="Up">
        <meta property="og:image" content="https://cdn.example.com/wp-content/uploads/up-poster-2009.jpg">
        <script type="application/ld+json">{"@context": "https://schema.org", "@graph": [
        {"@type": "Article", "@id": "https://www.example.com/a#article", "headline": "Up", "name": "Up",
         "image": {"@id": "\(imageID)"}, "mainEntityOfPage": {"@id": "https://www.example.com/a"}},
        {"@type": "WebPage", "@id": "https://www.example.com/a", "url": "https://www.example.com/a",
         "primaryImageOfPage": {"@id": "\(imageID)"}}]}</script>
        <script type="application/ld+json">{"@context": "https://schema.org", "@type": "ImageObject",
         "@id": "https://www.example.com/a#primaryimage", "url": "\(imageURL)", "contentUrl": "\(imageURL)"}</script>
        </head><body></body></html>
        """
    }

    static func findings(_ html: String) -> [Finding] {
        let page = MarkupExtractor().extract(html: Array(html.utf8), url: "https://www.example.com/a")
        return PageVerifier().verify(page).filter { $0.ruleID.hasPrefix("SD") }
    }

    @Test(
        "SD027 compares og:image with the url of the ImageObject an {\"@id\"} reference names",
        arguments: ["https://www.example.com/a#primaryimage", "#primaryimage"])
    func sd027FollowsReferences(imageID: String) {
        let same = Self.findings(
            Self.yoastPage(
                imageID: imageID, imageURL: "https://cdn.example.com/wp-content/uploads/up-poster-2009.jpg"))
        #expect(same.map(\.ruleID) == [])
        // A referenced image that really differs is still reported, with the reference as written.
        let other = Self.findings(
            Self.yoastPage(imageID: imageID, imageURL: "https://cdn.example.com/wp-content/uploads/logo-square.png"))
        #expect(other.map(\.ruleID) == ["SD027"])
    }

    /// A Yoast-shaped @graph on the site's root (canonical https://www.example.com/): the Person
    /// who publishes the site (or wrote the Article) has an id "…/#/schema/person/…" and a url on
    /// the root, both the canonical URL, but is no main entity (issue 33).
    static func yoastRoot(_ graph: String) -> String {
        """
        <html><head><title>Balloons and houses</title><link rel="canonical" href="https://www.example.com/">
        <meta property="og:title" content="Balloons and houses">
        <script type="application/ld+json">{"@context": "https://schema.org", "@graph": [
        {"@type": "CollectionPage", "@id": "https://www.example.com/", "url": "https://www.example.com/",
         "name": "Balloons and houses", "isPartOf": {"@id": "https://www.example.com/#website"}},
        {"@type": "WebSite", "@id": "https://www.example.com/#website", "url": "https://www.example.com/",
         "name": "Balloons and houses", "publisher": {"@id": "https://www.example.com/#/schema/person/1f2e"}},
        \(graph)]}</script>
        </head><body></body></html>
        """
    }

    @Test(
        "SD027 never compares og:title with an author or publisher Person of a @graph",
        arguments: [
            // The site's publisher.
            #"{"@type": ["Person", "Organization"], "@id": "https://www.example.com/#/schema/person/1f2e", "name": "Carl Fredricksen", "url": "https://www.example.com/"}"#,
            // An article's author, referenced with Yoast's {"name", "@id"} object.
            #"{"@type": "Article", "@id": "https://www.example.com/2009/up#article", "headline": "Up", "url": "https://www.example.com/2009/up", "author": {"name": "Ellie Fredricksen", "@id": "https://www.example.com/#/schema/person/9a8b"}}, {"@type": "Person", "@id": "https://www.example.com/#/schema/person/9a8b", "name": "Ellie Fredricksen", "url": "https://www.example.com/"}, {"@type": "Person", "@id": "https://www.example.com/#/schema/person/1f2e", "name": "Carl Fredricksen"}"#,
        ])
    func sd027SkipsParties(graph: String) {
        #expect(!Self.findings(Self.yoastRoot(graph)).map(\.ruleID).contains("SD027"))
    }

    @Test("a ProfilePage's mainEntity Person is still compared with og:title")
    func aProfilePageIsAboutItsPerson() {
        let html = """
            <html><head><title>A</title><link rel="canonical" href="https://www.example.com/a">
            <meta property="og:title" content="Balloons and houses">
            <script type="application/ld+json">{"@context": "https://schema.org", "@graph": [
            {"@type": "ProfilePage", "@id": "https://www.example.com/a", "mainEntity": {"@id": "#p"}},
            {"@type": "Person", "@id": "#p", "name": "Carl Fredricksen"},
            {"@type": "Article", "@id": "https://www.example.com/2009/up#x", "headline": "Up", "author": {"@id": "#p"}}]}</script>
            </head><body></body></html>
            """
        #expect(Self.findings(html).map(\.ruleID).contains("SD027"))
    }

    @Test("SD024 on the empty image of a lazy-loaded <img itemprop=image data-src> says where the URL is")
    func lazyImageIsNamed() throws {
        let html = """
            <html><head><title>Kettle</title><link rel="canonical" href="https://www.example.com/a">
            <meta property="og:title" content="Kettle"></head><body>
            <div itemscope itemtype="https://schema.org/Product"><span itemprop="name">Kettle</span>
            <img itemprop="image" data-src="https://cdn.example.com/kettle.jpg" class="lazyload"></div></body></html>
            """
        let finding = try #require(Self.findings(html).first { $0.ruleID == "SD024" })
        #expect(finding.message.contains("is empty"))
        #expect(finding.message.contains(#"lazy-loaded: its URL is in data-src="https://cdn.example.com/kettle.jpg""#))
    }

    @Test("an orphan Microdata item keeps SD007 and is no candidate main entity (SD026)")
    func orphanItems() {
        let html = """
            <html><head><title>Story</title><link rel="canonical" href="https://www.example.com/a">
            <meta property="og:title" content="Story">
            <meta itemprop="speakable" itemscope itemtype="https://schema.org/SpeakableSpecification" itemref="h">
            </head><body><article itemscope itemtype="https://schema.org/NewsArticle">
            <h1 id="h" itemprop="headline">Story</h1></article></body></html>
            """
        // SD005 (info) is right too: the borrowed `headline` is outside SpeakableSpecification's domains.
        #expect(Self.findings(html).map(\.ruleID).sorted() == ["SD005", "SD007"])
    }

    @Test("SD026 resolves a relative url against the document base before comparing it with the canonical")
    func sd026ResolvesRelativeURLs() {
        func page(_ url: String, base: String = "") -> String {
            """
            <html><head>\(base)<title>Story</title><link rel="canonical" href="https://www.example.com/story/12">
            <meta property="og:title" content="Story">
            <script type="application/ld+json">{"@context": "https://schema.org", "@type": "NewsArticle",
             "@id": "#article", "headline": "Story", "url": "\(url)"}</script></head><body></body></html>
            """
        }
        #expect(Self.findings(page("/story/12")).map(\.ruleID) == ["SD024"])
        #expect(
            Self.findings(page("12", base: #"<base href="https://www.example.com/story/">"#)).map(\.ruleID) == ["SD024"]
        )
        #expect(Self.findings(page("/story/13")).map(\.ruleID) == ["SD024", "SD026"])
    }
}
