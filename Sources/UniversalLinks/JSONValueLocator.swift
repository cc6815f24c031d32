import URLNormalization

/// Finds the line and column of values in a strictly valid JSON text, by their ``JSONPath`` text, so that
/// problems found on the parsed value can point into the file. One forward pass, no recursion; lines and columns
/// follow `JSONDiagnostic` (1-based, columns in Unicode scalars). For a duplicated key the last member is used,
/// as in the parsed value.
enum JSONValueLocator {
    /// Larger texts are not scanned (paths are still reported, without line and column).
    static let maximumScannedByteCount = 4 * 1024 * 1024

    /// Sets `line` and `column` of every problem whose location path names a value in `bytes`.
    static func fillLocations(of problems: inout [AASAProblem], in bytes: [UInt8]) {
        let wanted = Set(problems.compactMap { $0.location?.path })
        guard !wanted.isEmpty, bytes.count <= maximumScannedByteCount else { return }
        let found = locate(Set(wanted), in: bytes)
        for index in problems.indices {
            guard let path = problems[index].location?.path, let position = found[path] else { continue }
            problems[index].location?.line = position.line
            problems[index].location?.column = position.column
        }
    }

    private enum Frame {
        case object(JSONPath, key: String?)
        case array(JSONPath, index: Int)
    }

    /// The positions of the values whose path text is in `wanted`.
    static func locate(_ wanted: Set<String>, in bytes: [UInt8]) -> [String: (line: Int, column: Int)] {
        var found: [String: (line: Int, column: Int)] = [:]
        var cursor = Cursor(bytes: bytes)
        var stack: [Frame] = []
        var expectingKey = false

        func valuePath() -> JSONPath {
            switch stack.last {
            case nil: JSONPath.root
            case .object(let path, let key)?: path.key(key ?? "")
            case .array(let path, let index)?: path.index(index)
            }
        }
        func startValue() -> JSONPath {
            let path = valuePath()
            if wanted.contains(path.description) {
                found[path.description] = (cursor.line, cursor.column)
            }
            return path
        }

        while let byte = cursor.current {
            switch byte {
            case UInt8(ascii: "{"):
                stack.append(.object(startValue(), key: nil))
                expectingKey = true
                cursor.advance()
            case UInt8(ascii: "["):
                stack.append(.array(startValue(), index: 0))
                cursor.advance()
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                _ = stack.popLast()
                expectingKey = false
                cursor.advance()
            case UInt8(ascii: ","):
                if case .array(let path, let index)? = stack.last {
                    stack[stack.count - 1] = .array(path, index: index + 1)
                } else {
                    expectingKey = true
                }
                cursor.advance()
            case UInt8(ascii: ":"), UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                cursor.advance()
            case UInt8(ascii: "\""):
                if expectingKey, case .object(let path, _)? = stack.last {
                    let key = cursor.readString()
                    stack[stack.count - 1] = .object(path, key: key)
                    expectingKey = false
                } else {
                    _ = startValue()
                    _ = cursor.readString()
                }
            default:
                _ = startValue()
                while let next = cursor.current, !",]} \t\n\r".utf8.contains(next) {
                    cursor.advance()
                }
            }
        }
        return found
    }

    /// A position in the bytes with its line and column.
    private struct Cursor {
        let bytes: [UInt8]
        var offset = 0
        var line = 1
        var column = 1

        init(bytes: [UInt8]) {
            self.bytes = bytes
        }

        var current: UInt8? { offset < bytes.count ? bytes[offset] : nil }

        mutating func advance() {
            let byte = bytes[offset]
            offset += 1
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte == UInt8(ascii: "\r") {
                if current == UInt8(ascii: "\n") {
                    column += 1
                } else {
                    line += 1
                    column = 1
                }
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }

        /// Reads a string starting at `"` and returns its decoded text.
        mutating func readString() -> String {
            advance()
            var scalars = String.UnicodeScalarView()
            var raw: [UInt8] = []
            func flushRaw() {
                scalars.append(contentsOf: String(decoding: raw, as: UTF8.self).unicodeScalars)
                raw.removeAll()
            }
            var pendingHighSurrogate: UInt32?
            while let byte = current {
                if byte == UInt8(ascii: "\"") {
                    advance()
                    break
                }
                guard byte == UInt8(ascii: "\\") else {
                    if pendingHighSurrogate != nil {
                        pendingHighSurrogate = nil
                        scalars.append("\u{FFFD}")
                    }
                    raw.append(byte)
                    advance()
                    continue
                }
                flushRaw()
                advance()
                guard let escaped = current else { break }
                advance()
                var unit: UInt32?
                switch escaped {
                case UInt8(ascii: "b"): unit = 0x08
                case UInt8(ascii: "f"): unit = 0x0C
                case UInt8(ascii: "n"): unit = 0x0A
                case UInt8(ascii: "r"): unit = 0x0D
                case UInt8(ascii: "t"): unit = 0x09
                case UInt8(ascii: "u"):
                    var value: UInt32 = 0
                    for _ in 0..<4 {
                        guard let digit = current, let nibble = ParsedURL.hexValue(digit) else { break }
                        value = value << 4 | UInt32(nibble)
                        advance()
                    }
                    unit = value
                default: unit = UInt32(escaped)
                }
                guard let unit else { continue }
                if let high = pendingHighSurrogate {
                    pendingHighSurrogate = nil
                    if (0xDC00...0xDFFF).contains(unit) {
                        let combined = 0x10000 + ((high - 0xD800) << 10) + (unit - 0xDC00)
                        scalars.append(Unicode.Scalar(combined) ?? "\u{FFFD}")
                        continue
                    }
                    scalars.append("\u{FFFD}")
                }
                if (0xD800...0xDBFF).contains(unit) {
                    pendingHighSurrogate = unit
                } else {
                    scalars.append(Unicode.Scalar(unit) ?? "\u{FFFD}")
                }
            }
            if pendingHighSurrogate != nil {
                scalars.append("\u{FFFD}")
            }
            flushRaw()
            return String(scalars)
        }

    }
}
