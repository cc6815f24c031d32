/// The RFC 8259 number grammar: `-? (0 | [1-9][0-9]*) (\.[0-9]+)? ([eE][+-]?[0-9]+)?`.
enum JSONNumberSyntax {
    /// The outcome of scanning a number.
    enum Scan: Equatable {
        /// A valid number ends (exclusively) at `end`.
        case valid(end: Int)
        /// The grammar fails at `offset` for `reason`.
        case invalid(offset: Int, reason: String)
    }

    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }

    /// Scans the longest valid number starting at `start` (which must be `< end`).
    static func scan(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, end: Int) -> Scan {
        var index = start
        if bytes[index] == UInt8(ascii: "-") {
            index += 1
        }
        guard index < end, isDigit(bytes[index]) else {
            return .invalid(offset: index, reason: "expected a digit after '-' in number")
        }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < end, isDigit(bytes[index]) {
                return .invalid(offset: index - 1, reason: "leading zero in number")
            }
        } else {
            while index < end, isDigit(bytes[index]) {
                index += 1
            }
        }
        if index < end, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < end, isDigit(bytes[index]) else {
                return .invalid(offset: index, reason: "expected a digit after '.' in number")
            }
            while index < end, isDigit(bytes[index]) {
                index += 1
            }
        }
        if index < end, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < end, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < end, isDigit(bytes[index]) else {
                return .invalid(offset: index, reason: "expected a digit in number exponent")
            }
            while index < end, isDigit(bytes[index]) {
                index += 1
            }
        }
        return .valid(end: index)
    }

    /// Whether `text` is exactly one valid JSON number.
    static func isValid(_ text: String) -> Bool {
        let check = { (bytes: UnsafeBufferPointer<UInt8>) -> Bool in
            guard !bytes.isEmpty else { return false }
            return scan(bytes, from: 0, end: bytes.count) == .valid(end: bytes.count)
        }
        if let result = text.utf8.withContiguousStorageIfAvailable(check) {
            return result
        }
        return Array(text.utf8).withUnsafeBufferPointer(check)
    }

    /// Rewrites a malformed number literal (`+1`, `.5`, `5.`, `007`, `1.e5`, `1e`) as a valid one, or returns
    /// `nil` when the bytes are not number-like. `start..<end` must cover exactly the candidate literal.
    static func normalize(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, end: Int) -> String? {
        var index = start
        var output: [UInt8] = []
        if index < end, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
            if bytes[index] == UInt8(ascii: "-") {
                output.append(UInt8(ascii: "-"))
            }
            index += 1
        }
        let integerStart = index
        while index < end, isDigit(bytes[index]) {
            index += 1
        }
        let integerEnd = index
        var fractionStart = index
        if index < end, bytes[index] == UInt8(ascii: ".") {
            index += 1
            fractionStart = index
            while index < end, isDigit(bytes[index]) {
                index += 1
            }
        }
        let fractionEnd = index
        guard integerStart < integerEnd || fractionStart < fractionEnd else { return nil }
        if integerStart < integerEnd {
            var first = integerStart
            while first < integerEnd - 1, bytes[first] == UInt8(ascii: "0") {
                first += 1
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[first..<integerEnd]))
        } else {
            output.append(UInt8(ascii: "0"))
        }
        if fractionStart < fractionEnd {
            output.append(UInt8(ascii: "."))
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[fractionStart..<fractionEnd]))
        }
        if index < end, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            var sign: UInt8?
            if index < end, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                sign = bytes[index]
                index += 1
            }
            let exponentStart = index
            while index < end, isDigit(bytes[index]) {
                index += 1
            }
            if exponentStart < index {
                output.append(UInt8(ascii: "e"))
                if let sign {
                    output.append(sign)
                }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[exponentStart..<index]))
            }
        }
        guard index == end else { return nil }
        return String(decoding: output, as: UTF8.self)
    }
}
