/// The WHATWG percent-encode sets, applied to UTF-8.
package enum PercentEncoding {
    enum EncodeSet {
        case c0Control, fragment, query, specialQuery, path, userinfo

        func contains(_ byte: UInt8) -> Bool {
            if byte < 0x20 || byte > 0x7E { return true }
            // The printable ASCII bytes of the set, one bit each (bytes 0x20–0x7E fit in two words).
            let (low, high) = printableMask
            return byte < 64 ? low >> byte & 1 == 1 : high >> (byte - 64) & 1 == 1
        }

        private var printableMask: (UInt64, UInt64) {
            switch self {
            case .c0Control: (0, 0)
            case .fragment: Self.fragmentMask
            case .query: Self.queryMask
            case .specialQuery: Self.specialQueryMask
            case .path: Self.pathMask
            case .userinfo: Self.userinfoMask
            }
        }

        private static let fragmentMask = mask(" \"<>`")
        private static let queryMask = mask(" \"#<>")
        private static let specialQueryMask = mask(" \"#<>'")
        private static let pathMask = mask(" \"#<>?`{}")
        private static let userinfoMask = mask(" \"#<>?`{}/:;=@[\\]^|")

        private static func mask(_ characters: String) -> (UInt64, UInt64) {
            characters.utf8.reduce(into: (UInt64(0), UInt64(0))) { mask, byte in
                if byte < 64 { mask.0 |= 1 << byte } else { mask.1 |= 1 << (byte - 64) }
            }
        }
    }

    static func encode(_ scalars: some Sequence<Unicode.Scalar>, set: EncodeSet) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(scalars.underestimatedCount)
        func escape(_ byte: UInt8) {
            let hex: StaticString = "0123456789ABCDEF"
            output.append(UInt8(ascii: "%"))
            output.append(hex.utf8Start[Int(byte >> 4)])
            output.append(hex.utf8Start[Int(byte & 0x0F)])
        }
        for scalar in scalars {
            guard scalar.isASCII else {
                // Every byte of a non-ASCII scalar is above 0x7E: in every set.
                for byte in String(scalar).utf8 { escape(byte) }
                continue
            }
            let byte = UInt8(truncatingIfNeeded: scalar.value)
            if set.contains(byte) { escape(byte) } else { output.append(byte) }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The scalars as a `String`, built from their UTF-8 at once (a `UnicodeScalarView` built from
    /// a sequence appends them one at a time).
    static func string(_ scalars: some Sequence<Unicode.Scalar>) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(scalars.underestimatedCount)
        for scalar in scalars {
            if scalar.isASCII {
                bytes.append(UInt8(truncatingIfNeeded: scalar.value))
            } else {
                bytes.append(contentsOf: String(scalar).utf8)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
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
