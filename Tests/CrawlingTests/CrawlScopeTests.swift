import Crawling
import Testing
import URLNormalization

@Suite("Crawl scope and origin mapping")
struct CrawlScopeTests {
    @Test(
        arguments: [
            ("*", "https://a/b", true),
            ("https://a/*", "https://a/b/c", true),
            ("https://a/*", "https://ab/c", false),
            ("*/private/*", "https://a/private/x.html", true),
            ("*/private/*", "https://a/privates/x.html", false),
            ("*.pdf", "https://a/x.pdf", true),
            ("*.pdf", "https://a/x.pdf?download=1", false),
            ("https://a/b", "https://a/b", true),
            ("https://a/b", "https://a/bc", false),
            ("**x*", "https://a/yxz", true),
            ("", "https://a/", false),
        ] as [(String, String, Bool)])
    func globs(pattern: String, url: String, matches: Bool) {
        #expect(CrawlScope.glob(pattern, matches: url) == matches)
    }

    @Test(
        arguments: [
            ("https://www.example.com/movies/", nil),
            ("https://WWW.EXAMPLE.COM/", nil),
            ("https://cdn.example.com/x.html", SkipReason.scope),
            ("https://static.example.net/x.html", SkipReason.scope),
            ("mailto:info@example.com", SkipReason.scheme),
            ("javascript:alert(1)", SkipReason.scheme),
            ("data:text/html,<b>x</b>", SkipReason.scheme),
            ("https://www.example.com/private/staff.html", SkipReason.scope),
            ("https://www.example.com/search?q=1", SkipReason.scope),
        ] as [(String, SkipReason?)])
    func violations(url: String, reason: SkipReason?) throws {
        let scope = CrawlScope(
            hosts: ["www.example.com", "static.example.net"], include: [], exclude: ["*/private/*", "*/search*"])
        let parsed = try #require(URLParser.parse(url))
        let expected = url.contains("static.example.net") ? nil : reason
        #expect(scope.violation(of: parsed)?.reason == expected)
    }

    @Test("--include and --exclude under --as match the public URL (and still the fetch URL)")
    func patternsMatchThePublicURLOfAServedFolder() throws {
        let mapping = try #require(
            OriginMapping(fetchOrigin: "http://127.0.0.1:8123", publicOrigin: "https://www.example.com"))
        let movie = try #require(URLParser.parse("http://127.0.0.1:8123/movies/up.html"))
        let about = try #require(URLParser.parse("http://127.0.0.1:8123/about.html"))
        let publicInclude = CrawlScope(
            hosts: ["127.0.0.1"], include: ["https://www.example.com/movies/*"], mapping: mapping)
        #expect(publicInclude.violation(of: movie) == nil)
        #expect(publicInclude.violation(of: about)?.reason == .scope)
        // Without the mapping, the public pattern cannot match a loopback URL.
        let unmapped = CrawlScope(hosts: ["127.0.0.1"], include: ["https://www.example.com/movies/*"])
        #expect(unmapped.violation(of: movie)?.reason == .scope)
        // Fetch-URL patterns keep working.
        let fetchInclude = CrawlScope(
            hosts: ["127.0.0.1"], include: ["http://127.0.0.1:8123/movies/*"], mapping: mapping)
        #expect(fetchInclude.violation(of: movie) == nil)
        #expect(fetchInclude.violation(of: about)?.reason == .scope)
        let publicExclude = CrawlScope(
            hosts: ["127.0.0.1"], exclude: ["https://www.example.com/movies/*"], mapping: mapping)
        #expect(publicExclude.violation(of: movie)?.detail == "matches --exclude https://www.example.com/movies/*")
        #expect(publicExclude.violation(of: about) == nil)
    }

    @Test func includePatternsNarrowTheCrawl() throws {
        let scope = CrawlScope(hosts: ["a.test"], include: ["*/movies/*"])
        #expect(scope.violation(of: try #require(URLParser.parse("http://a.test/movies/x.html"))) == nil)
        #expect(scope.violation(of: try #require(URLParser.parse("http://a.test/about.html")))?.reason == .scope)
    }

    @Test func originMappingRewritesOnlyItsOwnOrigin() throws {
        let mapping = try #require(
            OriginMapping(fetchOrigin: "http://127.0.0.1:8123/", publicOrigin: "https://www.example.com"))
        #expect(mapping.publicURL("http://127.0.0.1:8123/movies/?a=1") == "https://www.example.com/movies/?a=1")
        #expect(mapping.publicURL("http://127.0.0.1:8123") == "https://www.example.com")
        #expect(mapping.publicURL("http://127.0.0.1:81234/x") == "http://127.0.0.1:81234/x")
        #expect(mapping.fetchURL("https://www.example.com/a") == "http://127.0.0.1:8123/a")
        #expect(mapping.fetchURL("https://www.example.com.evil.test/a") == "https://www.example.com.evil.test/a")
        #expect(mapping.fetchURL("http://www.example.com/a") == "http://www.example.com/a")
        #expect(OriginMapping(fetchOrigin: "file:///tmp", publicOrigin: "https://www.example.com") == nil)
    }
}
