import CompactBinary
public import MarkupExtraction

/// The crawl store keeps a page's payload and its markup in CompactBinary's encoding: typed values
/// written and read by the same `Codable` conformances, no JSON text in between.
extension PagePayload {
    public func stored() throws -> [UInt8] {
        try CompactBinaryEncoder().encode(self)
    }

    /// Reads a payload `stored()` wrote; throws on bytes of another version or damaged ones.
    public init(stored bytes: [UInt8]) throws {
        self = try CompactBinaryDecoder().decode(PagePayload.self, from: bytes)
    }
}

extension PageMarkup {
    public func stored() throws -> [UInt8] {
        try CompactBinaryEncoder().encode(self)
    }

    public init(stored bytes: [UInt8]) throws {
        self = try CompactBinaryDecoder().decode(PageMarkup.self, from: bytes)
    }
}
