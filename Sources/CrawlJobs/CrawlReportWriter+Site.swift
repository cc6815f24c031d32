import CrawlStore
import Crawling
import ItemLinking
import LenientJSON
import RobotsExclusion
import Rulebook
import URLNormalization
import Verification

extension CrawlReportWriter {
    /// The site-level findings (duplicates across pages, canonical targets, sitemaps) over the
    /// pages the report pass gathered, with the local-item linking's (AS) findings.
    func siteFindings(_ pages: [SitePage], linking: LinkReport?) throws -> [Finding] {
        let listings = try store.sitemapEntriesForSiteChecks().map {
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

    /// IX001 for URLs the crawl did not fetch because robots.txt disallows them, when it
    /// disallows them for Applebot too (its group, else Googlebot's, else `*`).
    func applebotBlockedSkips() throws -> [Finding] {
        var policies: [String: RobotsPolicy?] = [:]
        var findings: [Finding] = []
        let verifier = PageVerifier(configuration: siteVerifier.configuration)
        try store.forEachSkippedURL(reason: SkipReason.robots.rawValue) { skipped in
            guard let parsed = URLParser.parse(skipped.url) else { return }
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
            else { return }
            findings.append(finding)
        }
        return findings
    }

    /// What the site rules compare of a stored page: its typed verdict columns.
    static func sitePage(_ record: PageRecord, shown: (String) -> String) -> SitePage {
        let verdict = record.verdict
        return SitePage(
            url: shown(record.finalURL), status: record.status, isHTML: record.verdict != nil,
            applebotAllowed: record.applebotAllowed, isNoindex: verdict?.failingConditions.contains("noindex") ?? false,
            canonical: verdict?.canonical, title: verdict?.title, contentDescription: verdict?.contentDescription,
            thumbnailURL: verdict?.thumbnailURL, appArgument: verdict?.appArgument)
    }
}
