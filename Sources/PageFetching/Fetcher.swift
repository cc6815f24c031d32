/// An HTTP client for the crawler: libcurl's multi interface driven by one thread, with an async
/// API. Any number of `fetch` calls may be in flight at once from any task; they share the
/// connections (HTTP/1.1 keep-alive, HTTP/2 multiplexing) and the DNS cache. Cancelling the
/// calling task cancels its transfer.
public final class Fetcher: Sendable {
    public let configuration: FetcherConfiguration
    /// Internal for the tests of its bookkeeping.
    let loop: CurlMultiLoop

    public init(configuration: FetcherConfiguration) throws(FetchError) {
        self.configuration = configuration
        self.loop = try CurlMultiLoop(configuration: configuration)
    }

    deinit {
        loop.shutdown()
    }

    /// Makes one request and returns the answer, whatever its status. Throws `FetchError` when
    /// there is no usable answer (classified by `FetchError.Kind`).
    public func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResponse {
        let loop = self.loop
        let id = loop.makeTransferID()
        // Submitted even when the task is cancelled already: `onCancel` has then run first, and
        // the loop completes the submission as cancelled, which is also what forgets the ID.
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation {
                (continuation: CheckedContinuation<Result<FetchResponse, FetchError>, Never>) in
                loop.submit(id: id, request: request) { continuation.resume(returning: $0) }
            }
        } onCancel: {
            loop.cancel(id: id)
        }
        return try result.get()
    }

    /// Cancels every transfer in flight and stops the loop thread. Calls after this fail as
    /// `.cancelled`. Also happens when the fetcher is released.
    public func shutdown() {
        loop.shutdown()
    }

    /// The libcurl version string, e.g. "libcurl/7.88.1 OpenSSL/3.0.x zlib/1.2.13 brotli/1.0.9 …".
    public static var libraryVersion: String { CurlMultiLoop.libraryVersion }
}
