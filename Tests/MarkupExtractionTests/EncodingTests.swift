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
        #expect(page.encoding.uppercased() == "ISO-8859-1")
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
        #expect(page.encoding.uppercased() == "ISO-8859-1")
    }

    @Test("a UTF-8 byte order mark is honoured")
    func utf8BOM() {
        let page = extract(bytes: [0xEF, 0xBB, 0xBF] + Array("<html><head><title>Café</title></head></html>".utf8))
        #expect(page.title?.text == "Café")
        #expect(page.diagnostics.isEmpty)
    }

    @Test("ISO-8859-1 bytes without a declaration fall back to ISO-8859-1, as libxml2 does")
    func undeclaredLatin1() {
        let page = extract(bytes: Array("<html><head><title>Caf".utf8) + [0xE9] + Array("</title></head></html>".utf8))
        #expect(page.title?.text == "Café")
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
}
