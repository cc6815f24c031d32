extension JSONValue: CustomStringConvertible {
    /// The compact serialization (``serialized(pretty:sortKeys:)`` with default options).
    public var description: String {
        serialized()
    }
}

extension JSONValue {
    /// Serializes the value as RFC 8259 JSON text.
    ///
    /// - Strings escape `"`, `\` and U+0000–U+001F (`\b \f \n \r \t` short forms, otherwise `\u00XX`);
    ///   everything else, including `/`, non-ASCII characters, U+2028 and U+2029, is written as is (UTF-8).
    /// - Numbers are written as their literal; a `.number` text that is not a valid JSON number is written
    ///   as `null` so the output is always valid JSON.
    /// - Compact output has no whitespace at all. Pretty output puts one member or element per line,
    ///   indented by two spaces, with `": "` between key and value; empty containers print as `[]` and `{}`.
    ///   No trailing newline is added.
    /// - `sortKeys` orders object members by key in Unicode scalar order (stable for duplicate keys).
    ///
    /// Serialization recurses once per nesting level; parsed values are at most `JSONParser.depthLimit` deep.
    public func serialized(pretty: Bool = false, sortKeys: Bool = false) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(128)
        write(into: &output, pretty: pretty, sortKeys: sortKeys)
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends the UTF-8 serialization of the value to `output` (see ``serialized(pretty:sortKeys:)``).
    ///
    /// - Parameter indentLevel: in pretty mode, the indentation level (in steps of two spaces) of the line
    ///   the value starts on, for embedding it inside hand-written output.
    public func write(into output: inout [UInt8], pretty: Bool = false, sortKeys: Bool = false, indentLevel: Int = 0) {
        let writer = JSONWriter(pretty: pretty, sortKeys: sortKeys)
        writer.write(self, into: &output, level: max(0, indentLevel))
    }
}

extension JSONObject {
    /// The serialization of `.object(self)` (see ``JSONValue/serialized(pretty:sortKeys:)``).
    public func serialized(pretty: Bool = false, sortKeys: Bool = false) -> String {
        JSONValue.object(self).serialized(pretty: pretty, sortKeys: sortKeys)
    }
}

/// Writes values; recursion depth equals the nesting depth of the value.
struct JSONWriter {
    let pretty: Bool
    let sortKeys: Bool

    func write(_ value: JSONValue, into output: inout [UInt8], level: Int) {
        switch value {
        case .null:
            output.append(contentsOf: "null".utf8)
        case .bool(let bool):
            output.append(contentsOf: bool ? "true".utf8 : "false".utf8)
        case .number(let text):
            if JSONNumberSyntax.isValid(text) {
                output.append(contentsOf: text.utf8)
            } else {
                output.append(contentsOf: "null".utf8)
            }
        case .string(let string):
            Self.writeString(string, into: &output)
        case .array(let array):
            writeArray(array, into: &output, level: level)
        case .object(let object):
            writeObject(object, into: &output, level: level)
        }
    }

    private func writeArray(_ array: [JSONValue], into output: inout [UInt8], level: Int) {
        output.append(UInt8(ascii: "["))
        guard !array.isEmpty else {
            output.append(UInt8(ascii: "]"))
            return
        }
        for (index, element) in array.enumerated() {
            if index > 0 {
                output.append(UInt8(ascii: ","))
            }
            newline(into: &output, level: level + 1)
            write(element, into: &output, level: level + 1)
        }
        newline(into: &output, level: level)
        output.append(UInt8(ascii: "]"))
    }

    private func writeObject(_ object: JSONObject, into output: inout [UInt8], level: Int) {
        output.append(UInt8(ascii: "{"))
        guard !object.isEmpty else {
            output.append(UInt8(ascii: "}"))
            return
        }
        var members = object.members
        if sortKeys {
            members.sort { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        }
        for (index, member) in members.enumerated() {
            if index > 0 {
                output.append(UInt8(ascii: ","))
            }
            newline(into: &output, level: level + 1)
            Self.writeString(member.key, into: &output)
            output.append(UInt8(ascii: ":"))
            if pretty {
                output.append(UInt8(ascii: " "))
            }
            write(member.value, into: &output, level: level + 1)
        }
        newline(into: &output, level: level)
        output.append(UInt8(ascii: "}"))
    }

    private func newline(into output: inout [UInt8], level: Int) {
        guard pretty else { return }
        output.append(UInt8(ascii: "\n"))
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * level))
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// True when one of the eight bytes at `offset` may need escaping: below 0x20, `"` or `\`
    /// (the tests flag every such byte; a borrow may flag a byte after one, never one alone).
    @inline(__always)
    private static func mayNeedEscaping(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Bool {
        let word = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func hasZeroByte(_ value: UInt64) -> Bool { (value &- ones) & ~value & highs != 0 }
        let belowSpace = (word &- ones &* 0x20) & ~word & highs
        return belowSpace != 0 || hasZeroByte(word ^ (ones &* 0x22)) || hasZeroByte(word ^ (ones &* 0x5C))
    }

    /// Appends `string` as a quoted, escaped JSON string.
    static func writeString(_ string: String, into output: inout [UInt8]) {
        var string = string
        output.append(UInt8(ascii: "\""))
        string.withUTF8 { bytes in
            var runStart = 0
            var index = 0
            while index < bytes.count {
                // Eight bytes at a time while none needs escaping (a control character, `"`, `\`).
                if index + 8 <= bytes.count, !Self.mayNeedEscaping(UnsafeRawBufferPointer(bytes), at: index) {
                    index += 8
                    continue
                }
                let byte = bytes[index]
                index += 1
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                let escaped = index - 1
                if runStart < escaped {
                    output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<escaped]))
                }
                runStart = index
                output.append(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): output.append(byte)
                case 0x08: output.append(UInt8(ascii: "b"))
                case 0x0C: output.append(UInt8(ascii: "f"))
                case 0x0A: output.append(UInt8(ascii: "n"))
                case 0x0D: output.append(UInt8(ascii: "r"))
                case 0x09: output.append(UInt8(ascii: "t"))
                default:
                    output.append(contentsOf: "u00".utf8)
                    output.append(hexDigits[Int(byte >> 4)])
                    output.append(hexDigits[Int(byte & 0x0F)])
                }
            }
            if runStart < bytes.count {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
