import CrawlStore
import LenientJSON
import RobotsExclusion
import URLNormalization
public import Verification

extension CrawlReportWriter {
    /// The site-level findings (duplicates across pages, canonical targets, sitemaps), from one
    /// pass over the stored pages; each page is reduced to the few strings the rules compare.
    public func siteFindings() throws -> [Finding] {
        try siteFindings(linking: try linking())
    }

    /// The same, with the local-item linking already made (`write` makes it once for both).
    func siteFindings(linking: LinkReport?) throws -> [Finding] {
        var pages: [SitePage] = []
        try store.forEachPage { records in
            for record in records { pages.append(Self.sitePage(record, shown: shown)) }
        }
        let listings = try store.sitemapEntries().map {
            SitemapListing(location: $0.location, sitemapURL: $0.sitemapURL, line: $0.line)
        }
        var findings = siteVerifier.verify(pages, sitemapListings: listings)
        findings += try applebotBlockedSkips()
        for file in try store.siteFiles() {
            let stored = JSONParser.parse(file.findingsJSON, lenient: false).value?.arrayValue ?? []
            findings += stored.compactMap(Finding.init(json:))
        }
        findings += linking?.findings ?? []
        return findings
    }

    /// Every stored page's findings, by public URL, in report order (for SARIF, JUnit and HTML).
    public func pageFindings() throws -> [(url: String, findings: [Finding])] {
        var pages: [(url: String, findings: [Finding])] = []
        try store.forEachPage { records in
            for record in records {
                let findings = record.findingsJSON.flatMap { JSONParser.parse($0, lenient: false).value }
                pages.append((shown(record.finalURL), findings?.arrayValue?.compactMap(Finding.init(json:)) ?? []))
            }
        }
        return pages
    }

    /// IX001 for URLs the crawl did not fetch because robots.txt disallows them, when it
    /// disallows them for Applebot too (its group, else Googlebot's, else `*`).
    func applebotBlockedSkips() throws -> [Finding] {
        var policies: [String: RobotsPolicy?] = [:]
        var findings: [Finding] = []
        let verifier = PageVerifier(configuration: siteVerifier.configuration)
        for skipped in try store.skippedURLs() where skipped.reason == SkipReason.robots.rawValue {
            guard let parsed = URLParser.parse(skipped.url) else { continue }
            let origin = OriginMapping.origin(of: parsed)
            if policies[origin] == nil {
                policies[origin] = .some(
                    try store.robots(origin: origin).map {
                        RobotsBook.answer(from: $0, productToken: "applebot").policy
                    })
            }
            guard let policy = policies[origin] ?? nil,
                !policy.isAllowed(productTokens: RobotsBook.applebotTokens, url: skipped.url),
                let finding = verifier.finding(
                    .ix001, url: shown(skipped.url), line: 0, excerpt: "robots.txt",
                    message:
                        "robots.txt disallows \(shown(skipped.url)) for Applebot (not fetched: it disallows SpotCheck too)"
                )
            else { continue }
            findings.append(finding)
        }
        return findings
    }

    static func sitePage(_ record: PageRecord, shown: (String) -> String) -> SitePage {
        let summary = record.markupJSON.flatMap(StoredPageSummary.init(markup:))
        return SitePage(
            url: shown(record.finalURL), status: record.status, isHTML: record.markupJSON != nil,
            applebotAllowed: record.applebotAllowed, isNoindex: summary?.failing.contains("noindex") ?? false,
            canonical: summary?.canonical, title: summary?.title, contentDescription: summary?.contentDescription,
            thumbnailURL: summary?.thumbnailURL, appArgument: summary?.appArgument)
    }
}
