#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

/// A page's bytes decoded to UTF-8 once, as the WHATWG Encoding Standard's "decode" does: a byte
/// sequence that is not valid in the encoding becomes U+FFFD and decoding goes on after it;
/// nothing is dropped. Every encoding maps U+000A to itself, so lines in the UTF-8 are the lines
/// of the original bytes.
struct DecodedText {
    /// The UTF-8; nil when the input bytes are already that UTF-8 (valid UTF-8 decoded as UTF-8,
    /// or ASCII in an ASCII-compatible encoding) and can be used as they are.
    var utf8: [UInt8]?
    /// Byte sequences that were not valid in the encoding, each replaced with U+FFFD.
    var invalidSequences = 0
    /// The line of the first of them (1-based), 0 when there is none.
    var firstInvalidLine = 0
}

/// Decodes bytes in any `TextEncoding` to UTF-8. This file is the only one that touches iconv
/// (glibc's, for the legacy multi-byte and single-byte encodings); UTF-8, UTF-16, windows-1252
/// and x-user-defined are decoded in Swift. Every iconv descriptor is closed before returning.
enum TextDecoder {
    private static let replacementCharacter: [UInt8] = [0xEF, 0xBF, 0xBD]

    static func decode(_ bytes: UnsafeRawBufferPointer, as encoding: TextEncoding) -> DecodedText {
        switch encoding {
        case .utf8:
            return decodeUTF8(bytes)
        case .utf16LE, .utf16BE:
            return decodeUTF16(bytes, bigEndian: encoding == .utf16BE)
        case .replacement:
            // Never chosen by the extractor (it reports such labels as unsupported); decoding with
            // the standard's replacement decoder would leave nothing of the page.
            return decodeUTF8(bytes)
        default:
            if isASCII(bytes), encoding.isASCIICompatible { return DecodedText() }
            switch encoding {
            case .windows1252: return decodeSingleByte(bytes) { Self.windows1252High[Int($0 - 0x80)] }
            case .xUserDefined: return decodeSingleByte(bytes) { 0xF780 + UInt32($0 - 0x80) }
            default: return decodeWithIconv(bytes, from: iconvName(encoding)) ?? decodeUTF8(bytes)
            }
        }
    }

    static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        let count = bytes.count
        while index + 8 <= count {
            if bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 {
                return false
            }
            index += 8
        }
        while index < count {
            if bytes[index] >= 0x80 { return false }
            index += 1
        }
        return true
    }

    // MARK: - Swift decoders

    private static func decodeUTF8(_ bytes: UnsafeRawBufferPointer) -> DecodedText {
        if MarkupExtractor.isValidUTF8(bytes) { return DecodedText() }
        var decoded = DecodedText(utf8: [])
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 16)
        var iterator = bytes.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                output.append(contentsOf: encoded)
            case .error:
                noteInvalidSequence(&decoded, output: &output)
            case .emptyInput:
                decoded.utf8 = output
                return decoded
            }
        }
    }

    private static func decodeUTF16(_ bytes: UnsafeRawBufferPointer, bigEndian: Bool) -> DecodedText {
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var index = 0
        while index + 1 < bytes.count {
            let first = UInt16(bytes[index])
            let second = UInt16(bytes[index + 1])
            units.append(bigEndian ? first << 8 | second : second << 8 | first)
            index += 2
        }
        var decoded = DecodedText(utf8: [])
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var iterator = units.makeIterator()
        var parser = Unicode.UTF16.ForwardParser()
        parsing: while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                output.append(contentsOf: Unicode.UTF16.decode(encoded).utf8)
            case .error:
                noteInvalidSequence(&decoded, output: &output)
            case .emptyInput:
                break parsing
            }
        }
        // An odd byte at the end is a code unit cut short.
        if bytes.count % 2 == 1 { noteInvalidSequence(&decoded, output: &output) }
        decoded.utf8 = output
        return decoded
    }

    private static func decodeSingleByte(
        _ bytes: UnsafeRawBufferPointer, high: (UInt8) -> UInt32
    ) -> DecodedText {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + bytes.count / 4)
        for byte in bytes {
            if byte < 0x80 {
                output.append(byte)
            } else if let scalar = Unicode.Scalar(high(byte)) {
                output.append(contentsOf: scalar.utf8)
            }
        }
        return DecodedText(utf8: output)
    }

    private static func noteInvalidSequence(_ decoded: inout DecodedText, output: inout [UInt8]) {
        if decoded.invalidSequences == 0 {
            decoded.firstInvalidLine = output.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
        }
        decoded.invalidSequences += 1
        output.append(contentsOf: replacementCharacter)
    }

    /// windows-1252's bytes 0x80–0x9F (the standard's index; the five undefined bytes map to the
    /// C1 controls of the same value); 0xA0–0xFF are ISO-8859-1's.
    private static let windows1252High: [UInt32] =
        [
            0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039,
            0x0152, 0x008D, 0x017D, 0x008F, 0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
            0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
        ] + (0xA0...0xFF).map { UInt32($0) }

    // MARK: - iconv

    /// glibc's name for the converter closest to the standard's decoder.
    private static func iconvName(_ encoding: TextEncoding) -> String {
        switch encoding {
        // The standard's GBK decoder is its gb18030 decoder.
        case .gbk, .gb18030: "GB18030"
        // The standard's Big5 is Big5-HKSCS; Shift_JIS is Windows-31J; EUC-KR is windows-949.
        case .big5: "BIG5-HKSCS"
        case .shiftJIS: "WINDOWS-31J"
        case .eucKR: "CP949"
        case .iso8859Part8I: "ISO-8859-8"
        case .windows874: "CP874"
        case .windows1250, .windows1251, .windows1253, .windows1254, .windows1255, .windows1256, .windows1257,
            .windows1258:
            "CP" + encoding.rawValue.dropFirst("windows-".count)
        case .xMacCyrillic: "MAC-CYRILLIC"
        default: encoding.rawValue.uppercased()
        }
    }

    /// Converts with iconv; an invalid sequence (`EILSEQ`) becomes U+FFFD and decoding resumes
    /// one byte later (so an ASCII byte after a bad lead byte is read as itself, as the standard's
    /// decoders do); a sequence cut short by the end (`EINVAL`) becomes U+FFFD. Nil when glibc
    /// has no such converter.
    private static func decodeWithIconv(_ bytes: UnsafeRawBufferPointer, from name: String) -> DecodedText? {
        guard let descriptor = iconv_open("UTF-8", name), Int(bitPattern: descriptor) != -1 else { return nil }
        defer { iconv_close(descriptor) }
        var decoded = DecodedText(utf8: [])
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count * 2 + 64)
        var chunk = [UInt8](repeating: 0, count: 16_384)
        guard let base = bytes.baseAddress else {
            decoded.utf8 = output
            return decoded
        }
        var input = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: CChar.self))
        var inputLeft = bytes.count
        var finished = false
        while !finished {
            let atEnd = inputLeft == 0
            var failure: Int32 = 0
            let written = chunk.withUnsafeMutableBytes { buffer -> Int in
                var out: UnsafeMutablePointer<CChar>? = buffer.baseAddress?.assumingMemoryBound(to: CChar.self)
                var outLeft = buffer.count
                let result: Int
                if atEnd {
                    // Flush a stateful converter's pending output (ISO-2022-JP's shift back).
                    result = iconv(descriptor, nil, nil, &out, &outLeft)
                } else {
                    var inPointer: UnsafeMutablePointer<CChar>? = input
                    result = iconv(descriptor, &inPointer, &inputLeft, &out, &outLeft)
                    if let inPointer { input = inPointer }
                }
                if result == -1 { failure = errno }
                return buffer.count - outLeft
            }
            output.append(contentsOf: chunk[0..<written])
            switch failure {
            case 0:
                finished = atEnd
            case E2BIG:
                continue
            case EILSEQ where inputLeft > 0:
                noteInvalidSequence(&decoded, output: &output)
                input += 1
                inputLeft -= 1
            case EINVAL where inputLeft > 0:
                noteInvalidSequence(&decoded, output: &output)
                inputLeft = 0
            default:
                finished = true
            }
        }
        decoded.utf8 = output
        return decoded
    }
}
