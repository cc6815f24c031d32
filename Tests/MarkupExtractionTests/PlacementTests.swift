import LenientJSON
import MarkupExtraction
import Testing

/// Where tags were written (head or body) and on which line.
@Suite("Placement and source lines")
struct PlacementTests {
    @Test("a <meta> after body content inside <head> is still extracted (libxml2 closes head early)")
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
        // Written before the <body> tag: head, whatever libxml2's tree says.
        #expect(tag.section == .head)
        #expect(page.smartAppBanner?.appID == "1")
        #expect(page.smartAppBanner?.section == .head)
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

    @Test("a page without a <body> tag has everything in the head")
    func noBodyTag() {
        let page = extract(
            """
            <html><head><title>t</title></head>
            <p>text</p>
            <meta property="og:title" content="X">
            </html>
            """)
        #expect(page.openGraph.map(\.section) == [.head])
        #expect(page.openGraph.map(\.line) == [3])
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
}
