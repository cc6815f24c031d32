import MarkupExtraction
import Rulebook
import Testing
import Verification

/// Every finding about markup carries the column of that markup as well as its line (issue 30,
/// "Locations everywhere"): the position libxml2 reports a start tag at (its closing `>`, on the
/// line of that `>`), or a JSON-LD syntax error's own position. A finding about the page as a
/// whole (line 0) has no column. The minified page puts a whole head on one line, where only the
/// column tells the tags apart.
@Suite("Finding columns")
struct FindingColumnTests {
    struct Located: Hashable, Sendable, CustomStringConvertible {
        var rule: String
        var line: Int
        var column: Int?

        init(_ rule: String, _ line: Int, _ column: Int?) {
            self.rule = rule
            self.line = line
            self.column = column
        }

        var description: String { "\(rule) \(line):\(column.map(String.init) ?? "-")" }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var html: String
        var expected: [Located]
        var testDescription: String { name }
    }

    /// Line 2 holds the whole head: a Smart App Banner (SAB003), Open Graph (OG005 on a tag whose
    /// `class` value the scanner leaves unread, so its column is mended), X and App Links (TW001,
    /// AL002), the canonical link (IX007) and a JSON-LD script with a trailing comma (SD001 at the
    /// comma, not at the script tag); line 3 a Microdata property that schema.org lacks (SD004).
    static let minifiedHead =
        "<!doctype html>\n"
        + #"<html><head><title>Columns</title><meta name="apple-itunes-app" content="app-id=abc, app-argument=https://www.example.com/a">"#
        + #"<meta property="og:title" content="T"><meta property="og:type" content="website">"#
        + #"<meta property="og:url" content="https://www.example.com/a"><meta class="x y z" property="og:image" content="/rel.png">"#
        + #"<meta name="twitter:card" content="big"><meta property="al:ios:app_store_id" content="com.example">"#
        + #"<link rel="canonical" href="ftp://www.example.com/a">"#
        + #"<script type="application/ld+json">{"@context":"https://schema.org","@type":"Movie","name":"A",}</script></head>"#
        + "\n"
        + #"<body><div itemscope itemtype="https://schema.org/Movie"><span itemprop="nmae">Up</span></div></body></html>"#

    /// The same kinds of markup one tag a line, indented; a tag written over two lines is located
    /// on its last (where its `>` is).
    static let oneTagALine = """
        <!doctype html>
        <html>
        <head>
          <title>Columns</title>
          <meta name="apple-itunes-app"
                content="app-id=abc, app-argument=https://www.example.com/a">
          <meta property="og:title" content="T">
            <meta property="og:image" content="/rel.png">
          <meta name="twitter:card" content="big">
          <link rel="canonical" href="ftp://www.example.com/a">
          <script type="application/ld+json">
          {"@context": "https://schema.org", "@type": "Movie",
           "name": "A",}
          </script>
        </head>
        <body>
          <div itemscope itemtype="https://schema.org/Movie">
            <span itemprop="nmae">Up</span>
          </div>
        </body>
        </html>
        """

    static let cases: [Case] = [
        Case(
            name: "a minified head: every tag on line 2, told apart by its column",
            html: minifiedHead,
            expected: [
                Located("SAB003", 2, 125), Located("OG005", 2, 325), Located("TW001", 2, 365),
                Located("AL002", 2, 424), Located("IX007", 2, 477), Located("SD001", 2, 572),
                Located("SD004", 3, 79),
            ]),
        Case(
            name: "one tag a line, indented",
            html: oneTagALine,
            expected: [
                Located("SAB003", 6, 69), Located("OG005", 8, 49), Located("TW001", 9, 42),
                Located("IX007", 10, 55), Located("SD001", 13, 15), Located("SD004", 18, 26),
            ]),
        Case(
            name: "a title chosen from JSON-LD is located at its script tag",
            html:
                #"<html><head><script type="application/ld+json">{"@context":"https://schema.org","@type":"Movie","name":""#
                + String(repeating: "Up ", count: 40) + #""}</script></head><body></body></html>"#,
            expected: [Located("CT003", 1, 47)]),
        Case(
            name: "findings about the page as a whole have no column",
            html: "<html><head><title>Page</title></head><body></body></html>",
            expected: [Located("OG001", 0, nil), Located("CT002", 0, nil), Located("DL001", 0, nil)]),
    ]

    static func findings(_ html: String) -> [Finding] {
        let page = MarkupExtractor().extract(html: Array(html.utf8), url: "https://www.example.com/a")
        return PageVerifier().verify(page)
    }

    @Test(arguments: cases)
    func findingsCarryTheirMarkupsColumn(_ testCase: Case) {
        let findings = Self.findings(testCase.html)
        let located = Set(findings.map { Located($0.ruleID, $0.line, $0.column) })
        for expected in testCase.expected {
            #expect(
                located.contains(expected),
                "\(expected) missing; \(expected.rule) found at \(located.filter { $0.rule == expected.rule })")
        }
        for finding in findings {
            #expect(
                (finding.line == 0) == (finding.column == nil),
                "\(finding.ruleID) at line \(finding.line), column \(String(describing: finding.column))")
        }
    }

    @Test("a JSON-LD script's column is its start tag's, as every tag's; its errors keep their own")
    func jsonLDScriptAndErrorColumns() throws {
        let page = MarkupExtractor().extract(html: Array(Self.minifiedHead.utf8), url: "https://www.example.com/a")
        let script = try #require(page.jsonLD.first)
        #expect(script.position == SourcePosition(line: 2, column: 512))
        let syntax = try #require(page.diagnostics.first { $0.code == .jsonLDSyntax })
        #expect(syntax.position == SourcePosition(line: 2, column: 572))
    }
}
