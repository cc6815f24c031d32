/// Bounds-checked, overflow-safe reads over a byte buffer: every read returns nil past the end or before the
/// start, and offsets are compared without ever adding to them.
struct ByteView {
    let buffer: UnsafeBufferPointer<UInt8>

    var count: Int { buffer.count }

    /// Whether `length` bytes starting at `offset` lie inside the buffer.
    func contains(_ length: Int, at offset: Int) -> Bool {
        offset >= 0 && length >= 0 && offset <= count && length <= count - offset
    }

    func u8(_ offset: Int) -> UInt8? {
        offset >= 0 && offset < count ? buffer[offset] : nil
    }

    func be16(_ offset: Int) -> Int? {
        guard contains(2, at: offset) else { return nil }
        return Int(buffer[offset]) << 8 | Int(buffer[offset + 1])
    }

    func le16(_ offset: Int) -> Int? {
        guard contains(2, at: offset) else { return nil }
        return Int(buffer[offset]) | Int(buffer[offset + 1]) << 8
    }

    func le24(_ offset: Int) -> Int? {
        guard contains(3, at: offset) else { return nil }
        return Int(buffer[offset]) | Int(buffer[offset + 1]) << 8 | Int(buffer[offset + 2]) << 16
    }

    func be32(_ offset: Int) -> UInt32? {
        guard contains(4, at: offset) else { return nil }
        return UInt32(buffer[offset]) << 24 | UInt32(buffer[offset + 1]) << 16 | UInt32(buffer[offset + 2]) << 8
            | UInt32(buffer[offset + 3])
    }

    func le32(_ offset: Int) -> UInt32? {
        guard contains(4, at: offset) else { return nil }
        return UInt32(buffer[offset]) | UInt32(buffer[offset + 1]) << 8 | UInt32(buffer[offset + 2]) << 16
            | UInt32(buffer[offset + 3]) << 24
    }

    /// Whether the bytes at `offset` equal `expected`.
    func matches(_ expected: [UInt8], at offset: Int) -> Bool {
        guard contains(expected.count, at: offset) else { return false }
        for (index, byte) in expected.enumerated() where buffer[offset + index] != byte { return false }
        return true
    }

    /// Whether the bytes at `offset` spell `ascii` (compared exactly).
    func matches(ascii: String, at offset: Int) -> Bool {
        matches(Array(ascii.utf8), at: offset)
    }
}
