import LenientJSON
import Testing

@Suite("Strict parsing (RFC 8259)")
struct StrictParsingTests {
    struct Accepted: Sendable, CustomStringConvertible {
        var text: String
        var expected: JSONValue
        var description: String { text }
    }

    static let accepted: [Accepted] = [
        Accepted(text: "{}", expected: .object(JSONObject())),
        Accepted(text: "[]", expected: .array([])),
        Accepted(text: "0", expected: .number("0")),
        Accepted(text: "-0", expected: .number("-0")),
        Accepted(text: "1.5e10", expected: .number("1.5e10")),
        Accepted(text: "-1E-2", expected: .number("-1E-2")),
        Accepted(text: "10.25E+3", expected: .number("10.25E+3")),
        Accepted(text: "\"str\"", expected: "str"),
        Accepted(text: "true", expected: true),
        Accepted(text: "false", expected: false),
        Accepted(text: "null", expected: nil),
        Accepted(text: " \n\t\r [1 , 2]\r\n ", expected: [1, 2]),
        Accepted(text: #"{"a":{"b":[null,true,{}]}}"#, expected: ["a": ["b": [nil, true, .object(JSONObject())]]]),
        Accepted(text: #""\u00e9\n\"\\\/\b\f\r\t""#, expected: "é\n\"\\/\u{8}\u{C}\r\t"),
        Accepted(text: #""\u00E9 \u20AC \uFFFD""#, expected: "é € \u{FFFD}"),
        Accepted(text: "\"é 商情 😀 \u{7F}\"", expected: "é 商情 😀 \u{7F}"),
        Accepted(text: #""\ud83d\ude00 \uD83D\uDE00""#, expected: "😀 😀"),
        Accepted(text: "123456789012345678901234567890", expected: .number("123456789012345678901234567890")),
        Accepted(text: "[1e400, -1e-400]", expected: [.number("1e400"), .number("-1e-400")]),
        Accepted(text: #"{"a":1,"b":"x","a2":[]}"#, expected: ["a": 1, "b": "x", "a2": []]),
        Accepted(text: #"["<!-- -->", "//", "/* */", "]]>"]"#, expected: ["<!-- -->", "//", "/* */", "]]>"]),
    ]

    @Test("accepts valid JSON without diagnostics", arguments: accepted)
    func acceptsValidJSON(_ testCase: Accepted) {
        let result = strict(testCase.text)
        #expect(result.value == testCase.expected)
        #expect(result.diagnostics.isEmpty)
        #expect(result.isStrictlyValid)
        // Lenient mode must agree on valid input.
        let lenientResult = lenient(testCase.text)
        #expect(lenientResult.value == testCase.expected)
        #expect(lenientResult.diagnostics.isEmpty)
    }

    struct Rejected: Sendable, CustomStringConvertible {
        var text: String
        var error: ExpectedDiagnostic
        var description: String { "\(text.debugDescription) → \(error)" }

        init(_ text: String, _ reason: String, _ line: Int, _ column: Int) {
            self.text = text
            self.error = ExpectedDiagnostic(reason, line, column)
        }
    }

    static let rejected: [Rejected] = [
        Rejected("", "empty input", 1, 1),
        Rejected("  \n ", "unexpected end of input", 2, 2),
        Rejected("[1,]", "trailing comma before ']'", 1, 3),
        Rejected(#"{"a":1,}"#, "trailing comma before '}'", 1, 7),
        Rejected("[1,\n  2,\n  ]", "trailing comma before ']'", 2, 4),
        Rejected("[\r\n1,\r\n]", "trailing comma before ']'", 2, 2),
        Rejected(#"{"a" 1}"#, "expected ':' after object key", 1, 6),
        Rejected(#"{"a":1 "b":2}"#, "expected ',' or '}' after an object member, found '\"'", 1, 8),
        Rejected("[1 2]", "expected ',' or ']' after an array element, found '2'", 1, 4),
        Rejected("\"a\nb\"", "unescaped control character U+000A in string", 1, 3),
        Rejected("{\"a\":\n\"é\tx\"}", "unescaped control character U+0009 in string", 2, 3),
        Rejected("\"é😀\u{1}\"", "unescaped control character U+0001 in string", 1, 4),
        Rejected(#""\x""#, #"invalid escape sequence '\x' in string"#, 1, 2),
        Rejected(#"["it\'s"]"#, #"invalid escape sequence '\'' in string"#, 1, 5),
        Rejected(#""\u12G4""#, #"invalid escape sequence '\u'"#, 1, 2),
        Rejected("{'a':1}", "single-quoted string", 1, 2),
        Rejected("['a']", "single-quoted string", 1, 2),
        Rejected("{a:1}", "expected a string key for an object member, found 'a'", 1, 2),
        Rejected("// c\n{}", "JavaScript comment '//'", 1, 1),
        Rejected("{} /* c */", "JavaScript comment '/* */'", 1, 4),
        Rejected("{}\n{}", "unexpected '{' after the JSON value", 2, 1),
        Rejected("[1]]", "unexpected ']' after the JSON value", 1, 4),
        Rejected("{};", "stray ';' outside the JSON value", 1, 3),
        Rejected("[01]", "leading zero in number", 1, 2),
        Rejected("[1.]", "expected a digit after '.' in number", 1, 4),
        Rejected("-", "expected a digit after '-' in number", 1, 2),
        Rejected("[1e+]", "expected a digit in number exponent", 1, 5),
        Rejected("[+1]", "unexpected '+'; expected a JSON value", 1, 2),
        Rejected("tru", "unexpected 'tru'; expected a JSON value", 1, 1),
        Rejected("[True]", "unexpected 'True'; expected a JSON value", 1, 2),
        Rejected("NaN", "unexpected 'NaN'; expected a JSON value", 1, 1),
        Rejected("[-Infinity]", "unexpected '-Infinity'; expected a JSON value", 1, 2),
        Rejected("\u{FEFF}{}", "byte order mark U+FEFF at start of input", 1, 1),
        Rejected("{\u{A0}}", "invalid whitespace U+00A0 (no-break space)", 1, 2),
        Rejected("[", "unexpected end of input; unterminated array (opened at line 1, column 1)", 1, 2),
        Rejected("{\"a\":1", "unexpected end of input; unterminated object (opened at line 1, column 1)", 1, 7),
        Rejected("{\"a\":", "unexpected end of input; unterminated object", 1, 6),
        Rejected("\"abc", "unexpected end of input; unterminated string (opened at line 1, column 1)", 1, 5),
        Rejected("<!-- x -->{}", "HTML comment '<!-- … -->'", 1, 1),
        Rejected("<!--\n{}\n-->", "HTML comment marker '<!--'", 1, 1),
        Rejected("{}\n-->", "HTML comment marker '-->'", 2, 1),
        Rejected("<![CDATA[{}]]>", "CDATA marker '<![CDATA['", 1, 1),
        Rejected("function(){}", "unexpected 'function'; expected a JSON value", 1, 1),
        Rejected("[1,\n  {\"a\": [true, }]]", "unexpected '}'; expected a JSON value", 2, 16),
        Rejected("{\"a\": \"The \"Best\" Pizza\"}", "expected ',' or '}' after an object member, found 'B'", 1, 13),
    ]

    @Test("rejects invalid JSON with the position of the first error", arguments: rejected)
    func rejectsInvalidJSON(_ testCase: Rejected) throws {
        let result = strict(testCase.text)
        #expect(result.value == nil)
        #expect(!result.isStrictlyValid)
        #expect(result.diagnostics.count == 1)
        let diagnostic = try #require(result.diagnostics.first)
        #expect(testCase.error.matches(diagnostic), "got \(diagnostic)")
        #expect(diagnostic.severity == .error)
        #expect(!diagnostic.recovered)
        #expect(result.firstError == diagnostic)
    }

    @Test("reports columns in Unicode scalars and byte offsets in UTF-8")
    func columnsCountScalars() throws {
        // "é" is 2 bytes, "😀" 4 bytes, "商" 3 bytes: the error is at scalar column 9, byte offset 14.
        let result = strict("[\"é😀商\", x]")
        let diagnostic = try #require(result.firstError)
        #expect(diagnostic.line == 1)
        #expect(diagnostic.column == 9)
        #expect(diagnostic.byteOffset == 14)
    }

    @Test("a lone CR ends a line; CR LF counts once")
    func lineEndings() throws {
        let loneCR = try #require(strict("[1,\r2,\r]").firstError)
        #expect((loneCR.line, loneCR.column) == (2, 2))
        let crlf = try #require(strict("[1,\r\n\r\n2 x]").firstError)
        #expect((crlf.line, crlf.column) == (3, 3))
    }

    @Test(
        "rejects invalid UTF-8 in strict mode",
        arguments: [
            [0x22, 0xFF, 0x22],
            [0x22, 0x61, 0xC0, 0xAF, 0x22],
            [0x22, 0x61, 0x62, 0xED, 0xA0, 0x80, 0x22],
            [0x22, 0xE2, 0x82, 0x22],
        ] as [[UInt8]])
    func rejectsInvalidUTF8(_ bytes: [UInt8]) throws {
        let result = JSONParser.parse(bytes, lenient: false)
        #expect(result.value == nil)
        let diagnostic = try #require(result.firstError)
        #expect(diagnostic.reason.hasPrefix("invalid UTF-8 byte 0x"))
        let offset = try #require(bytes.firstIndex { $0 >= 0x80 })
        #expect(diagnostic.byteOffset == offset)
        #expect(diagnostic.column == offset + 1)
    }

    @Test("accepts every contiguous and non-contiguous byte collection")
    func byteCollections() {
        let text = #"{"a":[1,"é"]}"#
        let expected: JSONValue = ["a": [1, "é"]]
        let bytes = Array(text.utf8)
        #expect(JSONParser.parse(bytes, lenient: false).value == expected)
        #expect(JSONParser.parse(bytes[...], lenient: false).value == expected)
        #expect(JSONParser.parse(text.utf8, lenient: false).value == expected)
        #expect(JSONParser.parse("<x>\(text)</x>".dropFirst(3).dropLast(4), lenient: false).value == expected)
        #expect(JSONParser.parse(bytes.lazy.map { $0 }, lenient: false).value == expected)
        bytes.withUnsafeBufferPointer { buffer in
            #expect(JSONParser.parse(buffer, lenient: false).value == expected)
        }
        // A slice that does not start at 0: positions are relative to the slice.
        let padded = Array("xx[1,]".utf8)
        let sliced = JSONParser.parse(padded[2...], lenient: false)
        #expect(sliced.firstError?.byteOffset == 2)
        #expect(sliced.firstError?.column == 3)
    }

    @Test("diagnostics move into the enclosing document")
    func shiftedDiagnostics() throws {
        // A script body that starts at line 10, column 37 (byte 300) of a page.
        let first = try #require(strict("[1,]").firstError)
        let movedFirst = first.shifted(toTextStartingAtLine: 10, column: 37, byteOffset: 300)
        #expect((movedFirst.line, movedFirst.column, movedFirst.byteOffset) == (10, 39, 302))
        let later = try #require(strict("[\n  1,\n]").firstError)
        let movedLater = later.shifted(toTextStartingAtLine: 10, column: 37, byteOffset: 300)
        #expect((movedLater.line, movedLater.column, movedLater.byteOffset) == (11, 4, 305))
        #expect(movedLater.reason == later.reason)
        #expect(movedLater.description == "line 11, column 4: trailing comma before ']'")
    }
}
