/// Where the time of one transfer went, as libcurl measured it: each figure is seconds from the
/// start of the transfer to the end of that phase (so they only grow: `dns` ≤ `connect` ≤ `tls` ≤
/// `firstByte` ≤ `total`; a reused connection reports 0 for the phases it skipped).
public struct FetchTimings: Sendable, Hashable, Codable {
    public var dns: Double
    public var connect: Double
    /// TLS handshake done (0 for plain HTTP).
    public var tls: Double
    public var firstByte: Double
    public var total: Double

    public init(dns: Double = 0, connect: Double = 0, tls: Double = 0, firstByte: Double = 0, total: Double = 0) {
        self.dns = dns
        self.connect = connect
        self.tls = tls
        self.firstByte = firstByte
        self.total = total
    }
}

/// An HTTP answer (any status, including 3xx, 4xx and 5xx).
public struct FetchResponse: Sendable, Hashable {
    /// The URL requested (the fetcher does not follow redirects).
    public var url: String
    public var status: Int
    /// "1.0", "1.1", "2" or "3".
    public var httpVersion: String
    /// The final response's headers, in order.
    public var headers: [HTTPHeader]
    /// The body after content decoding (gzip, deflate, br, zstd).
    public var body: [UInt8]
    /// Bytes received on the wire for the body, before decoding.
    public var wireBytes: Int
    public var timings: FetchTimings
    /// The server address the answer came from.
    public var remoteAddress: String?
    /// The body was cut at the request's `BodyCap` (`.truncate`): `body` is its first part.
    public var truncated: Bool

    public init(
        url: String, status: Int, httpVersion: String, headers: [HTTPHeader], body: [UInt8], wireBytes: Int,
        timings: FetchTimings, remoteAddress: String?, truncated: Bool = false
    ) {
        self.truncated = truncated
        self.url = url
        self.status = status
        self.httpVersion = httpVersion
        self.headers = headers
        self.body = body
        self.wireBytes = wireBytes
        self.timings = timings
        self.remoteAddress = remoteAddress
    }

    /// The first value of a header, by case-insensitive name.
    public func header(_ name: String) -> String? { headers.first(named: name) }

    /// The media type of `Content-Type`, lower-cased, without parameters.
    public var mediaType: String? {
        guard let value = header("Content-Type") else { return nil }
        let type = value.split(separator: ";", maxSplits: 1).first ?? ""
        return type.trimming(" \t").lowercased()
    }

    /// The `charset` parameter of `Content-Type`, if any.
    public var charset: String? {
        guard let value = header("Content-Type") else { return nil }
        for parameter in value.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimming(" \t").lowercased() == "charset" else { continue }
            let charset = pair[1].trimming(" \t\"'")
            return charset.isEmpty ? nil : charset
        }
        return nil
    }
}

extension StringProtocol {
    func trimming(_ characters: String) -> String {
        var slice = Substring(self)
        while let first = slice.first, characters.contains(first) { slice.removeFirst() }
        while let last = slice.last, characters.contains(last) { slice.removeLast() }
        return String(slice)
    }
}
