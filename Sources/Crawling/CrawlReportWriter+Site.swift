import CrawlStore
import LenientJSON
import RobotsExclusion
import URLNormalization
public import Verification

extension CrawlReportWriter {
    /// The site-level findings (duplicates across pages, canonical targets, sitemaps), from one
    /// pass over the stored pages; each page is reduced to the few strings the rules compare.
    public func siteFindings() throws -> [Finding] {
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
        findings += try linking()?.findings ?? []
        return findings
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
                    "IX001", url: shown(skipped.url), line: 0, excerpt: "robots.txt",
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
