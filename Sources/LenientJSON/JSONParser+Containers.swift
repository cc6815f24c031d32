extension Parser {
    /// Parses one value at `pos` (after trivia), iteratively.
    mutating func parseValue() throws(ParseFailure) -> JSONValue {
        var stack: [Frame] = []
        var state = State.value
        while true {
            switch state {
            case .value:
                try skipTrivia(topLevel: stack.isEmpty)
                guard pos < end else {
                    if stack.isEmpty {
                        throw fail("unexpected end of input; expected a JSON value", at: pos)
                    }
                    return try closeAtEndOfInput(&stack)
                }
                let byte = bytes[pos]
                if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                    guard stack.count < maximumDepth else {
                        throw fail("nesting deeper than \(maximumDepth) levels", at: pos)
                    }
                    let isObject = byte == UInt8(ascii: "{")
                    stack.append(Frame(isObject: isObject, openOffset: pos))
                    pos += 1
                    state = isObject ? .firstKey : .firstElement
                } else if lenient, !stack.isEmpty, let skipped = try skipMissingValue(in: stack[stack.count - 1]) {
                    if skipped == .missingValue {
                        state = .afterValue
                    }
                } else {
                    let value = try parseScalar()
                    if stack.isEmpty {
                        return value
                    }
                    Self.append(value, to: &stack)
                    state = .afterValue
                }
            case .firstElement, .firstKey:
                try skipTrivia(topLevel: false)
                let closer = state == .firstKey ? UInt8(ascii: "}") : UInt8(ascii: "]")
                if pos < end, bytes[pos] == closer {
                    pos += 1
                    if let value = Self.close(&stack) {
                        return value
                    }
                    state = .afterValue
                } else {
                    state = state == .firstKey ? .key : .value
                }
            case .key:
                guard let next = try parseKey(&stack) else {
                    return try closeAtEndOfInput(&stack)
                }
                if next == .afterValue, let value = Self.close(&stack) {
                    return value
                }
                state = next
            case .afterValue:
                try skipTrivia(topLevel: false)
                guard pos < end else {
                    return try closeAtEndOfInput(&stack)
                }
                if let value = try afterValue(&stack, state: &state) {
                    return value
                }
            }
        }
    }

    /// What ``skipMissingValue(in:)`` found.
    enum Skipped {
        /// A `,` with no element before it; consumed.
        case emptyElement
        /// A closer where a value should be; not consumed.
        case missingValue
    }

    /// In lenient mode, at a value position inside a container: handles a `,` (empty array element) or a closer
    /// (missing value); `nil` when the byte is neither.
    mutating func skipMissingValue(in top: Frame) throws(ParseFailure) -> Skipped? {
        switch bytes[pos] {
        case UInt8(ascii: ",") where !top.isObject:
            try repair("unexpected ','; empty array element skipped", at: pos)
            pos += 1
            return .emptyElement
        case UInt8(ascii: "]"), UInt8(ascii: "}"):
            if top.isObject {
                try repair("missing value for key \"\(top.key)\"; member dropped", at: pos)
            } else {
                try repair("expected a value before '\(Character(Unicode.Scalar(bytes[pos])))'", at: pos)
            }
            return .missingValue
        default:
            return nil
        }
    }

    /// Parses an object key and the `:` after it. Returns the next state: `.value`, or `.afterValue` when the
    /// object was closed by a `}` in key position (lenient only); `nil` at the end of input.
    mutating func parseKey(_ stack: inout [Frame]) throws(ParseFailure) -> State? {
        let top = stack.count - 1
        while true {
            try skipTrivia(topLevel: false)
            guard pos < end else { return nil }
            let byte = bytes[pos]
            if lenient, byte == UInt8(ascii: ",") {
                try repair("unexpected ','; expected an object key", at: pos)
                pos += 1
                continue
            }
            if lenient, byte == UInt8(ascii: "}") {
                pos += 1
                return .afterValue
            }
            break
        }
        let keyOffset = pos
        let key: String
        switch bytes[pos] {
        case UInt8(ascii: "\""):
            key = try parseString(quote: UInt8(ascii: "\""), isKey: true)
        case UInt8(ascii: "'"):
            try repair("single-quoted string", at: pos)
            key = try parseString(quote: UInt8(ascii: "'"), isKey: true)
        case let byte where lenient && Self.isIdentifierStart(byte):
            try repair("unquoted object key", at: pos)
            key = parseIdentifier()
        default:
            throw fail("expected a string key for an object member, found \(describeCharacter(at: pos))", at: pos)
        }
        noteKey(key, at: keyOffset, in: &stack[top])
        stack[top].key = key
        try skipTrivia(topLevel: false)
        guard pos < end else { return nil }
        if bytes[pos] == UInt8(ascii: ":") {
            pos += 1
        } else if lenient, Self.startsValue(bytes[pos]) {
            try repair("expected ':' after object key", at: pos)
        } else {
            throw fail("expected ':' after object key, found \(describeCharacter(at: pos))", at: pos)
        }
        return .value
    }

    /// After a value inside a container, at a non-trivia byte: handles `,`, the closer and the lenient repairs.
    /// Returns the top-level value when the outermost container closes.
    mutating func afterValue(_ stack: inout [Frame], state: inout State) throws(ParseFailure) -> JSONValue? {
        let isObject = stack[stack.count - 1].isObject
        let closer = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
        let byte = bytes[pos]
        if byte == UInt8(ascii: ",") {
            let commaOffset = pos
            pos += 1
            try skipTrivia(topLevel: false)
            if pos < end, bytes[pos] == closer {
                try repair("trailing comma before '\(Character(Unicode.Scalar(closer)))'", at: commaOffset)
            } else {
                state = isObject ? .key : .value
            }
            return nil
        }
        if byte == closer {
            pos += 1
            return Self.close(&stack)
        }
        if lenient, byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") {
            let isObjectCloser = byte == UInt8(ascii: "}")
            let expected = isObject ? "'}'" : "']'"
            if stack.contains(where: { $0.isObject == isObjectCloser }) {
                try repair("missing \(expected) before '\(Character(Unicode.Scalar(byte)))'", at: pos)
                return Self.close(&stack)
            }
            try repair("unexpected '\(Character(Unicode.Scalar(byte)))' ignored; expected ',' or \(expected)", at: pos)
            pos += 1
            return nil
        }
        if lenient, isObject ? Self.startsKey(byte) : Self.startsValue(byte) {
            let what = isObject ? "object members" : "array elements"
            try repair("missing ',' between \(what)", at: pos)
            state = isObject ? .key : .value
            return nil
        }
        let expected = isObject ? "',' or '}' after an object member" : "',' or ']' after an array element"
        throw fail("expected \(expected), found \(describeCharacter(at: pos))", at: pos)
    }

    /// Lenient: closes every open container at the end of input. Strict: fails.
    mutating func closeAtEndOfInput(_ stack: inout [Frame]) throws(ParseFailure) -> JSONValue {
        while let frame = stack.last {
            let kind = frame.isObject ? "object" : "array"
            try repair("unexpected end of input; unterminated \(kind)", at: end, related: frame.openOffset)
            if let value = Self.close(&stack) {
                return value
            }
        }
        throw fail("unexpected end of input", at: end)
    }

    /// Pops the innermost container; returns its value when it was the outermost one, otherwise adds it to
    /// its parent.
    static func close(_ stack: inout [Frame]) -> JSONValue? {
        guard let frame = stack.popLast() else { return nil }
        let value = frame.isObject ? JSONValue.object(frame.object) : JSONValue.array(frame.elements)
        if stack.isEmpty {
            return value
        }
        append(value, to: &stack)
        return nil
    }

    /// Adds a completed value to the innermost container (as the value of its pending key, for objects).
    static func append(_ value: JSONValue, to stack: inout [Frame]) {
        let top = stack.count - 1
        if stack[top].isObject {
            stack[top].object.members.append(JSONObject.Member(key: stack[top].key, value: value))
        } else {
            stack[top].elements.append(value)
        }
    }

    /// Warns when `key` is already a key of the object being built.
    mutating func noteKey(_ key: String, at offset: Int, in frame: inout Frame) {
        let linearLimit = 12
        let duplicate: Bool
        if frame.keySet == nil, frame.object.members.count < linearLimit {
            duplicate = frame.object.members.contains { $0.key == key }
        } else {
            if frame.keySet == nil {
                frame.keySet = Set(frame.object.members.map(\.key))
            }
            duplicate = frame.keySet?.insert(key).inserted == false
        }
        if duplicate {
            report("duplicate key \"\(key)\"", at: offset, severity: .warning, recovered: false)
        }
    }
}
