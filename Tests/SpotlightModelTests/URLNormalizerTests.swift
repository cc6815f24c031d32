import SpotlightModel
import Testing

@Suite("URL normalisation")
struct URLNormalizerTests {
    @Test(
        "scheme and host lower-cased, default port and fragment dropped, empty path made /, query kept",
        arguments: [
            ("HTTPS://WWW.Example.com:443/a#frag", "https://www.example.com/a"),
            ("http://Example.com:80/Path/Case?Q=1#x", "http://example.com/Path/Case?Q=1"),
            ("https://example.com", "https://example.com/"),
            ("https://example.com?q=1", "https://example.com/?q=1"),
            ("https://example.com#top", "https://example.com/"),
            ("http://example.com:8080/", "http://example.com:8080/"),
            ("http://example.com:443/", "http://example.com:443/"),
            ("https://example.com:1443/", "https://example.com:1443/"),
            // The de-duplication key keeps userinfo and a trailing dot (../shared/corpora/urls/README.md).
            ("https://user:secret@Example.com/a", "https://user:secret@example.com/a"),
            ("https://example.com./a", "https://example.com./a"),
            ("  https://example.com/a  ", "https://example.com/a"),
            ("https://example.com/a?b=c#d?e", "https://example.com/a?b=c"),
            ("mailto:someone@example.com", "mailto:someone@example.com"),
            ("/relative/path", "/relative/path"),
        ])
    func normalize(_ input: String, _ expected: String) {
        #expect(URLNormalizer.normalize(input) == expected)
    }

    @Test("normalising twice changes nothing")
    func idempotent() {
        for url in ["HTTPS://WWW.Example.com:443/a#frag", "http://example.com", "https://a.example/x?y#z"] {
            let once = URLNormalizer.normalize(url)
            #expect(URLNormalizer.normalize(once) == once)
        }
    }
}
