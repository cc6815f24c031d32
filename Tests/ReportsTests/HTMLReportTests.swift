import Foundation
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
            "rendered": [
                "attributeSet": ["title": hostile, "contentDescription": hostile],
                "onlyAfterJavaScript": [hostile], "timedOut": true,
                "blockedForApplebot": [["url": hostile, "resourceType": hostile]],
            ],
            "consumers": [
                [
                    "consumer": hostile, "userAgent": hostile, "status": 403, "finalURL": hostile,
                    "reads": [payload: hostile],
                ],
                ["consumer": hostile, "userAgent": hostile, "failure": hostile],
                ["consumer": hostile, "userAgent": hostile, "disallowedByRobots": true],
            ],
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
        // The rendered page and the consumers' views are shown, escaped like the rest.
        #expect(html.contains("Served and rendered (headless Chromium)"))
        #expect(html.contains("As each consumer gets it"))
        #expect(html.contains("robots.txt disallows it"))
        #expect(html.contains("<td>HTTP 403</td>"))
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

    @Test func theOverviewListAndDetailsFollowTheReport() {
        let html = HTMLReport(report: Self.hostileReport).html
        let audit = HTMLAudit(html)
        // Each page once: one closed details element, its summary the list's row.
        let details = audit.tags.filter { $0.name == "details" && $0.attributes.contains { $0 == ("class", "page") } }
        #expect(details.map { $0.attributes.first { $0.name == "id" }?.value } == ["p-1", "p-2"])
        #expect(details.map { $0.attributes.first { $0.name == "data-candidate" }?.value } == ["no", "yes"])
        #expect(details.first?.attributes.first { $0.name == "data-severities" }?.value == "error")
        #expect(!details.contains { $0.attributes.contains { $0.name == "open" } })
        #expect(!audit.tags.contains { $0.name == "tr" && $0.attributes.contains { $0.name == "data-candidate" } })
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
        #expect(pieces > 2000)  // each page emitted alone
        #expect(bytes < 2000 * 3000)
    }
}

/// Issue 15 §6: the report answers "what do I fix first?".
@Suite("HTML report: what to fix first")
struct HTMLReportFixFirstTests {
    static func finding(_ rule: String, _ severity: String, _ url: String, line: Int = 3) -> JSONValue {
        [
            "rule": JSONValue(rule), "severity": JSONValue(severity), "url": JSONValue(url), "line": JSONValue(line),
            "excerpt": "<x>", "message": "m", "fix": JSONValue("Fix \(rule)."), "source": "[S] spec",
            "authority": "spec",
        ]
    }

    static func page(_ number: Int, _ findings: [(String, String)]) -> JSONValue {
        let url = "https://www.example.com/\(number).html"
        return [
            "url": JSONValue(url), "finalURL": JSONValue(url), "status": 200, "timings": ["total": 0.01],
            "findings": JSONValue(findings.map { finding($0.0, $0.1, url) }),
            "markup": ["attributeSet": ["title": JSONValue("Page \(number)")], "candidate": ["isCandidate": true]],
        ]
    }

    /// Page 1: SAB007 and CT005; pages 2 and 3: SD001 and SAB007; page 4: OG005 three times;
    /// page 5: nothing; a site finding IX001. Errors: SD001 on 2 pages, OG005 three times on one
    /// page, IX001 once over the site.
    static var report: JSONValue {
        let pages = [
            page(1, [("SAB007", "warning"), ("CT005", "info")]),
            page(2, [("SAB007", "warning"), ("SD001", "error")]),
            page(3, [("SD001", "error"), ("SAB007", "warning")]),
            page(4, [("OG005", "error"), ("OG005", "error"), ("OG005", "error")]),
            page(5, []),
        ]
        return [
            "tool": "spotcheck", "kind": "crawl", "schemaVersion": 2,
            "crawl": [
                "seed": "http://127.0.0.1:41234/", "publicOrigin": "https://www.example.com",
                "settings": ["source": "/srv/site"],
            ],
            "summary": [
                "pages": 5, "candidates": 5,
                "findings": [
                    "error": 6, "warning": 3, "info": 1,
                    "byRule": ["SAB007": 3, "CT005": 1, "SD001": 2, "OG005": 3, "IX001": 1],
                ],
            ],
            "pages": JSONValue(pages),
            "siteFindings": [finding("IX001", "error", "https://www.example.com/private/")],
        ]
    }

    /// The section of `html` from `open` to the next `</section>`.
    static func section(_ html: String, _ id: String) -> String {
        guard let start = html.range(of: "<section id=\"\(id)\">"),
            let end = html.range(of: "</section>", range: start.upperBound..<html.endIndex)
        else { return "" }
        return String(html[start.lowerBound..<end.upperBound])
    }

    /// Every `value` of `attribute="value"` in `text`, in order.
    static func values(of attribute: String, in text: String) -> [String] {
        text.components(separatedBy: " \(attribute)=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
    }

    @Test func fixFirstListsTheErrorsByRuleTheRuleOnMostPagesFirst() {
        let html = HTMLReport(report: Self.report).html
        let fixFirst = Self.section(html, "fix-first")
        // At the top: before the overview.
        #expect(
            html.range(of: "<section id=\"fix-first\">")?.lowerBound ?? html.endIndex
                < html.range(of: "<section id=\"overview\">")?.lowerBound ?? html.startIndex)
        #expect(fixFirst.contains("6 errors of 3 rules"))
        // SD001 on two pages, then OG005 (one page, three findings), then IX001 (one site finding).
        #expect(Self.values(of: "id", in: fixFirst).dropFirst() == ["fix-SD001", "fix-OG005", "fix-IX001"])
        #expect(fixFirst.contains(##"<a href="#pages" data-rule="SD001" class="reach">2 pages</a>"##))
        #expect(fixFirst.contains(##"<a href="#p-2">#2</a> <a href="#p-3">#3</a>"##))
        #expect(fixFirst.contains(##"<a href="#pages" data-rule="OG005" class="reach">1 page</a>"##))
        #expect(fixFirst.contains("(3 findings)"))
        #expect(fixFirst.contains(##"<a href="#site-IX001" class="reach">1 site finding</a>"##))
        // The fix, and the catalogue's title beside the id.
        #expect(fixFirst.contains("<td>Fix SD001.</td>"))
        #expect(
            fixFirst.contains(
                #"<span class="rtitle"><code>&lt;script type=&quot;application/ld+json&quot;&gt;</code> body is not valid JSON.</span>"#
            ))
        // No warning or info rule in the list.
        #expect(!fixFirst.contains("SAB007") && !fixFirst.contains("CT005"))
    }

    @Test func withoutErrorsFixFirstListsTheWarnings() {
        var report = Self.report.objectValue ?? JSONObject()
        report.set("pages", [Self.page(1, [("SAB007", "warning")]), Self.page(2, [("CT005", "info")])])
        report.set("siteFindings", [])
        let fixFirst = Self.section(HTMLReport(report: .object(report)).html, "fix-first")
        #expect(fixFirst.contains("No errors."))
        #expect(Self.values(of: "id", in: fixFirst).dropFirst() == ["fix-SAB007"])
        report.set("pages", [Self.page(1, [])])
        #expect(Self.section(HTMLReport(report: .object(report)).html, "fix-first").contains("Nothing to fix"))
    }

    @Test func rulesChartsAndFiltersShowTitlesSortedBySeverityThenCount() {
        let html = HTMLReport(report: Self.report).html
        // The rules table: errors (OG005 3, SD001 2, IX001 1), warnings (SAB007 3), info (CT005 1).
        let rules = Self.section(html, "rules")
        #expect(
            Self.values(of: "id", in: rules).dropFirst() == [
                "rule-OG005", "rule-SD001", "rule-IX001", "rule-SAB007", "rule-CT005",
            ])
        #expect(rules.contains("<b>SAB007</b> <span class=\"rtitle\"><code>app-argument</code> is the app"))
        // The chart: the same order, each bar labelled with the severity's symbol, id and title.
        let chart =
            Self.section(html, "overview").components(separatedBy: "Findings by rule").last?
            .components(separatedBy: "</figure>").first ?? ""
        let labels = chart.components(separatedBy: "text-anchor=\"end\">").dropFirst().map {
            String($0.prefix { $0 != "<" })
        }
        #expect(labels.map { String($0.split(separator: " ")[1]) } == ["OG005", "SD001", "IX001", "SAB007", "CT005"])
        #expect(
            labels[1] == "\u{2716} SD001 &lt;script type=&quot;application/ld+json&quot;&gt; body is not valid JSON.")
        #expect(labels[3].hasPrefix("\u{25B2} SAB007 app-argument is the app"))
        #expect(labels[4].hasPrefix("\u{2139} CT005 "))
        // The rule filter: the rules found on pages (not the site's IX001), titled, same order.
        let filter =
            html.components(separatedBy: "<select name=\"rule\">").last?.components(separatedBy: "</select>")
            .first ?? ""
        #expect(Self.values(of: "value", in: filter) == ["", "OG005", "SD001", "SAB007", "CT005"])
        #expect(filter.contains(">\u{2716} SD001 (2) &lt;script type=&quot;application/ld+json&quot;&gt; body is not"))
    }

    @Test func thePageListIsMostSevereFirstEachPageOnceNumberedAsItsAnchor() {
        let html = HTMLReport(report: Self.report).html
        let list = Self.section(html, "pages")
        // 4 (3 errors), 2 and 3 (1 error, 1 warning each, by number), 1 (warning, info), 5.
        let ids = Self.values(of: "id", in: list).filter { $0.hasPrefix("p-") }
        #expect(ids == ["p-4", "p-2", "p-3", "p-1", "p-5"])
        #expect(list.contains(#"<details class="page" id="p-4" data-n="4""#))
        #expect(list.contains(#"<summary><span class="c-n">4</span>"#))
        // Each page once in the whole document.
        for number in 1...5 {
            #expect(html.components(separatedBy: "<code>https://www.example.com/\(number).html</code>").count == 2)
        }
        // The findings heading is the current sort, descending.
        #expect(list.contains(#"data-sort="findings" disabled aria-pressed="true" data-dir="desc">"#))
    }

    @Test func eachFindingShowsItsFixAndTitleInline() {
        let html = HTMLReport(report: Self.report).html
        let list = Self.section(html, "pages")
        #expect(list.components(separatedBy: "<div class=\"finding ").count - 1 == 9)
        #expect(list.components(separatedBy: "<p class=\"fix\"><b>Fix:</b> Fix ").count - 1 == 9)
        #expect(list.contains(##"<a class="rule" href="#rule-SD001">SD001</a> <span class="rtitle">"##))
        // A page's findings, errors first: page 2 has SAB007 (warning) before SD001 (error) in report.json.
        let page2 = list.components(separatedBy: "id=\"p-2\"").last ?? ""
        let error = page2.range(of: "href=\"#rule-SD001\"")?.lowerBound
        let warning = page2.range(of: "href=\"#rule-SAB007\"")?.lowerBound
        #expect(error != nil && warning != nil && error! < warning!)
    }

    @Test(arguments: ["fix first", "hostile"])
    func everyInReportLinkHasItsAnchor(report name: String) {
        let html = HTMLReport(report: name == "hostile" ? HTMLReportTests.hostileReport : Self.report).html
        let ids = Set(HTMLAudit(html).tags.compactMap { $0.attributes.first { $0.name == "id" }?.value })
        let fragments = HTMLAudit(html).tags.filter { $0.name == "a" }.compactMap {
            $0.attributes.first { $0.name == "href" }?.value
        }
        .filter { $0.hasPrefix("#") }
        #expect(!fragments.isEmpty)
        for fragment in Set(fragments) {
            #expect(ids.contains(String(fragment.dropFirst())), "\(fragment)")
        }
    }

    @Test func theHeaderNamesTheFolderNotTheLoopbackServer() {
        let html = HTMLReport(report: Self.report).html
        let header = html.components(separatedBy: "</header>").first ?? ""
        #expect(header.contains("pages from the folder /srv/site"))
        #expect(!html.contains("127.0.0.1"))
        #expect(HTMLReport.isLoopback("http://127.0.0.1:8080/") && HTMLReport.isLoopback("http://[::1]:80/"))
        #expect(HTMLReport.isLoopback("http://localhost/") && !HTMLReport.isLoopback("https://www.example.com/"))
        var remote = Self.report.objectValue ?? JSONObject()
        remote.set("crawl", ["seed": "https://staging.example.com/", "publicOrigin": "https://www.example.com"])
        #expect(HTMLReport(report: .object(remote)).html.contains("fetched from https://staging.example.com/"))
    }

    @Test func theStreamWritesTheSameDocumentInTheSameOrder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "html-stream-\(UInt64.random(in: 0...UInt64.max))"
        ).path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for report in [Self.report, HTMLReportTests.hostileReport] {
            var stream = try HTMLReportStream(folder: folder)
            for page in report["pages"]?.arrayValue ?? [] { stream.add(page: page) }
            var header = report.objectValue ?? JSONObject()
            _ = header.removeValue(forKey: "pages")
            let streamed = try String(contentsOfFile: try stream.finish(report: .object(header)), encoding: .utf8)
            #expect(streamed == HTMLReport(report: report).html)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["index.html"])
    }
}

/// Issue 30 §6: a non-candidate says why in words, each reason linked to the finding that reports it.
@Suite("HTML report: why a page is not a candidate")
struct HTMLReportCandidacyTests {
    @Test func eachFailingConditionIsWordsLinkedToItsFinding() {
        var page = HTMLReportFixFirstTests.page(1, [("CT005", "info"), ("IX006", "warning"), ("IX006", "warning")])
        if case .object(var object) = page, case .object(var markup)? = object["markup"] {
            markup.set("candidate", ["isCandidate": false, "failing": ["not-at-canonical-url", "no-deep-link"]])
            object.set("markup", .object(markup))
            page = .object(object)
        }
        var report = HTMLReportFixFirstTests.report
        if case .object(var object) = report {
            object.set("pages", [page])
            report = .object(object)
        }
        let html = HTMLReport(report: report).html
        #expect(
            html.contains(
                "Not a public-index candidate: <a href=\"#f1-IX006\">rel=canonical names another URL (IX006)</a>; "
                    + "no deep link: no app-argument, al:ios:url, twitter:app:url:iphone or AASA match (DL001).</p>"),
            "\(html)")
        // The first IX006 finding carries the anchor, once; DL001 has no finding here, so no link.
        #expect(html.components(separatedBy: "id=\"f1-IX006\"").count == 2)
        #expect(!html.contains("#f1-DL001"))
    }
}
