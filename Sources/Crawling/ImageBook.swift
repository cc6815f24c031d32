import ImageSniffing
import PageFetching
import RedirectFollowing
import URLNormalization
import Verification

/// The images pages name, each fetched once per crawl (concurrent askers wait for the same
/// fetch): redirects followed by hand (`RedirectFollower`: at most 5, loops caught, each hop in
/// scope and allowed by robots.txt), the body capped by the fetcher's limit, and the first bytes
/// sniffed for format and pixel size. Bounded (issue 17 §2.4: 50,000 `og:image` tags made 50,000
/// requests, one after another): the first `CrawlSettings.imagesCheckedPerPage` images of a page are checked, at most
/// `--max-images` distinct images in a run, and at most `--per-host` image requests are in flight
/// to one host; a page's images are fetched concurrently within that.
struct ImageBook: Sendable {
    private let fetcher: any PageFetcher
    private let robots: RobotsBook
    private let scope: CrawlScope
    private let mapping: OriginMapping?
    private let productToken: String
    /// The fetcher's body cap (`--max-body`): what a `.tooLarge` image is known to exceed.
    private let maximumBodyBytes: Int
    private let probes: OnceEach<String, ImageProbe?>
    /// Requests in flight per origin (`--per-host`), shared with the sitemap reader.
    private let gate: HostGate
    /// Says once that the run's `--max-images` is spent.
    private let budgetNotice: OnceEach<Bool, Bool>
    private let onBudgetReached: @Sendable (Int) -> Void
    private let maximumImages: Int

    static let maximumRedirects = 5

    init(
        fetcher: any PageFetcher, robots: RobotsBook, scope: CrawlScope, mapping: OriginMapping?, productToken: String,
        maximumBodyBytes: Int, maximumImages: Int = CrawlSettings.defaultMaximumImages,
        gate: HostGate = HostGate(limit: 2),
        onBudgetReached: @escaping @Sendable (Int) -> Void = { _ in }
    ) {
        self.fetcher = fetcher
        self.robots = robots
        self.scope = scope
        self.mapping = mapping
        self.productToken = productToken
        self.maximumBodyBytes = maximumBodyBytes
        self.maximumImages = maximumImages
        self.probes = OnceEach(limit: maximumImages)
        self.gate = gate
        self.budgetNotice = OnceEach()
        self.onBudgetReached = onBudgetReached
    }

    /// What a page's images are known to be.
    struct PageImages: Sendable {
        /// Each checked image with what fetching it found, in the page's order.
        var probes: [(ImageReference, ImageProbe)] = []
        /// Images the page names that were not checked: past `CrawlSettings.imagesCheckedPerPage`, or past the run's
        /// `--max-images`.
        var notChecked = 0
    }

    /// What asking for one image came to.
    enum Answer: Sendable {
        case probed(ImageProbe)
        /// Outside the crawl's scope, or robots.txt keeps SpotCheck from it: not checked, not a failure.
        case notFetched
        /// The run's `--max-images` is spent.
        case overBudget
    }

    /// Fetches the first `CrawlSettings.imagesCheckedPerPage` of `references` concurrently (each image once per run).
    func probe(_ references: [ImageReference]) async -> PageImages {
        let checked = Array(references.prefix(CrawlSettings.imagesCheckedPerPage))
        var images = PageImages(notChecked: references.count - checked.count)
        let answers = await checked.concurrentlyMapped { await probe($0.url) }
        for (reference, answer) in zip(checked, answers) {
            switch answer {
            case .probed(let probe): images.probes.append((reference, probe))
            case .notFetched: break
            case .overBudget: images.notChecked += 1
            }
        }
        return images
    }

    /// What fetching `url` (a public URL) found.
    func probe(_ url: String) async -> Answer {
        guard let answer = await probes.valueWithinLimit(for: url, compute: { await self.fetch(url) }) else {
            let limit = maximumImages
            let callback = onBudgetReached
            _ = await budgetNotice.value(for: true) {
                callback(limit)
                return true
            }
            return .overBudget
        }
        return answer.map(Answer.probed) ?? .notFetched
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
            let fetcher = self.fetcher
            let response: FetchResponse
            do {
                response = try await gate.run(host: origin) { () async throws(FetchError) in
                    try await fetcher.fetch(
                        FetchRequest(url: url, headers: [HTTPHeader("Accept", "image/*,*/*;q=0.5")]))
                }
            } catch {
                // The host asked for a long pause: the image is not checked, as over the budget.
                if error.kind == .throttled { return nil }
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
