import Foundation
import SpotCheckTestSupport
import Testing
import URLNormalization

@Suite("WHATWG URL parsing and de-duplication keys")
struct URLParserTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var input: String
        var base: String?
        var href: String?
        var key: String?
        var testDescription: String { "\(input) → \(href ?? "failure")" }
    }

    static let cases: [Case] = [
        Case(input: "HTTP://Example.COM/", href: "http://example.com/", key: "http://example.com/"),
        Case(input: "http://example.com:80/a", href: "http://example.com/a", key: "http://example.com/a"),
        Case(input: "http://example.com:443/", href: "http://example.com:443/", key: "http://example.com:443/"),
        Case(input: "http://bücher.de/", href: "http://xn--bcher-kva.de/", key: "http://xn--bcher-kva.de/"),
        Case(input: "http://ｅｘａｍｐｌｅ.com/", href: "http://example.com/", key: "http://example.com/"),
        Case(input: "http://3279880203/", href: "http://195.127.0.11/", key: "http://195.127.0.11/"),
        Case(input: "http://0x7f.1/", href: "http://127.0.0.1/", key: "http://127.0.0.1/"),
        Case(input: "http://[::FFFF:127.0.0.1]/", href: "http://[::ffff:7f00:1]/", key: "http://[::ffff:7f00:1]/"),
        Case(input: "http:\\\\example.com\\a\\b", href: "http://example.com/a/b", key: "http://example.com/a/b"),
        Case(input: " http://exa\nmple.com/pa\tth ", href: "http://example.com/path", key: "http://example.com/path"),
        Case(
            input: "http://example.com/ä?q=ü#f", href: "http://example.com/%C3%A4?q=%C3%BC#f",
            key: "http://example.com/%C3%A4?q=%C3%BC"),
        Case(input: "http://example.com/a/%2E%2e/b", href: "http://example.com/b", key: "http://example.com/b"),
        Case(
            input: "http://example.com/%7Euser/%41", href: "http://example.com/%7Euser/%41",
            key: "http://example.com/~user/A"),
        Case(
            input: "../c", base: "http://example.com/a/b/d", href: "http://example.com/a/c",
            key: "http://example.com/a/c"),
        Case(
            input: "?x=1", base: "http://example.com/a/b?y#z", href: "http://example.com/a/b?x=1",
            key: "http://example.com/a/b?x=1"),
        Case(
            input: "//other.org/p", base: "https://example.com/a", href: "https://other.org/p",
            key: "https://other.org/p"),
        Case(
            input: "https:x", base: "https://example.com/a/", href: "https://example.com/a/x",
            key: "https://example.com/a/x"),
        Case(
            input: "", base: "https://example.com/d/p.html#x", href: "https://example.com/d/p.html",
            key: "https://example.com/d/p.html"),
        Case(input: "mailto:info@example.com", href: "mailto:info@example.com", key: nil),
        Case(input: "example.com/x", href: nil, key: nil),
        Case(input: "http://exa mple.com/", href: nil, key: nil),
        Case(input: "http://example.com:99999/", href: nil, key: nil),
    ]

    @Test("hand-written cases", arguments: cases)
    func handWritten(_ testCase: Case) {
        let base = testCase.base.flatMap { URLParser.parse($0) }
        let parsed = URLParser.parse(testCase.input, base: base)
        #expect(parsed?.description == testCase.href)
        #expect(parsed?.deduplicationKey == testCase.key)
    }

    static let normalizationVectors = SharedCorpora.url("urls/normalization.json")

    /// `../shared/corpora/urls/normalization.json` (present in CI): every case's fetch URL and key.
    @Test(
        "shared normalisation vectors",
        .enabled(
            if: FileManager.default.fileExists(atPath: normalizationVectors.path),
            "../shared/corpora/urls/normalization.json is not present"))
    func sharedVectors() throws {
        let data = try Data(contentsOf: Self.normalizationVectors)
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let cases = try #require(document["cases"] as? [[String: Any]])
        var failures: [String] = []
        for entry in cases {
            let input = entry["input"] as? String ?? ""
            let base = (entry["base"] as? String).flatMap { URLParser.parse($0) }
            let parsed = URLParser.parse(input, base: base)
            let href = entry["fetch_url"] as? String
            let key = entry["dedup_key"] as? String
            if parsed?.description != href || (href != nil && parsed?.deduplicationKey != key) {
                failures.append(
                    "\(input.debugDescription): got \(parsed?.description ?? "nil") / \(parsed?.deduplicationKey ?? "nil")"
                )
            }
        }
        #expect(failures.isEmpty, "\(failures.count) of \(cases.count) differ:\n\(failures.joined(separator: "\n"))")
    }
}

extension URLParserTests {
    /// The http(s) subset of the WHATWG URL test suite (`../shared/corpora/urls/wpt_urltestdata_http.json`).
    /// Counted, and held to the pass count measured when this test was written (a floor, so a
    /// regression fails and an improvement can raise it).
    static let webPlatformVectors = SharedCorpora.url("urls/wpt_urltestdata_http.json")

    /// Found by FuzzURL (issue 17 §1): "%5%30" decoded "%30" into "0" after a lone "%", which made
    /// "%50", and the key of the key was "P". A hex digit right after a lone "%" stays escaped.
    @Test(
        "the de-duplication key of a key is the key",
        arguments: [
            ("https://www.example.com/ht%5%30.0", "https://www.example.com/ht%5%30.0"),
            ("https://www.example.com/%a%62%63", "https://www.example.com/%a%62c"),
            ("https://www.example.com/a%zz/%", "https://www.example.com/a%zz/%"),
            ("https://www.example.com/%7e%41%2f", "https://www.example.com/~A%2F"),
        ])
    func keyOfKey(url: String, key: String) throws {
        let parsed = try #require(URLParser.parse(url))
        #expect(parsed.deduplicationKey == key)
        #expect(URLParser.parse(key)?.deduplicationKey == key)
    }

    @Test(
        "WHATWG URL test suite, http(s) subset",
        .enabled(
            if: FileManager.default.fileExists(atPath: webPlatformVectors.path),
            "../shared/corpora/urls/wpt_urltestdata_http.json is not present"))
    func webPlatformTests() throws {
        let data = try Data(contentsOf: Self.webPlatformVectors)
        let entries = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        var passed = 0
        for entry in entries {
            let input = entry["input"] as? String ?? ""
            var base: ParsedURL?
            if let baseText = entry["base"] as? String {
                base = URLParser.parse(baseText)
                if base == nil { continue }
            }
            let parsed = URLParser.parse(input, base: base)
            if entry["failure"] as? Bool == true {
                if parsed == nil { passed += 1 }
            } else if parsed?.description == entry["href"] as? String {
                passed += 1
            }
        }
        print("WPT http(s) subset: \(passed)/\(entries.count)")
        #expect(passed >= Self.webPlatformTestsFloor, "\(passed)/\(entries.count) pass")
    }

    static let webPlatformTestsFloor = 442
}

/// Dot segments are found in place, in every spelling WHATWG names and no other.
@Suite("dot path segments")
struct DotSegmentTests {
    @Test(
        arguments: [
            (".", "http://h/a/"), ("%2e", "http://h/a/"), ("%2E", "http://h/a/"),
            ("..", "http://h/"), (".%2e", "http://h/"), ("%2e.", "http://h/"), ("%2E%2e", "http://h/"),
            ("...", "http://h/a/..."), (".a", "http://h/a/.a"), ("%2e%2e%2e", "http://h/a/%2e%2e%2e"),
            ("%2f", "http://h/a/%2f"), ("%2", "http://h/a/%2"), ("%", "http://h/a/%"), ("%2ex", "http://h/a/%2ex"),
        ])
    func aLastSegment(segment: String, href: String) throws {
        let url = try #require(URLParser.parse("http://h/a/" + segment))
        #expect(url.description == href)
    }

    @Test(arguments: [("/a/b/%2E%2e/c", "http://h/a/c"), ("/a/./b/../../c/.", "http://h/c/"), ("/../a", "http://h/a")])
    func segmentsInsideThePath(path: String, href: String) throws {
        #expect(try #require(URLParser.parse("http://h" + path)).description == href)
    }
}
