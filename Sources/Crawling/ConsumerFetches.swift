import LenientJSON
import MarkupExtraction
import PageAnalysis
import PageFetching
import RedirectFollowing
import ReportModel
import URLNormalization
import Verification

/// `crawl --consumers` (issue 14 §3): each HTML page fetched once more as each named consumer
/// fetches it: its User-Agent, its robots.txt group (a consumer that reads none fetches anyway),
/// redirects followed by hand as for images (`RedirectFollower`: at most 5, loops caught, each hop
/// in the crawl's scope), through the side requests' gate (`--per-host`, `Crawl-delay`, back-off),
/// and the metadata it would read extracted from what it got, for `ConsumerChecks` (IX010).
struct ConsumerFetches: Sendable {
    let consumers: [Consumer]
    let fetcher: any PageFetcher
    let robots: RobotsBook
    let scope: CrawlScope
    let mapping: OriginMapping?
    let gate: HostGate
    let extractorOptions: MarkupExtractor.Options

    static let maximumRedirects = 5

    /// What each consumer gets at `url` (the URL fetched, not the public one), in the consumers'
    /// order; the consumers' fetches run concurrently within the gate's limits.
    func views(of url: String) async -> [ConsumerView] {
        await consumers.concurrentlyMapped { consumer in
            ConsumerView(consumer: consumer, outcome: await outcome(for: consumer, at: url))
        }
    }

    private func outcome(for consumer: Consumer, at url: String) async -> ConsumerView.Outcome {
        guard let start = URLParser.parse(url) else { return .failed("not a URL: \(url)") }
        var chain = RedirectFollower(start: start, maximumHops: Self.maximumRedirects)
        let headers = [HTTPHeader("User-Agent", consumer.userAgent)]
        while true {
            let url = chain.url
            let origin = OriginMapping.origin(of: chain.current)
            if !consumer.robotsTokens.isEmpty,
                await !robots.answer(forOrigin: origin).policy.isAllowed(productTokens: consumer.robotsTokens, url: url)
            {
                return .disallowedByRobots
            }
            let fetcher = self.fetcher
            let response: FetchResponse
            do {
                response = try await gate.run(host: origin) { () async throws(FetchError) in
                    try await fetcher.fetch(FetchRequest(url: url, headers: headers))
                }
            } catch {
                return .failed("\(error.kind.rawValue): \(error.message)")
            }
            let step = chain.receive(status: response.status, location: response.header("Location")) { target in
                scope.violation(of: target.parsed).map { .outOfScope(reason: $0.reason.rawValue, detail: $0.detail) }
                    ?? .follow
            }
            switch step {
            case .follow:
                continue
            case .answer, .stopped(.unparsableLocation), .endsAt, .stopped(.outOfScope):
                // The consumer reads the answer it stopped at (a redirect outside the crawl is
                // reported by where it ends, not followed).
                return answered(response, at: url)
            case .stopped(.loop(let target)):
                return .failed("redirect loop: \(target.url) was already visited in this chain")
            case .stopped(.tooManyHops):
                return .failed("more than \(Self.maximumRedirects) redirects")
            }
        }
    }

    private func answered(_ response: FetchResponse, at url: String) -> ConsumerView.Outcome {
        let publicURL = mapping?.publicURL(url) ?? url
        let isHTML = response.status == 200 && (response.mediaType ?? "text/html").contains("html")
        var options = extractorOptions
        // The header's charset decides, as it does for the page itself (`PagePipeline.begin`).
        if let charset = response.charset.flatMap(PagePipeline.plausibleCharset) { options.encoding = charset }
        let metadata =
            isHTML
            ? ConsumerMetadata(MarkupExtractor(options: options).extract(html: response.body, url: publicURL))
            : nil
        return .answered(status: response.status, finalURL: publicURL, metadata: metadata)
    }
}

extension ConsumerView {
    /// The view as the reports show it: the consumer, its User-Agent, and what it got.
    var report: ConsumerReport {
        let reported: ConsumerReport.Outcome
        switch outcome {
        case .disallowedByRobots:
            reported = .disallowedByRobots
        case .failed(let reason):
            reported = .failed(reason: reason)
        case .answered(let status, let finalURL, let metadata):
            reported = .answered(
                status: status, finalURL: finalURL,
                reads: metadata.map { metadata in
                    consumer.reads.map { ConsumerReport.FieldValue(field: $0.rawValue, value: metadata.values[$0]) }
                })
        }
        return ConsumerReport(consumer: consumer.name, userAgent: consumer.userAgent, outcome: reported)
    }
}
