import CrawlStore
public import LenientJSON
import MarkupExtraction
public import PageFetching
import RedirectFollowing
public import Rulebook
import URLNormalization
public import Verification

/// IX011: the app's marketing and support URLs as App Store Connect lists them (`--marketing-url`)
/// are where Applebot learns of the site; each must answer 200 and be a page of the crawled site or
/// link to one. Fetched once per run (redirects followed as for pages), judged against the crawl's
/// scope, and stored as a site file (`kind` `marketing`) whose findings every report includes.
public struct MarketingPageCheck: Sendable {
    /// The outcome for one URL: what was found (for reports) and the IX011 finding, if any.
    public struct Outcome: Sendable {
        public var url: String
        public var summary: JSONObject
        public var findings: [Finding]
    }

    private let fetcher: any PageFetcher
    private let scope: CrawlScope
    private let verifier: PageVerifier
    private let maximumRedirects: Int

    public init(fetcher: any PageFetcher, scope: CrawlScope, verifier: PageVerifier, maximumRedirects: Int) {
        self.fetcher = fetcher
        self.scope = scope
        self.verifier = verifier
        self.maximumRedirects = maximumRedirects
    }

    /// Fetches `url` (public, as App Store Connect shows it) and judges it.
    public func check(_ url: String) async -> Outcome {
        var summary = JSONObject()
        summary.append("url", .string(url))
        func outcome(_ problem: String?) -> Outcome {
            summary.append("problem", problem.map(JSONValue.string) ?? .null)
            let finding = problem.flatMap { MarketingPageRules.finding(url: url, problem: $0, verifier: verifier) }
            return Outcome(url: url, summary: summary, findings: finding.map { [$0] } ?? [])
        }
        guard let start = URLParser.parse(fetchURL(url)), start.isCrawlable else {
            return outcome("the marketing/support URL \(url) is not an http(s) URL")
        }
        var chain = RedirectFollower(start: start, maximumHops: maximumRedirects)
        let response: FetchResponse
        while true {
            let answer: FetchResponse
            do throws(FetchError) {
                answer = try await fetcher.fetch(FetchRequest(url: chain.url))
            } catch {
                return outcome("\(url) could not be fetched (\(error.kind.rawValue): \(error.message))")
            }
            switch chain.receive(status: answer.status, location: answer.header("Location")) {
            case .answer:
                response = answer
            case .follow:
                continue
            case .stopped(.loop(let target)):
                return outcome("\(url) redirects in a loop (back to \(publicURL(target.url)))")
            case .stopped(.tooManyHops(let target)):
                return outcome(
                    "\(url) redirects more than \(maximumRedirects) times (last to \(publicURL(target.url)))")
            case .endsAt(let target), .stopped(.outOfScope(let target, _, _)):
                // Not asked for (no judge is given); said plainly should a judge be added.
                return outcome("\(url) redirects to \(publicURL(target.url)), which is not followed")
            case .stopped(.unparsableLocation(let location)):
                return outcome("\(url) redirects to \"\(location)\", which is not a URL")
            }
            break
        }
        let finalURL = publicURL(chain.url)
        summary.append("finalURL", .string(finalURL))
        summary.append("status", JSONValue(response.status))
        guard response.status == 200 else {
            return outcome("\(url) answers HTTP \(response.status): Applebot cannot follow it to the site")
        }
        if scope.violation(of: chain.current) == nil { return outcome(nil) }
        let page = MarkupExtractor(options: MarkupExtractor.Options(encoding: response.charset))
            .extract(html: response.body, url: chain.url)
        let base = URLParser.parse(page.baseURL)
        let intoSite = page.links.compactMap { link -> String? in
            guard let target = URLParser.parse(link.href, base: base), target.isCrawlable,
                let fetchTarget = URLParser.parse(fetchURL(target.serialized(includingFragment: false))),
                scope.violation(of: fetchTarget) == nil
            else { return nil }
            return publicURL(fetchTarget.serialized(includingFragment: false))
        }
        summary.append("linksIntoSite", .array(intoSite.prefix(20).map(JSONValue.string)))
        if intoSite.isEmpty {
            return outcome(
                "\(finalURL) is not on the crawled site and none of its \(page.links.count) links leads to it: Applebot finds the site's pages from the app's marketing and support URLs"
            )
        }
        return outcome(nil)
    }

    private func fetchURL(_ url: String) -> String { scope.mapping?.fetchURL(url) ?? url }
    private func publicURL(_ url: String) -> String { scope.mapping?.publicURL(url) ?? url }

    /// Checks every URL and stores each outcome as a site file of the run.
    func checkAll(_ urls: [String], store: StoreQueue, clock: @Sendable () -> Double) async throws {
        for url in urls {
            let outcome = await check(url)
            let record = CrawlStore.SiteFileRecord(
                url: url, kind: "marketing", summaryJSON: JSONValue.object(outcome.summary).serialized(pretty: false),
                findingsJSON: JSONValue.array(outcome.findings.map { .object($0.json) }).serialized(pretty: false),
                fetchedAt: clock())
            try await store.run { try $0.saveSiteFile(record) }
        }
    }
}
