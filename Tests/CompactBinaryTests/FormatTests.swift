import CompactBinary
import Testing

@Suite("Format and container semantics")
struct FormatTests {
    @Test("the documented example encodes to exactly its bytes")
    func documentedExample() throws {
        let bytes: [UInt8] = [0x08, 0x02, 0x01, 0x78, 0x03, 0x03, 0x04, 0x6E, 0x61, 0x6D, 0x65, 0x06, 0x02, 0xC3, 0xA9]
        #expect(try encoded(Point(x: -2, name: "é")) == bytes)
        #expect(try CompactBinaryDecoder().decode(Point.self, from: bytes) == Point(x: -2, name: "é"))
        // A nil optional is left out, and the count says so.
        #expect(try encoded(Point(x: 0, name: nil)) == [0x08, 0x01, 0x01, 0x78, 0x03, 0x00])
    }

    @Test("every tag, golden bytes")
    func everyTag() throws {
        struct Golden: Encodable {
            enum CodingKeys: String, CodingKey { case t, f, l, u, d, s }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(true, forKey: .t)
                try container.encode(false, forKey: .f)
                try container.encode([nil, -1] as [Int?], forKey: .l)
                try container.encode(UInt(300), forKey: .u)
                try container.encode(1.5, forKey: .d)
                try container.encodeNil(forKey: .s)
            }
        }
        let expected: [UInt8] = [
            0x08, 0x06,  // map of 6
            0x01, 0x74, 0x02,  // "t": true
            0x01, 0x66, 0x01,  // "f": false
            0x01, 0x6C, 0x07, 0x02, 0x00, 0x03, 0x01,  // "l": [nil, -1]
            0x01, 0x75, 0x04, 0xAC, 0x02,  // "u": 300
            0x01, 0x64, 0x05, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xF8, 0x3F,  // "d": 1.5
            0x01, 0x73, 0x00,  // "s": nil
        ]
        #expect(try encoded(Golden()) == expected)
    }

    @Test("keys written in another order decode the same")
    func keyOrderIndependence() throws {
        let sample = Sample(identifier: 7, title: "seven", flag: true, values: [1, 2])
        let backwards = try encoded(SampleWrittenBackwards(sample: sample))
        #expect(backwards != (try encoded(sample)))
        #expect(try CompactBinaryDecoder().decode(Sample.self, from: backwards) == sample)
        var withoutFlag = sample
        withoutFlag.flag = nil
        #expect(
            try CompactBinaryDecoder().decode(Sample.self, from: encoded(SampleWrittenBackwards(sample: withoutFlag)))
                == withoutFlag)
    }

    @Test("unknown keys are skipped, wherever they are")
    func unknownKeys() throws {
        // {"zzz": [1, {"deep": "x"}], "x": 5, "extra": 2.5, "name": "n"} read as a Point.
        let bytes: [UInt8] =
            [0x08, 0x04, 0x03, 0x7A, 0x7A, 0x7A, 0x07, 0x02, 0x03, 0x02, 0x08, 0x01, 0x04, 0x64, 0x65, 0x65, 0x70]
            + [0x06, 0x01, 0x78, 0x01, 0x78, 0x03, 0x0A, 0x05, 0x65, 0x78, 0x74, 0x72, 0x61]
            + [0x05, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0x40, 0x04, 0x6E, 0x61, 0x6D, 0x65, 0x06, 0x01, 0x6E]
        #expect(try CompactBinaryDecoder().decode(Point.self, from: bytes) == Point(x: 5, name: "n"))
    }

    @Test("a large map read in the opposite order uses the key index")
    func largeMapLookups() throws {
        struct Descending: Decodable {
            var values: [Int] = []
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: NamedKey.self)
                for number in (0..<40).reversed() {
                    values.append(try container.decode(Int.self, forKey: NamedKey("k\(number)")))
                }
                #expect(try container.decodeIfPresent(Int.self, forKey: NamedKey("absent")) == nil)
                #expect(!container.contains(NamedKey("absent")))
                #expect(container.allKeys.count == 40)
            }
        }
        var entries: [(String, Int)] = []
        for number in 0..<40 { entries.append(("k\(number)", number * number)) }
        let bytes = try encoded(Dictionary(uniqueKeysWithValues: entries))
        #expect(
            try CompactBinaryDecoder().decode(Descending.self, from: bytes).values
                == (0..<40).reversed().map { $0 * $0 })
    }

    @Test("a missing non-optional key is an error that names the key and the path")
    func missingKey() throws {
        let error = try #require(decodingError(Address.self, try encoded(["city": "Paris"])))
        #expect(error.reason == .missingKey)
        #expect(error.description.contains("\"street\""))
        #expect(error.offset == 0)

        struct Holder: Codable { var address: Address }
        let nested = try #require(decodingError(Holder.self, try encoded(["address": ["city": "Paris"]])))
        #expect(nested.reason == .missingKey)
        #expect(nested.codingPath.map(\.stringValue) == ["address"])
        #expect(nested.description.contains("coding path: address"))
    }

    @Test("a value of the wrong kind names what was expected, what was found, where and on which path")
    func wrongKind() throws {
        let bytes = try encoded(["people": [["name": "a", "age": "old"]]])
        struct People: Decodable {
            struct Entry: Decodable {
                var name: String
                var age: Int
            }
            var people: [Entry]
        }
        let error = try #require(decodingError(People.self, bytes))
        #expect(error.reason == .unexpectedTag)
        #expect(error.expected == "an integer")
        #expect(error.found == "a string")
        #expect(bytes[error.offset] == 0x06)
        #expect(error.description.contains("people[0].age"))
    }

    @Test("integers that do not fit the requested type are errors")
    func integerOverflow() throws {
        #expect(decodingError(UInt8.self, try encoded(256))?.reason == .numberOutOfRange)
        #expect(decodingError(Int8.self, try encoded(-129))?.reason == .numberOutOfRange)
        #expect(decodingError(UInt.self, try encoded(-1))?.reason == .numberOutOfRange)
        #expect(decodingError(Int64.self, try encoded(UInt64.max))?.reason == .numberOutOfRange)
        #expect(decodingError([Int32].self, try encoded([Int64.max]))?.reason == .numberOutOfRange)
        #expect(decodingError(Float.self, try encoded(1e300))?.reason == .numberOutOfRange)
        // Either integer tag decodes into a type the value fits.
        #expect(try CompactBinaryDecoder().decode(UInt8.self, from: encoded(200)) == 200)
        #expect(try CompactBinaryDecoder().decode(Int.self, from: encoded(UInt64(5))) == 5)
    }

    @Test("a class and its superclass: superEncoder, and one encoder shared")
    func classes() throws {
        #expect(try roundTrip(Dog(name: "Rex", breed: "collie")) == Dog(name: "Rex", breed: "collie"))
        #expect(try roundTrip(Cat(name: "Tom", lives: 9)) == Cat(name: "Tom", lives: 9))
        // The shared encoder writes one map: {"lives": 9, "name": "Tom"}.
        #expect(try encoded(Cat(name: "Tom", lives: 9)).prefix(2) == [0x08, 0x02])
    }

    @Test("nested containers and an unused superEncoder")
    func nestedContainers() throws {
        #expect(
            try roundTrip(Envelope(id: 3, tags: ["a", "b"], size: 1.5)) == Envelope(id: 3, tags: ["a", "b"], size: 1.5))
        struct UnusedSuper: Encodable {
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: NamedKey.self)
                _ = container.superEncoder()
                try container.encode(1, forKey: NamedKey("after"))
            }
        }
        // {"super": {}, "after": 1}
        #expect(
            try encoded(UnusedSuper())
                == [
                    0x08, 0x02, 0x05, 0x73, 0x75, 0x70, 0x65, 0x72, 0x08, 0x00, 0x05, 0x61, 0x66, 0x74, 0x65, 0x72,
                    0x03, 0x02,
                ])
    }

    @Test("a container written to after an enclosing container moved on is an error, not a corrupt payload")
    func containerMisuse() throws {
        struct Interleaved: Encodable {
            func encode(to encoder: any Encoder) throws {
                var outer = encoder.container(keyedBy: NamedKey.self)
                var inner = outer.nestedUnkeyedContainer(forKey: NamedKey("inner"))
                try inner.encode(1)
                try outer.encode(2, forKey: NamedKey("next"))
                try inner.encode(3)
            }
        }
        #expect(throws: CompactBinaryError.self) { try encoded(Interleaved()) }
        struct TwoValues: Encodable {
            func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                try container.encode(1)
                try container.encode(2)
            }
        }
        #expect(throws: CompactBinaryError.self) { try encoded(TwoValues()) }
    }

    @Test("userInfo reaches encode(to:) and init(from:)")
    func userInfo() throws {
        let key = try #require(CodingUserInfoKey(rawValue: "scale"))
        struct Scaled: Codable, Equatable {
            static let key = CodingUserInfoKey(rawValue: "scale")!
            var value: Int
            init(value: Int) { self.value = value }
            init(from decoder: any Decoder) throws {
                value = try decoder.singleValueContainer().decode(Int.self) / (decoder.userInfo[Self.key] as? Int ?? 1)
            }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                try container.encode(value * (encoder.userInfo[Self.key] as? Int ?? 1))
            }
        }
        var encoder = CompactBinaryEncoder()
        encoder.userInfo[key] = 10
        var decoder = CompactBinaryDecoder()
        decoder.userInfo[key] = 10
        let bytes = try encoder.encode([Scaled(value: 4)])
        #expect(try CompactBinaryDecoder().decode([Int].self, from: bytes) == [40])
        #expect(try decoder.decode([Scaled].self, from: bytes) == [Scaled(value: 4)])
    }

    @Test("nested values see their coding path")
    func codingPaths() throws {
        struct Holder: Codable { var list: [PathProbe] }
        let decoded = try roundTrip(Holder(list: [PathProbe(), PathProbe()]))
        #expect(decoded.list.map(\.decodedAt) == [["list", "Index 0"], ["list", "Index 1"]])
    }
}

/// Records the coding path it was decoded at, and checks the one it is encoded at.
struct PathProbe: Codable {
    var decodedAt: [String] = []

    init() {}

    init(from decoder: any Decoder) throws {
        decodedAt = decoder.codingPath.map(\.stringValue)
        _ = try decoder.singleValueContainer().decode(String.self)
    }

    func encode(to encoder: any Encoder) throws {
        let path = encoder.codingPath.map(\.stringValue)
        #expect(path == ["list", "Index 0"] || path == ["list", "Index 1"])
        var container = encoder.singleValueContainer()
        try container.encode("x")
    }
}

class Animal: Codable, Equatable {
    var name: String
    init(name: String) { self.name = name }
    static func == (left: Animal, right: Animal) -> Bool {
        left.name == right.name && type(of: left) == type(of: right)
    }
}

/// Its superclass's properties under "super" (`superEncoder()`/`superDecoder()`).
final class Dog: Animal {
    enum CodingKeys: String, CodingKey { case breed }
    var breed: String

    init(name: String, breed: String) {
        self.breed = breed
        super.init(name: name)
    }

    required init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        breed = try container.decode(String.self, forKey: .breed)
        try super.init(from: container.superDecoder())
    }

    override func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(breed, forKey: .breed)
        try super.encode(to: container.superEncoder())
    }
}

/// Its superclass's properties in the same map (the superclass is handed the same encoder).
final class Cat: Animal {
    enum CodingKeys: String, CodingKey { case lives }
    var lives: Int

    init(name: String, lives: Int) {
        self.lives = lives
        super.init(name: name)
    }

    required init(from decoder: any Decoder) throws {
        lives = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .lives)
        try super.init(from: decoder)
    }

    override func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(lives, forKey: .lives)
        try super.encode(to: encoder)
    }

    static func == (left: Cat, right: Cat) -> Bool { left.name == right.name && left.lives == right.lives }
}

/// `{"id": 3, "body": {"tags": [...], "size": 1.5}}` through nested containers.
struct Envelope: Codable, Equatable {
    enum Keys: String, CodingKey { case id, body }
    enum BodyKeys: String, CodingKey { case tags, size }
    var id: Int
    var tags: [String]
    var size: Double

    init(id: Int, tags: [String], size: Double) {
        self.id = id
        self.tags = tags
        self.size = size
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        id = try container.decode(Int.self, forKey: .id)
        let body = try container.nestedContainer(keyedBy: BodyKeys.self, forKey: .body)
        var tagList = try body.nestedUnkeyedContainer(forKey: .tags)
        tags = []
        while !tagList.isAtEnd { tags.append(try tagList.decode(String.self)) }
        size = try body.decode(Double.self, forKey: .size)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(id, forKey: .id)
        var body = container.nestedContainer(keyedBy: BodyKeys.self, forKey: .body)
        var tagList = body.nestedUnkeyedContainer(forKey: .tags)
        for tag in tags { try tagList.encode(tag) }
        try body.encode(size, forKey: .size)
    }
}
