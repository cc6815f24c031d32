import LenientJSON
import MarkupExtraction
import Testing

@Suite("Page facts")
struct PageFactsTests {
    @Test("<title>: whitespace collapsed, first title wins, line and section")
    func title() throws {
        let page = extract(
            """
            <html><head>
            <title>
              Up   (2009)
              – Family Cinema  </title>
            <title>Second</title>
            </head></html>
            """)
        let title = try #require(page.title)
        #expect(title.text == "Up (2009) – Family Cinema")
        #expect(title.line == 2)
        #expect(title.section == .head)
        #expect(page.contractJSON["title"] == "Up (2009) – Family Cinema")
    }

    @Test("a <title> inside <svg> is not the page title")
    func svgTitle() {
        let onlySVG = extract(#"<html><head></head><body><svg><title>Icon</title></svg></body></html>"#)
        #expect(onlySVG.title == nil)
        let svgFirst = extract(
            #"<html><body><svg viewBox="0 0 1 1"><title>Icon</title></svg><title>Real</title></body></html>"#)
        #expect(svgFirst.title?.text == "Real")
    }

    @Test("<title> and <meta> inside <template> are inert, as Microdata and RDFa there already are")
    func templateContent() {
        let page = extract(
            #"<html><head><template><title>Template</title><meta property="og:title" content="inert"></template><title>Real</title></head></html>"#
        )
        #expect(page.title?.text == "Real")
        #expect(page.openGraph.isEmpty)
    }

    @Test("entities in the title are decoded")
    func titleEntities() {
        let page = extract("<html><head><title>Tom &amp; Jerry &lt;3 &eacute;</title></head></html>")
        #expect(page.title?.text == "Tom & Jerry <3 é")
    }

    @Test("meta description: every tag kept, the first is the description")
    func description() {
        let page = extract(
            """
            <html><head>
            <meta name="description" content=" First description ">
            <meta name="Description" content="Second">
            </head></html>
            """)
        #expect(page.descriptions.map(\.content) == ["First description", "Second"])
        #expect(page.descriptions.map(\.line) == [2, 3])
        #expect(page.contractJSON["description"] == "First description")
    }

    @Test("several rel=canonical links are all kept, resolved against the base")
    func canonicals() {
        let page = extract(
            """
            <html><head>
            <link rel="canonical" href="/movies/up.html">
            <link rel="Canonical" href="other.html">
            <link rel="alternate canonical" href="https://elsewhere.example/up">
            <link rel="stylesheet" href="/site.css">
            </head></html>
            """)
        #expect(
            page.canonicals.map(\.content) == [
                "https://www.example.com/movies/up.html", "https://www.example.com/dir/other.html",
                "https://elsewhere.example/up",
            ])
        #expect(page.canonicals.map(\.line) == [2, 3, 4])
        #expect(
            page.contractJSON["canonical"] == [
                "https://www.example.com/movies/up.html", "https://www.example.com/dir/other.html",
                "https://elsewhere.example/up",
            ])
    }

    @Test("robots, applebot and googlebot metas are kept with the lower-cased agent")
    func robots() {
        let page = extract(
            """
            <html><head>
            <meta name="ROBOTS" content="noindex, nofollow">
            <meta name="Applebot" content="noarchive">
            <meta name="googlebot" content="nosnippet">
            <meta name="viewport" content="width=device-width">
            </head></html>
            """)
        #expect(page.robots.map(\.key) == ["robots", "applebot", "googlebot"])
        #expect(page.robots.map(\.content) == ["noindex, nofollow", "noarchive", "nosnippet"])
        #expect(page.contractJSON["robots"] == ["noindex, nofollow", "applebot: noarchive", "googlebot: nosnippet"])
    }

    @Test("keywords and apple-touch-icon links")
    func keywordsAndTouchIcons() {
        let page = extract(
            """
            <html><head>
            <meta name="keywords" content="a, b">
            <link rel="apple-touch-icon" href="/icon.png">
            <link rel="apple-touch-icon-precomposed" href="icon2.png">
            </head></html>
            """)
        #expect(page.keywords.map(\.content) == ["a, b"])
        #expect(
            page.touchIcons.map(\.content) == [
                "https://www.example.com/icon.png", "https://www.example.com/dir/icon2.png",
            ])
    }

    @Test("<html lang> (trimmed) and xml:lang")
    func lang() {
        #expect(extract(#"<html lang=" en-GB "><head></head></html>"#).lang?.text == "en-GB")
        #expect(extract(#"<html xml:lang="de"><head></head></html>"#).lang?.text == "de")
        #expect(extract("<html><head></head></html>").lang == nil)
        #expect(extract(#"<html lang="fr"></html>"#).contractJSON["lang"] == "fr")
    }

    struct BaseCase: Sendable, CustomTestStringConvertible {
        var href: String
        var baseURL: String
        var resolvedCanonical: String
        var testDescription: String { "<base href=\"\(href)\">" }
    }

    @Test(
        "<base href> is resolved against the page URL and used for relative URLs",
        arguments: [
            BaseCase(
                href: "../other/", baseURL: "https://www.example.com/other/",
                resolvedCanonical: "https://www.example.com/other/c.html"),
            BaseCase(
                href: "/", baseURL: "https://www.example.com/", resolvedCanonical: "https://www.example.com/c.html"),
            BaseCase(
                href: "https://cdn.example.net/x/", baseURL: "https://cdn.example.net/x/",
                resolvedCanonical: "https://cdn.example.net/x/c.html"),
            BaseCase(
                href: "sub/index.html", baseURL: "https://www.example.com/dir/sub/index.html",
                resolvedCanonical: "https://www.example.com/dir/sub/c.html"),
        ])
    func base(_ testCase: BaseCase) throws {
        let page = extract(
            """
            <html><head><base href="\(testCase.href)"><base href="/ignored/">
            <link rel="canonical" href="c.html">
            </head></html>
            """)
        #expect(page.baseHref?.text == testCase.href)
        #expect(page.baseURL == testCase.baseURL)
        #expect(page.canonicals.map(\.content) == [testCase.resolvedCanonical])
        #expect(page.contractJSON["baseURL"] == .string(testCase.baseURL))
    }

    @Test("without <base> the base URL is the page URL")
    func noBase() {
        let page = extract("<html><head></head></html>")
        #expect(page.baseHref == nil)
        #expect(page.baseURL == pageURL)
        #expect(page.url == pageURL)
    }

    @Test("outgoing <a href> and <area href> links are kept as written, with rel and line")
    func links() {
        let page = extract(
            """
            <html><body>
            <a href="up.html">Up</a>
            <a href="https://other.example/" rel="nofollow noopener">Other</a>
            <a name="anchor">no href</a>
            <map><area href="/map" alt=""></map>
            </body></html>
            """)
        #expect(page.links.map(\.href) == ["up.html", "https://other.example/", "/map"])
        #expect(page.links.map(\.rel) == [nil, "nofollow noopener", nil])
        #expect(page.links.map(\.line) == [2, 3, 5])
    }
}
