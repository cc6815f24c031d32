import BrowserRendering
import LenientJSON
import MarkupExtraction
import ReportModel
import URLNormalization
import Verification

/// `crawl --render` (issue 14 §1): each HTML page loaded again in headless Chromium with the
/// crawl's User-Agent, each request it makes asked of robots.txt for Applebot first (refused ones
/// recorded for IX016, as Applebot would not fetch them), and the rendered DOM extracted as the
/// served page is (UTF-8, the DOM's own encoding) for the served-against-rendered rules.
struct PageRendering: Sendable {
    let renderer: ChromiumRenderer
    let robots: RobotsBook
    let mapping: OriginMapping?
    let extractorOptions: MarkupExtractor.Options

    /// The page at `url` (the URL fetched) rendered, as the rules read it.
    func view(of url: String) async -> RenderedView {
        let robots = self.robots
        let mapping = self.mapping
        do {
            let page = try await renderer.render(url) { request in
                guard let parsed = URLParser.parse(request), parsed.isCrawlable else { return true }
                return await robots.allowsApplebot(request, origin: OriginMapping.origin(of: parsed))
            }
            var options = extractorOptions
            options.encoding = "utf-8"
            let markup = MarkupExtractor(options: options).extract(
                html: Array(page.html.utf8), url: mapping?.publicURL(page.finalURL) ?? page.finalURL)
            return RenderedView(
                markup: markup,
                blocked: page.requests.filter(\.blocked).map {
                    RenderedView.BlockedRequest(
                        url: mapping?.publicURL($0.url) ?? $0.url, resourceType: $0.resourceType)
                },
                timedOut: page.timedOut)
        } catch {
            return RenderedView(markup: nil, failure: error.description)
        }
    }
}

extension RenderedView {
    /// The rendered page as the reports show it: its attribute set (beside the served one), what
    /// only JavaScript added, the requests robots.txt kept from Applebot.
    func report(served: PageMarkup) -> RenderingReport {
        RenderingReport(
            failure: failure, attributeSet: attributes?.attributeSet,
            onlyAfterJavaScript: attributes == nil ? [] : onlyAfterJavaScript(served: served).map(\.field.rawValue),
            timedOut: timedOut,
            blockedForApplebot: blocked.map {
                RenderingReport.BlockedRequest(url: $0.url, resourceType: $0.resourceType)
            })
    }
}
