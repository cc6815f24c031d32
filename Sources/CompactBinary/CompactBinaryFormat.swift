/// The CompactBinary format: a self-describing binary encoding of `Codable` values, written by
/// ``CompactBinaryEncoder`` and read by ``CompactBinaryDecoder``.
///
/// A payload is exactly one value (nothing may follow it). Every value starts with one tag byte:
///
/// | Tag    | Value            | Followed by                                                         |
/// |--------|------------------|---------------------------------------------------------------------|
/// | `0x00` | nil              | nothing                                                             |
/// | `0x01` | false            | nothing                                                             |
/// | `0x02` | true             | nothing                                                             |
/// | `0x03` | signed integer   | the value as `Int64`, zigzag-mapped, as a varint                    |
/// | `0x04` | unsigned integer | the value as `UInt64`, as a varint                                  |
/// | `0x05` | floating point   | the `Double` bit pattern, 8 bytes little-endian (`Float` widened)   |
/// | `0x06` | string           | varint byte count, then that many bytes of UTF-8                    |
/// | `0x07` | array            | varint element count, then the elements                             |
/// | `0x08` | map              | varint entry count, then per entry a key and a value                |
///
/// - A *varint* is unsigned LEB128: seven bits a byte, least significant group first, the high bit
///   set on every byte but the last; at most 10 bytes. The encoder writes the shortest form.
/// - *Zigzag* maps signed to unsigned so that small magnitudes stay short:
///   0 → 0, −1 → 1, 1 → 2, −2 → 3 … (`(n << 1) ^ (n >> 63)`).
/// - A map key is a string *without* its tag: varint byte count, then UTF-8. Keyed containers
///   (structs, `[String: V]`, and `[Int: V]` with the integer written as its `stringValue`) are maps.
///   An optional that is nil is left out by synthesized `encodeIfPresent`, so a missing key reads
///   as nil; the encoder writes entries in the order they were encoded, and the decoder accepts
///   any order (it tries the next entry first and looks the key up only when that misses).
/// - Signed Swift integers are written with tag `0x03`, unsigned ones with `0x04`; either tag
///   decodes into any integer type the value fits in. A value that wrote nothing (an empty
///   `encode(to:)`, an unused `superEncoder()`) is an empty map, as with `JSONEncoder`.
///
/// Example: `struct Point: Codable { var x: Int; var name: String? }` with `x = -2, name = "é"` is
/// `08 02 01 78 03 03 04 6E 61 6D 65 06 02 C3 A9` (map of 2; "x" → signed 3; "name" → string "é").
///
/// Decoding never trusts a count: an element count above the bytes left, a string running past the
/// end, a varint over 10 bytes, a wrong tag, an integer that does not fit the requested type,
/// invalid UTF-8, nesting deeper than ``maximumDepth`` and bytes after the value are all
/// ``CompactBinaryError``s, never a trap.
public enum CompactBinaryFormat {
    /// The deepest nesting of arrays and maps that is written or read; deeper input is an error
    /// rather than a stack overflow.
    public static let maximumDepth = 512
}

/// The tag byte that starts every value.
enum Tag {
    static let null: UInt8 = 0x00
    static let `false`: UInt8 = 0x01
    static let `true`: UInt8 = 0x02
    static let signed: UInt8 = 0x03
    static let unsigned: UInt8 = 0x04
    static let double: UInt8 = 0x05
    static let string: UInt8 = 0x06
    static let array: UInt8 = 0x07
    static let map: UInt8 = 0x08

    /// How an error message names what a tag byte starts.
    static func describe(_ tag: UInt8) -> String {
        switch tag {
        case null: "nil"
        case `false`, `true`: "a boolean"
        case signed: "a signed integer"
        case unsigned: "an unsigned integer"
        case double: "a floating-point number"
        case string: "a string"
        case array: "an array"
        case map: "a map"
        default: "byte 0x\(String(tag, radix: 16, uppercase: true)), which is not a tag"
        }
    }
}

/// Zigzag mapping of signed integers, so that small negative numbers make short varints.
enum ZigZag {
    @inline(__always)
    static func encode(_ value: Int64) -> UInt64 {
        UInt64(bitPattern: (value &<< 1) ^ (value >> 63))
    }

    @inline(__always)
    static func decode(_ value: UInt64) -> Int64 {
        Int64(bitPattern: (value >> 1) ^ (0 &- (value & 1)))
    }
}
