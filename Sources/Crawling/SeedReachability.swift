public import PageFetching
import URLNormalization

/// What a crawl tells its user while it runs, besides the progress tally.
public enum CrawlNotice: Sendable, Hashable {
    /// robots.txt of `origin` could not be fetched (`reason`): nothing on the origin is fetched
    /// until it is asked for again at `retryAt` (seconds since 1970; `--robots-retry`).
    case robotsUnreachable(origin: String, reason: String, retryAt: Double)
    /// robots.txt of `origin` stayed unreachable through every attempt: its pages were not fetched
    /// (report.json lists them under coverage, reason `robots-unreachable`).
    case robotsGaveUp(origin: String, reason: String, attempts: Int)
    /// A served folder says nothing of the site it stands for: its pages are reported under the
    /// stand-in `origin`; `named` is the origin its home page's canonical link (or og:url) names.
    case standInOrigin(folder: String, origin: String, named: String?)
    /// `--max-images` distinct images were checked: the images pages name after that are not
    /// (each page's analysis counts them as `imagesNotChecked`).
    case imageBudgetReached(limit: Int)
}

extension Crawler {
    /// Transport failures that mean the host cannot be reached at all: no name, nothing
    /// listening, no connection within the connect timeout, no TLS session.
    static let unreachableKinds: Set<FetchError.Kind> = [.dns, .connectionRefused, .connectTimeout, .tls]

    /// Whether a TLS failure is OpenSSL reading a plain-HTTP answer as a TLS record (OpenSSL 3:
    /// "wrong version number"; 1.1: "packet length too long" or "http request").
    static func answeredInPlainText(_ message: String) -> Bool {
        ["wrong version number", "packet length too long", "http request"].contains {
            message.localizedCaseInsensitiveContains($0)
        }
    }

    /// Fails at once when the seed's host cannot be reached at all (DNS, refused, connect timeout,
    /// TLS), by asking for its robots.txt once; any HTTP answer, or a slower failure, lets the
    /// crawl start (robots.txt errors are then handled, and announced, by the crawl itself).
    /// `fetcher`: the HTTP client to ask with (default: a libcurl one made from `settings`).
    public static func checkSeedReachable(_ settings: CrawlSettings, fetcher: (any PageFetcher)? = nil)
        async throws(CrawlError)
    {
        guard let seed = URLParser.parse(settings.seed), seed.isCrawlable else {
            throw CrawlError("\(settings.seed): not an http(s) URL")
        }
        var ownFetcher: Fetcher?
        let client: any PageFetcher
        if let fetcher {
            client = fetcher
        } else {
            let curl = try libcurlFetcher(for: settings)
            ownFetcher = curl
            client = curl
        }
        defer { ownFetcher?.shutdown() }
        let robotsURL = OriginMapping.origin(of: seed) + "/robots.txt"
        do {
            _ = try await client.fetch(FetchRequest(url: robotsURL, bodyCap: .robotsTxt))
        } catch  where error.kind == .tls && seed.scheme == "https" && Self.answeredInPlainText(error.message) {
            // OpenSSL's words for an HTTP reply to its hello; a --ca-file would not help.
            var plain = seed
            plain.scheme = "http"
            throw CrawlError(
                "\(settings.seed): the server at \(PageProcessor.authority(of: seed)) does not speak TLS (it "
                    + "answered in plain HTTP); did you mean \(plain.serialized(includingFragment: true))? nothing was crawled"
            )
        } catch  where unreachableKinds.contains(error.kind) {
            // A certificate the system does not trust (a staging site's own CA) can be trusted by name.
            let hint =
                error.kind == .tls && settings.certificateAuthorities == nil
                ? "; if the site's certificate is signed by your own CA, name its PEM file with --ca-file" : ""
            throw CrawlError(
                "\(settings.seed): cannot reach \(PageProcessor.authority(of: seed)): \(error.kind.rawValue) "
                    + "(\(error.message)); nothing was crawled\(hint)")
        } catch {
            return
        }
    }
}
