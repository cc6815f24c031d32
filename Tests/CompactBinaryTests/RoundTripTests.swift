import CompactBinary
import Testing

@Suite("Round trips")
struct RoundTripTests {
    @Test("a nested struct with optionals, enums, arrays and dictionaries comes back equal")
    func nestedStruct() throws {
        #expect(try roundTrip(Person.sample) == Person.sample)
        var sparse = Person.sample
        sparse.address = nil
        sparse.priority = nil
        sparse.contacts = []
        sparse.scores = [:]
        sparse.nicknames = []
        #expect(try roundTrip(sparse) == sparse)
        #expect(try roundTrip([Person.sample, sparse]) == [Person.sample, sparse])
    }

    @Test("optionals present and nil, at the top level and inside containers")
    func optionals() throws {
        #expect(try roundTrip(Address(street: "s", city: nil, postcode: nil)) == Address(street: "s"))
        #expect(
            try roundTrip(Address(street: "s", city: "c", postcode: 0)) == Address(street: "s", city: "c", postcode: 0))
        #expect(try roundTrip([1, nil, 3] as [Int?]) == [1, nil, 3])
        #expect(try roundTrip(["a": nil, "b": "x"] as [String: String?]) == ["a": nil, "b": "x"])
        #expect(try roundTrip(Int?.none) == nil)
        #expect(try roundTrip(Address?.some(Address(street: ""))) == Address(street: ""))
    }

    @Test("enums with raw values and with associated values", arguments: Role.allCases)
    func enums(role: Role) throws {
        #expect(try roundTrip(role) == role)
        #expect(try roundTrip([Priority.low, .urgent]) == [.low, .urgent])
        let contacts: [Contact] = [.email(role.rawValue), .phone(country: -1, number: ""), .unlisted]
        #expect(try roundTrip(contacts) == contacts)
    }

    @Test(
        "signed integers at their limits",
        arguments: [Int.min, Int.min + 1, -65, -64, -1, 0, 1, 63, 64, 127, 128, Int.max])
    func signedIntegers(value: Int) throws {
        #expect(try roundTrip(value) == value)
        #expect(try roundTrip([value]) == [value])
        #expect(try roundTrip(["k": value]) == ["k": value])
        #expect(try roundTrip(Int64(value)) == Int64(value))
    }

    @Test(
        "unsigned integers at their limits",
        arguments: [0, 1, 127, 128, 16_383, 16_384, UInt64(UInt32.max), UInt64.max])
    func unsignedIntegers(value: UInt64) throws {
        #expect(try roundTrip(value) == value)
        #expect(try roundTrip([value]) == [value])
        #expect(try roundTrip(UInt(value)) == UInt(value))
    }

    @Test("every fixed-width integer type keeps its extremes")
    func fixedWidthIntegers() throws {
        #expect(try roundTrip([Int8.min, Int8.max]) == [Int8.min, Int8.max])
        #expect(try roundTrip([Int16.min, Int16.max]) == [Int16.min, Int16.max])
        #expect(try roundTrip([Int32.min, Int32.max]) == [Int32.min, Int32.max])
        #expect(try roundTrip([UInt8.max, 0]) == [UInt8.max, 0])
        #expect(try roundTrip([UInt16.max]) == [UInt16.max])
        #expect(try roundTrip([UInt32.max]) == [UInt32.max])
        #expect(try roundTrip(["a": Int8.min]) == ["a": Int8.min])
        #expect(try roundTrip(["a": UInt16.max]) == ["a": UInt16.max])
    }

    @Test(
        "doubles come back bit for bit",
        arguments: [
            Double.nan, -Double.nan, Double(bitPattern: 0x7FF0_0000_0000_0001),
            Double(bitPattern: 0x7FF8_0000_DEAD_BEEF),
            -0.0, 0.0, .infinity, -.infinity, .leastNonzeroMagnitude, .greatestFiniteMagnitude, .pi, -1e-300,
        ])
    func doubles(value: Double) throws {
        #expect(try roundTrip(value).bitPattern == value.bitPattern)
        #expect(try roundTrip([value])[0].bitPattern == value.bitPattern)
        #expect(try roundTrip(["k": value])["k"]?.bitPattern == value.bitPattern)
    }

    @Test(
        "floats come back exactly",
        arguments: [Float.greatestFiniteMagnitude, -0.0, .infinity, 1.1, .leastNonzeroMagnitude])
    func floats(value: Float) throws {
        #expect(try roundTrip(value).bitPattern == value.bitPattern)
        #expect(try roundTrip(["k": value])["k"]?.bitPattern == value.bitPattern)
    }

    @Test(
        "strings, empty and non-ASCII",
        arguments: [
            "", "a", "é", "日本語のテキスト", "👩‍👩‍👧‍👦 family", "nul\u{0}inside", "\u{FEFF}bom", String(repeating: "ü", count: 200),
        ])
    func strings(value: String) throws {
        #expect(try roundTrip(value) == value)
        #expect(try roundTrip([value, value]) == [value, value])
        #expect(try roundTrip([value: value]) == [value: value])
    }

    @Test("empty and large arrays and dictionaries (counts of 128 and more are patched in after the fact)")
    func collections() throws {
        #expect(try roundTrip([Int]()) == [])
        #expect(try roundTrip([String: Int]()) == [:])
        #expect(try roundTrip([[String]]([[], [""], []])) == [[], [""], []])
        let many = Array(0..<300)
        #expect(try roundTrip(many) == many)
        #expect(try encoded(many).prefix(3) == [0x07, 0xAC, 0x02])
        let dictionary = Dictionary(uniqueKeysWithValues: (0..<300).map { ("key \($0)", $0 - 150) })
        #expect(try roundTrip(dictionary) == dictionary)
        let byNumber = Dictionary(uniqueKeysWithValues: (0..<40).map { ($0 * 7, "v\($0)") })
        #expect(try roundTrip(byNumber) == byNumber)
        let nested = ["outer": [Array(repeating: "x", count: 130), []], "other": [["y"]]]
        #expect(try roundTrip(nested) == nested)
    }

    @Test("arrays of structs inside structs")
    func arraysOfStructs() throws {
        struct Page: Codable, Equatable {
            var url: String
            var people: [Person]
            var addresses: [[Address]]
        }
        let page = Page(
            url: "https://example.org/", people: Array(repeating: Person.sample, count: 150),
            addresses: [[Address(street: "a")], [], [Address(street: "b", city: "c", postcode: 1)]])
        #expect(try roundTrip(page) == page)
    }

    @Test("top-level primitives")
    func topLevelPrimitives() throws {
        #expect(try roundTrip(true) == true)
        #expect(try roundTrip(false) == false)
        #expect(try roundTrip("text") == "text")
        #expect(try roundTrip(Priority.urgent) == .urgent)
    }

    @Test("decoding from an array slice reads the slice only")
    func slice() throws {
        let bytes = [0xFF] + (try encoded(Person.sample)) + [0xFF]
        #expect(try CompactBinaryDecoder().decode(Person.self, from: bytes[1..<bytes.count - 1]) == Person.sample)
    }
}
