/// The WHATWG percent-encode sets, applied to UTF-8.
package enum PercentEncoding {
    enum EncodeSet {
        case c0Control, fragment, query, specialQuery, path, userinfo

        func contains(_ byte: UInt8) -> Bool {
            if byte < 0x20 || byte > 0x7E { return true }
            switch self {
            case .c0Control:
                return false
            case .fragment:
                return " \"<>`".utf8.contains(byte)
            case .query:
                return " \"#<>".utf8.contains(byte)
            case .specialQuery:
                return " \"#<>'".utf8.contains(byte)
            case .path:
                return " \"#<>?`{}".utf8.contains(byte)
            case .userinfo:
                return " \"#<>?`{}/:;=@[\\]^|".utf8.contains(byte)
            }
        }
    }

    static func encode(_ scalars: some Sequence<Unicode.Scalar>, set: EncodeSet) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var output: [UInt8] = []
        for scalar in scalars {
            for byte in String(scalar).utf8 {
                if set.contains(byte) {
                    output += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
                } else {
                    output.append(byte)
                }
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Percent-decodes to bytes (invalid escapes kept as written; shared with the AASA matcher).
    package static func decode(_ text: String) -> [UInt8] {
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
                let high = ParsedURL.hexValue(bytes[index + 1]), let low = ParsedURL.hexValue(bytes[index + 2])
            {
                output.append(high << 4 | low)
                index += 3
            } else {
                output.append(bytes[index])
                index += 1
            }
        }
        return output
    }
}
