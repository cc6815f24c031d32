import MarkupExtraction
import Testing

@testable import Verification

@Suite("The schema.org vocabulary (SD003–SD006)")
struct SchemaOrgVocabularyTests {
    /// The SD003–SD006 findings of a page with this head and body, as `RULE: message`.
    static func findings(head: String = "", body: String = "") -> [String] {
        let html = """
            <html><head><title>A</title><link rel="canonical" href="https://www.example.com/a">
            <meta property="og:type" content="website">
            \(head)</head><body>\(body)</body></html>
            """
        let page = MarkupExtractor().extract(html: Array(html.utf8), url: "https://www.example.com/a")
        let vocabularyRules: Set<String> = ["SD003", "SD004", "SD005", "SD006"]
        return PageVerifier().verify(page).filter { vocabularyRules.contains($0.ruleID) }.map {
            "\($0.ruleID): \($0.message)"
        }
    }

    /// A JSON-LD script with a schema.org context: `{"@context": …, "@type": type, members}`.
    static func jsonLD(_ type: String, _ members: String) -> String {
        #"<script type="application/ld+json">{"@context": "https://schema.org", "@type": "\#(type)", \#(members)}</script>"#
    }

    static func microdata(_ type: String, _ properties: String) -> String {
        #"<div itemscope itemtype="https://schema.org/\#(type)">\#(properties)</div>"#
    }

    static func rdfa(_ type: String, _ properties: String) -> String {
        #"<div vocab="https://schema.org/" typeof="\#(type)">\#(properties)</div>"#
    }

    /// Each case: a page's head or body (the syntax), and the findings' beginnings in order.
    @Test(
        arguments: [
            // SD003: an unknown type, with the nearest known one.
            (
                jsonLD("Moovie", #""name": "Up""#), "",
                ["SD003: type \"Moovie\" (JSON-LD, line 3) is not a type of schema.org 30.0; did you mean Movie?"]
            ),
            (
                "", microdata("Moovie", #"<span itemprop="name">Up</span>"#),
                ["SD003: type \"Moovie\" (Microdata, line 3) is not a type of schema.org 30.0; did you mean Movie?"]
            ),
            (
                "", rdfa("Moovie", #"<span property="name">Up</span>"#),
                ["SD003: type \"Moovie\" (RDFa, line 3) is not a type of schema.org 30.0; did you mean Movie?"]
            ),
            (
                jsonLD("newsArticle", #""headline": "A""#), "",
                [
                    "SD003: type \"newsArticle\" (JSON-LD, line 3) is not a type of schema.org 30.0; did you mean NewsArticle?"
                ]
            ),
            (
                "", #"<div itemscope itemtype="http://schema.org/CreativeWork%20http://schema.org/Product"></div>"#,
                [
                    "SD003: type \"CreativeWork%20http://schema.org/Product\" (Microdata, line 3) is not a type of schema.org 30.0; several types are separated by spaces, not %20"
                ]
            ),
            (
                jsonLD("name", #""headline": "A""#), "",
                ["SD003: type \"name\" (JSON-LD, line 3) is a schema.org property, not a type"]
            ),
            // SD004: a misspelled property, with its suggestion.
            (
                jsonLD("Article", #""datePublised": "2024-05-01""#), "",
                [
                    "SD004: property \"datePublised\" on Article (JSON-LD, line 3) is not a property of schema.org 30.0; did you mean datePublished?"
                ]
            ),
            (
                "", microdata("Article", #"<time itemprop="datePublised">2024-05-01</time>"#),
                [
                    "SD004: property \"datePublised\" on Article (Microdata, line 3) is not a property of schema.org 30.0; did you mean datePublished?"
                ]
            ),
            (
                "", rdfa("Article", #"<time property="datePublised">2024-05-01</time>"#),
                [
                    "SD004: property \"datePublised\" on Article (RDFa, line 3) is not a property of schema.org 30.0; did you mean datePublished?"
                ]
            ),
            (
                jsonLD("NewsArticle", #""wordcount": 672"#), "",
                [
                    "SD004: property \"wordcount\" on NewsArticle (JSON-LD, line 3) is not a property of schema.org 30.0; did you mean wordCount?"
                ]
            ),
            (
                jsonLD("Article", #""xyzzyplugh": 1"#), "",
                ["SD004: property \"xyzzyplugh\" on Article (JSON-LD, line 3) is not a property of schema.org 30.0"]
            ),
            (
                jsonLD("Article", #""https://schema.org/datePublised": "2024-05-01""#), "",
                ["SD004: property \"datePublised\""]
            ),
            // SD005: outside the domain; the same property on a subclass of its domain is fine.
            (
                jsonLD("Organization", #""author": "B""#), "",
                [
                    "SD005: author on Organization (JSON-LD, line 3) is outside its schema.org domain (CreativeWork, Rating, or a subtype)"
                ]
            ),
            (jsonLD("NewsArticle", #""author": "B""#), "", []),
            (
                "", microdata("Organization", #"<span itemprop="author">B</span>"#),
                ["SD005: author on Organization (Microdata, line 3)"]
            ),
            ("", microdata("NewsArticle", #"<span itemprop="author">B</span>"#), []),
            (
                "", rdfa("Organization", #"<span property="author">B</span>"#),
                ["SD005: author on Organization (RDFa, line 3)"]
            ),
            ("", rdfa("NewsArticle", #"<span property="author">B</span>"#), []),
            // Thing's properties fit every type; a second type that allows the property is enough;
            // a data type is not judged.
            (jsonLD("ScreeningEvent", #""name": "Up", "director": "B""#), "", []),
            (
                #"<script type="application/ld+json">{"@context": "https://schema.org", "@type": ["Organization", "Movie"], "author": "B"}</script>"#,
                "", []
            ),
            (jsonLD("URL", #""author": "B""#), "", []),
            // SD006: superseded terms name their replacement (chains followed to the current term).
            (
                jsonLD("Movie", #""actors": "B""#), "",
                ["SD006: actors on Movie (JSON-LD, line 3) is superseded by actor"]
            ),
            (
                "", microdata("Movie", #"<span itemprop="actors">B</span>"#),
                ["SD006: actors on Movie (Microdata, line 3) is superseded by actor"]
            ),
            (
                "", rdfa("Movie", #"<span property="actors">B</span>"#),
                ["SD006: actors on Movie (RDFa, line 3) is superseded by actor"]
            ),
            (
                jsonLD("TVSeries", #""seasons": "B""#), "",
                ["SD006: seasons on TVSeries (JSON-LD, line 3) is superseded by containsSeason"]
            ),
            (
                jsonLD("Season", #""name": "B""#), "",
                ["SD006: type Season (JSON-LD, line 3) is superseded by CreativeWorkSeason"]
            ),
            (
                "", microdata("UserPlays", ""),
                ["SD006: type UserPlays (Microdata, line 3) is superseded by InteractionCounter"]
            ),
            // Pending terms are known.
            (jsonLD("3DModel", #""creditText": "B", "abstract": "C""#), "", []),
            ("", microdata("3DModel", #"<span itemprop="creditText">B</span>"#), []),
            ("", rdfa("3DModel", #"<span property="creditText">B</span>"#), []),
            // Actions annotations and JSON-LD keywords (and schema.org's `id`/`type` aliases).
            (jsonLD("SearchAction", ##""@id": "#s", "query-input": "required name=q", "type": "Thing""##), "", []),
        ] as [(String, String, [String])])
    func vocabularyFindings(head: String, body: String, expected: [String]) {
        let found = Self.findings(head: head, body: body)
        #expect(found.count == expected.count, "\(found)")
        for (finding, beginning) in zip(found, expected) {
            #expect(finding.hasPrefix(beginning), "\(finding)")
        }
    }

    /// Terms of other vocabularies, full IRIs of other namespaces, compact IRIs with another prefix
    /// and terms the page's context defines are not schema.org's: not judged.
    @Test(
        arguments: [
            // JSON-LD
            (
                #"<script type="application/ld+json">{"@context": {"@vocab": "http://example.org/"}, "@type": "Moovie", "titel": "A"}</script>"#,
                ""
            ),
            (
                #"<script type="application/ld+json">{"@context": ["https://schema.org", {"dc": "http://purl.org/dc/terms/", "pageType": {"@id": "Text"}}], "@type": "Article", "dc:titel": "A", "http://purl.org/dc/terms/titel": "A", "pageType": "B", "og:title": "C"}</script>"#,
                ""
            ),
            (
                #"<script type="application/ld+json">{"@context": "https://schema.org", "@type": ["Article", "foaf:Documment", "http://example.org/Moovie"], "headline": "A"}</script>"#,
                ""
            ),
            (#"<script type="application/ld+json">{"@type": "Moovie", "titel": "A"}</script>"#, ""),
            // Microdata
            (
                "",
                #"<div itemscope itemtype="http://data-vocabulary.org/Breadcrumb"><span itemprop="titel">A</span></div>"#
            ),
            ("", #"<div itemscope><span itemprop="titel">A</span></div>"#),
            ("", microdata("Article", #"<span itemprop="http://purl.org/dc/terms/titel">A</span>"#)),
            // RDFa
            ("", #"<div vocab="http://example.org/" typeof="Moovie"><span property="titel">A</span></div>"#),
            (
                "",
                #"<div vocab="https://schema.org/" prefix="dc: http://purl.org/dc/terms/" typeof="Article"><span property="dc:titel og:title">A</span></div>"#
            ),
            // RDFa expands `rel` link types against the vocab too (schema.org/stylesheet): not judged.
            (
                #"<link rel="stylesheet" href="/a.css">"#,
                #"<div vocab="https://schema.org/" typeof="WebPage"><link rel="stylesheet" href="/b.css"><a rel="nofollow" href="/x">x</a></div>"#
            ),
        ] as [(String, String)])
    func otherVocabulariesAreNotJudged(head: String, body: String) {
        #expect(Self.findings(head: head, body: body) == [], "\(head)\(body)")
    }

    // MARK: The table

    @Test func theTableHoldsKnownFactsOfTheRelease() {
        let vocabulary = SchemaOrgVocabulary.current
        #expect(SchemaOrgVocabulary.release == "30.0")
        #expect(
            SchemaOrgVocabulary.table.hasPrefix(
                "# schema.org vocabulary release 30.0, from schemaorg-current-https.jsonld"))
        #expect(vocabulary.types.count == 953)
        #expect(vocabulary.properties.count == 1521)
        #expect(vocabulary.types["Movie"]?.superclasses == ["CreativeWork"])
        #expect(vocabulary.isA("Movie", "Thing"))
        #expect(vocabulary.isA("LocalBusiness", "Organization") && vocabulary.isA("LocalBusiness", "Place"))
        #expect(vocabulary.properties["name"]?.domains == ["Thing"])
        #expect(vocabulary.properties["name"]?.ranges == ["Text"])
        #expect(vocabulary.properties["author"]?.domains == ["CreativeWork", "Rating"])
        #expect(vocabulary.isA("URL", "DataType") && vocabulary.isA("Integer", "Number"))
        #expect(vocabulary.members["InStock"]?.enumerations == ["ItemAvailability"])
        #expect(vocabulary.isKnownType("InStock") && vocabulary.isA("InStock", "Enumeration"))
        #expect(vocabulary.status(of: "actors")?.supersededBy == "actor")
        #expect(vocabulary.replacement(of: "seasons") == "containsSeason")
        #expect(vocabulary.replacement(of: "actor") == nil)
        #expect(vocabulary.status(of: "3DModel")?.isPending == true)
        #expect(vocabulary.status(of: "Movie")?.isPending == false)
        #expect(!vocabulary.isKnownType("Moovie") && !vocabulary.isKnownProperty("datePublised"))
    }

    @Test(
        arguments: [
            ("datePublised", "datePublished"), ("datePublsihed", "datePublished"), ("wordcount", "wordCount"),
            ("Headline", "headline"), ("contentURL", "contentUrl"), ("articlesBody", "articleBody"),
            ("xyzzyplugh", nil), ("usageTerms", nil),
        ] as [(String, String?)])
    func theNearestKnownPropertyIsSuggested(unknown: String, suggestion: String?) {
        #expect(SchemaOrgVocabulary.current.nearestProperty(to: unknown) == suggestion)
    }

    @Test(arguments: [("kitten", "sitting", 3), ("ab", "ba", 1), ("", "abc", 3), ("abc", "abc", 0)])
    func editDistance(a: String, b: String, distance: Int) {
        #expect(SchemaOrgVocabulary.editDistance(Array(a), Array(b)) == distance)
    }
}
