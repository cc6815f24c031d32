import MarkupExtraction
import Testing

/// Issue 33: values read as a browser reads them (HTML's input stream, its tokenizer's raw text
/// elements, WHATWG Microdata's property values, the URL Standard).
@Suite("Values as a browser reads them")
struct BrowserReadingTests {
    /// HTML §13.2.3.5 "Preprocessing the input stream": CR LF and lone CR become LF before the
    /// tokenizer, so attribute values and text hold LF.
    @Test("CR LF and a lone CR inside attribute values become LF", arguments: ["\r\n", "\r"])
    func carriageReturnsInAttributeValues(lineBreak: String) throws {
        let page = extract(
            "<html><head>\(lineBreak)<meta name=\"description\" content=\"one\(lineBreak)two\">\(lineBreak)"
                + "<meta property=\"og:title\" content=\"a\(lineBreak)b\">\(lineBreak)</head><body></body></html>")
        #expect(page.descriptions.first?.content == "one\ntwo")
        #expect(page.openGraphValue("og:title")?.content == "a\nb")
        // One line break each, as before.
        #expect(page.descriptions.first?.line == 3)
        #expect(page.openGraphValue("og:title")?.line == 5)
    }

    /// HTML §13.2.6.4.7, `iframe` start tag: "Follow the generic raw text element parsing
    /// algorithm" — what is inside is text up to `</iframe>`, never elements.
    @Test(
        "the content of an <iframe> (and of <noembed>, <noframes>, <xmp>, <textarea>, <title>) is text, not markup",
        arguments: ["iframe", "noembed", "noframes", "xmp", "textarea", "title"])
    func rawTextElements(name: String) {
        let page = extract(
            """
            <html><head><title>t</title></head><body>
            <div itemscope itemtype="https://schema.org/Thing">
            <\(name)><meta name="apple-itunes-app" content="app-id=1"><span itemprop="name">inside</span>
            <a href="/inside">x</a></\(name)>
            <span itemprop="alternateName">outside</span></div>
            <meta property="og:title" content="after">
            </body></html>
            """)
        #expect(page.smartAppBanners.isEmpty)
        #expect(page.microdata.first?.propertyNames == ["alternateName"])
        #expect(page.links.map(\.href).isEmpty)
        #expect(page.openGraphPairs == ["og:title=after"])
    }

    /// HTML §13.2.5.2, RCDATA state: a title's content is its text up to `</title`, tags kept as
    /// written and character references decoded, as `document.title` gives it.
    @Test(
        "a title's text keeps tags as written and decodes character references",
        arguments: [
            (
                #"<title>Hello <meta name="apple-itunes-app" content="app-id=9"> world</title>"#,
                #"Hello <meta name="apple-itunes-app" content="app-id=9"> world"#
            ),
            ("<title>A &amp; B <b>bold</b> &lt;c&gt; </p></title>", "A & B <b>bold</b> <c> </p>"),
            ("<title> Line <br>\n  two </title>", "Line <br> two"),
            ("<title>Plain &eacute;t&eacute;</title>", "Plain été"),
        ])
    func titleText(html: String, title: String) {
        let page = extract("<html><head>\(html)<meta property=\"og:title\" content=\"x\"></head><body></body></html>")
        #expect(page.title?.text == title)
        #expect(page.smartAppBanners.isEmpty)
        #expect(page.openGraph.map(\.section) == [.head])
    }

    /// WHATWG HTML §5.2.4 "Values": a `<time>`'s value is its `datetime`, an `<a>`'s its `href`,
    /// media elements' their `src`, `<data>`'s its `value`; `content` counts on `<meta>` only. The
    /// lenient reading of `content` on other elements stands in for an element's text only.
    @Test("content never wins over datetime, href, src or value")
    func contentNeverWinsOverTheValueAttribute() throws {
        let html = """
            <html><body><div itemscope itemtype="https://schema.org/Event">
            <time itemprop="startDate" datetime="2024-05-01" content="">May 1</time>
            <a itemprop="url" href="/event" content="https://elsewhere.example/">here</a>
            <img itemprop="image" src="/e.png" content="x.png">
            <data itemprop="position" value="3" content="4">third</data>
            <time itemprop="endDate" content="2024-05-02">May 2</time>
            <span itemprop="name" content="The event">Event!</span>
            </div></body></html>
            """
        for lenient in [true, false] {
            let page = extract(html, options: .init(microdataContentOnAnyElement: lenient))
            let item = try #require(page.microdata.first)
            #expect(item.strings("startDate") == ["2024-05-01"])
            #expect(item.strings("url") == ["https://www.example.com/event"])
            #expect(item.strings("image") == ["https://www.example.com/e.png"])
            #expect(item.strings("position") == ["3"])
            // Elements valued by their text: `content` stands in only when asked for.
            #expect(item.strings("endDate") == [lenient ? "2024-05-02" : "May 2"])
            #expect(item.strings("name") == [lenient ? "The event" : "Event!"])
        }
    }

    /// The URL Standard's basic URL parser on a URL with an opaque path percent-encodes C0
    /// controls and non-ASCII there (and space, `"`, `<`, `>` in its query), nothing else.
    @Test(
        "data: and mailto: URLs are encoded as the URL Standard encodes them",
        arguments: [
            (
                #"data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg" width="1"/>"#,
                #"data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg" width="1"/>"#
            ),
            ("DATA:text/plain,{a|b}^`", "data:text/plain,{a|b}^`"),
            (
                "mailto:a@example.com?subject=Hi there&body=<é>",
                "mailto:a@example.com?subject=Hi%20there&body=%3C%C3%A9%3E"
            ),
            ("  mailto:a@example.com\n ", "mailto:a@example.com"),
            ("tel:+1 555 0100", "tel:+1 555 0100"),
        ] as [(String, String)])
    func opaquePathURLs(written: String, expected: String) throws {
        let page = extract(
            """
            <html><body><div itemscope itemtype="https://schema.org/Thing">
            <a itemprop="url" href="\(written.replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "<", with: "&lt;"))">x</a>
            </div></body></html>
            """)
        let item = try #require(page.microdata.first)
        #expect(item.strings("url") == [expected])
    }
}
