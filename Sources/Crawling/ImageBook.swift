import ImageSniffing
import PageFetching
import URLNormalization
import Verification

/// The images pages name, each fetched once per crawl (concurrent askers wait for the same
/// fetch): redirects followed by hand (at most 5, each hop in scope and allowed by robots.txt), the
/// body capped by the fetcher's limit, and the first bytes sniffed for format and pixel size.
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
        var url = mapping?.fetchURL(publicURL) ?? publicURL
        var redirects = 0
        while true {
            guard let parsed = URLParser.parse(url), scope.violation(of: parsed) == nil else { return nil }
            let origin = OriginMapping.origin(of: parsed)
            guard await robots.answer(forOrigin: origin).policy.isAllowed(productTokens: [productToken], url: url)
            else { return nil }
            let response: FetchResponse
            do {
                response = try await fetcher.fetch(
                    FetchRequest(url: url, headers: [HTTPHeader("Accept", "image/*,*/*;q=0.5")]))
            } catch {
                if error.kind == .tooLarge {
                    return ImageProbe(
                        status: 200, redirects: redirects, byteCount: maximumBodyBytes,
                        isTruncated: true, header: nil, failure: nil)
                }
                return ImageProbe(
                    status: nil, redirects: redirects, failure: "\(error.kind.rawValue): \(error.message)")
            }
            if (300..<400).contains(response.status), let location = response.header("Location"),
                let target = URLParser.parse(location, base: parsed)
            {
                redirects += 1
                guard redirects <= Self.maximumRedirects else {
                    return ImageProbe(
                        status: response.status, redirects: redirects,
                        failure: "more than \(Self.maximumRedirects) redirects")
                }
                url = target.serialized(includingFragment: false)
                continue
            }
            return ImageProbe(
                status: response.status, redirects: redirects, mediaType: response.mediaType,
                byteCount: response.body.count, header: ImageHeader.sniff(response.body.prefix(ImageHeader.bytesNeeded))
            )
        }
    }
}
