/// Why a transfer got no usable answer, classified so reports can count and explain failures.
/// `curlCode` and `message` keep what libcurl said.
public struct FetchError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// The host name did not resolve.
        case dns
        /// Nothing listens, or the connection was refused or reset while connecting.
        case connectionRefused = "connection-refused"
        /// No connection within the connect timeout.
        case connectTimeout = "connect-timeout"
        /// Connected, but the transfer did not end within the timeout.
        case timeout
        /// The TLS handshake or the certificate failed.
        case tls
        /// The body exceeded the body cap (after decoding: compression bombs end here).
        case tooLarge = "too-large"
        /// The response headers exceeded the header cap.
        case headersTooLarge = "headers-too-large"
        /// The body could not be decoded with its `Content-Encoding`.
        case badEncoding = "bad-encoding"
        /// The server closed the connection before the body was complete, or sent nothing.
        case connectionDropped = "connection-dropped"
        /// A reply that is not HTTP: no or a garbled status line (HTTP/0.9), a status like -200, a bad
        /// chunk size, an HTTP/2 framing error. Not retried.
        case protocolError = "protocol-error"
        /// Not an http(s) URL, or not a URL libcurl accepts.
        case badURL = "bad-url"
        /// The request was cancelled (the crawl stopped).
        case cancelled
        /// Not sent: the host asked the crawl to wait (a 429 or 503 with `Retry-After`, or the
        /// back-off after them) longer than a side request (an image, a sitemap) waits.
        case throttled
        /// Anything else libcurl reported.
        case other
    }

    public var kind: Kind
    public var url: String
    /// libcurl's `CURLcode` (0 when the error did not come from libcurl).
    public var curlCode: Int
    /// libcurl's error text, or ours.
    public var message: String

    public init(kind: Kind, url: String, curlCode: Int = 0, message: String) {
        self.kind = kind
        self.url = url
        self.curlCode = curlCode
        self.message = message
    }

    public var description: String {
        curlCode == 0
            ? "\(url): \(kind.rawValue): \(message)" : "\(url): \(kind.rawValue): \(message) (curl \(curlCode))"
    }

    /// Failures worth another attempt later (the crawler retries them with backoff).
    public var isTransient: Bool {
        switch kind {
        case .connectTimeout, .timeout, .connectionDropped, .connectionRefused, .dns: true
        default: false
        }
    }
}
