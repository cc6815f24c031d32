/// A URL parsed by the WHATWG URL Standard's basic URL parser (the parts a crawler needs:
/// special schemes http, https, ws, wss and ftp in full; other schemes kept opaque).
public struct ParsedURL: Sendable, Hashable, CustomStringConvertible {
    public var scheme: String
    public var username: String = ""
    public var password: String = ""
    /// Serialized host (domain in ASCII, IPv4 dotted, IPv6 in brackets); nil for opaque URLs.
    public var host: String?
    public var port: Int?
    /// Path segments of a hierarchical URL; an opaque URL keeps `opaquePath`.
    public var pathSegments: [String] = []
    public var opaquePath: String?
    public var query: String?
    public var fragment: String?

    public static let specialPorts: [String: Int?] = [
        "http": 80, "https": 443, "ws": 80, "wss": 443, "ftp": 21, "file": nil,
    ]

    public var isSpecial: Bool { Self.specialPorts[scheme] != nil }
    /// http or https: the URLs a crawler fetches.
    public var isCrawlable: Bool { scheme == "http" || scheme == "https" }

    public var path: String {
        opaquePath ?? ("/" + pathSegments.joined(separator: "/"))
    }

    /// The href.
    public var description: String { serialized(includingFragment: true) }

    public func serialized(includingFragment: Bool) -> String {
        var output = scheme + ":"
        if let host {
            output += "//"
            if !username.isEmpty || !password.isEmpty {
                output += username
                if !password.isEmpty { output += ":" + password }
                output += "@"
            }
            output += host
            if let port { output += ":\(port)" }
        } else if opaquePath == nil, pathSegments.count > 1, pathSegments[0].isEmpty {
            output += "/."
        }
        output += path
        if let query { output += "?" + query }
        if includingFragment, let fragment { output += "#" + fragment }
        return output
    }

    /// The de-duplication key (`../shared/corpora/urls/README.md`): the WHATWG href without its
    /// fragment, with the path's escapes of unreserved octets decoded (but a hex digit right after
    /// a lone `%`) and other escapes' hex upper-cased; the query kept exactly. Nil unless the URL
    /// is http(s). Computing the key of a key gives the key.
    public var deduplicationKey: String? {
        guard isCrawlable else { return nil }
        var copy = self
        copy.fragment = nil
        copy.pathSegments = pathSegments.map(Self.normalizingEscapes)
        return copy.serialized(includingFragment: false)
    }

    static func normalizingEscapes(_ segment: String) -> String {
        let bytes = Array(segment.utf8)
        var output: [UInt8] = []
        var index = 0
        /// Where the last "%" that starts no escape was written.
        var lonePercent: Int?
        let hex = Array("0123456789ABCDEF".utf8)
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count, let high = hexValue(bytes[index + 1]),
                let low = hexValue(bytes[index + 2])
            {
                let value = high << 4 | low
                // A decoded hex digit right after a lone "%" ("%5%30" → "%50") would make an
                // escape that the key of the key decodes again: such an octet stays escaped, so
                // the key of a key is the key (found by FuzzURL, issue 17 §1).
                let pairsWithLonePercent = lonePercent.map { output.count - $0 <= 2 } ?? false
                if isUnreserved(value), !(pairsWithLonePercent && hexValue(value) != nil) {
                    output.append(value)
                } else {
                    output += [UInt8(ascii: "%"), hex[Int(high)], hex[Int(low)]]
                }
                index += 3
            } else {
                if bytes[index] == UInt8(ascii: "%") { lonePercent = output.count }
                output.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// RFC 3986 §2.3 unreserved: ALPHA DIGIT - . _ ~ (shared with the robots.txt matcher).
    package static func isUnreserved(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: "~")
    }

    /// The value of one hex digit, or nil (shared with the robots.txt matcher).
    package static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }
}
