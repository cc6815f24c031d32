import Foundation
import LenientJSON
import PageAnalysis
import ReportModel
import Rulebook
import SpotCheckTestSupport
import SpotlightModel
import Testing

@testable import Reports

@Suite("HTML report")
struct HTMLReportTests {
    static let payload =
        #"</script><script>alert(1)</script> "><img src=x onerror=alert(1)> ' onmouseover='alert(1)' &amp; \#u{2028}\#u{0000}"#

    /// A crawl report with the payload in every string the HTML report shows: the fixture site's
    /// hostile page, its typed values overwritten with the payload (rule ids and severities are
    /// the catalogue's: a typed finding cannot name another), beside a safe page.
    static var hostileReport: HTMLReport {
        var page = FixturePages.crawled(
            "broken/hostile.html", seconds: 0.012, problem: FetchProblem(kind: payload, message: payload))
        page.url = "javascript:alert(1)"
        page.finalURL = payload
        page.findings = [
            Finding(
                rule: .sd001, severity: .error, url: payload, line: 7, column: 2, excerpt: payload, message: payload,
                fixHint: payload)
        ]
        if var analysis = page.analysis {
            var set = AttributeSet()
            set.title = payload
            set.contentDescription = payload
            set.thumbnailURL = "javascript:alert(1)"
            set.url = payload
            set.rating = 4.5
            set.ratingDescription = payload
            set.phoneNumbers = [payload]
            set.supportsPhoneCall = true
            set.supportsNavigation = true
            set.latitude = 1.5
            set.longitude = 2.5
            set.keywords = [payload, payload]
            analysis.attributes.attributeSet = set
            // Provenance and deep links are the pipeline's values (their initializers are the
            // builder's), given the payload.
            let movie = FixturePages.page("movies/up.html").analysis?.attributes
            if var entry = analysis.attributes.provenance.first ?? movie?.provenance.first {
                entry.field = "title"
                entry.chosen.value = payload
                entry.chosen.source.source = payload
                entry.chosen.source.line = 3
                var other = entry.chosen
                other.source.line = 4
                entry.conflicting = [other]
                analysis.attributes.provenance = [entry]
            }
            if var link = analysis.attributes.deepLinks.first ?? movie?.deepLinks.first {
                link.source.source = payload
                link.source.line = 5
                var id = link
                id.url = payload
                link.url = "javascript:alert(1)"
                analysis.attributes.deepLinks = [link]
                analysis.attributes.appStoreIDs = [id]
            }
            analysis.universalLink = payload
            analysis.failingConditions = [.noDeepLink]
            var renderedSet = AttributeSet()
            renderedSet.title = payload
            renderedSet.contentDescription = payload
            analysis.rendered = RenderingReport(
                attributeSet: renderedSet, onlyAfterJavaScript: [payload], timedOut: true,
                blockedForApplebot: [.init(url: payload, resourceType: payload)])
            analysis.consumers = [
                ConsumerReport(
                    consumer: payload, userAgent: payload,
                    outcome: .answered(status: 403, finalURL: payload, reads: [.init(field: payload, value: payload)])),
                ConsumerReport(consumer: payload, userAgent: payload, outcome: .failed(reason: payload)),
                ConsumerReport(consumer: payload, userAgent: payload, outcome: .disallowedByRobots),
            ]
            page.analysis = analysis
        }
        var safePage = FixturePages.crawled("movies/up.html", seconds: 0.3)
        safePage.url = "https://www.example.com/up.html"
        safePage.finalURL = "https://www.example.com/up.html"
        safePage.findings = []
        safePage.analysis?.failingConditions = []
        safePage.analysis?.attributes.attributeSet.thumbnailURL = "https://www.example.com/up.png?a=1&b=2"
        let siteFinding = Finding(
            rule: .ix001, severity: .error, url: payload, line: 7, excerpt: payload, message: payload, fixHint: payload)
        var report = FixturePages.crawlReport(
            [page, safePage], siteFindings: [siteFinding], seed: payload, publicOrigin: payload, settings: nil)
        report.generatedAt = payload
        report.summary.notCandidatesBecause = [payload: 1]
        report.summary.findings.byRule[payload] = 2
        report.summary.skipped = [payload: 1]
        var associationFile = AssociationFileSummary(url: "javascript:alert(1)", configuredAppIDs: [payload])
        associationFile.status = 200
        associationFile.error = payload
        associationFile.apps = [payload]
        associationFile.notApplicable = [.init(rule: payload, reason: payload)]
        report.universalLinks = [associationFile]
        report.coverage.skipped = [
            SkippedLink(url: "javascript:alert(1)", reason: payload, detail: payload, foundOn: payload)
        ]
        report.coverage.sitemapLocationsNotCrawled = [SitemapLocation(location: payload, sitemap: payload, line: 1)]
        report.coverage.pagesNotInSitemaps = [payload]
        report.coverage.stalePages = [payload]
        report.linking = LocalItemLinking(
            links: [LocalItemLink(entry: payload, page: payload, key: payload)],
            unmatched: [UnmatchedEntry(entry: payload, reason: payload)])
        return HTMLReport(crawl: report, pages: [page, safePage])
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
        let html = Self.hostileReport.html
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
        let html = Self.hostileReport.html
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
        let html = Self.hostileReport.html
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
        var run = ValidationRun(arguments: ["Fixtures/html/movies/up.html"])
        run.pages = [FixturePages.analyzed("movies/up.html")]
        let report = run.report
        let html = HTMLReport(validation: report).html
        #expect(HTMLAudit(html).problems == [])
        let title = report.pages.first?.analysis?.attributes.attributeSet.title ?? "(none)"
        #expect(html.contains("<p class=\"ptitle\">\(title.htmlEscaped)</p>"))
        #expect(html.contains("<code>https://www.example.com/movies/up.html</code>"))
        #expect(html.contains("<title>SpotCheck report – Fixtures/html/movies/up.html</title>"))
        #expect(html.contains("validate report"))
        #expect(html.contains("This report has no coverage data"))
    }

    @Test func responseTimesFallIntoTheirBins() {
        let bins = ResponseTimeBins([0.001, 0.010, 0.0101, 0.3, 7, -1, .nan])
        #expect(bins.counts == [2, 1, 0, 0, 0, 1, 0, 0, 0, 1])
        #expect(bins.labels.count == bins.counts.count)
        #expect(bins.labels[7] == "≤2.5 s")
    }

    @Test func aLargeReportIsRenderedInOnePassPerPage() {
        let page = FixturePages.crawled("movies/up.html")
        let pages = Array(repeating: page, count: 2000)
        var pieces = 0
        var bytes = 0
        HTMLReport(crawl: FixturePages.crawlReport(pages), pages: pages).render { piece in
            pieces += 1
            bytes += piece.utf8.count
        }
        #expect(pieces > 2000)  // each page emitted alone
        #expect(bytes < 2000 * 20_000)
    }
}

/// Issue 30 §3: the HTML report reads each page's typed `PageReport`. Every value of the fixture
/// pages that a page's details show is looked for in the document, so a field the report stops
/// reading fails here.
@Suite("HTML report from typed pages")
struct HTMLReportTypedPageTests {
    static let pages = FixturePages.paths.enumerated().map { index, path in
        FixturePages.crawled(
            path, seconds: 0.001 * Double(index + 1),
            redirects: index == 1 ? [RedirectHop(url: "https://www.example.com/m", status: 301, location: "/m/")] : [],
            problem: index == 2 ? FetchProblem(kind: "soft-404", message: "looks like a 404 page") : nil)
    }

    /// Page `number`'s details, from its open tag to its close.
    static func details(_ html: String, _ number: Int) -> String {
        guard let start = html.range(of: "<details class=\"page\" id=\"p-\(number)\""),
            let end = html.range(of: "</details>", range: start.upperBound..<html.endIndex)
        else { return "" }
        return String(html[start.lowerBound..<end.upperBound])
    }

    @Test func everyFieldOfEachPageIsShown() throws {
        let html = HTMLReport(crawl: FixturePages.crawlReport(Self.pages), pages: Self.pages).html
        #expect(HTMLAudit(html).problems == [])
        var seen = (deepLinks: 0, provenance: 0, findings: 0, failing: 0, ratings: 0, phones: 0, places: 0)
        for (index, page) in Self.pages.enumerated() {
            let details = Self.details(html, index + 1)
            try #require(!details.isEmpty, "page \(index + 1)")
            let fetch = try #require(page.fetch)
            let analysis = try #require(page.analysis, "\(page.url) is analysed")
            let set = analysis.attributes.attributeSet
            // The row: URL, status, time, candidacy, finding counts, rules.
            #expect(details.contains("<code>\(page.url.htmlEscaped)</code>"))
            #expect(details.contains(" data-status=\"\(fetch.status ?? 0)\""))
            #expect(details.contains(" data-ms=\"\(HTMLReport.decimal(fetch.timings.total * 1000))\""))
            #expect(details.contains(" data-candidate=\"\(analysis.isCandidate ? "yes" : "no")\""))
            let counts = SeverityCounts(page.findings)
            #expect(
                details.contains(" data-e=\"\(counts.error)\" data-w=\"\(counts.warning)\" data-i=\"\(counts.info)\""))
            let rules = page.findings.map(\.ruleID).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
            #expect(details.contains(" data-rules=\"\(rules.joined(separator: " "))\""))
            // The facts.
            #expect(details.contains("<dt>HTTP</dt><dd>\(fetch.status ?? 0)</dd>"))
            #expect(details.contains("<dt>time</dt><dd>\(HTMLReport.decimal(fetch.timings.total * 1000)) ms</dd>"))
            if !fetch.redirects.isEmpty {
                #expect(details.contains("<dt>redirects</dt><dd>\(fetch.redirects.count)</dd>"))
            }
            if let problem = fetch.problem {
                #expect(
                    details.contains("<dt>problem</dt><dd>\("\(problem.kind): \(problem.message)".htmlEscaped)</dd>"))
            }
            // The preview.
            if let title = set.title ?? set.displayName {
                #expect(details.contains("<p class=\"ptitle\">\(title.htmlEscaped)</p>"))
                #expect(details.contains("<span class=\"ttl muted\">\(String(title.prefix(140)).htmlEscaped)</span>"))
            }
            if let description = set.contentDescription {
                #expect(details.contains("<p class=\"pdesc\">\(description.htmlEscaped)</p>"))
            }
            if let thumbnail = set.thumbnailURL, let source = HTMLEscaping.safeURL(thumbnail) {
                #expect(details.contains("data-src=\"\(source)\""))
            }
            #expect(details.contains("<p class=\"purl\">\((set.url ?? page.finalURL).htmlEscaped)</p>"))
            if let rating = set.rating {
                seen.ratings += 1
                #expect(details.contains("</span> \(HTMLReport.decimal(rating))"))
            }
            if set.supportsPhoneCall == true {
                seen.phones += 1
                #expect(details.contains("Call \((set.phoneNumbers.first ?? "").htmlEscaped)</span>"))
            }
            if set.supportsNavigation == true, let latitude = set.latitude, let longitude = set.longitude {
                seen.places += 1
                #expect(details.contains("Directions \(HTMLReport.number(latitude)), \(HTMLReport.number(longitude))"))
            }
            // Candidacy, each failing condition in words.
            for condition in analysis.failingConditions {
                seen.failing += 1
                #expect(details.contains(condition.explanation.htmlEscaped), "\(page.url) \(condition)")
            }
            // Deep links and the universal-link verdict.
            #expect(details.contains("<h4>Deep links (\(analysis.attributes.deepLinks.count))</h4>"))
            for link in analysis.attributes.deepLinks {
                seen.deepLinks += 1
                #expect(
                    details.contains(
                        "<tr><td><code>\(link.url.htmlEscaped)</code></td><td>\(link.source.source.htmlEscaped)</td><td>\(link.source.line)</td></tr>"
                    ))
            }
            if let verdict = analysis.universalLink { #expect(details.contains(verdict.htmlEscaped)) }
            // The findings, each with its place, message and fix.
            #expect(details.contains("<h4>Findings (\(page.findings.count))</h4>"))
            for finding in page.findings {
                seen.findings += 1
                #expect(details.contains("<a class=\"rule\" href=\"#rule-\(finding.ruleID)\">\(finding.ruleID)</a>"))
                #expect(details.contains("<p class=\"message\">\(finding.message.htmlEscaped)</p>"))
                if finding.line > 0 { #expect(details.contains("line \(finding.line)")) }
                if !finding.excerpt.isEmpty { #expect(details.contains(finding.excerpt.htmlEscaped)) }
                if !finding.fixHint.isEmpty { #expect(details.contains("<b>Fix:</b> \(finding.fixHint.htmlEscaped)")) }
            }
            // The attribute set, each field with where it came from.
            for member in set.json {
                #expect(
                    details.contains(
                        "<tr><th>\(member.key.htmlEscaped)</th><td>\(member.value.displayText.htmlEscaped)</td>"))
            }
            for entry in analysis.attributes.provenance where set.json[entry.field] != nil {
                seen.provenance += 1
                let origin =
                    entry.chosen.source.line > 0
                    ? "\(entry.chosen.source.source.htmlEscaped), line \(entry.chosen.source.line)"
                    : entry.chosen.source.source.htmlEscaped
                #expect(details.contains("<tr><th>\(entry.field.htmlEscaped)</th>"), "\(entry.field)")
                #expect(details.contains("</td><td>\(origin)</td><td>"), "\(page.url) \(entry.field)")
            }
        }
        // The fixture pages fill every part (else the loop above checks nothing of it).
        #expect(seen.deepLinks > 0 && seen.provenance > 0 && seen.findings > 0 && seen.failing > 0)
        #expect(seen.ratings > 0 && seen.phones > 0 && seen.places > 0)
        // The app section counts the App Store IDs the pages name and the universal-link verdicts.
        let storeIDs = Set(Self.pages.flatMap { $0.analysis?.attributes.appStoreIDs.map(\.url) ?? [] })
        #expect(!storeIDs.isEmpty)
        for id in storeIDs { #expect(html.contains("<code>\(id.htmlEscaped) (")) }
        #expect(html.contains("<code>handled: \(Self.pages.count)</code>"))
    }

    @Test func theReportAroundThePagesIsShown() {
        var report = FixturePages.crawlReport(
            Self.pages,
            siteFindings: [FixturePages.finding("IX001", .error, "https://www.example.com/private/", line: 0)])
        report.summary.skipped = ["robots": 3]
        report.coverage.skipped = [
            SkippedLink(url: "https://www.example.com/private/", reason: "robots", detail: "disallowed", foundOn: "/x")
        ]
        report.summary.sitemapLocationsNotCrawled = 1
        report.coverage.sitemapLocationsNotCrawled = [
            SitemapLocation(location: "https://www.example.com/gone.html", sitemap: "sitemap.xml", line: 27)
        ]
        report.summary.pagesNotInSitemaps = 1
        report.coverage.pagesNotInSitemaps = ["https://www.example.com/colleagues/office.html"]
        report.linking = LocalItemLinking(
            links: [LocalItemLink(entry: "movie-up", page: Self.pages[1].finalURL, key: "contentURL")])
        let html = HTMLReport(crawl: report, pages: Self.pages).html
        #expect(html.contains("<title>SpotCheck report – https://www.example.com</title>"))
        #expect(html.contains("crawl report · generated 2026-11-29T19:00:00Z · pages from the folder /srv/site"))
        #expect(html.contains("<span class=\"n\">3</span> <span class=\"l\">not crawled</span>"))
        #expect(html.contains("Not crawled: <b>robots</b> (3)"))
        #expect(html.contains("<code>https://www.example.com/private/</code> – disallowed"))
        #expect(html.contains("(on /x)"))
        #expect(html.contains("https://www.example.com/gone.html (sitemap.xml line 27)"))
        #expect(html.contains("Pages in no sitemap (1)"))
        #expect(html.contains("<section id=\"site-findings\">\n<h2>Site findings (1)</h2>"))
        #expect(html.contains("<code>movie-up</code> by contentURL"))
        #expect(html.components(separatedBy: "data-linked=\"yes\"").count == 2)
        let candidates = Self.pages.filter { $0.analysis?.isCandidate == true }.count
        #expect(html.contains("<span class=\"n\">\(candidates)</span> <span class=\"l\">candidates</span>"))
    }

    @Test func numbersReportJSONCannotWriteAreLeftOutAsThere() {
        // report.json writes an infinite or NaN number as null; the HTML report shows none either.
        var page = FixturePages.crawled("movies/up.html", seconds: .infinity)
        page.analysis?.attributes.attributeSet.rating = .nan
        let html = HTMLReport(crawl: FixturePages.crawlReport([page]), pages: [page]).html
        #expect(html.contains(" data-ms=\"-1\""))
        #expect(html.contains("<span class=\"c-ms\">\u{2013}</span>"))
        #expect(!html.contains("<dt>time</dt>"))
        #expect(!html.contains("<p class=\"rating\">"))
        #expect(html.contains("no response times in this report"))
    }
}

/// Issue 15 §6: the report answers "what do I fix first?".
@Suite("HTML report: what to fix first")
struct HTMLReportFixFirstTests {
    /// Fixture page `number` (the movie page's analysis) at `https://www.example.com/<number>.html`,
    /// titled `Page <number>`, a candidate with exactly `findings`.
    static func page(_ number: Int, _ findings: [(String, Severity)]) -> PageReport {
        let url = "https://www.example.com/\(number).html"
        var page = FixturePages.crawled("movies/up.html", seconds: 0.01)
        page.url = url
        page.finalURL = url
        page.findings = findings.map { FixturePages.finding($0.0, $0.1, url) }
        page.analysis?.attributes.attributeSet.title = "Page \(number)"
        page.analysis?.failingConditions = []
        page.analysis?.universalLink = nil
        return page
    }

    /// Page 1: SAB007 and CT005; pages 2 and 3: SD001 and SAB007; page 4: OG005 three times;
    /// page 5: nothing; a site finding IX001. Errors: SD001 on 2 pages, OG005 three times on one
    /// page, IX001 once over the site.
    static let pages = [
        page(1, [("SAB007", .warning), ("CT005", .info)]),
        page(2, [("SAB007", .warning), ("SD001", .error)]),
        page(3, [("SD001", .error), ("SAB007", .warning)]),
        page(4, [("OG005", .error), ("OG005", .error), ("OG005", .error)]),
        page(5, []),
    ]

    static func report(_ pages: [PageReport] = pages) -> HTMLReport {
        HTMLReport(
            crawl: FixturePages.crawlReport(
                pages, siteFindings: [FixturePages.finding("IX001", .error, "https://www.example.com/private/")]),
            pages: pages)
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
        let html = Self.report().html
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
        let pages = [Self.page(1, [("SAB007", .warning)]), Self.page(2, [("CT005", .info)])]
        let fixFirst = Self.section(
            HTMLReport(crawl: FixturePages.crawlReport(pages), pages: pages).html, "fix-first")
        #expect(fixFirst.contains("No errors."))
        #expect(Self.values(of: "id", in: fixFirst).dropFirst() == ["fix-SAB007"])
        let clean = [Self.page(1, [])]
        #expect(
            Self.section(HTMLReport(crawl: FixturePages.crawlReport(clean), pages: clean).html, "fix-first")
                .contains("Nothing to fix"))
    }

    @Test func rulesChartsAndFiltersShowTitlesSortedBySeverityThenCount() {
        let html = Self.report().html
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
        let html = Self.report().html
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
        let html = Self.report().html
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
        let html = (name == "hostile" ? HTMLReportTests.hostileReport : Self.report()).html
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
        let html = Self.report().html
        let header = html.components(separatedBy: "</header>").first ?? ""
        #expect(header.contains("pages from the folder /srv/site"))
        #expect(!html.contains("127.0.0.1"))
        #expect(HTMLReport.isLoopback("http://127.0.0.1:8080/") && HTMLReport.isLoopback("http://[::1]:80/"))
        #expect(HTMLReport.isLoopback("http://localhost/") && !HTMLReport.isLoopback("https://www.example.com/"))
        let remote = FixturePages.crawlReport(Self.pages, seed: "https://staging.example.com/", settings: nil)
        #expect(
            HTMLReport(crawl: remote, pages: Self.pages).html.contains("fetched from https://staging.example.com/"))
    }

    @Test func theStreamWritesTheSameDocumentInTheSameOrder() throws {
        let folder = try Scratch.folder("html-stream")
        for report in [Self.report(), HTMLReportTests.hostileReport] {
            guard case .crawl(let crawl) = report.report else {
                Issue.record("a crawl's report")
                continue
            }
            var stream = try HTMLReportStream(folder: folder)
            for page in report.pages { stream.add(page: page) }
            let streamed = try String(contentsOfFile: try stream.finish(report: crawl), encoding: .utf8)
            #expect(streamed == report.html)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["index.html"])
    }
}

/// Issue 30 §6: a non-candidate says why in words, each reason linked to the finding that reports it.
@Suite("HTML report: why a page is not a candidate")
struct HTMLReportCandidacyTests {
    @Test func eachFailingConditionIsWordsLinkedToItsFinding() {
        var page = HTMLReportFixFirstTests.page(1, [("CT005", .info), ("IX006", .warning), ("IX006", .warning)])
        page.analysis?.failingConditions = [.notAtCanonicalURL, .noDeepLink]
        let html = HTMLReport(crawl: FixturePages.crawlReport([page]), pages: [page]).html
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
