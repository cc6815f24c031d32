/// One HTTP header, in the order it was sent or received (names keep their case).
public struct HTTPHeader: Sendable, Hashable, Codable {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

extension [HTTPHeader] {
    /// The first value of a header, by case-insensitive name.
    public func first(named name: String) -> String? {
        first { $0.name.caseInsensitiveEquals(name) }?.value
    }
}

extension String {
    func caseInsensitiveEquals(_ other: String) -> Bool {
        utf8.count == other.utf8.count && lowercased() == other.lowercased()
    }
}

/// A GET the crawler wants made. Redirects are never followed by the fetcher: a 3xx comes back as
/// a response, and the crawler decides whether to follow it (each hop scope- and robots-checked).
public struct FetchRequest: Sendable, Hashable {
    public var url: String
    /// Extra request headers (`If-None-Match`, `If-Modified-Since`, `Accept` …).
    public var headers: [HTTPHeader]
    /// This request's own body cap, in place of the fetcher's `FetchLimits.maximumBodyBytes`
    /// (robots.txt and sitemaps have limits of their own); nil: the fetcher's.
    public var bodyCap: BodyCap?

    public init(url: String, headers: [HTTPHeader] = [], bodyCap: BodyCap? = nil) {
        self.url = url
        self.headers = headers
        self.bodyCap = bodyCap
    }
}

/// A body cap for one request, counted after content decoding, enforced in the write callback.
public struct BodyCap: Sendable, Hashable {
    /// What happens to a body larger than the cap.
    public enum Overflow: Sendable, Hashable {
        /// The transfer fails as `.tooLarge` (the fetcher's default).
        case fail
        /// The first `bytes` bytes are kept, the rest is not read, and the response comes back
        /// with `truncated` set (RFC 9309 §2.5: parse at least 500 KiB and ignore the rest).
        case truncate
    }

    public var bytes: Int
    public var overflow: Overflow

    public init(bytes: Int, overflow: Overflow = .fail) {
        self.bytes = max(0, bytes)
        self.overflow = overflow
    }

    /// robots.txt: RFC 9309's parse limit, 500 KiB, anything beyond ignored.
    public static let robotsTxt = BodyCap(bytes: 500 << 10, overflow: .truncate)
    /// Sitemaps: the sitemaps.org limit of 50 MiB (uncompressed), larger ones fail.
    public static let sitemap = BodyCap(bytes: 50 << 20, overflow: .fail)
}

/// The limits every transfer runs under; none of them can be switched off.
public struct FetchLimits: Sendable, Hashable {
    /// Decoded body bytes kept; a larger body fails the transfer as `.tooLarge` (also the guard
    /// against compression bombs: the count is taken after content decoding).
    public var maximumBodyBytes: Int
    /// Response header bytes (all lines of the final response).
    public var maximumHeaderBytes: Int
    /// Seconds to establish the connection (DNS, TCP and TLS).
    public var connectTimeout: Double
    /// Seconds for the whole transfer.
    public var timeout: Double

    public init(
        maximumBodyBytes: Int = 10 << 20, maximumHeaderBytes: Int = 128 << 10, connectTimeout: Double = 10,
        timeout: Double = 30
    ) {
        self.maximumBodyBytes = maximumBodyBytes
        self.maximumHeaderBytes = maximumHeaderBytes
        self.connectTimeout = connectTimeout
        self.timeout = timeout
    }
}

/// How the fetcher talks to servers.
public struct FetcherConfiguration: Sendable, Hashable {
    public var userAgent: String
    public var limits: FetchLimits
    /// Connections kept open to one host (HTTP/2 multiplexes over one where it can).
    public var maximumConnectionsPerHost: Int
    /// Connections open in all.
    public var maximumConnections: Int
    /// A PEM file of certificate authorities to trust instead of the system's (`--ca-file`: a
    /// staging site's own CA); nil: the system's store.
    public var certificateAuthorities: String?

    public init(
        userAgent: String, limits: FetchLimits = FetchLimits(), maximumConnectionsPerHost: Int = 8,
        maximumConnections: Int = 64
    ) {
        self.userAgent = userAgent
        self.limits = limits
        self.maximumConnectionsPerHost = maximumConnectionsPerHost
        self.maximumConnections = maximumConnections
    }
}
