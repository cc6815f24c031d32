import LenientJSON
import Testing

@Suite("Robustness on hostile input")
struct RobustnessTests {
    @Test(
        "100,000 openers fail at the depth limit without recursion", .timeLimit(.minutes(5)),
        arguments: [false, true], ["[", "{\"a\":", "[{\"a\":"])
    func deepNesting(lenient: Bool, opener: String) throws {
        let text = String(repeating: opener, count: 100_000)
        let result = JSONParser.parse(text, lenient: lenient)
        #expect(result.value == nil)
        let error = try #require(result.diagnostics.last)
        #expect(error.reason == "nesting deeper than 512 levels")
        #expect(error.severity == .error)
        #expect(!error.recovered)
        // The 513th container is the one rejected.
        let openerOffsets = text.utf8.enumerated().lazy.filter { $0.element == 0x5B || $0.element == 0x7B }.map(
            \.offset)
        #expect(error.byteOffset == Array(openerOffsets.prefix(513)).last)
        #expect(error.column == error.byteOffset + 1)
    }

    @Test("nesting up to the limit is accepted and survives a round trip")
    func nestingAtTheLimit() throws {
        let depth = JSONParser.defaultMaximumDepth
        let accepted = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        let value = try #require(strict(accepted).value)
        #expect(value.serialized() == accepted)
        #expect(strict(value.serialized(pretty: true)).value == value)
        let rejected = "[" + accepted + "]"
        #expect(strict(rejected).value == nil)
        #expect(lenient(rejected).value == nil)
    }

    @Test(
        "maximumDepth is configurable and clamped",
        arguments: [
            (2, "[[]]", true), (2, "[[[]]]", false), (0, "[]", true), (0, "[[]]", false), (-5, "{}", true),
            (1_000_000, String(repeating: "[", count: 1024) + String(repeating: "]", count: 1024), true),
            (1_000_000, String(repeating: "[", count: 1025) + String(repeating: "]", count: 1025), false),
        ] as [(Int, String, Bool)])
    func configurableDepth(_ depth: Int, _ text: String, _ accepted: Bool) {
        let result = JSONParser.parse(text, lenient: false, maximumDepth: depth)
        #expect((result.value != nil) == accepted)
        #expect(result.isStrictlyValid == accepted)
    }

    @Test("huge numbers are kept literally and never trap")
    func hugeNumbers() throws {
        let digits = String(repeating: "9", count: 10_000)
        let literals = [digits, "-" + digits + "." + digits + "e-" + digits, "1e999999999999999999999999", "-0.0E-0"]
        for literal in literals {
            let result = strict("[\(literal)]")
            let number = try #require(result.value?[0])
            #expect(number == .number(literal))
            #expect(number.serialized() == literal)
            _ = number.numberValue
            _ = number.intValue
        }
        #expect(JSONValue.number(digits).intValue == nil)
        #expect(JSONValue.number(digits).numberValue == .infinity)
    }

    @Test("large inputs parse", .timeLimit(.minutes(5)))
    func largeInputs() throws {
        let longString = String(repeating: "é\\n\\u00e9abc", count: 50_000)
        let value = try #require(strict("\"\(longString)\"").value?.stringValue)
        #expect(value.unicodeScalars.count == 50_000 * 6)
        let manyElements = "[" + Array(repeating: "{\"a\":[1,\"x\",null]}", count: 20_000).joined(separator: ",") + "]"
        #expect(strict(manyElements).value?.arrayValue?.count == 20_000)
        let keys = (0..<20_000).map { "\"key\($0)\":\($0)" }.joined(separator: ",")
        let object = try #require(strict("{\(keys)}").value?.objectValue)
        #expect(object.count == 20_000)
        #expect(object["key19999"] == 19_999)
    }

    @Test(
        "unterminated constructs at the end of input never read past it",
        arguments: [
            "\"", "\"\\", "\"\\u", "\"\\u12", "\"\\ud83d", "\"\\ud83d\\", "\"\\ud83d\\u", "\"\\ud83d\\udc", "[1.",
            "[1e", "-",
            "/", "/*", "/* *", "<", "<!-", "<!--", "<![CDATA", "-->", "-", "]]", "t", "nul", "-I", "{\"a\"", "{\"a\":",
            "{'", "{a", "[+", "[.", "\u{FEFF}", "\u{C2}", "\"\u{E9}",
        ])
    func truncatedInput(_ text: String) {
        for lenientMode in [false, true] {
            let result = JSONParser.parse(text, lenient: lenientMode)
            for diagnostic in result.diagnostics {
                #expect(diagnostic.byteOffset <= text.utf8.count)
            }
            #expect(!result.isStrictlyValid)
            if lenientMode {
                #expect(result.value != nil || result.diagnostics.last?.recovered == false)
            }
        }
        // Every strict prefix fails with exactly one error.
        let strictResult = strict(text)
        #expect(strictResult.value == nil)
        #expect(strictResult.diagnostics.filter { $0.severity == .error }.count == 1)
    }

    static let fuzzSeeds: [String] = [
        #"{"@context":"https://schema.org","@type":"Recipe","name":"Caf\u00e9 \"au\" lait","recipeYield":4,"#
            + #""nutrition":{"calories":"120 cal"},"tags":["a","b",[1.5e3,-0,true,false,null]]}"#,
        "<!--\n{'a': [NaN, .5, +1,], b: \"x\ty\\q\" /* c */, \"c\": \"\\ud800\"} {\"d\": 1} -->",
        "//<![CDATA[\n[{\"a\":1},{\"b\":\"é😀\"}]\n//]]>",
        "{\"data\": \"line 1\n line 2\", \"name\": \"The \"Best\" Pizza\", \"n\": [1 2 3]}",
    ]

    @Test("fuzzed input never crashes and keeps the result invariants", arguments: 0..<8)
    func fuzz(seed: Int) {
        var random = SplitMix64(state: UInt64(seed) &* 0x1234_5678_9ABC_DEF1)
        let alphabet =
            Array(#"{}[]",:'\/*<!-->;.+eE0123456789abtnulfs "#.utf8) + [
                0x00, 0x0A, 0x0D, 0x09, 0xFF, 0xC3, 0xED, 0xA0, 0xF0, 0x9F,
            ]
        for _ in 0..<400 {
            var bytes = Array(Self.fuzzSeeds[Int(random.next() % UInt64(Self.fuzzSeeds.count))].utf8)
            for _ in 0...(random.next() % 6) {
                let position = bytes.isEmpty ? 0 : Int(random.next() % UInt64(bytes.count))
                let byte = alphabet[Int(random.next() % UInt64(alphabet.count))]
                switch random.next() % 5 {
                case 0 where !bytes.isEmpty: bytes.remove(at: position)
                case 1: bytes.insert(byte, at: position)
                case 2 where !bytes.isEmpty: bytes[position] = byte
                case 3 where !bytes.isEmpty: bytes.removeSubrange(position...)
                default: bytes.insert(contentsOf: bytes[position...].prefix(8), at: position)
                }
            }
            checkInvariants(bytes)
        }
    }

    private func checkInvariants(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
        let strictResult = JSONParser.parse(bytes, lenient: false)
        let lenientResult = JSONParser.parse(bytes, lenient: true)
        for result in [strictResult, lenientResult] {
            #expect(result.isStrictlyValid == !result.diagnostics.contains { $0.severity == .error })
            #expect((result.value == nil) == (result.failure != nil), sourceLocation: sourceLocation)
            for diagnostic in result.diagnostics {
                #expect(diagnostic.line >= 1 && diagnostic.column >= 1, sourceLocation: sourceLocation)
                #expect(
                    diagnostic.byteOffset >= 0 && diagnostic.byteOffset <= bytes.count, sourceLocation: sourceLocation)
                #expect(diagnostic.column <= diagnostic.byteOffset + 1, sourceLocation: sourceLocation)
            }
        }
        if strictResult.isStrictlyValid {
            #expect(strictResult.value != nil, sourceLocation: sourceLocation)
            #expect(lenientResult.value == strictResult.value, sourceLocation: sourceLocation)
            #expect(lenientResult.diagnostics == strictResult.diagnostics, sourceLocation: sourceLocation)
        } else {
            #expect(strictResult.value == nil, sourceLocation: sourceLocation)
            #expect(
                strictResult.diagnostics.filter { $0.severity == .error }.count == 1, sourceLocation: sourceLocation)
        }
        if let value = lenientResult.value {
            for pretty in [false, true] {
                let reparsed = strict(value.serialized(pretty: pretty))
                #expect(reparsed.isStrictlyValid, "\(bytes)", sourceLocation: sourceLocation)
                #expect(reparsed.value == value, "\(bytes)", sourceLocation: sourceLocation)
            }
        } else {
            #expect(
                lenientResult.diagnostics.contains { $0.severity == .error && !$0.recovered },
                sourceLocation: sourceLocation)
        }
    }
}
