/// A JSON value.
///
/// Numbers keep the literal text they were written with, so huge or very precise numbers survive a
/// parse → serialize round trip unchanged. Equality is structural: numbers compare by their text (`1` and
/// `1.0` differ) and objects compare their members in order.
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, as the literal written in the source (e.g. `"4.5"`, `"-1e3"`); always a valid JSON number
    /// when produced by this module. The serializer writes `null` for a text that is not a JSON number.
    case number(String)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, with its members in order.
    case object(JSONObject)
}

// MARK: - Literals

extension JSONValue: ExpressibleByNilLiteral {
    /// `nil` is `null`.
    public init(nilLiteral: ()) {
        self = .null
    }
}

extension JSONValue: ExpressibleByBooleanLiteral {
    /// A boolean literal is a JSON boolean.
    public init(booleanLiteral value: Bool) {
        self = .bool(value)
    }
}

extension JSONValue: ExpressibleByIntegerLiteral {
    /// An integer literal is a JSON number.
    public init(integerLiteral value: Int) {
        self.init(value)
    }
}

extension JSONValue: ExpressibleByFloatLiteral {
    /// A float literal is a JSON number (see ``init(_:)-(Double)``).
    public init(floatLiteral value: Double) {
        self.init(value)
    }
}

extension JSONValue: ExpressibleByStringLiteral {
    /// A string literal is a JSON string.
    public init(stringLiteral value: String) {
        self = .string(value)
    }
}

extension JSONValue: ExpressibleByArrayLiteral {
    /// An array literal is a JSON array.
    public init(arrayLiteral elements: JSONValue...) {
        self = .array(elements)
    }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    /// A dictionary literal is a JSON object whose members keep the literal's order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements))
    }
}

// MARK: - Conversions

extension JSONValue {
    /// A JSON number for `int`.
    public init(_ int: Int) {
        self = .number(String(int))
    }

    /// A JSON number for `double`: integral values below 2^53 are written without a fraction (`1.0` → `1`),
    /// other values with Swift's shortest round-trip text (`4.5`, `1e-07`, `1.5e+300`). Infinity and NaN,
    /// which JSON cannot represent, become `null`.
    public init(_ double: Double) {
        guard double.isFinite else {
            self = .null
            return
        }
        if double.magnitude < 9_007_199_254_740_992, let int = Self.exactInt(double) {
            self = .number(String(int))
        } else {
            self = .number(double.description)
        }
    }

    /// A JSON boolean.
    public init(_ bool: Bool) {
        self = .bool(bool)
    }

    /// A JSON string.
    public init(_ string: String) {
        self = .string(string)
    }

    /// A JSON array.
    public init(_ array: [JSONValue]) {
        self = .array(array)
    }

    /// A JSON object.
    public init(_ object: JSONObject) {
        self = .object(object)
    }

    /// The string, when this is a string.
    public var stringValue: String? {
        if case .string(let string) = self { string } else { nil }
    }

    /// The elements, when this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let array) = self { array } else { nil }
    }

    /// The object, when this is an object.
    public var objectValue: JSONObject? {
        if case .object(let object) = self { object } else { nil }
    }

    /// The boolean, when this is a boolean.
    public var boolValue: Bool? {
        if case .bool(let bool) = self { bool } else { nil }
    }

    /// The number as a `Double`, when this is a number (infinite when the literal is out of `Double`'s range).
    public var numberValue: Double? {
        if case .number(let text) = self { Double(text) } else { nil }
    }

    /// The number as an `Int`, when this is a number with an integral value that fits (`3`, `3.0`, `3e2`).
    public var intValue: Int? {
        guard case .number(let text) = self else { return nil }
        if let int = Int(text) {
            return int
        }
        guard let double = Double(text) else { return nil }
        return Self.exactInt(double)
    }

    /// `double` as an `Int` when it is integral and in range. Avoids `rounded()` and `Int(exactly:)`, which
    /// need libm symbols that an executable without Foundation does not link on Linux.
    private static func exactInt(_ double: Double) -> Int? {
        guard double.isFinite, double.magnitude < 9_223_372_036_854_775_808.0 else { return nil }
        let int = Int(double)  // numeric-conversion: checked (finite and under 2^63, guarded above)
        return Double(int) == double ? int : nil
    }

    /// The literal text, when this is a number.
    public var numberLiteral: String? {
        if case .number(let text) = self { text } else { nil }
    }

    /// Whether this is `null`.
    public var isNull: Bool {
        self == .null
    }

    /// The value of the last member with `key`, when this is an object (see ``JSONObject/subscript(key:)``).
    public subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }

    /// The element at `index`, when this is an array and the index is in range.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let array) = self, array.indices.contains(index) else { return nil }
        return array[index]
    }
}
