import LenientJSON
import Testing

@Suite("JSONValue and JSONObject")
struct JSONValueTests {
    @Test("literals build the matching cases, objects in literal order")
    func literals() {
        let value: JSONValue = ["z": [1, 2.5, "x", nil, true], "a": false]
        let expected = JSONValue.object(
            JSONObject([
                ("z", .array([.number("1"), .number("2.5"), .string("x"), .null, .bool(true)])),
                ("a", .bool(false)),
            ]))
        #expect(value == expected)
        #expect(value.objectValue?.keys == ["z", "a"])
    }

    @Test("accessors return the payload of the matching case only")
    func accessors() {
        let value: JSONValue = ["s": "text", "n": 3, "b": true, "a": [1], "o": ["k": nil]]
        #expect(value["s"]?.stringValue == "text")
        #expect(value["n"]?.numberValue == 3)
        #expect(value["n"]?.intValue == 3)
        #expect(value["n"]?.numberLiteral == "3")
        #expect(value["b"]?.boolValue == true)
        #expect(value["a"]?.arrayValue == [1])
        #expect(value["a"]?[0] == 1)
        #expect(value["a"]?[1] == nil)
        #expect(value["a"]?[-1] == nil)
        #expect(value["o"]?["k"]?.isNull == true)
        #expect(value["missing"] == nil)
        #expect(value["s"]?.numberValue == nil)
        #expect(value["n"]?.stringValue == nil)
        #expect(JSONValue.string("x")["key"] == nil)
    }

    @Test(
        "intValue converts exact integral numbers only",
        arguments: [
            ("3", 3), ("-3", -3), ("3.0", 3), ("3e2", 300), ("2.5", nil), ("1e400", nil),
            ("123456789012345678901234567890", nil), ("-9223372036854775808", Int.min),
        ] as [(String, Int?)])
    func intValue(_ literal: String, _ expected: Int?) {
        #expect(JSONValue.number(literal).intValue == expected)
    }

    @Test("duplicate keys are kept in order; lookups return the last one, with a warning")
    func duplicateKeys() throws {
        let result = strict(#"{"a":1,"b":2,"a":3}"#)
        #expect(result.isStrictlyValid)
        let object = try #require(result.value?.objectValue)
        #expect(object.keys == ["a", "b", "a"])
        #expect(object["a"] == 3)
        #expect(object.values(forKey: "a") == [1, 3])
        #expect(object.hasDuplicateKeys)
        #expect(result.diagnostics.count == 1)
        let warning = try #require(result.diagnostics.first)
        #expect(warning.reason == #"duplicate key "a""#)
        #expect((warning.line, warning.column, warning.byteOffset) == (1, 14, 13))
        #expect(warning.severity == .warning)
        #expect(!warning.recovered)
        #expect(object.deduplicated().keys == ["a", "b"])
        #expect(object.deduplicated()["a"] == 3)
    }

    @Test("duplicate keys are found in large objects too")
    func duplicateKeysInLargeObject() {
        let members = (0..<100).map { "\"k\($0)\": \($0)" }.joined(separator: ",")
        let result = strict("{\(members), \"k42\": 0, \"k99\": 1, \"new\": 2}")
        #expect(result.isStrictlyValid)
        #expect(result.diagnostics.map(\.reason) == [#"duplicate key "k42""#, #"duplicate key "k99""#])
        #expect(result.value?["k42"] == 0)
        #expect(result.value?.objectValue?.count == 103)
    }

    @Test("duplicate keys in separate objects are not duplicates")
    func keysAreScopedToTheirObject() {
        let result = strict(#"{"a":{"a":1},"b":[{"a":2},{"a":3}]}"#)
        #expect(result.diagnostics.isEmpty)
    }

    @Test("set replaces the first member and removes later duplicates; append keeps them")
    func mutation() {
        var object = JSONObject([("a", 1), ("b", 2), ("a", 3)])
        object.append("c", 4)
        object.append("c", 5)
        #expect(object.keys == ["a", "b", "a", "c", "c"])
        object.set("a", 9)
        #expect(object.keys == ["a", "b", "c", "c"])
        #expect(object["a"] == 9)
        object.set("d", 6)
        #expect(object.keys == ["a", "b", "c", "c", "d"])
        object["b"] = "x"
        #expect(object["b"] == "x")
        object["c"] = nil
        #expect(object.keys == ["a", "b", "d"])
        #expect(object.removeValue(forKey: "zz") == nil)
        #expect(object.removeValue(forKey: "a") == 9)
        #expect(object.map(\.key) == ["b", "d"])
        #expect(object.contains(key: "d"))
        #expect(!object.contains(key: "a"))
    }

    @Test("objects are random-access collections of (key, value)")
    func collection() {
        let object: JSONObject = ["x": 1, "y": 2]
        #expect(object.count == 2)
        #expect(object[1].key == "y")
        #expect(object[1].value == 2)
        var keys: [String] = []
        for (key, _) in object {
            keys.append(key)
        }
        #expect(keys == ["x", "y"])
        #expect(object.serialized() == #"{"x":1,"y":2}"#)
    }

    @Test("equality is ordered and literal")
    func equality() {
        #expect(JSONValue(["a": 1, "b": 2]) != JSONValue(["b": 2, "a": 1]))
        #expect(JSONValue.number("1") != JSONValue.number("1.0"))
        #expect(Set<JSONValue>([["a": 1], ["a": 1], [1]]).count == 2)
    }
}
