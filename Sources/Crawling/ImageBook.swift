import ImageSniffing
import PageFetching
import RedirectFollowing
import URLNormalization
import Verification

/// The images pages name, each fetched once per crawl (concurrent askers wait for the same
/// fetch): redirects followed by hand (`RedirectFollower`: at most 5, loops caught, each hop in
/// scope and allowed by robots.txt), the body capped by the fetcher's limit, and the first bytes
/// sniffed for format and pixel size.
struct ImageBook: Sendable {
    private let fetcher: any PageFetcher
    private let robots: RobotsBook
    private let scope: CrawlScope
    private let mapping: OriginMapping?
    private let productToken: String
    /// The fetcher's body cap (`--max-body`): what a `.tooLarge` image is known to exceed.
    private let maximumBodyBytes: Int
    private let probes = OnceEach<String, ImageProbe?>()

    static let maximumRedirects = 5

    init(
        fetcher: any PageFetcher, robots: RobotsBook, scope: CrawlScope, mapping: OriginMapping?, productToken: String,
        maximumBodyBytes: Int
    ) {
        self.fetcher = fetcher
        self.robots = robots
        self.scope = scope
        self.mapping = mapping
        self.productToken = productToken
        self.maximumBodyBytes = maximumBodyBytes
    }

    /// What fetching `url` (a public URL) found; nil when the image is outside the crawl's scope or
    /// robots.txt keeps SpotCheck from it (not checked, not a failure).
    func probe(_ url: String) async -> ImageProbe? {
        await probes.value(for: url) { await self.fetch(url) }
    }

    private func fetch(_ publicURL: String) async -> ImageProbe? {
        let url = mapping?.fetchURL(publicURL) ?? publicURL
        guard let start = URLParser.parse(url), scope.violation(of: start) == nil else { return nil }
        var chain = RedirectFollower(start: start, maximumHops: Self.maximumRedirects)
        while true {
            let url = chain.url
            let origin = OriginMapping.origin(of: chain.current)
            guard await robots.answer(forOrigin: origin).policy.isAllowed(productTokens: [productToken], url: url)
            else { return nil }
            let response: FetchResponse
            do {
                response = try await fetcher.fetch(
                    FetchRequest(url: url, headers: [HTTPHeader("Accept", "image/*,*/*;q=0.5")]))
            } catch {
                if error.kind == .tooLarge {
                    return ImageProbe(
                        status: 200, redirects: chain.hops.count, byteCount: maximumBodyBytes, isTruncated: true,
                        header: nil, failure: nil)
                }
                return ImageProbe(
                    status: nil, redirects: chain.hops.count, failure: "\(error.kind.rawValue): \(error.message)")
            }
            let step = chain.receive(status: response.status, location: response.header("Location")) { target in
                scope.violation(of: target.parsed).map { .outOfScope(reason: $0.reason.rawValue, detail: $0.detail) }
                    ?? .follow
            }
            func probe(redirects: Int) -> ImageProbe {
                ImageProbe(
                    status: response.status, redirects: redirects, mediaType: response.mediaType,
                    byteCount: response.body.count,
                    header: ImageHeader.sniff(response.body.prefix(ImageHeader.bytesNeeded)))
            }
            switch step {
            case .follow:
                continue
            case .answer:
                return probe(redirects: chain.hops.count)
            case .stopped(.unparsableLocation), .endsAt:
                // A Location that does not parse: the image is judged by the redirect it got.
                return probe(redirects: chain.hops.count - 1)
            case .stopped(.outOfScope):
                // Outside the crawl: not checked, not a failure.
                return nil
            case .stopped(.loop(let target)):
                return ImageProbe(
                    status: response.status, redirects: chain.hops.count,
                    failure: "redirect loop: \(target.url) was already visited in this chain")
            case .stopped(.tooManyHops):
                return ImageProbe(
                    status: response.status, redirects: chain.hops.count,
                    failure: "more than \(Self.maximumRedirects) redirects")
            }
        }
    }
}
