import CrawlStore
import LenientJSON
import MarkupExtraction
import ReportModel
import Rulebook

/// A stored page's binary values, read back as the reports read them.
extension PageRecord {
    var storedPayload: PagePayload? { payload.flatMap { try? PagePayload(stored: $0) } }

    var storedAnalysis: MarkupAnalysis? { storedPayload?.analysis }

    var storedMarkup: PageMarkup? { markup.flatMap { try? PageMarkup(stored: $0) } }

    var storedFindings: [Finding] { storedPayload?.findings ?? [] }

    /// The page's `markup` object as report.json shows it, with the raw markup when `includingMarkup`.
    func shownMarkup(includingMarkup: Bool = false) -> JSONObject? {
        PageReport(
            url: requestedURL, finalURL: finalURL, findings: storedFindings, analysis: storedAnalysis,
            markup: includingMarkup ? storedMarkup : nil
        ).json(includingMarkup: includingMarkup)["markup"]?.objectValue
    }
}
