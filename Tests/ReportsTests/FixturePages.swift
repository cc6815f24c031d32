import Foundation
import LenientJSON
import PageAnalysis
import ReportModel
import Rulebook
import SpotlightModel
import Verification

/// Pages of the fixture site (`Fixtures/html`) as every output reads them: each file analysed by
/// the one page pipeline (`PageAnalyzer`, with every rule, as `validate` does) into its
/// `PageReport`. The HTML report's tests are built from these typed values, not from JSON.
enum FixturePages {
    /// `Fixtures/html`, found from this file's path.
    static let root: String = {
        var components = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
        components.removeLast(3)  // Tests/ReportsTests/FixturePages.swift
        return components.joined(separator: "/") + "/Fixtures/html"
    }()

    /// Pages that between them fill every part of a page's details: a site root with its app
    /// banner, a movie with a rating and deep links, an office with a phone and a place, a
    /// profile with nested items, pages with findings and failing candidacy conditions, and the
    /// hostile page.
    static let paths = [
        "index.html", "movies/up.html", "colleagues/office.html", "family/anna-lindqvist.html",
        "broken/no-deep-link.html", "broken/canonical-mismatch.html", "broken/noindex.html",
        "broken/sab-relative-app-argument.html", "broken/hostile.html",
    ]

    static func analyzed(_ path: String) -> AnalyzedPage {
        var analyzer = PageAnalyzer()
        analyzer.verifier = PageVerifier(appStoreID: "1234567890")
        let bytes = FileManager.default.contents(atPath: root + "/" + path).map { Array($0) } ?? []
        return analyzer.analyze(
            html: bytes, input: PageInput(path: "Fixtures/html/" + path, url: "https://www.example.com/" + path))
    }

    /// The page as `validate` reports it: located at its file, its markup in full, no fetch.
    static func page(_ path: String) -> PageReport { analyzed(path).report }

    /// The page as a crawl reports it: served (status, time, redirects), its analysis.
    static func crawled(
        _ path: String, status: Int = 200, seconds: Double = 0.0123, redirects: [RedirectHop] = [],
        problem: FetchProblem? = nil
    ) -> PageReport {
        var report = page(path)
        report.markup = nil
        report.fetch = FetchFacts(
            depth: 1, status: status, contentType: "text/html", problem: problem, redirects: redirects,
            timings: ResponseTimings(total: seconds), bodyBytes: 1000)
        report.analysis?.universalLink = "handled: the app claims this path"
        return report
    }

    /// A crawl's report around `pages`, its summary counted from them.
    static func crawlReport(
        _ pages: [PageReport], siteFindings: [Finding] = [], seed: String = "http://127.0.0.1:41234/",
        publicOrigin: String? = "https://www.example.com", settings: JSONValue? = ["source": "/srv/site"]
    ) -> CrawlReport {
        var summary = CrawlSummary()
        summary.pages = pages.count
        for page in pages {
            summary.byStatus[page.fetch?.status.map(String.init) ?? "none", default: 0] += 1
            if page.analysis?.isCandidate == true { summary.candidates += 1 }
            for condition in page.analysis?.failingConditions ?? [] {
                summary.notCandidatesBecause[condition.rawValue, default: 0] += 1
            }
        }
        for finding in pages.flatMap(\.findings) + siteFindings {
            switch finding.severity {
            case .error: summary.findings.errors += 1
            case .warning: summary.findings.warnings += 1
            case .info: summary.findings.infos += 1
            }
            summary.findings.byRule[finding.ruleID, default: 0] += 1
        }
        return CrawlReport(
            generatedAt: "2026-11-29T19:00:00Z",
            crawl: CrawlRunFacts(seed: seed, publicOrigin: publicOrigin, generation: 1, settings: settings),
            summary: summary, siteFindings: siteFindings)
    }

    /// A finding of `rule` (an id of the catalogue) at line 3 of `url`.
    static func finding(_ rule: String, _ severity: Severity, _ url: String, line: Int = 3) -> Finding {
        Finding(
            rule: RuleID(text: rule) ?? .sab001, severity: severity, url: url, line: line, excerpt: "<x>",
            message: "m", fixHint: "Fix \(rule).")
    }
}
