import LenientJSON
import Testing

/// Parses in strict mode.
func strict(_ text: String) -> JSONParseResult {
    JSONParser.parse(text, lenient: false)
}

/// Parses in lenient mode.
func lenient(_ text: String) -> JSONParseResult {
    JSONParser.parse(text, lenient: true)
}

/// The value of a known-valid JSON text, used to state expected values readably.
func json(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> JSONValue? {
    let result = JSONParser.parse(text, lenient: false)
    #expect(result.isStrictlyValid, "expected-value text must be valid JSON: \(text)", sourceLocation: sourceLocation)
    return result.value
}

/// A diagnostic a test expects: a fragment of its reason and its position.
struct ExpectedDiagnostic: Sendable, CustomStringConvertible {
    var reason: String
    var line: Int
    var column: Int

    init(_ reason: String, _ line: Int, _ column: Int) {
        self.reason = reason
        self.line = line
        self.column = column
    }

    var description: String { "\(line):\(column) \(reason)" }

    func matches(_ diagnostic: JSONDiagnostic) -> Bool {
        diagnostic.reason.contains(reason) && diagnostic.line == line && diagnostic.column == column
    }
}

/// Deterministic pseudo-random numbers (SplitMix64) so fuzz failures are reproducible.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
