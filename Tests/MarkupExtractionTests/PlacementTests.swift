import LenientJSON
import MarkupExtraction
import Testing

/// Where tags were written (head or body) and on which line.
@Suite("Placement and source lines")
struct PlacementTests {
    /// HTML §13.2.6.4.4 "in head", anything else: an `<img>` closes the head ("after head" then
    /// opens the body), so the tags after it are in the body, as a browser's DOM has them, though
    /// they were written before `</head>` (issue 33).
    @Test("a <meta> after body content inside <head> is in the body, as a browser builds the tree")
    func metaAfterBodyContentInHead() throws {
        let page = extract(
            """
            <html><head><title>t</title><img src=a.png><meta property="og:title" content="X">
            <meta name="apple-itunes-app" content="app-id=1">
            </head><body><p>text</p></body></html>
            """)
        let tag = try #require(page.openGraphValue("og:title"))
        #expect(tag.content == "X")
        #expect(tag.line == 1)
        #expect(tag.section == .body)
        #expect(page.smartAppBanner?.appID == "1")
        #expect(page.smartAppBanner?.section == .body)
        #expect(page.title?.section == .head)
    }

    @Test("tags written after <body> are .body, tags before are .head, each with its line")
    func sectionsAndLines() throws {
        let page = extract(
            """
            <!DOCTYPE html>
            <html>
            <head>
            <meta property="og:title" content="Head title">
            <link rel="canonical" href="/canonical">
            </head>
            <body>
            <p>Some text.</p>
            <meta property="og:description" content="Body description">
            <meta name="apple-itunes-app" content="app-id=7">
            <link rel="canonical" href="/second">
            </body>
            </html>
            """)
        #expect(page.openGraph.map(\.section) == [.head, .body])
        #expect(page.openGraph.map(\.line) == [4, 9])
        #expect(page.smartAppBanner?.section == .body)
        #expect(page.smartAppBanner?.line == 10)
        #expect(page.canonicals.map(\.section) == [.head, .body])
        #expect(page.canonicals.map(\.line) == [5, 11])
        // The contract marks body tags only.
        let openGraph = try #require(page.contractJSON["openGraph"]?.arrayValue)
        #expect(openGraph[0]["section"] == nil)
        #expect(openGraph[1]["section"] == "body")
    }

    /// §13.2.6.4.6 "after head": a `<p>` opens the body implicitly; what follows is in it.
    @Test("a page without a <body> tag: the body starts at the first content")
    func noBodyTag() {
        let page = extract(
            """
            <html><head><title>t</title></head>
            <meta property="og:type" content="website">
            <p>text</p>
            <meta property="og:title" content="X">
            </html>
            """)
        // A head element after </head> still goes in the head ("after head").
        #expect(page.openGraph.map(\.section) == [.head, .body])
        #expect(page.openGraph.map(\.line) == [2, 4])
    }

    @Test("a <body> inside a comment in the head is not the body tag")
    func bodyInsideComment() {
        let page = extract(
            """
            <html><head><!-- <body> is below -->
            <meta property="og:title" content="X">
            </head><body><meta property="og:type" content="website"></body></html>
            """)
        #expect(page.openGraph.map(\.section) == [.head, .body])
    }

    @Test("a start tag spread over several lines reports the line where it ends; CRLF counts one line")
    func multiLineTagsAndCRLF() {
        let html =
            "<html>\r\n<head>\r\n<title>T</title>\r\n<meta\r\n property=\"og:type\"\r\n content=\"website\">\r\n<meta property=\"og:title\" content=\"X\">\r\n</head></html>"
        let page = extract(html)
        #expect(page.title?.line == 3)
        #expect(page.openGraph.map(\.line) == [6, 7])
    }

    @Test("JSON-LD script, title, base and lang lines")
    func otherLines() {
        let page = extract(
            """
            <html
              lang="en">
            <head>
            <base href="/">
            <title>T</title>
            <script type="application/ld+json">
            {"@type": "Thing"}
            </script>
            </head></html>
            """)
        #expect(page.lang?.line == 2)
        #expect(page.baseHref?.line == 4)
        #expect(page.title?.line == 5)
        #expect(page.jsonLD.map(\.line) == [6])
    }

    @Test("a JSON-LD script written after <body> is in the body")
    func jsonLDInBody() {
        let page = extract(
            """
            <html><head><script type="application/ld+json">{"@type": "A"}</script></head>
            <body><p>x</p>
            <script type="application/ld+json">{"@type": "B"}</script>
            </body></html>
            """)
        #expect(page.jsonLD.count == 2)
        #expect(page.jsonLD.first?.section == .head)
        #expect(page.jsonLD.last?.section == .body)
    }

    @Test("'<body>' inside a script or an attribute value in the head does not move later tags to the body")
    func bodyTextInsideHeadScript() {
        let inScript = extract(
            """
            <html><head><script>var s = "<body>";</script>
            <meta name="apple-itunes-app" content="app-id=1">
            </head><body><p>x</p></body></html>
            """)
        let inAttribute = extract(
            """
            <html><head><meta name="description" content="a <body> tag">
            <meta name="apple-itunes-app" content="app-id=1">
            </head><body><p>x</p></body></html>
            """)
        #expect(inScript.smartAppBanner?.section == .head)
        #expect(inAttribute.smartAppBanner?.section == .head)
    }

    /// Cases of HTML's tree construction (§13.2.6.4.3 "before head", §13.2.6.4.4 "in head",
    /// §13.2.6.4.6 "after head"; the scripting flag enabled, as in Safari) for the elements SpotCheck reports,
    /// in the shape of html5lib-tests' tree-construction data (which `HTML5LibTreeConstructionTests`
    /// reads): each case written by hand from the section its comment names. The page, then the
    /// section of each Open Graph tag in order.
    static let treeConstructionCases: [(String, [DocumentSection])] = [
        // "in head", anything else: a <div> closes the head.
        (#"<head><div></div><meta property="og:title" content="a"></head>"#, [.body]),
        // An <iframe> too (issue 33); its content is text.
        (#"<head><iframe src="x"></iframe><meta property="og:title" content="a">"#, [.body]),
        // Text that is not white space closes the head; white space does not.
        (
            "<head> \n\t<meta property=\"og:title\" content=\"a\">x<meta property=\"og:type\" content=\"b\">",
            [.head, .body]
        ),
        // A tag inside the title is its text (escapable raw text), not an element.
        (#"<head><title>a <b>bold</b> title</title><meta property="og:title" content="a">"#, [.head]),
        // A character reference is text too.
        (#"<head>&amp;<meta property="og:title" content="a">"#, [.body]),
        // Comments are not text.
        (#"<head><!-- x --><meta property="og:title" content="a">"#, [.head]),
        // The head's own elements keep it open: title, script, style, link, base, noscript, template.
        (
            #"<head><title>x</title><script>var a = "<div>";</script><style>p{}</style><link rel=x href=y>"#
                + #"<base href="/"><template><div></div></template><meta property="og:title" content="a">"#,
            [.head]
        ),
        // "before head": a <meta> before any <head> tag opens the head implicitly.
        (#"<!DOCTYPE html><meta property="og:title" content="a"><p>x"#, [.head]),
        // "in head", noscript with scripting enabled (Safari): raw text, so an <img> in it (a
        // tracking pixel) moves nothing; its <meta> is still read, in the head.
        (
            #"<head><noscript><meta property="og:title" content="a"><img src=x>pixel</noscript><meta property="og:type" content="b">"#,
            [.head, .head]
        ),
        // "after head": a head element after </head> goes back into the head; <body> opens the body.
        (
            #"<head></head><meta property="og:title" content="a"><body><meta property="og:type" content="b">"#,
            [.head, .body]
        ),
        // "after head", noscript: not a head element there, so it opens the body.
        (#"<head></head><noscript></noscript><meta property="og:title" content="a">"#, [.body]),
        // Whatever is inside a <template> moves nothing.
        (#"<head><template><p>x</p></template><meta property="og:title" content="a">"#, [.head]),
        // "in head", "after head", "before head": </body>, </html> and </br> act as "anything else",
        // so they open the body (html5lib-tests tests1.dat#93); other stray end tags are ignored.
        (#"<head></body><meta property="og:title" content="a">"#, [.body]),
        (#"<head></br><meta property="og:title" content="a">"#, [.body]),
        (#"<head></head></html><meta property="og:title" content="a">"#, [.body]),
        (#"</body><meta property="og:title" content="a">"#, [.body]),
        (#"<head></p></div><meta property="og:title" content="a">"#, [.head]),
        // After a second <html> (or <head>) tag, which libxml2 drops and counts, libxml2 drops the
        // next </html>, </head> or </body> too, without a callback; a browser reads it as above.
        (#"<html><head><html></html><meta property="og:title" content="a">"#, [.body]),
        (#"<html><html></html><meta property="og:title" content="a">"#, [.body]),
        (#"<head></head><html></html><meta property="og:title" content="a">"#, [.body]),
        (#"<head><title>x</title><html lang=fr></body><meta property="og:title" content="a">"#, [.body]),
        (#"<html><p>x</p><head></head><html></html><meta property="og:title" content="a">"#, [.body]),
        // The second <html> itself moves nothing ("in head" reads it by the "in body" rules), nor
        // does a </html> inside a comment or an attribute value, or a second <head> and its end.
        (#"<html><head><html><meta property="og:title" content="a">"#, [.head]),
        (#"<html><head><html><!-- </html> --><meta property="og:title" content="a">"#, [.head]),
        (#"<html><head><html><link rel=x title="</html>"><meta property="og:title" content="a">"#, [.head]),
        (#"<html><head><html><title></html></title><meta property="og:title" content="a">"#, [.head]),
        (#"<html lang=en><head><html lang=fr><head></head><meta property="og:title" content="a">"#, [.head]),
        // Not when the end tag is text (the head's noscript with scripting enabled, a title, a
        // script or style that starts with it) or in a template.
        (
            #"<head><noscript></br></noscript><title></body></title><template></html></template>"#
                + #"<title></html></title><script></html></script><style></body></style>"#
                + #"<meta property="og:title" content="a">"#,
            [.head]
        ),
    ]

    @Test("head and body as HTML's tree construction places them", arguments: treeConstructionCases)
    func treeConstruction(_ html: String, _ sections: [DocumentSection]) {
        #expect(extract(html).openGraph.map(\.section) == sections, "\(html)")
    }

    /// §13.2.6.4.7 "in body", a start tag "body": each attribute the body element lacks is added
    /// to it; libxml2 drops the tag. Content before `<body itemscope>` must not lose the item.
    @Test("a <body itemscope> after content: its attributes are merged onto the body")
    func bodyAttributesAreMerged() throws {
        let page = extract(
            """
            <html><head><title>t</title><div id="banner"></div></head>
            <body itemscope itemtype="https://schema.org/WebPage" vocab="https://schema.org/" typeof="WebPage">
            <main itemprop="mainContentOfPage"><h1 itemprop="name" property="name">Story</h1></main>
            </body></html>
            """)
        #expect(page.diagnostics(.microdataOrphanProperty).isEmpty)
        let item = try #require(page.microdata.first)
        #expect(item.types == ["https://schema.org/WebPage"])
        #expect(item.propertyNames == ["mainContentOfPage", "name"])
        let rdfa = try #require(page.rdfa.first)
        #expect(rdfa.types.contains("https://schema.org/WebPage"), "\(rdfa.types)")
    }

    /// A `<body>` tag inside a raw text element is text; inside a template a browser ignores it.
    @Test("a <body> tag inside an <iframe> or a <template> adds nothing to the body")
    func bodyTagsThatAreNotMerged() {
        for wrapper in ["iframe", "template"] {
            let page = extract(
                """
                <html><body><p>x</p><\(wrapper)><body itemscope itemtype="https://schema.org/WebPage"></\(wrapper)>
                <span itemprop="name">N</span></body></html>
                """)
            #expect(page.microdata.isEmpty, "\(wrapper)")
        }
    }

    /// §13.2.6.4.7 "in body", a start tag "html" (also read so in the head): each attribute the
    /// root lacks is added to it; libxml2 drops the tag.
    @Test("a second <html> tag adds the attributes the root lacks, its lang among them")
    func secondHTMLTag() throws {
        let merged = extract(
            """
            <html><head><title>t</title></head>
            <body><html lang="fr" prefix="og: https://ogp.me/ns#"><p>x</p></body></html>
            """)
        let lang = try #require(merged.lang)
        #expect(lang.text == "fr")
        #expect(lang.line == 2)
        let kept = extract(#"<html lang="en"><head><html lang="fr"><title>t</title></head></html>"#)
        #expect(kept.lang?.text == "en")
    }

    @Test("a second <body> tag adds only the attributes the first lacks")
    func secondBodyTag() throws {
        let page = extract(
            """
            <html><body itemscope itemtype="https://schema.org/WebPage"><p>x</p>
            <body itemtype="https://schema.org/Other" itemid="/page">
            <span itemprop="name">N</span></body></html>
            """)
        let item = try #require(page.microdata.first)
        #expect(item.types == ["https://schema.org/WebPage"])
        #expect(item.id == "https://www.example.com/page")
        #expect(item.strings("name") == ["N"])
    }
}
