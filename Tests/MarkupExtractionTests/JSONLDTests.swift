import LenientJSON
import MarkupExtraction
import Testing

@Suite("JSON-LD")
struct JSONLDTests {
    @Test("several scripts are kept in document order; a top-level array is flattened in the contract")
    func orderAndFlattening() {
        let page = extract(
            """
            <html><head>
            <script type="application/ld+json">{"@type": "WebSite", "name": "Site"}</script>
            <script type="application/ld+json">[{"@type": "A"}, {"@type": "B"}]</script>
            </head><body>
            <script type="application/ld+json">{"@type": "C"}</script>
            </body></html>
            """)
        #expect(page.jsonLD.count == 3)
        #expect(page.jsonLD.map(\.line) == [2, 3, 5])
        #expect(page.jsonLD[1].value == [["@type": "A"], ["@type": "B"]])
        #expect(page.jsonLD.allSatisfy { $0.isStrictlyValid })
        #expect(
            page.contractJSON["jsonLD"] == [
                ["@type": "WebSite", "name": "Site"], ["@type": "A"], ["@type": "B"], ["@type": "C"],
            ])
        #expect(page.diagnostics.isEmpty)
    }

    @Test(
        "type attribute variants are JSON-LD",
        arguments: [
            "application/ld+json", "application/ld+json; charset=utf-8", "APPLICATION/LD+JSON", " application/ld+json ",
            "Application/LD+JSON;profile=x",
        ])
    func typeVariants(_ type: String) {
        let page = extract(#"<html><head><script type="\#(type)">{"@type": "Thing"}</script></head></html>"#)
        #expect(page.jsonLD.map(\.value) == [["@type": "Thing"]])
    }

    @Test(
        "other script types are not JSON-LD",
        arguments: ["application/json", "text/javascript", "application/ld+json+x", ""])
    func otherTypes(_ type: String) {
        let page = extract(
            #"<html><head><script type="\#(type)">{"@type": "Thing"}</script><script>{"@type": "Untyped"}</script></head></html>"#
        )
        #expect(page.jsonLD.isEmpty)
    }

    @Test("a trailing comma is recovered with a .jsonLDSyntax diagnostic at the page line and column")
    func trailingComma() throws {
        let page = extract(
            """
            <html><head>
            <title>t</title>
            <script type="application/ld+json">
            {
              "@type": "Movie",
              "name": "Up",
            }
            </script>
            </head></html>
            """)
        let script = try #require(page.jsonLD.first)
        #expect(script.value == ["@type": "Movie", "name": "Up"])
        #expect(!script.isStrictlyValid)
        let diagnostic = try #require(page.diagnostics(.jsonLDSyntax).first)
        #expect(page.diagnostics.count == 1)
        #expect(diagnostic.line == 6)
        #expect(diagnostic.column == 15)
        #expect(diagnostic.message.contains("trailing comma"))
        #expect(diagnostic.message.contains("line 3"))
        // The script's own diagnostics are in page lines too.
        #expect(script.diagnostics.map(\.line) == [6])
        let scripts = try #require(page.contractJSON["jsonLDScripts"]?.arrayValue)
        #expect(scripts[0]["valid"] == false)
        #expect(scripts[0]["recovered"] == true)
    }

    @Test("an error on the script tag's own line has its column in the page")
    func columnOnScriptLine() throws {
        let prefix = #"<html><head><script type="application/ld+json">"#
        let page = extract(prefix + #"{"a":1,}</script></head></html>"#)
        let diagnostic = try #require(page.diagnostics(.jsonLDSyntax).first)
        #expect(diagnostic.line == 1)
        // The comma is the 7th character of the script body, which starts after the start tag.
        #expect(diagnostic.column == prefix.count + 7)
    }

    @Test("positions quoted inside a diagnostic's reason are page positions too")
    func positionsInsideReason() throws {
        let page = extract(
            """
            <html><head>
            <title>t</title>
            <script type="application/ld+json">
            {"@type": "VideoObject",
             "name": "cut off
            </script>
            </head></html>
            """)
        let script = try #require(page.jsonLD.first)
        #expect(script.value?["@type"] == "VideoObject")
        let unterminated = try #require(page.diagnostics.first { $0.message.contains("unterminated object") })
        #expect(unterminated.line == 6)
        // The object was opened on page line 4.
        #expect(unterminated.message.contains("opened at line 4, column 1"))
    }

    struct Unrecoverable: Sendable, CustomTestStringConvertible {
        var name: String
        var body: String
        var testDescription: String { name }
    }

    @Test(
        "an unrecoverable script gives value nil and .jsonLDUnrecoverable; other scripts are still parsed",
        arguments: [
            Unrecoverable(name: "plain text", body: "This is not JSON at all"),
            Unrecoverable(name: "garbage", body: "@@@ {{"),
            Unrecoverable(name: "a lone closer", body: "}"),
            Unrecoverable(name: "empty body", body: "   "),
        ])
    func unrecoverable(_ testCase: Unrecoverable) throws {
        let page = extract(
            """
            <html><head>
            <script type="application/ld+json">{"@type": "Before"}</script>
            <script type="application/ld+json">\(testCase.body)</script>
            <script type="application/ld+json">{"@type": "After"}</script>
            </head></html>
            """)
        try #require(page.jsonLD.count == 3)
        #expect(page.jsonLD[1].value == nil)
        #expect(page.jsonLD[0].value == ["@type": "Before"])
        #expect(page.jsonLD[2].value == ["@type": "After"])
        let diagnostic = try #require(page.diagnostics(.jsonLDUnrecoverable).first)
        #expect(page.diagnostics.count == 1)
        #expect(diagnostic.line == 3)
        #expect(diagnostic.message.contains("line 3"))
        #expect(page.contractJSON["jsonLD"] == [["@type": "Before"], ["@type": "After"]])
        #expect(page.contractJSON["jsonLDScripts"]?[1]?["recovered"] == false)
    }

    @Test("{\"a\": } is recovered by dropping the member (LenientJSON's documented repair), not lost")
    func missingValueDropsMember() throws {
        let page = extract(
            #"<html><head><script type="application/ld+json">{"@type": "X", "a": }</script></head></html>"#)
        let script = try #require(page.jsonLD.first)
        #expect(script.value == ["@type": "X"])
        #expect(page.diagnostics.map(\.code) == [.jsonLDSyntax])
    }

    @Test("an HTML comment around the JSON is recovered")
    func htmlCommentWrapper() throws {
        let page = extract(
            """
            <html><head><script type="application/ld+json"><!--
            {"@type": "Thing", "name": "Commented"}
            --></script></head></html>
            """)
        let script = try #require(page.jsonLD.first)
        #expect(script.value == ["@type": "Thing", "name": "Commented"])
        #expect(page.diagnostics(.jsonLDUnrecoverable).isEmpty)
        #expect(!page.diagnostics(.jsonLDSyntax).isEmpty)
    }

    @Test("entities and tags inside the script are kept literally (script content is raw text)")
    func rawText() throws {
        let page = extract(
            #"<html><head><script type="application/ld+json">{"name": "a &lt; b &amp; <b>c</b>"}</script></head></html>"#
        )
        let script = try #require(page.jsonLD.first)
        #expect(script.value == ["name": "a &lt; b &amp; <b>c</b>"])
    }

    @Test("non-ASCII text and JSON escapes survive")
    func unicode() throws {
        let page = extract(
            #"<html><head><script type="application/ld+json">{"name": "Café \u00e9 ☃"}</script></head></html>"#)
        #expect(page.jsonLD.first?.value == ["name": "Café é ☃"])
    }

    @Test("deep nesting beyond the parser's limit is unrecoverable, not a crash; the next script still counts")
    func deepNesting() {
        let depth = 100_000
        let html =
            #"<html><head><script type="application/ld+json">"# + String(repeating: "[", count: depth)
            + String(repeating: "]", count: depth)
            + #"</script><script type="application/ld+json">{"@type": "Ok"}</script></head></html>"#
        let page = extract(html)
        #expect(page.jsonLD.count == 2)
        #expect(page.jsonLD.first?.value == nil)
        #expect(page.jsonLD.last?.value == ["@type": "Ok"])
        #expect(page.diagnostics.map(\.code) == [.jsonLDUnrecoverable])
    }

    @Test("nesting within the limit is parsed and serialized")
    func nestingWithinLimit() throws {
        let depth = 400
        let html =
            #"<html><head><script type="application/ld+json">"# + String(repeating: #"{"a":"#, count: depth) + "1"
            + String(repeating: "}", count: depth) + "</script></head></html>"
        let page = extract(html)
        var value = try #require(page.jsonLD.first?.value)
        var levels = 0
        while let inner = value["a"] {
            value = inner
            levels += 1
        }
        #expect(levels == depth)
        #expect(page.contractJSON.serialized().count > depth * 5)
    }
}
