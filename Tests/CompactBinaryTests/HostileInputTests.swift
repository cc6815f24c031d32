import CompactBinary
import Testing

@Suite("Hostile input")
struct HostileInputTests {
    @Test("every proper prefix of a valid payload throws", arguments: [false, true])
    func truncations(sparse: Bool) throws {
        var person = Person.sample
        if sparse { person.address = nil }
        let bytes = try encoded([person, person])
        for length in 0..<bytes.count {
            let error = decodingError([Person].self, Array(bytes[..<length]))
            #expect(error != nil, "prefix of \(length) bytes")
            // Read as anything at all, the prefix is still incomplete.
            #expect(throws: (any Error).self) {
                try CompactBinaryDecoder().decode(AnyValue.self, from: Array(bytes[..<length]))
            }
        }
        #expect(try CompactBinaryDecoder().decode([Person].self, from: bytes) == [person, person])
    }

    @Test(
        "a count larger than the input is an error, before anything is allocated for it",
        arguments: [
            [0x07, 0xFF, 0xFF, 0x03, 0x00],  // array of 65,535 elements, 1 byte left
            [0x07, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F],  // array of 2^63 - 1
            [0x08, 0x02, 0x01, 0x61, 0x00],  // map of 2 entries in 3 bytes
            [0x06, 0x05, 0x61, 0x62],  // string of 5 bytes, 2 left
            [0x06, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F, 0x61],  // string of 4 GiB
            [0x08, 0x01, 0x09, 0x61, 0x00],  // key of 9 bytes, 2 left
        ] as [[UInt8]])
    func countsBeyondTheInput(bytes: [UInt8]) {
        #expect(decodingErrorAsItsKind(bytes)?.reason == .countExceedsInput)
        #expect(decodingError(Ignored.self, bytes)?.reason == .countExceedsInput)
    }

    @Test(
        "malformed values are errors of the right kind",
        arguments: [
            ([], .truncated),
            ([0x05, 0x00, 0x00], .truncated),
            ([0x03, 0x80, 0x80], .truncated),
            ([0x04, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02], .numberOutOfRange),
            ([0x04, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01], .numberOutOfRange),
            ([0x06, 0x02, 0xC3, 0x28], .invalidUTF8),
            ([0x06, 0x03, 0xED, 0xA0, 0x80], .invalidUTF8),  // an encoded surrogate
            ([0x06, 0x01, 0xFF], .invalidUTF8),
            ([0x09], .unexpectedTag),
            ([0xFF], .unexpectedTag),
            ([0x00, 0x00], .trailingBytes),
            ([0x07, 0x00, 0x07, 0x00], .trailingBytes),
        ] as [([UInt8], CompactBinaryError.Reason)])
    func malformed(bytes: [UInt8], reason: CompactBinaryError.Reason) {
        #expect(decodingErrorAsItsKind(bytes)?.reason == reason)
    }

    /// The error of decoding `bytes` as the type their first tag announces, so that the error is
    /// about the value itself rather than about it being of another kind.
    private func decodingErrorAsItsKind(_ bytes: [UInt8]) -> CompactBinaryError? {
        switch bytes.first {
        case 0x03: decodingError(Int64.self, bytes)
        case 0x04: decodingError(UInt64.self, bytes)
        case 0x05: decodingError(Double.self, bytes)
        case 0x06: decodingError(String.self, bytes)
        case 0x07: decodingError([AnyValue].self, bytes)
        case 0x08: decodingError([String: AnyValue].self, bytes)
        default: decodingError(AnyValue.self, bytes)
        }
    }

    @Test("trailing bytes after a valid payload")
    func trailingBytes() throws {
        let bytes = try encoded(Person.sample)
        let error = try #require(decodingError(Person.self, bytes + [0x00]))
        #expect(error.reason == .trailingBytes)
        #expect(error.offset == bytes.count)
        #expect(decodingError(Ignored.self, bytes + [0x02, 0x02])?.reason == .trailingBytes)
    }

    @Test("keys that are not UTF-8 are errors when they are listed")
    func invalidKeys() {
        let bytes: [UInt8] = [0x08, 0x01, 0x01, 0xFF, 0x00]
        #expect(decodingError([String: Int?].self, bytes)?.reason == .invalidUTF8)
    }

    @Test("nesting is limited to CompactBinaryFormat.maximumDepth, when decoding, skipping and encoding")
    func nestingLimit() throws {
        let limit = CompactBinaryFormat.maximumDepth
        func arrays(_ depth: Int) -> [UInt8] {
            Array(repeating: [0x07, 0x01], count: depth - 1).flatMap { $0 } + [0x07, 0x00]
        }
        #expect(
            try CompactBinaryDecoder().decode(NestedArrays.self, from: arrays(limit)) == NestedArrays(depth: limit - 1))
        #expect(decodingError(NestedArrays.self, arrays(limit + 1))?.reason == .nestingTooDeep)
        #expect(decodingError(NestedArrays.self, arrays(100_000))?.reason == .nestingTooDeep)
        // Skipped rather than decoded: as a whole, and as a map entry nobody asks for.
        #expect(decodingError(Ignored.self, arrays(100_000))?.reason == .nestingTooDeep)
        let inMap = [0x08, 0x01, 0x01, 0x7A] + arrays(limit)
        #expect(decodingError(Point.self, inMap)?.reason == .nestingTooDeep)

        #expect(try encoded(NestedArrays(depth: limit - 1)) == arrays(limit))
        #expect(throws: CompactBinaryError.self) { try encoded(NestedArrays(depth: limit)) }
    }

    @Test("random bytes never trap", arguments: [1, 2, 3])
    func randomBytes(seed: UInt64) {
        var generator = SeededGenerator(state: seed)
        for _ in 0..<1_500 {
            let length = Int.random(in: 0...48, using: &generator)
            let bytes = (0..<length).map { _ in
                // Mostly small bytes, so that tags, counts and short varints are common.
                UInt8.random(in: 0...(Bool.random(using: &generator) ? 10 : 255), using: &generator)
            }
            _ = try? CompactBinaryDecoder().decode(AnyValue.self, from: bytes)
            _ = try? CompactBinaryDecoder().decode(Person.self, from: bytes)
            _ = try? CompactBinaryDecoder().decode([String: [Int?]].self, from: bytes)
            _ = try? CompactBinaryDecoder().decode(Ignored.self, from: bytes)
        }
    }

    @Test("valid payloads with bytes changed never trap", arguments: [4, 5])
    func mutatedPayloads(seed: UInt64) throws {
        var generator = SeededGenerator(state: seed)
        let valid = try encoded([Person.sample, Person.sample])
        for _ in 0..<1_500 {
            var bytes = valid
            for _ in 0...Int.random(in: 0...3, using: &generator) {
                let position = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0...3, using: &generator) {
                case 0: bytes[position] = UInt8.random(in: 0...255, using: &generator)
                case 1: bytes[position] = UInt8.random(in: 0...9, using: &generator)
                case 2: bytes.remove(at: position)
                default: bytes.insert(UInt8.random(in: 0...255, using: &generator), at: position)
                }
            }
            _ = try? CompactBinaryDecoder().decode([Person].self, from: bytes)
            _ = try? CompactBinaryDecoder().decode(AnyValue.self, from: bytes)
        }
    }
}
