import LenientJSON
import Testing

@Suite("Lenient parsing")
struct LenientParsingTests {
    struct Repair: Sendable, CustomStringConvertible {
        var text: String
        var expected: String
        var diagnostics: [ExpectedDiagnostic]
        /// Whether strict mode fails exactly where the first repair happened.
        var strictFailsAtFirstRepair: Bool

        init(_ text: String, _ expected: String, _ diagnostics: [ExpectedDiagnostic], strictAgrees: Bool = true) {
            self.text = text
            self.expected = expected
            self.diagnostics = diagnostics
            self.strictFailsAtFirstRepair = strictAgrees
        }

        var description: String { text.debugDescription }
    }

    typealias D = ExpectedDiagnostic

    static let repairs: [Repair] = [
        // Filler around the value.
        Repair("\u{FEFF}{\"a\":1}", #"{"a":1}"#, [D("byte order mark U+FEFF at start of input", 1, 1)]),
        Repair("  {\"a\":1};  ", #"{"a":1}"#, [D("stray ';' outside the JSON value", 1, 10)]),
        Repair("{\"a\":1}\n;\n", #"{"a":1}"#, [D("stray ';' outside the JSON value", 2, 1)]),
        Repair("{\u{A0}\"a\":1}", #"{"a":1}"#, [D("invalid whitespace U+00A0 (no-break space)", 1, 2)]),
        Repair("[1,\u{0B}2]", "[1,2]", [D("invalid whitespace character U+000B", 1, 4)]),
        Repair("[1,\u{FEFF}2]", "[1,2]", [D("byte order mark U+FEFF outside a string", 1, 4)]),
        // HTML comments and CDATA wrappers.
        Repair(
            "<!--\n{\"a\":1}\n-->", #"{"a":1}"#,
            [D("HTML comment marker '<!--'", 1, 1), D("HTML comment marker '-->'", 3, 1)]),
        Repair("<!-- John joined the festival. -->\n{\"a\":1}", #"{"a":1}"#, [D("HTML comment '<!-- … -->'", 1, 1)]),
        Repair("    <!--\n    {\"a\":\"b\"}\n    ", #"{"a":"b"}"#, [D("HTML comment marker '<!--'", 1, 5)]),
        Repair("{\"a\":\"<!-- -->\"}\n-->\n", #"{"a":"<!-- -->"}"#, [D("HTML comment marker '-->'", 2, 1)]),
        Repair(
            "<![CDATA[\n{\"a\":1}\n]]>", #"{"a":1}"#,
            [D("CDATA marker '<![CDATA['", 1, 1), D("CDATA end marker ']]>'", 3, 1)]),
        Repair(
            "//<![CDATA[\n{\"a\":1}\n//]]>", #"{"a":1}"#,
            [D("JavaScript comment '//'", 1, 1), D("JavaScript comment '//'", 3, 1)]),
        Repair(
            "<!--//--><![CDATA[//><!--\n[1]\n//--><!]]>", "[1]",
            [
                D("HTML comment marker '<!--'", 1, 1), D("JavaScript comment '//'", 1, 5),
                D("JavaScript comment '//'", 3, 1),
            ]),
        // JavaScript comments.
        Repair(
            "{\n  \"a\": 1, // one\n  /* two */ \"b\": 2\n}", #"{"a":1,"b":2}"#,
            [D("JavaScript comment '//'", 2, 11), D("JavaScript comment '/* */'", 3, 3)]),
        Repair(
            "{} /* x", "{}",
            [D("JavaScript comment '/* */'", 1, 4), D("unterminated comment '/*' (opened at line 1, column 4)", 1, 8)]),
        // Strings.
        Repair(
            "{\"data\": \"line 1\n  line 2\"}", #"{"data":"line 1\n  line 2"}"#,
            [D("unescaped control character U+000A in string", 1, 17)]),
        Repair("[\"a\tb\"]", #"["a\tb"]"#, [D("unescaped control character U+0009 in string", 1, 4)]),
        Repair(#"["it\'s"]"#, #"["it's"]"#, [D(#"invalid escape sequence '\'' in string"#, 1, 5)]),
        Repair(#"["\x41"]"#, #"["x41"]"#, [D(#"invalid escape sequence '\x' in string"#, 1, 3)]),
        Repair(
            #"["\u12G4"]"#, #"["u12G4"]"#, [D(#"invalid escape sequence '\u': expected four hexadecimal digits"#, 1, 3)]
        ),
        Repair(
            #"{"name": "The "Best" Pizza"}"#, #"{"name":"The \"Best\" Pizza"}"#,
            [D("unescaped '\"' inside a string", 1, 15), D("unescaped '\"' inside a string", 1, 20)],
            strictAgrees: false),
        Repair(
            #"{"a": "b"#, #"{"a":"b"}"#,
            [
                D("unexpected end of input; unterminated string (opened at line 1, column 7)", 1, 9),
                D("unexpected end of input; unterminated object (opened at line 1, column 1)", 1, 9),
            ]),
        Repair(
            "{'a': 'b'}", #"{"a":"b"}"#, [D("single-quoted string", 1, 2), D("single-quoted string", 1, 7)]),
        Repair(#"{'it\'s': "say \"x\""}"#, #"{"it's":"say \"x\""}"#, [D("single-quoted string", 1, 2)]),
        // Commas and colons.
        Repair("[1, 2, ]", "[1,2]", [D("trailing comma before ']'", 1, 6)]),
        Repair(#"{"a":1,}"#, #"{"a":1}"#, [D("trailing comma before '}'", 1, 7)]),
        Repair(
            "{\"a\": [1, 2,\n],\n}", #"{"a":[1,2]}"#,
            [D("trailing comma before ']'", 1, 12), D("trailing comma before '}'", 2, 2)]),
        Repair("[1,,2]", "[1,2]", [D("unexpected ','; empty array element skipped", 1, 4)]),
        Repair(#"{"a":1,,"b":2}"#, #"{"a":1,"b":2}"#, [D("unexpected ','; expected an object key", 1, 8)]),
        Repair("{\"a\": 1\n \"b\": 2}", #"{"a":1,"b":2}"#, [D("missing ',' between object members", 2, 2)]),
        Repair(#"[{"a":1} {"b":2}]"#, #"[{"a":1},{"b":2}]"#, [D("missing ',' between array elements", 1, 10)]),
        Repair(#"{"a" 1}"#, #"{"a":1}"#, [D("expected ':' after object key", 1, 6)]),
        Repair(#"{"a": }"#, "{}", [D(#"missing value for key "a"; member dropped"#, 1, 7)]),
        // Closers.
        Repair(#"{"a": [1, 2}"#, #"{"a":[1,2]}"#, [D("missing ']' before '}'", 1, 12)]),
        Repair(#"{"a": 1]}"#, #"{"a":1}"#, [D("unexpected ']' ignored; expected ',' or '}'", 1, 8)]),
        Repair(
            #"{"a": [1, 2"#, #"{"a":[1,2]}"#,
            [
                D("unexpected end of input; unterminated array (opened at line 1, column 7)", 1, 12),
                D("unexpected end of input; unterminated object (opened at line 1, column 1)", 1, 12),
            ]),
        // Several top-level values.
        Repair(#"{"a":1}{"b":2}"#, #"[{"a":1},{"b":2}]"#, [D("several top-level values; returned as an array", 1, 8)]),
        Repair(
            "{\"a\":1},\n{\"b\":2}", #"[{"a":1},{"b":2}]"#, [D("several top-level values; returned as an array", 2, 1)],
            strictAgrees: false),
        Repair(#"{"a":1},"#, #"{"a":1}"#, [D("trailing comma after the JSON value", 1, 8)]),
        Repair(
            #"{"a":1} garbage"#, #"{"a":1}"#,
            [D("unexpected 'g' after the JSON value; ignored the rest of the input", 1, 9)]),
        Repair(
            #"{"a":1} [oops"#, #"{"a":1}"#,
            [
                D("several top-level values; returned as an array", 1, 9),
                D("unexpected 'oops'; expected a JSON value; ignored the rest of the input", 1, 10),
            ]),
        // Non-JSON literals and numbers.
        Repair(
            "[NaN, Infinity, -Infinity]", "[null,null,null]",
            [
                D("NaN is not a JSON value; replaced with null", 1, 2),
                D("Infinity is not a JSON value; replaced with null", 1, 7),
                D("-Infinity is not a JSON value; replaced with null", 1, 17),
            ]),
        Repair(#"{"a": 1, "b": undefined}"#, #"{"a":1,"b":null}"#, [D("undefined is not a JSON value", 1, 15)]),
        Repair(
            "[+1, .5, 5., 007, -.5e3]", "[1,0.5,5,7,-0.5e3]",
            [
                D("leading '+' in number; read as 1", 1, 2),
                D("number starts with '.'; read as 0.5", 1, 6),
                D("expected a digit after '.' in number; read as 5", 1, 12),
                D("leading zero in number; read as 7", 1, 14),
                D("expected a digit after '-' in number; read as -0.5e3", 1, 20),
            ]),
        Repair(
            #"{a: 1, @type: "X"}"#, #"{"a":1,"@type":"X"}"#,
            [D("unquoted object key", 1, 2), D("unquoted object key", 1, 8)]),
    ]

    @Test("repairs each problem and reports it where it is", arguments: repairs)
    func repairsProblem(_ repair: Repair) throws {
        let result = lenient(repair.text)
        let expected = try #require(json(repair.expected))
        #expect(result.value == expected)
        #expect(!result.isStrictlyValid)
        #expect(
            result.diagnostics.count == repair.diagnostics.count,
            "got \(result.diagnostics.map(\.description))")
        for (expectedDiagnostic, diagnostic) in zip(repair.diagnostics, result.diagnostics) {
            #expect(expectedDiagnostic.matches(diagnostic), "expected \(expectedDiagnostic), got \(diagnostic)")
            #expect(diagnostic.severity == .error)
            #expect(diagnostic.recovered)
        }
        // Strict mode fails on the same text, normally at the first repaired problem.
        let strictResult = strict(repair.text)
        #expect(strictResult.value == nil)
        let strictError = try #require(strictResult.firstError)
        if repair.strictFailsAtFirstRepair, let first = result.diagnostics.first {
            #expect((strictError.line, strictError.column) == (first.line, first.column))
        }
    }

    struct Failure: Sendable, CustomStringConvertible {
        var text: String
        var error: ExpectedDiagnostic
        var description: String { text.debugDescription }

        init(_ text: String, _ reason: String, _ line: Int, _ column: Int) {
            self.text = text
            self.error = ExpectedDiagnostic(reason, line, column)
        }
    }

    static let failures: [Failure] = [
        Failure("", "empty input", 1, 1),
        Failure("function(){}", "unexpected 'function'; expected a JSON value", 1, 1),
        Failure("plain text here", "unexpected 'plain'; expected a JSON value", 1, 1),
        Failure("    <!-- foo -->\n    ", "unexpected end of input; expected a JSON value", 2, 5),
        Failure("// only a comment", "unexpected end of input; expected a JSON value", 1, 18),
        Failure(#"{"a": 1 2}"#, "expected ',' or '}' after an object member, found '2'", 1, 9),
        Failure(#"{"a": [1, 2 x]}"#, "expected ',' or ']' after an array element, found 'x'", 1, 13),
        Failure(#"{"a": @}"#, "unexpected '@'; expected a JSON value", 1, 7),
        Failure(#"{"a": -}"#, "expected a digit after '-' in number", 1, 8),
        Failure("{\"a\": 1, 2: 3}", "expected a string key for an object member, found '2'", 1, 10),
        Failure("<p>Hello</p>", "unexpected '<'; expected a JSON value", 1, 1),
    ]

    @Test("returns no value when nothing can be recovered", arguments: failures)
    func unrecoverable(_ failure: Failure) throws {
        let result = lenient(failure.text)
        #expect(result.value == nil)
        #expect(!result.isStrictlyValid)
        let last = try #require(result.diagnostics.last)
        #expect(failure.error.matches(last), "got \(last)")
        #expect(last.severity == .error)
        #expect(!last.recovered)
        #expect(result.failure == last)
    }

    @Test(
        "replaces invalid UTF-8 in strings with U+FFFD, one diagnostic per maximal invalid subpart",
        arguments: [
            ([0x22, 0xFF, 0x22], "\u{FFFD}", [2]),
            ([0x22, 0x61, 0xC0, 0xAF, 0x22], "a\u{FFFD}\u{FFFD}", [3, 4]),
            ([0x22, 0x61, 0x62, 0xED, 0xA0, 0x80, 0x22], "ab\u{FFFD}\u{FFFD}\u{FFFD}", [4, 5, 6]),
            ([0x22, 0xE2, 0x82, 0x22], "\u{FFFD}", [2]),
            ([0x22, 0xF0, 0x9F, 0x98, 0x22], "\u{FFFD}", [2]),
            ([0x22, 0xC3, 0xA9, 0xFF, 0x5C, 0x6E, 0x22], "é\u{FFFD}\n", [3]),
            ([0x22, 0x5C, 0x74, 0xF5, 0x22], "\t\u{FFFD}", [4]),
        ] as [([UInt8], String, [Int])])
    func invalidUTF8(_ bytes: [UInt8], _ expected: String, _ columns: [Int]) {
        let result = JSONParser.parse(bytes, lenient: true)
        #expect(result.value == .string(expected))
        #expect(result.diagnostics.map(\.column) == columns)
        #expect(result.diagnostics.allSatisfy { $0.reason.hasPrefix("invalid UTF-8 byte 0x") && $0.recovered })
        #expect(!result.isStrictlyValid)
    }

    @Test("repairs invalid UTF-8 in object keys")
    func invalidUTF8Key() {
        let result = JSONParser.parse([0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D] as [UInt8], lenient: true)
        #expect(result.value == ["\u{FFFD}": 1])
        #expect(result.diagnostics.count == 1)
    }

    @Test("keeps at most the maximum number of diagnostics")
    func diagnosticsAreCapped() throws {
        let text = "[1" + String(repeating: ",", count: 1000) + "]"
        let result = lenient(text)
        #expect(result.value == [1])
        #expect(result.diagnostics.count == JSONParser.maximumDiagnostics + 1)
        let last = try #require(result.diagnostics.last)
        #expect(last.severity == .warning)
        #expect(last.reason.contains("the rest are not listed"))
        #expect(!result.isStrictlyValid)
        // The error that stops parsing is listed even after the cap.
        let fatal = lenient("[1" + String(repeating: ",", count: 1000) + "x]")
        #expect(fatal.value == nil)
        #expect(fatal.diagnostics.count == JSONParser.maximumDiagnostics + 2)
        #expect(fatal.failure?.reason == "unexpected 'x'; expected a JSON value")
        #expect(fatal.failure?.column == 1003)
    }
}

@Suite("Text origin")
struct TextOriginTests {
    @Test("with an origin, lines and columns (also those quoted in reasons) are document positions")
    func originShiftsEveryPosition() throws {
        let result = JSONParser.parse(
            Array("{\"a\": [1,\n  2,".utf8), lenient: true, origin: JSONTextOrigin(line: 10, column: 30))
        let trailing = try #require(result.diagnostics.first { $0.reason.contains("unterminated array") })
        #expect(trailing.line == 11)
        #expect(trailing.reason.contains("opened at line 10, column 36"))
        let unshifted = JSONParser.parse(Array("{\"a\": [1,\n  2,".utf8), lenient: true)
        #expect(
            unshifted.diagnostics.first { $0.reason.contains("unterminated array") }?.reason.contains(
                "opened at line 1, column 7") == true)
    }
}
