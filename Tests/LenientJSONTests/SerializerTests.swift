import LenientJSON
import Testing

@Suite("Serializer")
struct SerializerTests {
    @Test(
        "escapes quotes, backslashes and control characters only",
        arguments: [
            ("plain", #""plain""#),
            ("a\"b\\c", #""a\"b\\c""#),
            ("\n\t\r\u{8}\u{C}", #""\n\t\r\b\f""#),
            ("\u{0}\u{1}\u{1F}", #""\u0000\u0001\u001f""#),
            ("/ </script> é 😀 \u{2028}\u{2029} \u{7F}", "\"/ </script> é 😀 \u{2028}\u{2029} \u{7F}\""),
            ("", #""""#),
        ] as [(String, String)])
    func escaping(_ string: String, _ expected: String) {
        #expect(JSONValue.string(string).serialized() == expected)
        // The output parses back to the same string.
        #expect(strict(expected).value == .string(string))
    }

    /// The eight-bytes-at-a-time scan for escapes: each kind of byte, at every offset of two words
    /// and a tail, comes out as a character-by-character escape writes it.
    @Test(arguments: ["\"", "\\", "\n", "\u{0}", "\u{1F}", " ", "\u{7F}", "é", "\"\\\u{1}"])
    func everyOffsetOfAnEscape(_ special: String) {
        for offset in 0..<18 {
            let string = String(repeating: "a", count: offset) + special + String(repeating: "b", count: 17 - offset)
            #expect(JSONValue.string(string).serialized() == Self.escapedOneByOne(string), "offset \(offset)")
        }
    }

    static func escapedOneByOne(_ string: String) -> String {
        var escaped = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\t": escaped += "\\t"
            case "\r": escaped += "\\r"
            case "\u{8}": escaped += "\\b"
            case "\u{C}": escaped += "\\f"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                escaped += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped + "\""
    }

    static let document: JSONValue = [
        "b": 1,
        "a": [true, nil, "x", .number("-1.50e+3")],
        "empty": ["array": [], "object": .object(JSONObject())],
    ]

    @Test("compact output has no whitespace")
    func compact() {
        #expect(
            Self.document.serialized()
                == #"{"b":1,"a":[true,null,"x",-1.50e+3],"empty":{"array":[],"object":{}}}"#)
    }

    @Test("pretty output indents by two spaces")
    func pretty() {
        let expected = """
            {
              "b": 1,
              "a": [
                true,
                null,
                "x",
                -1.50e+3
              ],
              "empty": {
                "array": [],
                "object": {}
              }
            }
            """
        #expect(Self.document.serialized(pretty: true) == expected)
    }

    @Test("sortKeys orders keys by Unicode scalar value, recursively")
    func sortedKeys() {
        let value: JSONValue = ["b": 1, "é": 2, "Z": 3, "aa": 4, "a": ["y": 1, "x": 2], "😀": 5, "ｚ": 6]
        #expect(
            value.serialized(sortKeys: true)
                == #"{"Z":3,"a":{"x":2,"y":1},"aa":4,"b":1,"é":2,"ｚ":6,"😀":5}"#)
        #expect(value.serialized() == #"{"b":1,"é":2,"Z":3,"aa":4,"a":{"y":1,"x":2},"😀":5,"ｚ":6}"#)
    }

    @Test("sortKeys keeps duplicate keys in their original order")
    func sortedDuplicateKeys() {
        let value = JSONValue.object(JSONObject([("b", 1), ("a", 2), ("b", 3)]))
        #expect(value.serialized(sortKeys: true) == #"{"a":2,"b":1,"b":3}"#)
    }

    @Test(
        "numbers are written from their literal; invalid literals become null",
        arguments: [
            ("1.50", "1.50"), ("-0", "-0"), ("1E+400", "1E+400"),
            ("123456789012345678901234567890", "123456789012345678901234567890"),
            ("abc", "null"), ("NaN", "null"), ("", "null"), ("01", "null"), ("1.", "null"), ("+1", "null"),
            (" 1", "null"),
        ] as [(String, String)])
    func numbers(_ literal: String, _ expected: String) {
        #expect(JSONValue.number(literal).serialized() == expected)
    }

    @Test(
        "Double values use the shortest round-trip text",
        arguments: [
            (4.5, "4.5"), (1.0, "1"), (-0.0, "0"), (0.1, "0.1"), (-2.0, "-2"), (1e300, "1e+300"), (1e-7, "1e-07"),
            (9_007_199_254_740_992.0, "9007199254740992.0"), (1e16, "1e+16"), (.nan, "null"), (.infinity, "null"),
            (-.infinity, "null"),
        ] as [(Double, String)])
    func doubles(_ double: Double, _ expected: String) {
        let value = JSONValue(double)
        #expect(value.serialized() == expected)
        if double.isFinite {
            #expect(value.numberValue == double)
            #expect(strict(expected).isStrictlyValid)
        } else {
            #expect(value == .null)
        }
    }

    @Test("Int values are exact")
    func ints() {
        #expect(JSONValue(Int.max).serialized() == "9223372036854775807")
        #expect(JSONValue(Int.min).serialized() == "-9223372036854775808")
        #expect(JSONValue(Int.min).intValue == Int.min)
    }

    @Test("write(into:) appends, and indentLevel indents nested output")
    func writeInto() {
        var buffer = Array("x=".utf8)
        JSONValue.array([1, 2]).write(into: &buffer, pretty: false)
        #expect(String(decoding: buffer, as: UTF8.self) == "x=[1,2]")
        var indented: [UInt8] = []
        JSONValue.array([1]).write(into: &indented, pretty: true, indentLevel: 1)
        #expect(String(decoding: indented, as: UTF8.self) == "[\n    1\n  ]")
        #expect(JSONValue.array([1]).description == "[1]")
    }

    static let roundTripTexts: [String] = [
        #"{"@context":"https://schema.org","@type":"Product","name":"Caf\u00e9 \"Bleu\"","offers":{"price":"4.50","priceCurrency":"EUR"},"aggregateRating":{"ratingValue":4.5,"reviewCount":1e3}}"#,
        #"[1,-0,0.5,1E-7,123456789012345678901234567890,true,false,null,"",[],{},[[[]]],{"a":{"b":{"c":[1,{"d":null}]}}}]"#,
        "\"\\u0000\\u001f\\\\ \\\" \\/ \\b\\f\\n\\r\\t 😀 \\ud83d\\ude00 商情\"",
        #"{"dup":1,"dup":2,"other":"x","dup":3}"#,
        "  [ 1 ,\n 2 ]  ",
    ]

    @Test("parse → serialize → parse is the identity", arguments: roundTripTexts)
    func roundTrip(_ text: String) throws {
        let value = try #require(strict(text).value)
        for pretty in [false, true] {
            let serialized = value.serialized(pretty: pretty)
            let reparsed = strict(serialized)
            #expect(reparsed.isStrictlyValid)
            #expect(reparsed.value == value)
            #expect(try #require(reparsed.value).serialized(pretty: pretty) == serialized)
        }
    }

    @Test("lenient repairs serialize as strictly valid JSON")
    func repairedValuesSerializeStrictly() throws {
        let text = "<!--\n{'a': [NaN, .5, +1,], b: \"x\ty\\q\", \"c\": \"\\ud800\"} {\"d\": 1} -->"
        let value = try #require(lenient(text).value)
        let serialized = value.serialized()
        #expect(serialized == #"[{"a":[null,0.5,1],"b":"x\tyq","c":"\#u{FFFD}"},{"d":1}]"#)
        #expect(strict(serialized).isStrictlyValid)
    }
}
