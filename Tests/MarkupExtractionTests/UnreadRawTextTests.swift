import Foundation
import LenientJSON
import Testing

@testable import MarkupExtraction

/// libxml2 is moved past the bodies of scripts and styles that nobody reads (`sc_skip_raw_text` in
/// CHTMLScanner.c) instead of reading them character by character. Every page here is extracted
/// both ways and must give the same contract JSON (lines and columns included) and the same
/// number of parser errors; the counts say whether a body was passed over at all.
@Suite("Unread script and style bodies")
struct UnreadRawTextTests {
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
            in: Self.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpora/realpages"))
        try #require(files.count > 20)
        var skipped = 0
        for file in files {
            let bytes = try [UInt8](Data(contentsOf: file))
            let skipping = Self.contract(bytes, skipping: true)
            #expect(skipping == Self.contract(bytes, skipping: false), "\(file.lastPathComponent)")
            skipped += Self.scan(bytes, skipping: true)?.skippedRawTexts ?? 0
        }
        #expect(skipped > files.count)
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
        extractor.skipsUnreadRawText = skipping
        return extractor.extract(html: bytes, url: pageURL).contractJSON.serialized(sortKeys: true)
    }

    static func scan(_ bytes: [UInt8], skipping: Bool) -> ScanReport? {
        bytes.withUnsafeBytes {
            HTMLScanner.scan(utf8: $0, into: MarkupCollector(collectsRDFa: true), skippingUnreadRawText: skipping)
        }
    }
}
