import Testing
import URLNormalization

@Suite("Abbreviated text")
struct AbbreviatedTextTests {
    @Test(
        "a text is cut after its first scalars, saying its length in bytes",
        arguments: [
            ("abcdef", 4, "abcd… (6 bytes in all)"),
            ("abcd", 4, "abcd"),
            // Non-ASCII: more bytes than the limit, not more scalars, is not cut.
            (String(repeating: "é", count: 4), 4, String(repeating: "é", count: 4)),
            (String(repeating: "é", count: 5), 4, String(repeating: "é", count: 4) + "… (10 bytes in all)"),
        ])
    func cut(text: String, limit: Int, expected: String) {
        #expect(text.abbreviated(toScalars: limit) == expected)
    }

    @Test("a text shortened once is not shortened again (where it is stored, then where it is shown)")
    func idempotent() {
        let long = String(repeating: "ü", count: 3_000)
        let once = long.abbreviated(toScalars: 1_024)
        #expect(once.hasSuffix("… (6000 bytes in all)"))
        #expect(once.abbreviated(toScalars: 1_024) == once)
        // A text that only looks like one is still cut at its own length.
        let lookalike = String(repeating: "a", count: 1_030) + "… (5 bytes in all)"
        #expect(lookalike.abbreviated(toScalars: 1_024).hasSuffix("… (\(lookalike.utf8.count) bytes in all)"))
    }
}
