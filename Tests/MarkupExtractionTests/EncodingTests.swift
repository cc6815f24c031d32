import LenientJSON
import MarkupExtraction
import Testing

@Suite("Character encodings")
struct EncodingTests {
    @Test("a UTF-8 page without a charset declaration is decoded as UTF-8")
    func utf8WithoutDeclaration() throws {
        let page = try extractPage("utf8-no-charset.html")
        #expect(page.title?.text == "Café naïve")
        #expect(page.descriptions.first?.content == "日本語 é")
        #expect(page.encoding == "UTF-8")
        #expect(page.diagnostics.isEmpty)
    }

    @Test("a page with <meta charset=\"iso-8859-1\"> and byte 0xE9 gives é")
    func latin1() throws {
        let page = try extractPage("latin1.html")
        #expect(page.title?.text == "Café crème")
        #expect(page.descriptions.first?.content == "Un café à Paris")
        // WHATWG: the iso-8859-1 label names windows-1252.
        #expect(page.encoding == "windows-1252")
        #expect(page.diagnostics.isEmpty)
    }

    @Test("invalid UTF-8 in a page declaring utf-8 gives an .undecodableBytes diagnostic with its line")
    func invalidUTF8() throws {
        let page = try extractPage("invalid-utf8.html")
        let diagnostic = try #require(page.diagnostics(.undecodableBytes).first)
        #expect(diagnostic.line == 7)
        #expect(page.diagnostics.count == 1)
        // What came before the bad bytes was decoded as declared.
        #expect(page.title?.text == "Valid é title")
        #expect(diagnostic.message.contains("2 byte sequence(s) not valid UTF-8"))
    }

    @Test("UTF-16 pages with a byte order mark", arguments: ["utf16le-bom.html", "utf16be-bom.html"])
    func utf16(_ name: String) throws {
        let page = try extractPage(name)
        #expect(page.title?.text == "Café ☃ 🎬")
        #expect(page.openGraphValue("og:title")?.content == "Kaffee ü")
        #expect(page.openGraphValue("og:title")?.line == 4)
        #expect(page.encoding.uppercased().hasPrefix("UTF-16"))
        #expect(page.diagnostics.isEmpty)
    }

    @Test("a UTF-16 page's meta written after <body> is in the body")
    func utf16Section() {
        let html =
            "<html><head><meta property=\"og:title\" content=\"H\"></head><body><p>x</p><meta property=\"og:description\" content=\"B\"></body></html>"
        let bytes: [UInt8] = [0xFF, 0xFE] + html.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let page = extract(bytes: bytes)
        #expect(page.openGraphPairs == ["og:title=H", "og:description=B"])
        #expect(page.openGraph.map(\.section) == [.head, .body])
    }

    @Test("a declared single-byte charset is honoured even when the bytes happen to be valid UTF-8")
    func declaredCharsetWins() {
        // C3 A9 is "Ã©" in ISO-8859-1 (and "é" in UTF-8); the page says it is ISO-8859-1.
        let bytes =
            Array(#"<html><head><meta charset="iso-8859-1"><title>"#.utf8) + [0xC3, 0xA9]
            + Array("</title></head></html>".utf8)
        let page = extract(bytes: bytes)
        #expect(page.title?.text == "Ã©")
        #expect(page.encoding == "windows-1252")
        #expect(page.encodingMismatch?.bytesFit == "UTF-8")
    }

    @Test("a UTF-8 byte order mark is honoured")
    func utf8BOM() {
        let page = extract(bytes: [0xEF, 0xBB, 0xBF] + Array("<html><head><title>Café</title></head></html>".utf8))
        #expect(page.title?.text == "Café")
        #expect(page.diagnostics.isEmpty)
    }

    @Test("bytes without a declaration that are not UTF-8 are windows-1252, WHATWG's default (0x80 is €)")
    func undeclaredLegacyBytes() {
        let page = extract(
            bytes: Array("<html><head><title>Caf".utf8) + [0xE9, 0x20, 0x80] + Array("</title></head></html>".utf8))
        #expect(page.title?.text == "Café €")
        #expect(page.encoding == "windows-1252")
        #expect(page.encodingSource == .defaultEncoding)
        #expect(page.encodingMismatch == nil)
    }

    @Test("the encoding option overrides <meta charset>")
    func encodingOption() {
        let bytes =
            Array(#"<html><head><meta charset="utf-8"><title>Caf"#.utf8) + [0xE9, 0x80]
            + Array("</title></head></html>".utf8)
        let page = extract(bytes: bytes, options: .init(encoding: "windows-1252"))
        #expect(page.title?.text == "Café€")
        #expect(page.encoding.lowercased() == "windows-1252")
        #expect(page.diagnostics.isEmpty)
    }

    @Test("an unsupported declared or requested encoding is reported", arguments: [true, false])
    func unsupportedEncoding(_ viaOption: Bool) {
        let declaration = viaOption ? "" : #"<meta charset="x-no-such-charset">"#
        let bytes = Array("<html><head>\(declaration)<title>Caf".utf8) + [0xE9] + Array("</title></head></html>".utf8)
        let page = extract(bytes: bytes, options: .init(encoding: viaOption ? "x-no-such-charset" : nil))
        #expect(page.diagnostics.map(\.code) == [.unsupportedEncoding])
        #expect(page.title?.text == "Café")
    }

    // MARK: - One decode per page (issue 13 §1)

    @Test("UTF-8 bytes declaring gb2312 (qq.html's shape): decoded as GBK, nothing dropped, the mismatch named")
    func utf8BytesDeclaringGB2312() throws {
        let page = try extractPage("declares-gb2312-utf8-bytes.html")
        #expect(page.encoding == "GBK")
        #expect(page.encodingSource == .meta)
        // libxml2 decoding as gb2312 stopped at the first invalid sequence: "DeepMind", no description.
        let title = try #require(page.title?.text)
        #expect(title.hasPrefix("DeepMind") && title.count > 30)
        let description = try #require(page.descriptions.first?.content)
        #expect(description.hasPrefix("DeepMind") && description.count > 25)
        #expect(page.keywords.count == 1)
        let mismatch = try #require(page.encodingMismatch)
        #expect(mismatch.declaredLabel == "gb2312")
        #expect(mismatch.declaredBy == .meta)
        #expect(mismatch.line == 5)
        #expect(mismatch.decodedAs == "GBK")
        #expect(mismatch.bytesFit == "UTF-8")
        #expect(page.diagnostics(.undecodableBytes).first?.line == 6)
    }

    @Test(
        "a windows-1251 page whose <title> comes before <meta charset>: title, description, og:title, JSON-LD and Microdata decoded alike"
    )
    func windows1251OneDecode() throws {
        let page = try extractPage("windows-1251.html")
        let title = "Новости науки: Привет, мир"
        #expect(page.encoding == "windows-1251")
        #expect(page.title?.text == title)
        #expect(page.descriptions.first?.content.hasPrefix("Учёные рассказали") == true)
        #expect(page.openGraph.first { $0.key == "og:title" }?.content == title)
        #expect(page.twitter.first { $0.key == "twitter:title" }?.content == title)
        let jsonLD = try #require(page.jsonLD.first?.value?.objectValue)
        #expect(jsonLD["name"]?.stringValue == title)
        #expect(page.jsonLD.first?.text.contains(title) == true)
        #expect(page.microdata.first?.strings("name") == [title])
        #expect(page.encodingMismatch == nil)
        #expect(page.diagnostics.isEmpty)
    }

    /// "Привет" in windows-1251.
    static let privetWindows1251: [UInt8] = [0xCF, 0xF0, 0xE8, 0xE2, 0xE5, 0xF2]

    @Test("a BOM beats the HTTP charset, which beats <meta>")
    func precedence() {
        let utf8Page =
            [0xEF, 0xBB, 0xBF] + Array(#"<html><head><meta charset="gb2312"><title>Привет</title></head></html>"#.utf8)
        let bom = extract(bytes: utf8Page, options: .init(encoding: "windows-1251"))
        #expect(bom.title?.text == "Привет")
        #expect(bom.encodingSource == .byteOrderMark)
        #expect(bom.encodingMismatch == nil)

        // The HTTP charset (or --encoding) names windows-1252 ("latin1" is one of its labels: 0x80 is
        // €, not U+0080 as in ISO-8859-1); the page's <meta> says UTF-8.
        let legacyPage =
            Array(#"<html><head><meta charset="utf-8"><title>"#.utf8) + [0x80, 0x20] + Self.privetWindows1251
            + Array("</title></head></html>".utf8)
        let header = extract(bytes: legacyPage, options: .init(encoding: "latin1"))
        #expect(header.title?.text == "€ Ïðèâåò")
        #expect(header.encoding == "windows-1252")
        #expect(header.encodingSource == .transport)
    }

    @Test("<meta charset> is looked for in the first 1,024 bytes only")
    func metaPrescanLength() {
        func page(padding: Int) -> PageMarkup {
            let filler = #"<meta name="filler" content="\#(String(repeating: "x", count: padding))">"#
            return extract(
                bytes: Array(#"<html><head>\#(filler)<meta charset="windows-1251"><title>"#.utf8)
                    + Self.privetWindows1251
                    + Array("</title></head></html>".utf8))
        }
        let early = page(padding: 900)
        #expect(early.title?.text == "Привет")
        #expect(early.encodingSource == .meta)
        // Past 1,024 bytes the prescan does not see it; the parser does, and changes the encoding
        // (HTML §13.2.3.4): the page is read as windows-1251 all the same (issue 33).
        let late = page(padding: 1_100)
        #expect(late.title?.text == "Привет")
        #expect(late.encoding == "windows-1251")
        #expect(late.encodingSource == .metaChange)
    }

    /// HTML §13.2.3.4 "changing the encoding while parsing", as the "in head" rules for `meta`
    /// call it: only while the confidence is tentative (no BOM, no transport charset), for the
    /// first `<meta>` element that names an encoding; a `<meta>` inside a script is no element.
    @Test("a <meta charset> past the first 1,024 bytes changes a tentative encoding only")
    func changeTheEncoding() {
        let filler = "<!-- " + String(repeating: "x", count: 1_100) + " -->"
        let tail = Array("</title></head></html>".utf8)
        func bytes(_ before: String, _ late: String) -> [UInt8] {
            Array("<html><head>\(before)\(filler)\(late)<title>".utf8) + Self.privetWindows1251 + tail
        }
        let changed = extract(
            bytes: bytes("", #"<meta http-equiv="content-type" content="text/html; charset=windows-1251">"#))
        #expect(changed.title?.text == "Привет")
        #expect(changed.encodingSource == .metaChange)
        // A transport charset is certain: the late <meta> changes nothing.
        let certain = extract(
            bytes: bytes("", #"<meta charset="windows-1251">"#), options: .init(encoding: "windows-1252"))
        #expect(certain.title?.text == "Ïðèâåò")
        // The first <meta> that names an encoding decides: windows-1252 as already used, so the
        // confidence becomes certain and the second one is ignored.
        let first = extract(
            bytes: bytes("", #"<meta charset="bogus"><meta charset="latin1"><meta charset="windows-1251">"#))
        #expect(first.title?.text == "Ïðèâåò")
        #expect(first.encodingSource == .defaultEncoding)
        // Inside a script it is text, not an element.
        let scripted = extract(bytes: bytes("", #"<script>document.write('<meta charset="windows-1251">')</script>"#))
        #expect(scripted.title?.text == "Ïðèâåò")
    }

    /// The WHATWG prescan reads every tag's attributes ("get an attribute"): a `<meta charset>`
    /// inside another tag's quoted value is no declaration; a tag cut off by the end of the input
    /// declares nothing, nor is it an element.
    @Test(
        "the prescan reads other tags' quoted values and stops at a tag cut off at the end",
        arguments: [
            (#"<div title="<meta charset=windows-1251>"></div>"#, false),
            (#"<div title='x"><meta charset=windows-1251>'></div>"#, false),
            (#"<div title="x>"><meta charset=windows-1251>"#, true),
            (#"<p title="x><meta charset=windows-1251>"#, false),
        ])
    func prescanReadsOtherTags(head: String, declares: Bool) {
        let page = extract(bytes: Array("<html><head>\(head)".utf8) + Self.privetWindows1251)
        #expect(page.encoding == (declares ? "windows-1251" : "windows-1252"), "\(head)")
    }

    @Test("a <meta charset> inside a comment is not a declaration")
    func commentedDeclaration() {
        let page = extract(
            bytes: Array("<html><head><!-- <meta charset=\"windows-1251\"> --><title>".utf8) + Self.privetWindows1251
                + Array("</title></head></html>".utf8))
        #expect(page.title?.text == "Ïðèâåò")
        #expect(page.encodingSource == .defaultEncoding)
    }

    /// HTML's prescan reads `charset` as an attribute, or in `content` with
    /// `http-equiv="content-type"`; the word inside another attribute's value declares nothing.
    @Test(
        "only a charset attribute, or content with http-equiv content-type, declares the encoding",
        arguments: [
            (
                #"<meta name="description" content="Convert charset latin1 to UTF-8"><meta charset="windows-1251">"#,
                true
            ),
            (#"<meta http-equiv="Content-Type" content="text/html; charset=windows-1251">"#, true),
            (#"<meta content='text/html; charset="windows-1251"' http-equiv=content-type>"#, true),
            (#"<meta content="text/html; charset=windows-1251">"#, false),
            (#"<meta name="x" content="the charset of doom">"#, false),
        ])
    func prescanReadsAttributes(head: String, declares: Bool) {
        let page = extract(
            bytes: Array("<html><head>\(head)<title>".utf8) + Self.privetWindows1251
                + Array("</title></head></html>".utf8))
        #expect(page.title?.text == (declares ? "Привет" : "Ïðèâåò"), "\(head)")
        #expect(page.encodingSource == (declares ? .meta : .defaultEncoding), "\(head)")
        #expect(!page.diagnostics.contains { $0.code == .unsupportedEncoding }, "\(head)")
    }

    @Test("utf-7 is no label browsers decode: the declaration is reported and passed over")
    func utf7IsNotDecoded() {
        let page = extract(#"<html><head><meta charset="utf-7"><title>+ZeVnLIqe-</title></head></html>"#)
        #expect(page.title?.text == "+ZeVnLIqe-")
        #expect(page.encoding == "windows-1252")
        #expect(page.diagnostics.map(\.code) == [.unsupportedEncoding])
        #expect(page.diagnostics.first?.message.contains("utf-7") == true)
    }

    @Test("invalid sequences in a legacy encoding become U+FFFD and the text after them is kept")
    func legacyInvalidSequencesAreReplaced() throws {
        // Shift_JIS: 0x82 0xA0 is "あ"; 0x85 0x40 is unassigned; the text after it must survive.
        let bytes =
            Array("<html><head><meta charset=\"shift_jis\">\n<title>".utf8) + [0x82, 0xA0, 0x85, 0x40]
            + Array(" tail</title></head></html>".utf8)
        let page = extract(bytes: bytes)
        #expect(page.encoding == "Shift_JIS")
        let title = try #require(page.title?.text)
        #expect(title.hasPrefix("あ"))
        #expect(title.hasSuffix(" tail"))
        #expect(title.contains("\u{FFFD}"))
        #expect(page.diagnostics(.undecodableBytes).first?.line == 2)
        #expect(page.encodingMismatch?.bytesFit == nil)
        #expect(page.encodingMismatch?.invalidSequences == 1)
    }

    @Test("a NUL byte in a legacy page is replaced after decoding, not before")
    func nulInLegacyPage() {
        let page = extract(
            bytes: Array("<html><head><meta charset=\"windows-1251\"><title>".utf8) + Self.privetWindows1251 + [0]
                + Self.privetWindows1251 + Array("</title></head></html>".utf8))
        #expect(page.title?.text == "Привет\u{FFFD}Привет")
        #expect(page.diagnostics.map(\.code) == [.nulBytes])
    }
}
