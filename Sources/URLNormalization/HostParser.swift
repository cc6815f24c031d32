import Foundation

/// WHATWG host parsing for special URLs: IPv6 in brackets, then percent-decoding, domain to
/// ASCII (compatibility normalisation, lower-casing, IDNA dot separators, Punycode), forbidden
/// code points, and the IPv4 number forms (hex, octal, decimal, 1–4 parts).
enum HostParser {
    static func parse(_ input: String) -> String? {
        if input.hasPrefix("[") {
            guard input.hasSuffix("]"), let address = IPv6.parse(String(input.dropFirst().dropLast())) else {
                return nil
            }
            return "[" + IPv6.serialize(address) + "]"
        }
        // Fast path, the same result as below for the common case: ASCII letters, digits, '-' and
        // '.' only (nothing to percent-decode, map or Punycode-encode; nothing forbidden).
        if !input.isEmpty, input.utf8.allSatisfy(Self.isPlainHostByte) {
            let ascii =
                input.utf8.contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") })
                ? input.lowercased() : input
            if endsInANumber(ascii) {
                guard let address = IPv4.parse(ascii) else { return nil }
                return IPv4.serialize(address)
            }
            return ascii
        }
        let decoded = String(decoding: PercentEncoding.decode(input), as: UTF8.self)
        guard let ascii = domainToASCII(decoded) else { return nil }
        let forbidden = Set("\u{0}\t\n\r #/:<>?@[\\]^|%".unicodeScalars)
        guard !ascii.isEmpty,
            !ascii.unicodeScalars.contains(where: { forbidden.contains($0) || $0.value < 0x20 || $0.value == 0x7F })
        else { return nil }
        if endsInANumber(ascii) {
            guard let address = IPv4.parse(ascii) else { return nil }
            return IPv4.serialize(address)
        }
        return ascii
    }

    private static func isPlainHostByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."):
            true
        default: false
        }
    }

    /// UTS 46 processing, approximated: NFKC + lower-case, IDEOGRAPHIC/FULLWIDTH/HALFWIDTH full
    /// stops as dots, non-ASCII labels Punycode-encoded with `xn--`.
    static func domainToASCII(_ domain: String) -> String? {
        // UTS 46: "ignored" code points vanish; noncharacters and U+FFFD are disallowed.
        var kept = String.UnicodeScalarView()
        for scalar in domain.unicodeScalars {
            switch scalar.value {
            case 0xAD, 0x34F, 0x180B...0x180D, 0x200B, 0x2060, 0xFE00...0xFE0F, 0xFEFF:
                continue
            case 0xFDD0...0xFDEF, 0xFFFD:
                return nil
            case let value where value & 0xFFFE == 0xFFFE:
                return nil
            default:
                kept.append(scalar)
            }
        }
        let mapped = String(kept).precomposedStringWithCompatibilityMapping.lowercased()
            .replacingOccurrences(of: "\u{3002}", with: ".").replacingOccurrences(of: "\u{FF0E}", with: ".")
            .replacingOccurrences(of: "\u{FF61}", with: ".")
        var labels: [String] = []
        for label in mapped.split(separator: ".", omittingEmptySubsequences: false) {
            if label.unicodeScalars.allSatisfy(\.isASCII) {
                labels.append(String(label))
            } else {
                guard let encoded = Punycode.encode(String(label)) else { return nil }
                labels.append("xn--" + encoded)
            }
        }
        return labels.joined(separator: ".")
    }

    static func endsInANumber(_ host: String) -> Bool {
        // A last label that starts with no digit (or sign, which `UInt64(_:radix:)` reads) is no
        // number: most hosts are answered here, without splitting.
        let utf8 = host.utf8
        let dot = UInt8(ascii: ".")
        let labelsEnd = utf8.last == dot ? utf8.index(before: utf8.endIndex) : utf8.endIndex
        let lastLabelStart = utf8[..<labelsEnd].lastIndex(of: dot).map(utf8.index(after:)) ?? utf8.startIndex
        if lastLabelStart < labelsEnd {
            let first = utf8[lastLabelStart]
            guard
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) || first == UInt8(ascii: "+")
                    || first == UInt8(ascii: "-")
            else { return false }
        }
        var parts = host.split(separator: ".", omittingEmptySubsequences: false)
        if parts.last == "" {
            guard parts.count > 1 else { return false }
            parts.removeLast()
        }
        guard let last = parts.last, !last.isEmpty else { return false }
        if last.allSatisfy({ $0.isASCII && $0.isNumber }) { return true }
        return IPv4.number(String(last)) != nil
    }
}

enum IPv4 {
    /// One IPv4 part: `0x…` hex, `0…` octal, else decimal; nil when invalid.
    static func number(_ text: String) -> UInt64? {
        var digits = Substring(text)
        var radix = 10
        if digits.count >= 2, digits.hasPrefix("0x") || digits.hasPrefix("0X") {
            digits = digits.dropFirst(2)
            radix = 16
        } else if digits.count >= 2, digits.hasPrefix("0") {
            digits = digits.drop { $0 == "0" }
            radix = 8
        }
        if digits.isEmpty { return 0 }
        guard digits.count <= 20 else { return UInt64.max }
        return UInt64(digits, radix: radix)
    }

    static func parse(_ host: String) -> UInt32? {
        var parts = host.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if parts.last == "" { parts.removeLast() }
        guard !parts.isEmpty, parts.count <= 4 else { return nil }
        var numbers: [UInt64] = []
        for part in parts {
            guard !part.isEmpty, let value = number(part) else { return nil }
            numbers.append(value)
        }
        for value in numbers.dropLast() where value > 255 { return nil }
        let last = numbers[numbers.count - 1]
        // An integer: at most four numbers reach here.
        let limit = UInt64(1) << (8 * UInt64(5 - numbers.count))  // numeric-conversion: checked
        guard last < limit else { return nil }
        var address = last
        for (index, value) in numbers.dropLast().enumerated() {
            address += value << (8 * UInt64(3 - index))
        }
        return UInt32(truncatingIfNeeded: address)
    }

    static func serialize(_ address: UInt32) -> String {
        [24, 16, 8, 0].map { String((address >> $0) & 0xFF) }.joined(separator: ".")
    }
}

enum IPv6 {
    static func parse(_ input: String) -> [UInt16]? {
        var pieces = [UInt16](repeating: 0, count: 8)
        var pieceIndex = 0
        var compress: Int?
        let chars = Array(input.unicodeScalars)
        var pointer = 0
        func hex(_ scalar: Unicode.Scalar) -> UInt16? {
            ParsedURL.hexValue(UInt8(truncatingIfNeeded: scalar.value)).flatMap { scalar.isASCII ? UInt16($0) : nil }
        }
        if chars.first == ":" {
            guard chars.count > 1, chars[1] == ":" else { return nil }
            pointer = 2
            pieceIndex = 1
            compress = 1
        }
        while pointer < chars.count {
            guard pieceIndex < 8 else { return nil }
            if chars[pointer] == ":" {
                guard compress == nil else { return nil }
                pointer += 1
                pieceIndex += 1
                compress = pieceIndex
                continue
            }
            var value: UInt16 = 0
            var length = 0
            while length < 4, pointer < chars.count, let digit = hex(chars[pointer]) {
                value = value * 16 + digit
                pointer += 1
                length += 1
            }
            if pointer < chars.count, chars[pointer] == "." {
                guard length > 0, pieceIndex <= 6 else { return nil }
                pointer -= length
                var numbersSeen = 0
                while pointer < chars.count {
                    var ipv4Piece: Int?
                    if numbersSeen > 0 {
                        guard chars[pointer] == ".", numbersSeen < 4 else { return nil }
                        pointer += 1
                    }
                    guard pointer < chars.count, chars[pointer].isASCIIDigit else { return nil }
                    while pointer < chars.count, chars[pointer].isASCIIDigit {
                        let digit = Int(chars[pointer].value - 0x30)
                        if ipv4Piece == 0 { return nil }
                        ipv4Piece = (ipv4Piece ?? 0) * 10 + digit
                        guard (ipv4Piece ?? 0) <= 255 else { return nil }
                        pointer += 1
                    }
                    pieces[pieceIndex] = pieces[pieceIndex] * 0x100 + UInt16(ipv4Piece ?? 0)
                    numbersSeen += 1
                    if numbersSeen == 2 || numbersSeen == 4 { pieceIndex += 1 }
                }
                guard numbersSeen == 4 else { return nil }
                break
            } else if pointer < chars.count, chars[pointer] == ":" {
                pointer += 1
                guard pointer < chars.count else { return nil }
            } else if pointer < chars.count {
                return nil
            }
            pieces[pieceIndex] = value
            pieceIndex += 1
        }
        if let compress {
            var swaps = pieceIndex - compress
            pieceIndex = 7
            while pieceIndex != 0, swaps > 0 {
                pieces.swapAt(pieceIndex, compress + swaps - 1)
                pieceIndex -= 1
                swaps -= 1
            }
        } else if pieceIndex != 8 {
            return nil
        }
        return pieces
    }

    static func serialize(_ pieces: [UInt16]) -> String {
        // The first longest run of two or more zero pieces is compressed.
        var bestStart = -1
        var bestLength = 1
        var index = 0
        while index < 8 {
            if pieces[index] == 0 {
                var end = index
                while end < 8, pieces[end] == 0 { end += 1 }
                if end - index > bestLength {
                    bestStart = index
                    bestLength = end - index
                }
                index = end
            } else {
                index += 1
            }
        }
        var output = ""
        var ignore0 = false
        for position in 0..<8 {
            if ignore0, pieces[position] == 0 { continue }
            ignore0 = false
            if position == bestStart {
                output += position == 0 ? "::" : ":"
                ignore0 = true
                continue
            }
            output += String(pieces[position], radix: 16)
            if position != 7 { output += ":" }
        }
        return output
    }
}

/// RFC 3492 Punycode encoding of one label.
enum Punycode {
    static func encode(_ label: String) -> String? {
        let base = 36, tMin = 1, tMax = 26, skew = 38, damp = 700
        let input = label.unicodeScalars.map { Int($0.value) }
        var output = input.filter { $0 < 0x80 }.map { Character(Unicode.Scalar(UInt8($0))) }
        let basicCount = output.count
        var handled = basicCount
        if basicCount > 0 { output.append("-") }
        var n = 128
        var delta = 0
        var bias = 72
        func digit(_ value: Int) -> Character {
            Character(Unicode.Scalar(UInt8(value < 26 ? value + 97 : value + 22)))
        }
        func adapt(_ delta: Int, _ count: Int, _ first: Bool) -> Int {
            var delta = first ? delta / damp : delta / 2
            delta += delta / count
            var k = 0
            while delta > ((base - tMin) * tMax) / 2 {
                delta /= base - tMin
                k += base
            }
            return k + (base - tMin + 1) * delta / (delta + skew)
        }
        while handled < input.count {
            guard let m = input.filter({ $0 >= n }).min() else { return nil }
            let (product, overflow) = (m - n).multipliedReportingOverflow(by: handled + 1)
            guard !overflow else { return nil }
            delta += product
            n = m
            for code in input {
                if code < n { delta += 1 }
                if code == n {
                    var q = delta
                    var k = base
                    while true {
                        let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                        if q < t { break }
                        output.append(digit(t + (q - t) % (base - t)))
                        q = (q - t) / (base - t)
                        k += base
                    }
                    output.append(digit(q))
                    bias = adapt(delta, handled + 1, handled == basicCount)
                    delta = 0
                    handled += 1
                }
            }
            delta += 1
            n += 1
        }
        return String(output)
    }
}
