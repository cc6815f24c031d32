import LenientJSON
import MarkupExtraction
import SpotlightModel
import Testing

@Suite("Attribute set builder")
struct AttributeSetBuilderTests {
    // MARK: Title and description

    static let titleSources = [
        #"<meta property="og:title" content="OG title">"#,
        jsonLD(#"{"@type": "Movie", "name": "JSON-LD name"}"#),
        #"<meta name="twitter:title" content="Twitter title">"#,
        "<title>HTML title</title>",
    ]

    struct PrecedenceCase: Sendable, CustomTestStringConvertible {
        /// Indices into the sources, in the order they are written.
        var present: [Int]
        var value: String
        var source: String
        var testDescription: String { "sources \(present) → \(source)" }
    }

    @Test(
        "title precedence: og:title > JSON-LD name > twitter:title > <title>",
        arguments: [
            PrecedenceCase(present: [3, 2, 1, 0], value: "OG title", source: "og:title"),
            PrecedenceCase(present: [3, 2, 1], value: "JSON-LD name", source: "json-ld Movie.name"),
            PrecedenceCase(present: [3, 2], value: "Twitter title", source: "twitter:title"),
            PrecedenceCase(present: [3], value: "HTML title", source: "<title>"),
            PrecedenceCase(present: [0, 3], value: "OG title", source: "og:title"),
        ])
    func titlePrecedence(_ testCase: PrecedenceCase) throws {
        let head = testCase.present.map { Self.titleSources[$0] }.joined(separator: "\n")
        let attributes = build(page(head: head))
        #expect(attributes.attributeSet.title == testCase.value)
        #expect(attributes.attributeSet.displayName == testCase.value)
        let provenance = try #require(attributes.provenance(of: "title"))
        #expect(provenance.chosen.source.source == testCase.source)
        // Line of the chosen tag: sources are written one per line from line 2.
        let index = try #require(testCase.present.firstIndex { Self.titleSources[$0].contains(testCase.value) })
        #expect(provenance.chosen.source.line == index + 2)
        #expect(provenance.conflicting.count == testCase.present.count - 1)
    }

    @Test("title provenance records every conflicting value with its source and line")
    func titleConflicts() throws {
        let attributes = build(page(head: Self.titleSources.joined(separator: "\n")))
        let provenance = try #require(attributes.provenance(of: "title"))
        #expect(provenance.chosen.value == "OG title")
        #expect(provenance.chosen.source.source == "og:title")
        #expect(provenance.chosen.source.line == 2)
        #expect(provenance.conflicting.map(\.value) == ["JSON-LD name", "Twitter title", "HTML title"])
        #expect(provenance.conflicting.map(\.source.source) == ["json-ld Movie.name", "twitter:title", "<title>"])
        #expect(provenance.conflicting.map(\.source.line) == [3, 4, 5])
    }

    /// Issue 17 §2.10: a 9 MB description was kept whole in the provenance too (another copy in
    /// the store and the report).
    @Test("the provenance shows a long value shortened, with its length; the attribute set keeps it whole")
    func provenanceShortensLongValues() throws {
        let long = String(repeating: "d", count: 100_000)
        let attributes = build(
            page(head: #"<meta property="og:description" content="\#(long)"><meta name="description" content="x">"#))
        #expect(attributes.attributeSet.contentDescription == long)
        let entry = try #require(
            attributes.provenanceJSON.arrayValue?.first { $0["field"]?.stringValue == "contentDescription" })
        let shown = try #require(entry["value"]?.stringValue)
        #expect(
            shown == String(repeating: "d", count: PageAttributes.provenanceValueLength) + "… (100000 bytes in all)")
        #expect(entry["conflicting"]?.arrayValue?.first?["value"]?.stringValue == "x")
    }

    @Test("equal values from several sources are not conflicts; the title's whitespace is collapsed")
    func sameValueNoConflict() throws {
        let attributes = build(
            page(
                head: "<title>Up</title>\n" + #"<meta property="og:title" content=" Up   and  away ">"#
                    + "\n<title>ignored</title>"))
        #expect(attributes.attributeSet.title == "Up and away")
        let same = build(page(head: #"<meta property="og:title" content="Up">"# + "\n<title>Up</title>"))
        #expect(same.provenance(of: "title")?.conflicting.isEmpty == true)
    }

    @Test(
        "description precedence: og:description > entity description > twitter:description > meta description",
        arguments: [
            ([0, 1, 2, 3], "OG", "og:description"),
            ([1, 2, 3], "LD", "json-ld Movie.description"),
            ([2, 3], "TW", "twitter:description"),
            ([3], "META", "meta description"),
        ])
    func descriptionPrecedence(_ present: [Int], _ value: String, _ source: String) throws {
        let sources = [
            #"<meta property="og:description" content="OG">"#,
            jsonLD(#"{"@type": "Movie", "name": "Up", "description": "LD"}"#),
            #"<meta name="twitter:description" content="TW">"#,
            #"<meta name="description" content="META">"#,
        ]
        let attributes = build(page(head: present.reversed().map { sources[$0] }.joined(separator: "\n")))
        #expect(attributes.attributeSet.contentDescription == value)
        #expect(attributes.provenance(of: "contentDescription")?.chosen.source.source == source)
    }

    // MARK: Rating

    @Test(
        "aggregateRating normalised to 0–5",
        arguments: [
            (#""ratingValue": "4.5", "bestRating": "5""#, 4.5),
            (#""ratingValue": "4.5""#, 4.5),
            (#""ratingValue": 8, "bestRating": 10"#, 4.0),
            (#""ratingValue": "3", "worstRating": "1", "bestRating": "5""#, 2.5),
            (#""ratingValue": "91", "bestRating": "100""#, 4.55),
            (#""ratingValue": " 4 ", "bestRating": " 5 ""#, 4.0),
        ])
    func rating(_ members: String, _ expected: Double) throws {
        let attributes = build(
            page(
                head: jsonLD(
                    #"{"@type": "Movie", "name": "Up", "aggregateRating": {"@type": "AggregateRating", \#(members), "ratingCount": "12"}}"#
                )))
        #expect(attributes.attributeSet.rating == expected)
        #expect(attributes.attributeSet.ratingDescription == "12 ratings")
        #expect(attributes.provenance(of: "rating")?.chosen.source.line == 2)
    }

    @Test(
        "out-of-range or unusable ratings give no rating",
        arguments: [
            #""ratingValue": "6", "bestRating": "5""#, #""ratingValue": "-1""#,
            #""ratingValue": "0", "worstRating": "1""#,
            #""ratingValue": "4", "bestRating": "1", "worstRating": "5""#, #""ratingValue": "four""#,
            #""bestRating": "5""#,
        ])
    func ratingOutOfRange(_ members: String) {
        let attributes = build(
            page(head: jsonLD(#"{"@type": "Movie", "name": "Up", "aggregateRating": {\#(members)}}"#)))
        #expect(attributes.attributeSet.rating == nil)
        #expect(attributes.provenance(of: "rating") == nil)
    }

    // MARK: Language, duration, dates

    @Test("og:locale en_US → languages [en-US], ahead of <html lang>")
    func locale() throws {
        let attributes = build(#"<html lang="fr"><head><meta property="og:locale" content="en_US"></head></html>"#)
        #expect(attributes.attributeSet.languages == ["en-US"])
        #expect(attributes.provenance(of: "languages")?.conflicting.map(\.value) == ["fr"])
        #expect(build(#"<html lang="de-AT"><head></head></html>"#).attributeSet.languages == ["de-AT"])
        #expect(
            build(page(head: jsonLD(#"{"@type": "Movie", "name": "Up", "inLanguage": "ja_JP"}"#))).attributeSet
                .languages == ["ja-JP"])
    }

    @Test("duration: JSON-LD PT1H55M → 6900 s; video:duration 6900 → 6900 s and wins")
    func duration() {
        let fromJSONLD = build(page(head: jsonLD(#"{"@type": "Movie", "name": "Up", "duration": "PT1H55M"}"#)))
        #expect(fromJSONLD.attributeSet.duration == 6900)
        let both = build(
            page(
                head: #"<meta property="video:duration" content="6900">"# + "\n"
                    + jsonLD(#"{"@type": "Movie", "name": "Up", "duration": "PT2H"}"#)))
        #expect(both.attributeSet.duration == 6900)
        #expect(both.provenance(of: "duration")?.chosen.source.source == "video:duration")
    }

    @Test("dates keep their zone; a date without time is floating")
    func dates() throws {
        let attributes = build(
            page(
                head: jsonLD(
                    #"{"@type": "Event", "name": "Premiere", "startDate": "2024-05-01T10:00:00+02:00", "endDate": "2024-05-02", "datePublished": "2024-04-01T08:00:00Z", "dateModified": "2024-04-02"}"#
                )))
        let start = try #require(attributes.attributeSet.startDate)
        #expect(start.secondsSince1970 == 1_714_550_400)
        #expect(start.timeZoneOffset == 7200)
        #expect(start.text == "2024-05-01T10:00:00+02:00")
        #expect(start.hasTime)
        let end = try #require(attributes.attributeSet.endDate)
        #expect(end.timeZoneOffset == nil)
        #expect(!end.hasTime)
        #expect(end.secondsSince1970 == 1_714_608_000)
        #expect(attributes.attributeSet.contentCreationDate?.timeZoneOffset == 0)
        #expect(attributes.attributeSet.contentModificationDate?.text == "2024-04-02")
        // Event.endDate is also the item's expiration.
        #expect(attributes.expirationDate?.text == "2024-05-02")
    }

    @Test("article:published_time wins over JSON-LD datePublished")
    func articleDates() {
        let attributes = build(
            page(
                head: #"<meta property="article:published_time" content="2024-01-01T00:00:00-08:00">"# + "\n"
                    + jsonLD(#"{"@type": "Article", "headline": "H", "datePublished": "2023-01-01"}"#)))
        #expect(attributes.attributeSet.contentCreationDate?.timeZoneOffset == -28_800)
        #expect(attributes.attributeSet.headline == "H")
        #expect(attributes.attributeSet.title == "H")
    }

    // MARK: Thumbnail and keywords

    @Test("thumbnail: og:image secure_url when https, with the image's size")
    func thumbnailSecureURL() {
        let attributes = build(
            page(
                head: """
                    <meta property="og:image" content="http://cdn.example.com/a.png">
                    <meta property="og:image:secure_url" content="https://cdn.example.com/a.png">
                    <meta property="og:image:width" content="1200">
                    <meta property="og:image:height" content="630">
                    <meta property="og:image" content="https://cdn.example.com/b.png">
                    """ + jsonLD(#"{"@type": "Movie", "name": "Up", "image": "https://cdn.example.com/ld.png"}"#)))
        #expect(attributes.attributeSet.thumbnailURL == "https://cdn.example.com/a.png")
        #expect(attributes.attributeSet.pixelWidth == 1200)
        #expect(attributes.attributeSet.pixelHeight == 630)
        #expect(attributes.provenance(of: "thumbnailURL")?.chosen.source.source == "og:image")
    }

    @Test("thumbnail: an http secure_url is not used; the image URL is resolved against the base")
    func thumbnailInsecureSecureURL() {
        let attributes = build(
            page(
                head: """
                    <meta property="og:image" content="/images/a.png">
                    <meta property="og:image:secure_url" content="http://cdn.example.com/a.png">
                    """))
        #expect(attributes.attributeSet.thumbnailURL == "https://www.example.com/images/a.png")
    }

    @Test(
        "thumbnail without og:image: JSON-LD image (URL, ImageObject, array), then twitter:image, then touch icon",
        arguments: [
            (#""image": "https://x/ld.png""#, "https://x/ld.png"),
            (#""image": {"@type": "ImageObject", "contentUrl": "https://x/obj.png"}"#, "https://x/obj.png"),
            (#""image": ["https://x/first.png", "https://x/second.png"]"#, "https://x/first.png"),
            (#""thumbnailUrl": "https://x/thumb.png""#, "https://x/thumb.png"),
            (#""genre": "none""#, "https://x/twitter.png"),
        ])
    func thumbnailFallbacks(_ members: String, _ expected: String) {
        let attributes = build(
            page(
                head: #"<meta name="twitter:image" content="https://x/twitter.png">"# + "\n"
                    + #"<link rel="apple-touch-icon" href="/icon.png">"# + "\n"
                    + jsonLD(#"{"@type": "Movie", "name": "Up", \#(members)}"#)))
        #expect(attributes.attributeSet.thumbnailURL == expected)
        #expect(attributes.attributeSet.pixelWidth == nil)
    }

    @Test("keywords: split on commas, deduplicated case-insensitively, at most 5")
    func keywords() throws {
        let attributes = build(
            page(
                head: jsonLD(
                    #"{"@type": "Movie", "name": "Up", "keywords": "Pixar, pixar, Balloons,, Adventure , PIXAR, Family, Dogs, Extra"}"#
                )))
        #expect(attributes.attributeSet.keywords == ["Pixar", "Balloons", "Adventure", "Family", "Dogs"])
        #expect(attributes.provenance(of: "keywords")?.chosen.value == "Pixar, Balloons, Adventure, Family, Dogs")
    }

    @Test("keywords: video:tag when the entity has none; meta keywords only as the last resort")
    func keywordSources() {
        let tags = build(
            page(
                head: #"<meta property="video:tag" content="Up">"# + "\n" + #"<meta property="video:tag" content="UP">"#
                    + "\n" + #"<meta name="keywords" content="meta, words">"#))
        #expect(tags.attributeSet.keywords == ["Up"])
        let meta = build(page(head: #"<meta name="keywords" content="meta, Words ,words">"#))
        #expect(meta.attributeSet.keywords == ["meta", "Words"])
    }

    // MARK: Contact and place

    @Test(
        "phone numbers (tel: stripped) and supportsPhoneCall for business-like entities",
        arguments: ["Organization", "LocalBusiness", "Restaurant"])
    func businessPhone(_ type: String) {
        let attributes = build(
            page(
                head: jsonLD(
                    #"{"@type": "\#(type)", "name": "Biz", "telephone": "tel:+1-555-0100", "email": "mailto:hi@example.com"}"#
                )))
        #expect(attributes.attributeSet.phoneNumbers == ["+1-555-0100"])
        #expect(attributes.attributeSet.supportsPhoneCall == true)
        #expect(attributes.attributeSet.emailAddresses == ["hi@example.com"])
    }

    @Test("a Person-only page keeps the phone number but does not support a phone call")
    func personPhone() {
        let attributes = build(
            page(head: jsonLD(#"{"@type": "Person", "name": "Ann", "telephone": "tel:+44 20 7946 0000"}"#)))
        #expect(attributes.attributeSet.phoneNumbers == ["+44 20 7946 0000"])
        #expect(attributes.attributeSet.supportsPhoneCall == nil)
    }

    @Test("a Person page takes the contact from the main entity, not from its employer")
    func personWithBusiness() {
        let attributes = build(
            page(
                head: jsonLD(
                    #"[{"@type": "Person", "name": "Ann", "worksFor": {"@type": "Organization", "name": "Cinema", "telephone": "+1-555-0199"}}, {"@type": "LocalBusiness", "name": "Office", "geo": {"latitude": 1, "longitude": 2}}]"#
                )))
        #expect(attributes.mainEntityTypes == ["Person"])
        // The employer's number (worksFor) is not the person's (reference §6: the main entity's telephone).
        #expect(attributes.attributeSet.phoneNumbers == [])
        #expect(attributes.attributeSet.supportsPhoneCall == nil)
        #expect(attributes.attributeSet.latitude == 1)
    }

    @Test("geo → latitude/longitude and supportsNavigation; address fields")
    func geo() {
        let attributes = build(
            page(
                head: jsonLD(
                    #"{"@type": "Restaurant", "name": "Pizza", "geo": {"@type": "GeoCoordinates", "latitude": "52.52", "longitude": 13.405}, "address": {"@type": "PostalAddress", "streetAddress": "1 Main St", "addressLocality": "Berlin", "addressRegion": "BE", "postalCode": "10115", "addressCountry": "DE"}}"#
                )))
        #expect(attributes.attributeSet.latitude == 52.52)
        #expect(attributes.attributeSet.longitude == 13.405)
        #expect(attributes.attributeSet.supportsNavigation == true)
        #expect(attributes.attributeSet.thoroughfare == "1 Main St")
        #expect(attributes.attributeSet.city == "Berlin")
        #expect(attributes.attributeSet.stateOrProvince == "BE")
        #expect(attributes.attributeSet.postalCode == "10115")
        #expect(attributes.attributeSet.country == "DE")
        let place = build(page(head: jsonLD(#"{"@type": "Place", "name": "Town Hall", "address": "1 Square, Oslo"}"#)))
        #expect(place.attributeSet.namedLocation == "Town Hall")
        #expect(place.attributeSet.fullyFormattedAddress == "1 Square, Oslo")
        #expect(place.attributeSet.supportsNavigation == nil)
    }

    @Test(
        "out-of-range or non-numeric coordinates give no location",
        arguments: [("95", "10"), ("10", "-181"), ("north", "10")])
    func badGeo(_ latitude: String, _ longitude: String) {
        let attributes = build(
            page(
                head: jsonLD(
                    #"{"@type": "Place", "name": "P", "geo": {"latitude": "\#(latitude)", "longitude": "\#(longitude)"}}"#
                )))
        #expect(attributes.attributeSet.latitude == nil)
        #expect(attributes.attributeSet.supportsNavigation == nil)
    }

    @Test("Event location: named location and geo of the location")
    func eventLocation() {
        let attributes = build(
            page(
                head: jsonLD(
                    #"{"@type": "Event", "name": "Show", "location": {"@type": "Place", "name": "Hall", "geo": {"latitude": 10, "longitude": 20}}}"#
                )))
        #expect(attributes.attributeSet.namedLocation == "Hall")
        #expect(attributes.attributeSet.latitude == 10)
        #expect(attributes.attributeSet.longitude == 20)
    }

    // MARK: Deep links and identity

    @Test("deep links in order (SAB app-argument, al:ios:url, twitter:app:url:iphone) and App Store IDs from all three")
    func deepLinks() {
        let attributes = build(
            page(
                head: """
                    <meta name="twitter:app:url:iphone" content="cinema://twitter">
                    <meta name="twitter:app:id:iphone" content="333">
                    <meta property="al:ios:url" content="cinema://applinks">
                    <meta property="al:ios:app_store_id" content="222">
                    <meta name="apple-itunes-app" content="app-id=111, app-argument=https://www.example.com/movies/up.html">
                    """))
        #expect(
            attributes.deepLinks.map(\.url) == [
                "https://www.example.com/movies/up.html", "cinema://applinks", "cinema://twitter",
            ])
        #expect(
            attributes.deepLinks.map(\.source.source) == [
                "apple-itunes-app app-argument", "al:ios:url", "twitter:app:url:iphone",
            ])
        #expect(attributes.deepLinks.map(\.source.line) == [6, 4, 2])
        #expect(attributes.appStoreIDs.map(\.url) == ["111", "222", "333"])
        #expect(
            attributes.appStoreIDs.map(\.source.source) == [
                "apple-itunes-app app-id", "al:ios:app_store_id", "twitter:app:id:iphone",
            ])
    }

    @Test("a page without app markup has no deep link and no App Store ID")
    func noDeepLinks() {
        let attributes = build(page(head: "<title>t</title>"))
        #expect(attributes.deepLinks.isEmpty)
        #expect(attributes.appStoreIDs.isEmpty)
    }

    @Test("main entity: JSON-LD WebSite + Movie picks the Movie; the WebSite's SearchAction target is kept")
    func mainEntity() {
        let attributes = build(
            page(
                head: jsonLD(
                    #"[{"@type": "WebSite", "name": "Family Cinema", "potentialAction": {"@type": "SearchAction", "target": "https://www.example.com/search?q={query}"}}, {"@type": "Movie", "name": "Up", "genre": "Animation", "director": {"@type": "Person", "name": "Pete Docter"}, "actor": [{"@type": "Person", "name": "Ed Asner"}, {"@type": "Person", "name": "Jordan Nagai"}]}]"#
                )))
        #expect(attributes.mainEntityTypes == ["Movie"])
        #expect(attributes.attributeSet.title == "Up")
        #expect(attributes.attributeSet.contentType == "public.movie")
        #expect(attributes.attributeSet.genre == "Animation")
        #expect(attributes.attributeSet.director == "Pete Docter")
        #expect(attributes.attributeSet.performers == ["Ed Asner", "Jordan Nagai"])
        #expect(attributes.searchActionTarget == "https://www.example.com/search?q={query}")
    }

    @Test("main entity: the entity whose url is the canonical URL wins over an earlier one")
    func mainEntityByCanonical() {
        let attributes = build(
            page(
                head: #"<link rel="canonical" href="https://www.example.com/movies/up.html">"# + "\n"
                    + jsonLD(
                        #"[{"@type": "Movie", "name": "Cars", "url": "https://www.example.com/movies/cars.html"}, {"@type": "Movie", "name": "Up", "url": "https://WWW.example.com/movies/up.html#main"}]"#
                    )))
        #expect(attributes.attributeSet.title == "Up")
    }

    @Test("microdata is an entity source too (schema.org IRIs shortened)")
    func microdataEntity() {
        let attributes = build(
            page(
                head: "",
                body:
                    #"<div itemscope itemtype="https://schema.org/Movie"><span itemprop="name">Up</span><div itemprop="aggregateRating" itemscope itemtype="https://schema.org/AggregateRating"><meta itemprop="ratingValue" content="9"><meta itemprop="bestRating" content="10"></div></div>"#
            ))
        #expect(attributes.mainEntityTypes == ["Movie"])
        #expect(attributes.attributeSet.title == "Up")
        #expect(attributes.attributeSet.rating == 4.5)
    }

    @Test("canonical URL normalised into uniqueIdentifier, url and contentURL")
    func canonicalNormalisation() throws {
        let attributes = build(page(head: #"<link rel="canonical" href="HTTPS://WWW.Example.com:443/a#frag">"#))
        #expect(attributes.uniqueIdentifier == "https://www.example.com/a")
        #expect(attributes.attributeSet.url == "https://www.example.com/a")
        #expect(attributes.attributeSet.contentURL == "https://www.example.com/a")
        #expect(attributes.provenance(of: "url")?.chosen.source.source == "link rel=canonical")
    }

    @Test("identity falls back to og:url, then the page URL")
    func identityFallbacks() {
        #expect(
            build(page(head: #"<meta property="og:url" content="https://www.example.com/og">"#)).uniqueIdentifier
                == "https://www.example.com/og")
        #expect(
            build(page(head: "<title>t</title>"), url: "HTTPS://Example.com").uniqueIdentifier == "https://example.com/"
        )
    }

    @Test(
        "contentType from og:type and schema type",
        arguments: [
            (#"<meta property="og:type" content="video.episode">"#, "public.movie"),
            (#"<meta property="og:type" content="music.song">"#, "public.audio"),
            (jsonLD(#"{"@type": "ImageObject", "name": "I"}"#), "public.image"),
            (#"<meta property="og:type" content="article">"#, "public.html"),
        ])
    func contentType(_ head: String, _ expected: String) {
        #expect(build(page(head: head)).attributeSet.contentType == expected)
    }

    @Test("publishers: og:site_name, else the main entity's publisher name")
    func publishers() {
        #expect(
            build(page(head: #"<meta property="og:site_name" content="Family Cinema">"#)).attributeSet.publishers == [
                "Family Cinema"
            ])
        let fromEntity = build(
            page(
                head: jsonLD(
                    #"{"@type": "Article", "headline": "H", "publisher": {"@type": "Organization", "name": "Daily"}}"#))
        )
        #expect(fromEntity.attributeSet.publishers == ["Daily"])
        let withoutPublisher = build(page(head: jsonLD(#"{"@type": "Movie", "name": "Up"}"#)))
        #expect(withoutPublisher.attributeSet.publishers == [])
    }

    @Test("offers become custom attributes; sku is the identifier")
    func offers() {
        let attributes = build(
            page(
                head: jsonLD(
                    #"{"@type": "Product", "name": "Chair", "sku": "CH-1", "offers": {"@type": "Offer", "price": "9.99", "priceCurrency": "EUR", "priceValidUntil": "2030-01-01"}}"#
                )))
        #expect(attributes.attributeSet.identifier == "CH-1")
        #expect(
            attributes.attributeSet.customAttributes == [
                "com_spotcheck_price": "9.99", "com_spotcheck_priceCurrency": "EUR",
            ])
        #expect(attributes.expirationDate?.text == "2030-01-01")
    }
}

@Suite("Attribute set builder: JSON-LD references and the site-name suffix (issue 13)")
struct AttributeSetGraphTests {
    /// A Yoast-shaped page: an `@graph` whose Article names its image and page by `{"@id": …}`,
    /// the ImageObject described in a second script, with relative and absolute ids.
    static let yoastGraph =
        jsonLD(
            ##"{"@context": "https://schema.org", "@graph": [{"@type": "Article", "@id": "#article", "headline": "Up", "image": {"@id": "https://www.example.com/movies/up.html#primaryimage"}, "mainEntityOfPage": {"@id": "https://www.example.com/movies/up.html"}, "publisher": {"@id": "/#organization"}}, {"@type": "WebPage", "@id": "https://www.example.com/movies/up.html", "url": "https://www.example.com/movies/up.html", "name": "Up - Example"}]}"##
        ) + "\n"
        + jsonLD(
            ##"[{"@context": "https://schema.org", "@type": "ImageObject", "@id": "#primaryimage", "url": "https://cdn.example.com/up-poster-2009.jpg", "contentUrl": "https://cdn.example.com/up-poster-2009.jpg"}, {"@context": "https://schema.org", "@type": "Organization", "@id": "https://www.example.com/#organization", "name": "Example Films"}]"##
        )

    @Test("a thumbnail taken from JSON-LD follows an {\"@id\"} reference to the ImageObject's url")
    func thumbnailFollowsTheReference() throws {
        let attributes = build(page(head: Self.yoastGraph))
        #expect(attributes.mainEntityTypes == ["Article"])
        #expect(attributes.attributeSet.thumbnailURL == "https://cdn.example.com/up-poster-2009.jpg")
        // The publisher reference ("/#organization") leads to the Organization's name.
        #expect(attributes.attributeSet.publishers == ["Example Films"])
    }

    /// A too-deep branch in one script ends that branch only: the node index is built from the
    /// last script first, and the first 33-deep array used to stop it before the Yoast graph.
    @Test func aDeepScriptDoesNotHideTheOtherScriptsNodes() throws {
        let deep = String(repeating: "[", count: 40) + "1" + String(repeating: "]", count: 40)
        let attributes = build(page(head: Self.yoastGraph + "\n" + jsonLD(deep)))
        #expect(attributes.attributeSet.thumbnailURL == "https://cdn.example.com/up-poster-2009.jpg")
    }

    /// One node referenced many times is built once and shared: the attribute set is the same as
    /// for one reference, and the page is read in one pass however many references it has.
    @Test func aNodeReferencedManyTimesIsBuiltOnce() throws {
        let references = Array(repeating: ##"{"@id": "/#organization"}"##, count: 2_000).joined(separator: ", ")
        let properties = (0..<2_000).map { "\"p\($0)\": \($0)" }.joined(separator: ", ")
        let html = Self.yoastGraph
            .replacingOccurrences(
                of: ##""publisher": {"@id": "/#organization"}"##, with: ##""publisher": ["## + references + "]"
            )
            .replacingOccurrences(of: ##""name": "Example Films""##, with: ##""name": "Example Films", "## + properties)
        let attributes = build(page(head: html))
        #expect(attributes.mainEntityTypes == ["Article"])
        #expect(attributes.attributeSet.publishers == ["Example Films"])
    }

    @Test(
        "the title loses a trailing og:site_name after a separator, only when something remains",
        arguments: [
            ("Headline | TechCrunch", "TechCrunch", "Headline"),
            ("Headline – TechCrunch", "TechCrunch", "Headline"),
            ("Headline · techcrunch", "TechCrunch", "Headline"),
            ("Headline: TechCrunch", "TechCrunch", "Headline"),
            ("Headline|TechCrunch", "TechCrunch", "Headline"),
            ("X-Men", "Men", "X-Men"),
            ("Headline TechCrunch", "TechCrunch", "Headline TechCrunch"),
            ("| TechCrunch", "TechCrunch", "| TechCrunch"),
            ("TechCrunch", "TechCrunch", "TechCrunch"),
            ("TechCrunch | Headline", "TechCrunch", "TechCrunch | Headline"),
        ])
    func siteNameSuffix(title: String, siteName: String, expected: String) throws {
        let attributes = build(
            page(
                head: "<title>\(title)</title>\n" + #"<meta property="og:site_name" content="\#(siteName)">"#))
        #expect(attributes.attributeSet.title == expected)
        #expect(attributes.attributeSet.displayName == expected)
    }
}
