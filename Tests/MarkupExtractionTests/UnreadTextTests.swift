import Foundation
import LenientJSON
import SpotCheckTestSupport
import Testing

@testable import MarkupExtraction

/// libxml2 is moved past what nobody reads, the bodies of scripts and styles and text outside the
/// elements whose text is collected (`sc_measure_run` in CHTMLScanner.c), instead of reading it
/// character by character, and is given the quoted values of attributes nobody reads as `""`
/// (`sc_cap_attributes` in AttributeCap.c, columns mended by `sc_source_column`). Every page here is extracted
/// both ways and must give the same contract JSON (lines and columns included) and the same
/// number of parser errors; the counts say whether a body was passed over at all.
@Suite("Unread script and style bodies, text and attribute values")
struct UnreadTextTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let html: String
        /// Bodies expected to be passed over unread.
        let skipped: Int
        var testDescription: String { name }
    }

    /// A JSON-LD script with a syntax error after each body: its diagnostic carries the line and
    /// column where libxml2 stood, so a wrong count after a skipped body changes the JSON.
    static let broken = #"<script type="application/ld+json">{"@type": "Movie", "name": "A",}</script>"#

    static let cases: [Case] = [
        Case(
            name: "multi-line script with close tags of other elements",
            html: "<html><head><script>\nif (a </div> b) {\n  x = '</scr' + 'ipt>';\n}\n</script>\(broken)"
                + "<meta property=\"og:title\" content=\"T\"></head><body><p>x</p></body></html>",
            skipped: 1),
        Case(
            name: "style whose last line has two- to four-byte characters",
            html: "<head><style>\np::before { content: \"é中😀\" }</style>\(broken)</head>",
            skipped: 1),
        Case(
            name: "one-line script, the next tag on the same line",
            html: "<head><title>T</title><script>var a = 1 < 2 && 'é';</script>\(broken)</head>",
            skipped: 1),
        Case(
            name: "end tag in capitals with a space",
            html: "<head><SCRIPT>\n var s = 1;\n</SCRIPT >\(broken)</head>",
            skipped: 1),
        Case(
            name: "body of one character",
            html: "<head><script>x</script>\(broken)</head>",
            skipped: 1),
        Case(
            name: "body ending in a line break",
            html: "<head><style>a{}\n\n</style>\(broken)</head>",
            skipped: 1),
        Case(
            name: "CR LF line breaks",
            html: "<head><script>\r\nvar a;\r\nvar b;\r\n</script>\r\n\(broken)</head>",
            skipped: 1),
        Case(
            name: "ended by a longer name (libxml2's prefix match)",
            html: "<head><script>var a;</scripts>\(broken)</head>",
            skipped: 1),
        Case(
            name: "several bodies, in head and body",
            html: "<head><script>a()</script><style>b{}</style></head><body><script>\nc()\n</script>\(broken)</body>",
            skipped: 3),
        Case(
            name: "JSON-LD is read, not skipped",
            html:
                "<head>\(broken)<script type=\"application/ld+json\">{\"@type\": \"Movie\", \"name\": \"B\"}</script></head>",
            skipped: 0),
        Case(
            name: "body that starts with a tag is left to libxml2",
            html: "<head><script><!-- var a; --></script>\(broken)</head>",
            skipped: 0),
        Case(
            name: "body with a control character is left to libxml2",
            html: "<head><script>var a = '\u{01}';</script>\(broken)</head>",
            skipped: 0),
        Case(
            name: "body with U+FFFF is left to libxml2",
            html: "<head><script>var a = '\u{FFFF}';</script>\(broken)</head>",
            skipped: 0),
        Case(
            name: "body without an end is left to libxml2",
            html: "<head><meta name=\"description\" content=\"D\"><script>var a = 1;\n var b = '</scr';",
            skipped: 0),
        Case(
            name: "empty and self-closed scripts",
            html: "<head><script></script><script src=\"a.js\"/><style></style>\(broken)</head>",
            skipped: 0),
        Case(
            name: "script data with comment openers and stray ampersands",
            html:
                "<body><script>\nvar s = '<!--' + \"&amp;\" + '-->';\n</script><p itemscope itemtype=\"https://schema.org/Thing\">"
                + "<span itemprop=\"name\">N</span></p>\(broken)</body>",
            skipped: 1),
    ]

    /// Text: each case has text nobody reads, and something observable after it.
    static let textCases: [Case] = [
        Case(
            name: "text between tags, lines counted",
            html: "<body><div>\n  some text\n  more é text\n</div><p>x</p>\(broken)</body>", skipped: 0),
        Case(
            name: "text stops at a reference",
            html: "<body><p>Tom &amp; Jerry &bogus; &#233; \n & more\n</p>\(broken)</body>", skipped: 0),
        Case(
            name: "text in head implies body and p (left to libxml2)",
            html:
                "<html><head><title>T</title>stray text<meta property=\"og:title\" content=\"x\">\(broken)</head></html>",
            skipped: 0),
        Case(
            name: "text after </head> and at the top level",
            html: "text first<html><head></head> after head <body>b</body> after body\n</html> after html", skipped: 0),
        Case(
            name: "end tag that closes open elements on its way",
            html:
                "<html><head><noscript><span>x</noscript> text in head\(broken)</head><body><div><span><b>y</div> after\n"
                + "\(broken)</body></html>",
            skipped: 0),
        Case(
            name: "empty and self-closed elements followed by text",
            html: "<body><p>a<br>b<img src=x.png>c<div/>d<input value=\"<\">e\n</p>\(broken)</body>", skipped: 0),
        Case(
            name: "end tags in capitals, with blanks, or with junk",
            html: "<body><DIV>a</DIV >b<div>c</div x>d\n</body>\(broken)", skipped: 0),
        Case(
            name: "text whose characters are read (title, Microdata, RDFa)",
            html:
                "<html><head><title>Title &amp; more</title></head><body vocab=\"https://schema.org/\"><div itemscope "
                + "itemtype=\"https://schema.org/Movie\"><span itemprop=\"name\">Name <b>bold</b> tail</span> rest</div>"
                + "<p typeof=\"Person\"><span property=\"name\">Ann</span> x</p>\(broken)</body></html>",
            skipped: 0),
        Case(
            name: "an element implied at a tag without attributes (the tag's text is its own)",
            html: "<html><noframes><title>Implied body</title></noframes></html>", skipped: 0),
        Case(
            name: "implied body at a heading, then a title in it",
            html: "<html><head></head><h1>Heading</h1><title>Late title</title>\(broken)</html>", skipped: 0),
        Case(
            name: "text with a control character is left to libxml2",
            html: "<body><p>a\u{02}b</p>\(broken)</body>", skipped: 0),
        Case(
            name: "text at the end of the input",
            html: "<body><p>a</p>tail without a tag", skipped: 0),
    ]

    /// Attribute values: each case's `skipped` is the number of quoted values left out before
    /// parsing (those of attributes nobody reads, printable ASCII without `&`, two bytes or more).
    static let attributeCases: [Case] = [
        Case(
            name: "class, style and data values before a JSON-LD script on the same line",
            html: "<body><div class=\"a b c\" style='color: red' data-x=\"yy\">x</div>\(broken)</body>", skipped: 3),
        Case(
            name: "a JSON-LD script's own class (its body's column comes after it)",
            html:
                "<head><script type=\"application/ld+json\" class=\"yoast-schema-graph\">{\"@type\": \"Movie\",}</script></head>",
            skipped: 1),
        Case(
            name: "read attributes keep their values, in any case",
            html:
                "<head><meta PROPERTY=\"og:title\" Content=\"T\"><link REL=\"canonical\" HREF=\"/c\" class=\"cc\"></head>"
                + "<body><a HREF=\"/x\" class=\"c1 c2\">l</a>\(broken)</body>",
            skipped: 2),
        Case(
            name: "xmlns declarations are read, Microdata and RDFa attributes too",
            html:
                "<html xmlns:og=\"http://ogp.me/ns#\" class=\"no-js\"><body vocab=\"https://schema.org/\" class=\"home\">"
                + "<div itemscope itemtype=\"https://schema.org/Movie\" class=\"card\"><span itemprop=\"name\" "
                + "title=\"tip\">N</span></div><p typeof=\"Person\" class=\"pp\"><span property=\"name\">A</span></p>"
                + "\(broken)</body></html>",
            skipped: 5),
        Case(
            name: "values with a reference, a line break, a tab or non-ASCII stay",
            html:
                "<body><div title=\"Tom &amp; Jerry\" data-a=\"x\ny\" data-b=\"a\tb\" alt=\"é é\">x</div>\(broken)</body>",
            skipped: 0),
        Case(
            name: "unquoted and one-byte values stay",
            html: "<body><div class=abc data-x=yz title=\"t\">x</div>\(broken)</body>", skipped: 0),
        Case(
            name: "tags in title, textarea, noscript and iframe",
            html:
                "<html><head><title>T <b class=\"cls\">x</b></title></head><body><textarea><i class=\"cls2\">t</i>"
                + "</textarea><noscript><img class=\"cls3\" src=\"a.png\"></noscript><iframe><u class=\"cls4\">f</u>"
                + "</iframe>\(broken)</body></html>",
            // The title's are its text, kept as written.
            skipped: 3),
        Case(
            name: "a name longer than libxml2 reads keeps its value",
            html: "<body><div \(String(repeating: "a", count: 100))content=\"long value\">x</div>\(broken)</body>",
            skipped: 0),
        Case(
            name: "attributes in a comment, a script and a style stay",
            html:
                "<body><!-- <div class=\"xx\"> --><script>var s = '<div class=\"yy\">';</script><style>/* <p class=\"zz\"> */"
                + "</style>\(broken)</body>",
            skipped: 0),
        Case(
            name: "values on several lines, the script on the last",
            html: "<body><div class=\"aa\"\n data-x=\"bb\" data-y=\"cc\">x</div><p class=\"dd\">\n\(broken)</p></body>",
            skipped: 4),
        Case(
            name: "a misplaced html or body tag, a duplicate attribute, a self-closed tag",
            html:
                "<html><body><p>x</p><html class=\"late\"><body class=\"late2\" class=\"dup\"><br class=\"br\"/>"
                + "\(broken)</body></html>",
            skipped: 4),
        Case(
            name: "a quote closed inside a later tag, as libxml2 reads it",
            html: "<body><div class=\"aa\" title=\"closed late>x</div>\(broken)</body>", skipped: 2),
        Case(
            name: "a quote never closed is left alone",
            html: "<body><div class=\"aa\" title=\"never closed>x</div></body>", skipped: 1),
    ]

    @Test(arguments: attributeCases)
    func attributeValuesSameBothWays(_ testCase: Case) {
        let bytes = Array(testCase.html.utf8)
        let skipping = Self.scan(bytes, skipping: true)
        let reading = Self.scan(bytes, skipping: false)
        #expect(skipping?.skippedAttributeValues == testCase.skipped)
        #expect(reading?.skippedAttributeValues == 0)
        #expect(skipping?.parseErrors == reading?.parseErrors)
        #expect(Self.contract(bytes, skipping: true) == Self.contract(bytes, skipping: false))
    }

    /// Columns after a left-out value are the source's: a value four bytes longer moves the JSON-LD
    /// diagnostic after it four columns, on its line only.
    @Test func columnsCountLeftOutValues() throws {
        func column(_ value: String, lineBreak: Bool = false) throws -> Int? {
            let page = extract(
                "<div class=\"\(value)\" id=\"x\"></div>\(lineBreak ? "\n" : "")"
                    + "<script type=\"application/ld+json\">{\"a\": 1,}</script>")
            return try #require(page.diagnostics.first { $0.column != nil }).column
        }
        let short = try #require(try column("ab"))
        #expect(try column("abcdef") == short + 4)
        #expect(try column("ab", lineBreak: true) == column("abcdef", lineBreak: true))
    }

    @Test(arguments: textCases)
    func textSameBothWays(_ testCase: Case) {
        let bytes = Array(testCase.html.utf8)
        let skipping = Self.scan(bytes, skipping: true)
        #expect(skipping?.skippedRawTexts == testCase.skipped)
        #expect(skipping?.parseErrors == Self.scan(bytes, skipping: false)?.parseErrors)
        #expect(Self.contract(bytes, skipping: true) == Self.contract(bytes, skipping: false))
    }

    /// Every kind of byte that ends the eight-bytes-at-a-time scan, at every offset of two words,
    /// in script data and in text: the run ends, and lines and columns come out, as libxml2's own.
    @Test(arguments: ["\n", "\t", "\r\n", "é", "😀", "<", "&", "</x", "&amp;", "<b>"])
    func everyOffsetOfEveryStop(_ stop: String) {
        for offset in 0..<17 {
            let body = String(repeating: "a", count: offset) + stop + String(repeating: "b", count: 17 - offset)
            for html in [
                "<head><script>\(body)</script>\(Self.broken)</head>",
                "<body><div>\(body)</div><p>\(body)\n</p>\(Self.broken)</body>",
            ] {
                let bytes = Array(html.utf8)
                #expect(
                    Self.contract(bytes, skipping: true) == Self.contract(bytes, skipping: false),
                    "offset \(offset): \(html)")
                #expect(Self.scan(bytes, skipping: true)?.parseErrors == Self.scan(bytes, skipping: false)?.parseErrors)
            }
        }
    }

    /// Text is passed over where nobody reads it, and read where it is collected.
    @Test func textPassedOverOnlyWhereUnread() {
        let unread = Self.scan(Array("<body><div>0123456789</div><p>abcdefghij</p></body>".utf8), skipping: true)
        #expect(unread?.skippedTextBytes == 20)
        let read = Self.scan(
            Array("<head><title>0123456789</title></head><p itemscope><span itemprop=n>abcdefghij</span></p>".utf8),
            skipping: true)
        #expect(read?.skippedTextBytes == 0)
    }

    @Test(arguments: cases)
    func sameBothWays(_ testCase: Case) {
        let bytes = Array(testCase.html.utf8)
        let skipping = Self.scan(bytes, skipping: true)
        let reading = Self.scan(bytes, skipping: false)
        #expect(skipping?.skippedRawTexts == testCase.skipped)
        #expect(reading?.skippedRawTexts == 0)
        #expect(skipping?.parseErrors == reading?.parseErrors)
        #expect(Self.contract(bytes, skipping: true) == Self.contract(bytes, skipping: false))
    }

    /// Columns after a skipped one-line body are counted in characters, as libxml2 counts them:
    /// a two-byte `é` moves the JSON-LD diagnostic after it as far as `e` does, `ee` one further.
    @Test func columnsCountCharacters() throws {
        func column(_ body: String) throws -> Int? {
            let page = extract("<script>\(body)</script><script type=\"application/ld+json\">{\"a\": 1,}</script>")
            return try #require(page.diagnostics.first { $0.column != nil }).column
        }
        let one = try #require(try column("e"))
        #expect(try column("é") == one)
        #expect(try column("😀") == one)
        #expect(try column("ee") == one + 1)
    }

    /// The fixture site's pages, and the 130 real pages of `../shared/corpora/realpages` when they
    /// are beside the package: the same JSON both ways, and bodies were passed over.
    @Test func samePagesBothWays() throws {
        var files = Self.htmlFiles(in: Self.packageRoot.appendingPathComponent("Fixtures/html"))
        files += Self.htmlFiles(
            in: SharedCorpora.url("realpages"))
        try #require(files.count > 20)
        var skipped = 0
        var textBytes = 0
        var attributeValues = 0
        for file in files {
            let bytes = try [UInt8](Data(contentsOf: file))
            let skipping = Self.contract(bytes, skipping: true)
            #expect(skipping == Self.contract(bytes, skipping: false), "\(file.lastPathComponent)")
            let report = Self.scan(bytes, skipping: true)
            skipped += report?.skippedRawTexts ?? 0
            textBytes += report?.skippedTextBytes ?? 0
            attributeValues += report?.skippedAttributeValues ?? 0
        }
        #expect(skipped > files.count)
        #expect(textBytes > 0)
        #expect(attributeValues > files.count)
    }

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func htmlFiles(in folder: URL) -> [URL] {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else {
            return []
        }
        return walker.compactMap { $0 as? URL }.filter { $0.pathExtension == "html" }
            .sorted { $0.path < $1.path }
    }

    static func contract(_ bytes: [UInt8], skipping: Bool) -> String {
        var extractor = MarkupExtractor()
        extractor.skipsUnreadText = skipping
        return extractor.extract(html: bytes, url: pageURL).contractJSON.serialized(sortKeys: true)
    }

    static func scan(_ bytes: [UInt8], skipping: Bool) -> ScanReport? {
        bytes.withUnsafeBytes {
            HTMLScanner.scan(utf8: $0, into: MarkupCollector(collectsRDFa: true), skippingUnreadText: skipping)
        }
    }
}
