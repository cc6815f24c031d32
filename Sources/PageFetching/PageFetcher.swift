/// What the crawl needs of an HTTP client: one GET, answered whatever its status (redirects are not
/// followed: a 3xx comes back as a response). `Fetcher` (libcurl) is the one that ships; tests use
/// in-memory fakes that open no socket.
public protocol PageFetcher: Sendable {
    /// Makes one request and returns the answer, whatever its status. Throws `FetchError` when
    /// there is no usable answer (classified by `FetchError.Kind`).
    func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResponse
}

extension Fetcher: PageFetcher {}
