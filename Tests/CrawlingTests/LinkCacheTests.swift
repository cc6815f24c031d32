import Testing
import URLNormalization

@testable import Crawling

@Suite("Resolved-link cache keys")
struct LinkCacheTests {
    static let bases = [
        "https://www.example.com/movies/up.html", "https://www.example.com/movies/wall-e.html?x=1",
        "https://www.example.com/movies/", "https://www.example.com/about.html", "https://www.example.com/",
        "https://www.example.com", "http://www.example.com/movies/up.html", "https://cdn.example.com/movies/up.html",
        "https://www.example.com:8443/movies/up.html", "https://www.example.com/movies/up.html#top",
        "http://127.0.0.1:8123/a/b/c.html",
    ]

    static let hrefs = [
        "/", "/movies/", "//cdn.example.com/x.png", "https://other.example.org/a", "HTTPS://OTHER.example.org/a",
        "http:relative.html", "https:relative.html", "mailto:a@example.com", "javascript:void(0)", "up.html",
        "../about.html", "./", ".", "..", "?page=2", "#top", "\\\\evil.example/x", "/\\\\evil.example/x", "a:b",
        "tel:+1", "data:text/html,x", "movies/../about.html", "%2e%2e/x", "/a?b#c",
    ]

    /// Two (base, href) pairs with the same key must resolve to the same URL: the cache may only
    /// share answers that do not depend on what the key leaves out.
    @Test func equalKeysMeanEqualResolutions() {
        var resolutions: [String: (String, String?)] = [:]
        for base in Self.bases {
            let keys = LinkCache.PageKeys(base: base)
            let parsedBase = URLParser.parse(base)
            for href in Self.hrefs {
                let key = keys.key(for: href)
                let resolved = URLParser.parse(href, base: parsedBase)?.serialized(includingFragment: false)
                if let (firstBase, earlier) = resolutions[key] {
                    #expect(earlier == resolved, "\(href) against \(base) and against \(firstBase)")
                } else {
                    resolutions[key] = (base, resolved)
                }
            }
        }
        // The cache is worth having: absolute and root-relative hrefs share keys across pages.
        #expect(resolutions.count < Self.bases.count * Self.hrefs.count / 2)
    }

    @Test func theCacheStaysBounded() {
        let cache = LinkCache(capacity: 10)
        for index in 0..<25 { cache.store(.invalid, for: "k\(index)") }
        #expect(cache.value(for: "k24") == .invalid)
        #expect(cache.value(for: "k0") == nil)
    }
}
