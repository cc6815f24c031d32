import Foundation
import MarkupExtraction
import SpotCheckTestSupport
import Testing
import URLNormalization

/// `URLResolver` resolves a page's references as the WHATWG URL Standard does — as a browser and
/// the crawler (`URLParser`) do — not as RFC 3986 does (issue 30 §3).
@Suite("URL resolution (WHATWG)")
struct URLResolverTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var reference: String
        var base: String
        var expected: String
        /// Where the expected value is cross-checked: a WPT `urltestdata.json` entry
        /// (`../shared/corpora/urls/wpt_urltestdata_http.json`, 0-based index) or a case of
        /// `../shared/corpora/urls/normalization.json` (0-based index into `cases`); otherwise the
        /// value given by the `ada-url` 4.0.0 Python package, a WHATWG URL implementation.
        var source: String
        var testDescription: String { "\(reference.debugDescription) against \(base) → \(expected)" }
    }

    static let base = "http://example.org/foo/bar"

    /// References where RFC 3986 (Foundation's `URL(string:relativeTo:)`) and the URL Standard disagree.
    static let disagreements: [Case] = [
        // Backslashes are slashes in special URLs.
        Case(reference: #"..\a"#, base: base, expected: "http://example.org/a", source: "ada-url"),
        Case(reference: #"\\host\x"#, base: base, expected: "http://host/x", source: "ada-url"),
        Case(reference: #"\\x\hello"#, base: base, expected: "http://x/hello", source: "WPT 36"),
        Case(
            reference: #"\\cdn.example.net\lib.js"#, base: "https://example.com/a/b",
            expected: "https://cdn.example.net/lib.js", source: "normalization.json 37"),
        // A scheme that is the base's own, with no slashes: a relative reference.
        Case(reference: "http:foo", base: base, expected: "http://example.org/foo/foo", source: "ada-url"),
        Case(reference: "http:foo.com", base: base, expected: "http://example.org/foo/foo.com", source: "WPT 4"),
        Case(
            reference: "http:/example.com/", base: base, expected: "http://example.org/example.com/",
            source: "WPT 65"),
        // Tabs and newlines anywhere are removed (here inside the host, which then gets its `/`).
        Case(reference: "http://example\t.\norg", base: base, expected: "http://example.org/", source: "WPT 0"),
        Case(reference: "fo\to/\nb\rar", base: base, expected: "http://example.org/foo/foo/bar", source: "ada-url"),
        // Spaces: trimmed at the ends, percent-encoded inside.
        Case(
            reference: "a b c?q=a b#f g", base: base, expected: "http://example.org/foo/a%20b%20c?q=a%20b#f%20g",
            source: "ada-url"),
        Case(reference: " /x y ", base: base, expected: "http://example.org/x%20y", source: "ada-url"),
        // Protocol-relative: a new host, and the empty path is `/`.
        Case(
            reference: "//www.example2.com", base: "http://www.example.com/test",
            expected: "http://www.example2.com/", source: "WPT 169"),
        Case(reference: "//host", base: base, expected: "http://host/", source: "ada-url"),
        // IDN hosts become Punycode.
        Case(
            reference: "http://bücher.example/", base: base, expected: "http://xn--bcher-kva.example/",
            source: "ada-url; normalization.json 16 for http://bücher.de/"),
        Case(reference: "http://Ｇｏ.com", base: "http://other.com/", expected: "http://go.com/", source: "WPT 190"),
        // Scheme and host lower-cased, the default port dropped.
        Case(
            reference: "HTTP://Example.COM:80/a", base: base, expected: "http://example.com/a",
            source: "ada-url; normalization.json 1"),
        // Percent-encoding: non-ASCII in path, query and fragment; the path, the query of a
        // special URL and the fragment each have their own set.
        Case(
            reference: "/café?q=été#é", base: base, expected: "http://example.org/caf%C3%A9?q=%C3%A9t%C3%A9#%C3%A9",
            source: "ada-url; normalization.json 51"),
        Case(reference: "/it's?q=it's", base: base, expected: "http://example.org/it's?q=it%27s", source: "ada-url"),
        Case(
            reference: "/a{b}|c`?x={y}|z`#{f}|`", base: base,
            expected: "http://example.org/a%7Bb%7D|c%60?x={y}|z`#{f}|%60",
            source: "ada-url"),
        // `..` past the root stays at the root; `%2e` is a dot; `\` separates.
        Case(
            reference: "../../../../x", base: "http://example.com/a/b", expected: "http://example.com/x",
            source: "normalization.json 61"),
        Case(
            reference: "../../test.txt", base: "http://www.example.com/test",
            expected: "http://www.example.com/test.txt", source: "WPT 166"),
        Case(
            reference: ".%2e/.%2e/.%2e/x", base: "http://example.com/a/b", expected: "http://example.com/x",
            source: "ada-url"),
        Case(
            reference: #"..\..\..\x"#, base: "http://example.com/a/b", expected: "http://example.com/x",
            source: "ada-url"),
        // An empty reference is the base without its fragment (and the base as the standard writes it).
        Case(
            reference: "", base: "https://example.com/docs/page1.html#x",
            expected: "https://example.com/docs/page1.html", source: "normalization.json 84"),
        Case(reference: "", base: "HTTP://Example.COM:80/a?q#f", expected: "http://example.com/a?q", source: "ada-url"),
        Case(reference: "  \t", base: base, expected: base, source: "WPT 19"),
        // A fragment-only reference replaces the fragment, in the fragment's own set.
        Case(reference: "#β", base: base, expected: "http://example.org/foo/bar#%CE%B2", source: "WPT 74"),
        Case(
            reference: "#link", base: "https://example.org/##link", expected: "https://example.org/#link",
            source: "WPT 388"),
        Case(reference: "#x{y}|z", base: base, expected: "http://example.org/foo/bar#x{y}|z", source: "ada-url"),
        Case(reference: "#", base: base, expected: "http://example.org/foo/bar#", source: "WPT 27"),
    ]

    @Test("references where RFC 3986 and the URL Standard disagree", arguments: disagreements)
    func disagreement(_ testCase: Case) {
        #expect(URLResolver(base: testCase.base).resolve(testCase.reference) == testCase.expected)
    }

    /// Bases that are not http(s) (`validate` names pages with `file:///` URLs; `about:blank`), URLs
    /// with an opaque path, and references the standard cannot parse: kept working as before.
    static let otherBasesAndSchemes: [Case] = [
        Case(
            reference: "b.html", base: "file:///tmp/site/a.html", expected: "file:///tmp/site/b.html", source: "ada-url"
        ),
        Case(
            reference: "../img/x y.png", base: "file:///tmp/site/a.html", expected: "file:///tmp/img/x%20y.png",
            source: "ada-url"),
        Case(reference: "/abs", base: "file:///tmp/a", expected: "file:///abs", source: "ada-url"),
        Case(reference: "#x", base: "about:blank", expected: "about:blank#x", source: "ada-url"),
        // The standard fails these: the reference is kept as written.
        Case(reference: "foo", base: "about:blank", expected: "foo", source: "ada-url (failure)"),
        Case(reference: "http://[::1/", base: base, expected: "http://[::1/", source: "ada-url (failure)"),
        Case(reference: "http://h:99999/", base: base, expected: "http://h:99999/", source: "ada-url (failure)"),
        // Opaque paths: scheme lower-cased, only what the standard encodes encoded.
        Case(
            reference: "data:text/html,<b>hi</b>", base: base, expected: "data:text/html,<b>hi</b>",
            source: "normalization.json 98"),
        Case(
            reference: "mailto:a@b.c?subject=Hi there", base: base, expected: "mailto:a@b.c?subject=Hi%20there",
            source: "ada-url"),
        Case(reference: "tel:+1 555", base: base, expected: "tel:+1 555", source: "ada-url"),
        Case(reference: "javascript:void(0) ", base: base, expected: "javascript:void(0)", source: "ada-url"),
        Case(reference: "JavaScript:a #b", base: base, expected: "javascript:a%20#b", source: "ada-url"),
        // A non-special scheme with a hierarchical path keeps its authority; its path is encoded.
        Case(
            reference: "android-app://com.example/https/example.com/", base: base,
            expected: "android-app://com.example/https/example.com/", source: "normalization.json 102"),
        Case(reference: "foo://host/a b", base: base, expected: "foo://host/a%20b", source: "ada-url"),
        // A base that does not parse: absolute references still resolve, relative ones are kept.
        Case(reference: "HTTP://EXAMPLE.COM", base: "", expected: "http://example.com/", source: "ada-url"),
        Case(reference: "a/b", base: "", expected: "a/b", source: "ada-url (failure)"),
    ]

    @Test("other bases, opaque paths and failures", arguments: otherBasesAndSchemes)
    func otherBases(_ testCase: Case) {
        #expect(URLResolver(base: testCase.base).resolve(testCase.reference) == testCase.expected)
    }

    @Test("a <base href> is resolved against the page, and references against it")
    func rebased() {
        let resolver = URLResolver(base: "https://www.example.com/dir/page.html").rebased(
            onto: #"\\CDN.example.net\x\"#)
        #expect(resolver.base == "https://cdn.example.net/x/")
        #expect(resolver.resolve("..\\y.png") == "https://cdn.example.net/y.png")
    }

    static let webPlatformVectors = SharedCorpora.url("urls/wpt_urltestdata_http.json")

    /// Every entry of the WHATWG URL test suite's http(s) subset that has a base and a valid result:
    /// extraction resolves it as the crawler's `URLParser` does, and as the suite says.
    @Test(
        "WPT entries with a base resolve as URLParser resolves them",
        .enabled(
            if: FileManager.default.fileExists(atPath: webPlatformVectors.path),
            "../shared/corpora/urls/wpt_urltestdata_http.json is not present"))
    func webPlatformTests() throws {
        let data = try Data(contentsOf: Self.webPlatformVectors)
        let entries = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        var checked = 0
        var failures: [String] = []
        for (index, entry) in entries.enumerated() {
            guard let base = entry["base"] as? String, entry["failure"] as? Bool != true,
                let href = entry["href"] as? String
            else { continue }
            let input = try #require(entry["input"] as? String)
            let parser = URLParser.parse(input, base: URLParser.parse(base))?.description
            let resolved = URLResolver(base: base).resolve(input)
            checked += 1
            if resolved != parser || resolved != href {
                failures.append(
                    "\(index): \(input.debugDescription) against \(base): \(resolved); URLParser \(parser ?? "nil"); WPT \(href)"
                )
            }
        }
        #expect(checked == 114)
        #expect(failures.isEmpty, "\(failures.count) of \(checked) differ:\n\(failures.joined(separator: "\n"))")
    }

    static let normalizationVectors = SharedCorpora.url("urls/normalization.json")

    /// Every case of `../shared/corpora/urls/normalization.json` that has a fetch URL (its `fetch_url`
    /// was produced with `ada-url`): links, with or without a base, resolve to it.
    @Test(
        "normalisation vectors resolve to their fetch URL",
        .enabled(
            if: FileManager.default.fileExists(atPath: normalizationVectors.path),
            "../shared/corpora/urls/normalization.json is not present"))
    func normalizationVectorsResolve() throws {
        let data = try Data(contentsOf: Self.normalizationVectors)
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let cases = try #require(document["cases"] as? [[String: Any]])
        var failures: [String] = []
        for (index, entry) in cases.enumerated() {
            guard let href = entry["fetch_url"] as? String else { continue }
            let input = try #require(entry["input"] as? String)
            let resolved = URLResolver(base: entry["base"] as? String ?? "").resolve(input)
            if resolved != href { failures.append("\(index): \(input.debugDescription): \(resolved), not \(href)") }
        }
        #expect(failures.isEmpty, "\(failures.count) differ:\n\(failures.joined(separator: "\n"))")
    }

    /// Structured-data URLs (Microdata, RDFa) follow RFC 3986 (RDFa Core §7.4.1): an absolute one is
    /// kept as written, with only its dot segments removed; relative ones resolve as every other
    /// reference does.
    @Test(
        "structured-data URLs resolve as RFC 3986 does",
        arguments: [
            ("http://www.example.org", "http://www.example.org"),
            ("HTTP://WWW.Example.org/a/./b/../c?q=1#f", "HTTP://WWW.Example.org/a/c?q=1#f"),
            ("https://example.org/a/..", "https://example.org/"),
            ("https://example.org/../x", "https://example.org/x"),
            (" https://example.org/a b ", "https://example.org/a%20b"),
            ("../c", "http://example.org/c"),
            ("mailto:Someone@Example.org", "mailto:Someone@Example.org"),
            // Dots that are not whole segments stay; `.` and `..` segments go, the last one too.
            ("https://Example.org/v1.2/a..b/.x/page.html?a=./b", "https://Example.org/v1.2/a..b/.x/page.html?a=./b"),
            ("https://example.org/a/b/.", "https://example.org/a/b/"),
            ("https://example.org/a/b/..", "https://example.org/a/"),
            ("HttpS://example.org/./a", "HttpS://example.org/a"),
            // A path without a leading `/` (no authority): §5.2.4 step by step.
            ("http:a/../b", "http:/b"),
            ("https:a/./b/../c", "https:a/c"),
            ("https:a/..", "https:/"),
            ("https:../../a", "https:a"),
        ])
    func structuredDataURLs(reference: String, expected: String) {
        #expect(URLResolver(base: Self.base).resolveStructuredDataURL(reference) == expected)
        // The URL Standard, which every other attribute follows, writes the same absolute URL otherwise.
        if reference == "http://www.example.org" {
            #expect(URLResolver(base: Self.base).resolve(reference) == "http://www.example.org/")
        }
    }
}
