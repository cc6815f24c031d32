/// UTF-8 validation of one sequence at a time (Unicode §3.9, table 3-7).
enum UTF8Sequence {
    /// Validates the sequence whose lead byte (≥ 0x80) is at `index`. When it is invalid, `length` is the
    /// length of its maximal invalid subpart (at least 1), which a decoder replaces by one U+FFFD.
    static func check(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, end: Int) -> (valid: Bool, length: Int) {
        let lead = bytes[index]
        var count: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: count = 1
        case 0xE0: (count, low) = (2, 0xA0)
        case 0xE1...0xEC, 0xEE, 0xEF: count = 2
        case 0xED: (count, high) = (2, 0x9F)
        case 0xF0: (count, low) = (3, 0x90)
        case 0xF1...0xF3: count = 3
        case 0xF4: (count, high) = (3, 0x8F)
        default: return (false, 1)
        }
        var next = index + 1
        while count > 0 {
            guard next < end, bytes[next] >= low, bytes[next] <= high else {
                return (false, next - index)
            }
            (low, high) = (0x80, 0xBF)
            next += 1
            count -= 1
        }
        return (true, next - index)
    }

    /// The scalar value of a valid sequence of `length` bytes at `index`.
    static func scalarValue(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, length: Int) -> UInt32 {
        var value = UInt32(bytes[index]) & (0xFF >> (length + 1))
        for offset in 1..<length {
            value = value << 6 | UInt32(bytes[index + offset] & 0x3F)
        }
        return value
    }
}
