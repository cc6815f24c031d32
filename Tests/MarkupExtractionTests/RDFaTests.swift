import LenientJSON
import MarkupExtraction
import Testing

@Suite("RDFa Lite")
struct RDFaTests {
    static let usesVocabulary = "http://www.w3.org/ns/rdfa#usesVocabulary"
    static let xsd = "http://www.w3.org/2001/XMLSchema#"

    @Test("vocab + typeof + property: an item with full IRIs and the rdfa:usesVocabulary triple on the page")
    func vocabTypeofProperty() throws {
        let page = extract(
            """
            <html><body>
            <div vocab="https://schema.org/" typeof="Movie">
              <span property="name">Up</span>
              <span property="genre">Animation</span>
            </div>
            </body></html>
            """)
        try #require(page.rdfa.count == 2)
        let pageItem = page.rdfa[0]
        #expect(pageItem.id == "https://www.example.com/dir/page.html")
        #expect(pageItem.types.isEmpty)
        #expect(pageItem.values(Self.usesVocabulary).map(\.kind) == [.reference("https://schema.org/")])
        let movie = page.rdfa[1]
        #expect(movie.types == ["https://schema.org/Movie"])
        #expect(movie.id?.hasPrefix("_:") == true)
        #expect(movie.propertyNames == ["https://schema.org/name", "https://schema.org/genre"])
        #expect(movie.strings("https://schema.org/name") == ["Up"])
        #expect(movie.line == 2)
    }

    @Test("the usesVocabulary subject drops the page URL's fragment")
    func usesVocabularySubjectWithoutFragment() throws {
        let page = extract(
            #"<html><body><div vocab="https://schema.org/" typeof="Thing"><span property="name">T</span></div></body></html>"#,
            url: "https://www.example.com/p.html#section")
        #expect(page.rdfa.first?.id == "https://www.example.com/p.html")
    }

    @Test("a nested typeof is a nested item of the property")
    func nestedTypeof() throws {
        let page = extract(
            """
            <html><body vocab="https://schema.org/">
            <div typeof="Movie">
              <span property="name">Up</span>
              <div property="director" typeof="Person">
                <span property="name">Pete Docter</span>
              </div>
            </div>
            </body></html>
            """)
        let movie = try #require(page.rdfa.first { $0.types == ["https://schema.org/Movie"] })
        let director = try #require(movie.item("https://schema.org/director"))
        #expect(director.types == ["https://schema.org/Person"])
        #expect(director.strings("https://schema.org/name") == ["Pete Docter"])
        #expect(director.line == 4)
        // The nested blank node is not also a top-level item.
        #expect(!page.rdfa.contains { $0.types == ["https://schema.org/Person"] })
        #expect(movie.strings("https://schema.org/name") == ["Up"])
    }

    @Test("resource sets the subject IRI, resolved against the page")
    func resourceSubject() throws {
        let page = extract(
            """
            <html><body vocab="https://schema.org/">
            <div typeof="Person" resource="#ann"><span property="name">Ann</span></div>
            <div typeof="Person" resource="https://people.example/bo"><span property="name">Bo</span></div>
            </body></html>
            """)
        let people = page.rdfa.filter { $0.types == ["https://schema.org/Person"] }
        #expect(people.map(\.id) == ["https://www.example.com/dir/page.html#ann", "https://people.example/bo"])
        #expect(people.map { $0.strings("https://schema.org/name") } == [["Ann"], ["Bo"]])
    }

    @Test("prefix declarations expand CURIEs in typeof and property")
    func prefixDeclarations() throws {
        let page = extract(
            """
            <html><body>
            <div prefix="ex: http://example.org/ns# s: https://schema.org/" typeof="ex:Thing s:CreativeWork">
              <span property="ex:label s:name">Label</span>
            </div>
            </body></html>
            """)
        let item = try #require(page.rdfa.first)
        #expect(item.types == ["http://example.org/ns#Thing", "https://schema.org/CreativeWork"])
        #expect(item.propertyNames == ["http://example.org/ns#label", "https://schema.org/name"])
        #expect(item.strings("https://schema.org/name") == ["Label"])
        #expect(page.prefixes.map(\.prefix) == ["ex", "s"])
    }

    struct TimeCase: Sendable, CustomTestStringConvertible {
        var markup: String
        var value: String
        var datatype: String?
        var testDescription: String { markup }
    }

    @Test(
        "<time> gives a typed literal by its lexical form",
        arguments: [
            TimeCase(
                markup: #"<time property="d" datetime="2024-05-01">May 1</time>"#, value: "2024-05-01", datatype: "date"
            ),
            TimeCase(
                markup: #"<time property="d" datetime="2024-05-01T10:00:00+02:00">10am</time>"#,
                value: "2024-05-01T10:00:00+02:00", datatype: "dateTime"),
            TimeCase(
                markup: #"<time property="d">2024-05-01T10:00Z</time>"#, value: "2024-05-01T10:00Z",
                datatype: "dateTime"),
            TimeCase(
                markup: #"<time property="d" datetime="PT1H36M">96 minutes</time>"#, value: "PT1H36M",
                datatype: "duration"),
            TimeCase(
                markup: #"<time property="d" datetime="10:30">half past ten</time>"#, value: "10:30", datatype: "time"),
            TimeCase(
                markup: #"<time property="d" datetime="2024-05">May</time>"#, value: "2024-05", datatype: "gYearMonth"),
            TimeCase(markup: #"<time property="d" datetime="2024">this year</time>"#, value: "2024", datatype: "gYear"),
            TimeCase(markup: #"<time property="d" datetime="soon">soon</time>"#, value: "soon", datatype: nil),
        ])
    func timeDatatypes(_ testCase: TimeCase) throws {
        let page = extract(
            #"<html><body><div vocab="https://schema.org/" typeof="Event">\#(testCase.markup)</div></body></html>"#)
        let event = try #require(page.rdfa.first { $0.types == ["https://schema.org/Event"] })
        let value = try #require(event.values("https://schema.org/d").first)
        if let datatype = testCase.datatype {
            #expect(value.kind == .typedLiteral(testCase.value, datatype: Self.xsd + datatype, language: nil))
            #expect(value.json == ["@value": .string(testCase.value), "@type": .string(Self.xsd + datatype)])
        } else {
            #expect(value.kind == .text(testCase.value))
        }
    }

    @Test("content and href values; lang gives a language-tagged literal")
    func contentHrefAndLanguage() throws {
        let page = extract(
            """
            <html><body vocab="https://schema.org/">
            <div typeof="Product" lang="fr">
              <span property="price" content="9.99">9,99 €</span>
              <a property="url" href="/products/1">link</a>
              <span property="name">Chaise</span>
            </div>
            </body></html>
            """)
        let product = try #require(page.rdfa.first { $0.types == ["https://schema.org/Product"] })
        #expect(
            product.values("https://schema.org/price").map(\.kind) == [
                .typedLiteral("9.99", datatype: nil, language: "fr")
            ])
        #expect(
            product.values("https://schema.org/url").map(\.kind) == [.reference("https://www.example.com/products/1")])
        #expect(
            product.values("https://schema.org/name").map(\.kind) == [
                .typedLiteral("Chaise", datatype: nil, language: "fr")
            ])
    }

    @Test("Open Graph meta tags are RDFa too (og: is in the initial context)")
    func openGraphAsRDFa() throws {
        let page = extract(#"<html><head><meta property="og:title" content="Up"></head></html>"#)
        let item = try #require(page.rdfa.first)
        #expect(item.id == "https://www.example.com/dir/page.html")
        #expect(item.strings("http://ogp.me/ns#title") == ["Up"])
    }

    @Test("the rdfa option turns RDFa processing off; Open Graph is still read")
    func rdfaOff() {
        let page = extract(
            #"<html><head><meta property="og:title" content="Up"></head><body vocab="https://schema.org/"><div typeof="Thing"><span property="name">T</span></div></body></html>"#,
            options: .init(rdfa: false))
        #expect(page.rdfa.isEmpty)
        #expect(page.openGraphPairs == ["og:title=Up"])
    }

    @Test("a page without RDFa attributes has no RDFa items")
    func noRDFa() {
        let page = extract(
            #"<html><head><title>t</title><meta name="description" content="d"></head><body><p>x</p></body></html>"#)
        #expect(page.rdfa.isEmpty)
    }
}
