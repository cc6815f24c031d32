import CompactBinary

/// Encodes with a fresh encoder and decodes the bytes back.
func roundTrip<T: Codable>(_ value: T, as type: T.Type = T.self) throws -> T {
    try CompactBinaryDecoder().decode(type, from: CompactBinaryEncoder().encode(value))
}

func encoded(_ value: some Encodable) throws -> [UInt8] { try CompactBinaryEncoder().encode(value) }

/// The `CompactBinaryError` that decoding `bytes` as `type` throws, or nil (also when it succeeds).
func decodingError<T: Decodable>(_ type: T.Type, _ bytes: [UInt8]) -> CompactBinaryError? {
    do {
        _ = try CompactBinaryDecoder().decode(type, from: bytes)
        return nil
    } catch {
        return error as? CompactBinaryError
    }
}

enum Role: String, Codable, CaseIterable {
    case admin, editor, viewer
}

enum Priority: Int, Codable {
    case low = 1
    case urgent = 900
}

enum Contact: Codable, Equatable {
    case email(String)
    case phone(country: Int, number: String)
    case unlisted
}

struct Address: Codable, Equatable {
    var street: String
    var city: String?
    var postcode: Int?
}

struct Person: Codable, Equatable {
    var name: String
    var age: Int
    var address: Address?
    var role: Role
    var priority: Priority?
    var contacts: [Contact]
    var scores: [String: Int]
    var nicknames: [String]
    var rating: Double
    var verified: Bool

    static let sample = Person(
        name: "Zoë Ångström", age: 41,
        address: Address(street: "1 Rue de l'Église", city: "Paris", postcode: nil),
        role: .editor, priority: .urgent,
        contacts: [.email("zoe@example.org"), .phone(country: 33, number: "612345678"), .unlisted],
        scores: ["speed": 7, "accuracy": -3, "": 0], nicknames: ["Z", "", "ゾエ"], rating: 4.25, verified: true)
}

/// The struct of the format's documented example.
struct Point: Codable, Equatable {
    var x: Int
    var name: String?
}

/// A fixed set of keys, declared so that tests can write them in another order.
struct Sample: Codable, Equatable {
    enum CodingKeys: String, CodingKey {
        case identifier, title, flag, values
    }

    var identifier: Int
    var title: String
    var flag: Bool?
    var values: [Int]
}

/// `Sample`'s keys written last to first, by hand.
struct SampleWrittenBackwards: Encodable {
    var sample: Sample

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Sample.CodingKeys.self)
        try container.encode(sample.values, forKey: .values)
        try container.encodeIfPresent(sample.flag, forKey: .flag)
        try container.encode(sample.title, forKey: .title)
        try container.encode(sample.identifier, forKey: .identifier)
    }
}

/// Arrays in arrays, as deep as the input goes (for the nesting limit).
struct NestedArrays: Codable, Equatable {
    var children: [NestedArrays]

    init(depth: Int) {
        children = depth > 0 ? [NestedArrays(depth: depth - 1)] : []
    }

    init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        children = []
        while !container.isAtEnd { children.append(try container.decode(NestedArrays.self)) }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        for child in children { try container.encode(child) }
    }
}

/// Reads nothing: its value is only skipped.
struct Ignored: Decodable {
    init(from decoder: any Decoder) throws {}
}

/// A string key made at run time.
struct NamedKey: CodingKey {
    var stringValue: String
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    var intValue: Int? { nil }
    init?(intValue: Int) { nil }
}

/// Any value at all, found by trying each kind in turn (for decoding arbitrary bytes).
indirect enum AnyValue: Decodable {
    case null, bool(Bool), int(Int64), unsigned(UInt64), double(Double), string(String)
    case array([AnyValue]), map([String: AnyValue])

    init(from decoder: any Decoder) throws {
        if let map = try? [String: AnyValue](from: decoder) {
            self = .map(map)
        } else if let array = try? [AnyValue](from: decoder) {
            self = .array(array)
        } else {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let value = try? container.decode(Bool.self) {
                self = .bool(value)
            } else if let value = try? container.decode(Int64.self) {
                self = .int(value)
            } else if let value = try? container.decode(UInt64.self) {
                self = .unsigned(value)
            } else if let value = try? container.decode(Double.self) {
                self = .double(value)
            } else {
                self = .string(try container.decode(String.self))
            }
        }
    }
}

/// SplitMix64: a small seeded generator, so that "random" inputs are the same on every run.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
