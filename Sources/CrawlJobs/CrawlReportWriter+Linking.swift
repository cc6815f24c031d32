import CrawlStore
import Crawling
import Foundation
import ItemLinking
import ReportModel
import SpotlightIndex
import SpotlightModel
import URLNormalization
import Verification

extension CrawlReportWriter {
    /// What the local-item linker needs of a stored page.
    static func linkablePage(_ record: PageRecord, page: PageReport) -> LinkablePage {
        let failing = record.verdict?.failingConditions ?? []
        return LinkablePage(
            url: page.url, finalURL: page.finalURL, status: record.status,
            canonical: record.verdict?.canonical, isCandidate: record.verdict?.isCandidate == true,
            isPubliclyIndexable: record.applebotAllowed != false && !failing.contains("noindex"),
            attributeSet: page.analysis?.attributes.attributeSet)
    }

    /// Joins the app's local entries to the pages the report pass gathered (`LocalItemLinker`):
    /// links, entries without a page and why, candidate pages without an entry, and the AS findings.
    func linking(_ pages: [LinkablePage]) throws -> LinkReport? {
        guard let localEntries else { return nil }
        // Only the skipped URLs an entry names: a crawl may have skipped far more.
        let joinKeys = LocalItemLinker.joinKeys(of: localEntries)
        var notFetched: [String: String] = [:]
        try store.forEachSkippedURL(reason: nil) { skipped in
            if let key = URLParser.parse(shown(skipped.url))?.deduplicationKey, joinKeys.contains(key) {
                notFetched[key] = "\(skipped.reason): \(skipped.detail)"
            }
        }
        return LocalItemLinker(configuration: siteVerifier.configuration, now: now)
            .link(entries: localEntries, pages: pages, notFetched: notFetched)
    }

    /// What the reports show of the linking (report.json's `linking`, the HTML report's local items).
    static func linkingSummary(_ report: LinkReport) -> LocalItemLinking {
        LocalItemLinking(
            links: report.links, unmatched: report.unmatched, pagesWithoutEntries: report.pagesWithoutEntries)
    }
}
