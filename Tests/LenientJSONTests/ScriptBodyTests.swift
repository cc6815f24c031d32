import LenientJSON
import Testing

/// Script bodies shaped like the invalid JSON-LD that real pages ship (extruct's `*.invalid` samples and the
/// JSON-LD HTML tests), written from scratch.
@Suite("JSON-LD script bodies")
struct ScriptBodyTests {
    struct Body: Sendable, CustomStringConvertible {
        var name: String
        var text: String
        var expected: String
        var diagnostics: [ExpectedDiagnostic]
        var description: String { name }
    }

    typealias D = ExpectedDiagnostic

    static let bodies: [Body] = [
        Body(
            name: "JavaScript line comment before the object, // inside a string",
            text: """

                  // Ann booked 2 hours of practice.
                {
                  "@context": "http://schema.org",
                  "@type": "AllocateAction",
                \t"note": "// not a comment"
                }

                """,
            expected: #"{"@context":"http://schema.org","@type":"AllocateAction","note":"// not a comment"}"#,
            diagnostics: [D("JavaScript comment '//'", 2, 3)]),
        Body(
            name: "HTML comment before the object, <!-- inside a string",
            text: """

                <!-- Ann joined the club. -->
                {
                  "@type": "JoinAction",
                \t"html": "<!-- kept --><b>text</b>"
                }

                """,
            expected: #"{"@type":"JoinAction","html":"<!-- kept --><b>text</b>"}"#,
            diagnostics: [D("HTML comment '<!-- … -->'", 2, 1)]),
        Body(
            name: "end-of-line comment after a member, commented-out last member",
            text: "\n\t{\n\t\t\"@type\": \"NewsArticle\",\n\t\t\"articleSection\": \"商情\", // category\n"
                + "\t\t//\"interactionCount\": \"\"\n\t}\n\t\t\n    ",
            expected: #"{"@type":"NewsArticle","articleSection":"商情"}"#,
            diagnostics: [
                D("trailing comma before '}'", 4, 25), D("JavaScript comment '//'", 4, 27),
                D("JavaScript comment '//'", 5, 3),
            ]),
        Body(
            name: "raw newlines inside a string",
            text: "\n    {\n        \"data\": \"line 1\n        line 2\n        line 3\n\"\n    }\n    ",
            expected: #"{"data":"line 1\n        line 2\n        line 3\n"}"#,
            diagnostics: [
                D("unescaped control character U+000A in string", 3, 24),
                D("unescaped control character U+000A in string", 4, 15),
                D("unescaped control character U+000A in string", 5, 15),
            ]),
        Body(
            name: "HTML comment markers wrapping the body, comment text inside a string",
            text: "\n    <!--\n    {\n      \"foo\": [{\"@value\": \"<!-- -->\"}]\n    }\n    -->\n    ",
            expected: #"{"foo":[{"@value":"<!-- -->"}]}"#,
            diagnostics: [D("HTML comment marker '<!--'", 2, 5), D("HTML comment marker '-->'", 6, 5)]),
        Body(
            name: "HTML comment start marker only",
            text: "\n    <!--\n    {\"foo\": [{\"@value\": \"bar\"}]}\n    ",
            expected: #"{"foo":[{"@value":"bar"}]}"#,
            diagnostics: [D("HTML comment marker '<!--'", 2, 5)]),
        Body(
            name: "HTML comment end marker only",
            text: "\n    {\"foo\": [{\"@value\": \"bar\"}]}\n    -->\n    ",
            expected: #"{"foo":[{"@value":"bar"}]}"#,
            diagnostics: [D("HTML comment marker '-->'", 3, 5)]),
        Body(
            name: "CDATA wrapper in script comments",
            text: "//<![CDATA[\n{\"@type\": \"Thing\"}\n//]]>",
            expected: #"{"@type":"Thing"}"#,
            diagnostics: [D("JavaScript comment '//'", 1, 1), D("JavaScript comment '//'", 3, 1)]),
        Body(
            name: "two objects back to back",
            text: "{\"@type\": \"Organization\"}\n{\"@type\": \"WebSite\"}\n",
            expected: #"[{"@type":"Organization"},{"@type":"WebSite"}]"#,
            diagnostics: [D("several top-level values; returned as an array", 2, 1)]),
        Body(
            name: "truncated body",
            text: "{\"@type\": \"Product\", \"offers\": [{\"price\": 4.5}",
            expected: #"{"@type":"Product","offers":[{"price":4.5}]}"#,
            diagnostics: [
                D("unexpected end of input; unterminated array (opened at line 1, column 32)", 1, 47),
                D("unexpected end of input; unterminated object (opened at line 1, column 1)", 1, 47),
            ]),
    ]

    @Test("recovers the value and reports every repair", arguments: bodies)
    func recovers(_ body: Body) throws {
        let result = lenient(body.text)
        #expect(result.value == json(body.expected))
        #expect(result.diagnostics.count == body.diagnostics.count, "got \(result.diagnostics.map(\.description))")
        for (expected, diagnostic) in zip(body.diagnostics, result.diagnostics) {
            #expect(expected.matches(diagnostic), "expected \(expected), got \(diagnostic)")
            #expect(diagnostic.recovered)
        }
        #expect(strict(body.text).value == nil)
    }

    @Test("an HTML comment with no JSON gives no value")
    func commentOnly() throws {
        let result = lenient("\n    <!-- foo -->\n    ")
        #expect(result.value == nil)
        #expect(result.diagnostics.map(\.recovered) == [true, false])
        let error = try #require(result.diagnostics.last)
        #expect(error.reason == "unexpected end of input; expected a JSON value")
    }

    @Test(
        "lone surrogate escapes become U+FFFD with a warning in both modes",
        arguments: [
            (#""\ud800x""#, "\u{FFFD}x", [2]),
            (#""\udc00""#, "\u{FFFD}", [2]),
            (#""ab\ud83d""#, "ab\u{FFFD}", [4]),
            (#""\ud83d\u0041""#, "\u{FFFD}A", [2]),
            (#""\ud83d\ud83d\ude00""#, "\u{FFFD}😀", [2]),
            (#""\uDE00\uD83D""#, "\u{FFFD}\u{FFFD}", [2, 8]),
            (#""\ud83d\ude00""#, "😀", []),
            (#""\uD834\uDD1E""#, "𝄞", []),
        ] as [(String, String, [Int])])
    func loneSurrogates(_ text: String, _ expected: String, _ columns: [Int]) {
        for result in [strict(text), lenient(text)] {
            #expect(result.value == .string(expected))
            #expect(result.isStrictlyValid)
            #expect(result.diagnostics.map(\.column) == columns)
            #expect(
                result.diagnostics.allSatisfy { $0.severity == .warning && $0.reason.contains("lone UTF-16 surrogate") }
            )
        }
    }
}
