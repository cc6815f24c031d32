import LenientJSON
import SpotCheckTestSupport
import Testing

@testable import Reports

@Suite("HTML report")
struct HTMLReportTests {
    static let payload =
        #"</script><script>alert(1)</script> "><img src=x onerror=alert(1)> ' onmouseover='alert(1)' &amp; \#u{2028}\#u{0000}"#

    /// A crawl report with the payload in every string the HTML report shows.
    static var hostileReport: JSONValue {
        let hostile = JSONValue.string(payload)
        let finding: JSONValue = [
            "rule": hostile, "severity": "error", "url": hostile, "line": 7, "excerpt": hostile, "message": hostile,
            "fix": hostile, "source": hostile, "authority": hostile,
        ]
        let markup: JSONValue = [
            "attributeSet": [
                "title": hostile, "contentDescription": hostile, "thumbnailURL": "javascript:alert(1)", "url": hostile,
                "rating": 4.5, "ratingDescription": hostile, "phoneNumbers": [hostile], "supportsPhoneCall": true,
                "supportsNavigation": true, "latitude": 1.5, "longitude": 2.5, "keywords": [hostile, hostile],
            ],
            "provenance": [
                [
                    "field": "title", "value": hostile, "source": hostile, "line": 3,
                    "conflicting": [["value": hostile, "source": hostile, "line": 4]],
                ]
            ],
            "deepLinks": [["url": "javascript:alert(1)", "source": hostile, "line": 5]],
            "appStoreIDs": [["id": hostile, "source": hostile, "line": 5]],
            "universalLink": hostile,
            "candidate": ["isCandidate": false, "failing": [hostile]],
        ]
        let page: JSONValue = [
            "url": "javascript:alert(1)", "finalURL": hostile, "status": 200, "timings": ["total": 0.012],
            "findings": [finding], "markup": markup,
        ]
        let safePage: JSONValue = [
            "url": "https://www.example.com/up.html", "finalURL": "https://www.example.com/up.html", "status": 200,
            "timings": ["total": 0.3], "findings": [],
            "markup": [
                "attributeSet": ["title": "Up", "thumbnailURL": "https://www.example.com/up.png?a=1&b=2"],
                "candidate": ["isCandidate": true, "failing": []],
            ],
        ]
        return [
            "tool": "spotcheck", "kind": "crawl", "schemaVersion": 1, "generatedAt": hostile,
            "crawl": ["seed": hostile, "publicOrigin": hostile],
            "summary": [
                "pages": 2, "candidates": 1, "byStatus": ["200": 2], "notCandidatesBecause": [payload: 1],
                "findings": ["error": 2, "warning": 0, "info": 0, "byRule": [payload: 2]], "skipped": [payload: 1],
            ],
            "pages": [page, safePage],
            "siteFindings": [finding],
            "universalLinks": [
                [
                    "url": "javascript:alert(1)", "status": 200, "usable": false, "error": hostile, "apps": [hostile],
                    "configuredAppIDs": [hostile], "notApplicable": [["rule": hostile, "reason": hostile]],
                ]
            ],
            "coverage": [
                "skipped": [["url": "javascript:alert(1)", "reason": hostile, "detail": hostile, "foundOn": hostile]],
                "sitemapLocationsNotCrawled": [["location": hostile, "sitemap": hostile, "line": 1]],
                "pagesNotInSitemaps": [hostile], "stalePages": [hostile],
            ],
        ]
    }

    @Test func escapingCoversTheFiveCharactersAndControls() {
        #expect(
            HTMLEscaping.escape(#"<a href="x" title='y'>&</a>"#)
                == "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;")
        #expect(HTMLEscaping.escape("a\u{0000}b\u{0007}c\td\ne") == "a\u{FFFD}b\u{FFFD}c\td\ne")
        #expect(HTMLEscaping.escape("plain – text ★") == "plain – text ★")
    }

    @Test(arguments: [
        "javascript:alert(1)", " javascript:alert(1)", "JaVaScRiPt:alert(1)", "java\nscript:alert(1)",
        "data:text/html,<script>alert(1)</script>", "vbscript:x", "//evil.example/x.png", "/images/x.png",
        "https://exa mple.com/", "https://example.com/\u{0000}", "http:\\\\evil.example", "tel:+1555", "",
    ])
    func onlyAbsoluteHTTPURLsAreLinked(url: String) {
        #expect(HTMLEscaping.safeURL(url) == nil)
    }

    @Test func httpURLsAreLinkedEscaped() {
        #expect(
            HTMLEscaping.safeURL("https://www.example.com/a?b=1&c=\"2\"")
                == "https://www.example.com/a?b=1&amp;c=&quot;2&quot;")
        #expect(HTMLEscaping.safeURL("HTTP://www.example.com/") == "HTTP://www.example.com/")
    }

    @Test func sha256AndBase64MatchTheStandardVectors() {
        // FIPS 180-2 SHA-256 examples, in base64 as the CSP takes them.
        #expect(HTMLAssets.base64SHA256("") == "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=")
        #expect(HTMLAssets.base64SHA256("abc") == "ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=")
        // Non-ASCII text is hashed as UTF-8.
        #expect(HTMLAssets.base64SHA256("é") == "SplVfkAzw1Od4utlRyAXytX5VX96BiWgnxw/biumnEw=")
        #expect(
            ["", "f", "fo", "foo", "foob"].map { Base64.encode(Array($0.utf8)) } == [
                "", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==",
            ])
    }

    @Test func theHostileReportHasNoMarkupButItsOwn() {
        let html = HTMLReport(report: Self.hostileReport).html
        let audit = HTMLAudit(html)
        #expect(audit.problems == [])
        #expect(html.components(separatedBy: "<script").count - 1 == 1)
        #expect(html.components(separatedBy: "</script>").count - 1 == 1)
        #expect(!html.contains("<img src=x"))
        #expect(!html.contains("\u{2028}") || !html.contains("<script>\u{2028}"))
        // The payload is shown, as text.
        #expect(
            html.contains(
                "&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; &quot;&gt;&lt;img src=x onerror=alert(1)&gt; &#39; onmouseover=&#39;alert(1)&#39; &amp;amp;"
            ))
        // The http(s) thumbnail is kept (loaded by the script when the details open), escaped;
        // the javascript: one is not.
        let images = audit.tags.filter { $0.name == "img" }
        #expect(images.count == 1)
        #expect(
            images.first?.attributes.contains { $0 == ("data-src", "https://www.example.com/up.png?a=1&amp;b=2") }
                == true)
        #expect(html.contains("thumbnail not shown"))
    }

    @Test func theContentSecurityPolicyAdmitsExactlyTheReportsStyleAndScript() throws {
        let html = HTMLReport(report: Self.hostileReport).html
        func between(_ open: String, _ close: String) throws -> String {
            let start = try #require(html.range(of: open))
            let end = try #require(html.range(of: close, range: start.upperBound..<html.endIndex))
            return String(html[start.upperBound..<end.lowerBound])
        }
        let style = try between("<style>", "</style>")
        let script = try between("<script>", "</script>")
        let policy = try between(#"http-equiv="Content-Security-Policy" content=""#, "\"")
        #expect(policy.contains("default-src 'none'"))
        #expect(policy.contains("script-src 'sha256-\(HTMLAssets.base64SHA256(script))'"))
        #expect(policy.contains("style-src 'sha256-\(HTMLAssets.base64SHA256(style))'"))
        #expect(!policy.contains("unsafe-inline"))
        // No inline style attributes (the policy would block them).
        #expect(!HTMLAudit(html).tags.contains { $0.attributes.contains { $0.name == "style" } })
    }

    @Test func theOverviewTablesAndDetailsFollowTheReport() {
        let html = HTMLReport(report: Self.hostileReport).html
        let audit = HTMLAudit(html)
        let rows = audit.tags.filter { $0.name == "tr" && $0.attributes.contains { $0.name == "data-candidate" } }
        #expect(rows.count == 2)
        #expect(rows.map { $0.attributes.first { $0.name == "data-candidate" }?.value } == ["no", "yes"])
        #expect(rows.first?.attributes.first { $0.name == "data-severities" }?.value == "error")
        let details = audit.tags.filter { $0.name == "details" && $0.attributes.contains { $0 == ("class", "page") } }
        #expect(details.map { $0.attributes.first { $0.name == "id" }?.value } == ["p-0", "p-1"])
        #expect(!details.contains { $0.attributes.contains { $0.name == "open" } })
        #expect(audit.tags.filter { $0.name == "svg" }.count >= 4)
        #expect(html.contains("<span class=\"n\">2</span> <span class=\"l\">pages</span>"))
        #expect(html.contains("\u{2605}\u{2605}\u{2605}\u{2605}\u{2605}"))  // 4.5 rounds to five stars
        #expect(html.contains("Call "))
        #expect(html.contains("Directions 1.5, 2.5"))
        #expect(html.contains("<form id=\"filters\" class=\"filters\" hidden>"))
    }

    @Test func aValidateReportShowsItsPagesToo() {
        let report: JSONValue = [
            "tool": "spotcheck", "schemaVersion": 1, "inputs": ["pages/a.html"],
            "summary": ["pages": 1, "findings": ["error": 0, "warning": 1, "info": 0]],
            "pages": [
                [
                    "file": "pages/a.html", "attributeSet": ["title": "A page", "contentDescription": "About A"],
                    "findings": [
                        ["rule": "OG001", "severity": "warning", "url": "pages/a.html", "line": 2, "message": "m"]
                    ],
                ]
            ],
            "siteFindings": [],
        ]
        let html = HTMLReport(report: report).html
        #expect(HTMLAudit(html).problems == [])
        #expect(html.contains("<p class=\"ptitle\">A page</p>"))
        #expect(html.contains("<code>pages/a.html</code>"))
        #expect(html.contains("This report has no coverage data"))
    }

    @Test func responseTimesFallIntoTheirBins() {
        let bins = ResponseTimeBins([0.001, 0.010, 0.0101, 0.3, 7, -1, .nan])
        #expect(bins.counts == [2, 1, 0, 0, 0, 1, 0, 0, 0, 1])
        #expect(bins.labels.count == bins.counts.count)
        #expect(bins.labels[7] == "≤2.5 s")
    }

    @Test func aLargeReportIsRenderedInOnePassPerPage() {
        let page = Self.hostileReport["pages"]?[1] ?? .null
        var report = Self.hostileReport.objectValue ?? JSONObject()
        report.set("pages", .array(Array(repeating: page, count: 2000)))
        var pieces = 0
        var bytes = 0
        HTMLReport(report: .object(report)).render { piece in
            pieces += 1
            bytes += piece.utf8.count
        }
        #expect(pieces > 4000)  // a row and a details element per page, each emitted alone
        #expect(bytes < 2000 * 3000)
    }
}
