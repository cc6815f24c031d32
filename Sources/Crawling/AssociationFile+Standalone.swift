import PageFetching
public import Verification

extension AssociationFile {
    /// Checks a local copy of an `apple-app-site-association` file: its content only (the
    /// serving rules UL001–UL005 need a host).
    public static func check(localFile path: String, bytes: [UInt8], appIDs: [String], verifier: PageVerifier)
        -> AssociationFile
    {
        let response = FetchResponse(
            url: path, status: 200, httpVersion: "file", headers: [HTTPHeader("Content-Type", "application/json")],
            body: bytes, wireBytes: bytes.count, timings: FetchTimings(), remoteAddress: nil)
        return check(
            .success(response), url: path, onlyAtRootPath: false, isStandIn: true, appIDs: appIDs, verifier: verifier)
    }

    /// Fetches and checks `origin`'s file (`https://host[:port]`) with a fetcher of its own.
    public static func fetch(origin: String, timeout: Double, appIDs: [String], verifier: PageVerifier)
        async throws(CrawlError) -> AssociationFile
    {
        let fetcher: Fetcher
        do {
            fetcher = try Fetcher(
                configuration: FetcherConfiguration(
                    userAgent: CrawlSettings.defaultUserAgent,
                    limits: FetchLimits(maximumBodyBytes: 1 << 20, timeout: timeout)))
        } catch {
            throw CrawlError("cannot start the fetcher: \(error)")
        }
        defer { fetcher.shutdown() }
        return await fetch(origin: origin, fetcher: fetcher, mapping: nil, appIDs: appIDs, verifier: verifier)
    }
}
