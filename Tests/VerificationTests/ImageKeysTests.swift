import Testing

@testable import Verification

/// SD027's image keys: what identifies an image file in its URL. URLs of printable ASCII take a
/// byte path (`printableASCIIImageKeys`), which must give the keys the `Character` path gives.
@Suite("Image keys")
struct ImageKeysTests {
    @Test(arguments: [
        (
            "https://upload.wikimedia.org/wikipedia/commons/thumb/3/3e/Flag_of_New_Zealand.svg/640px-Flag.svg.png",
            "file:Flag_of_New_Zealand"
        ),
        ("https://media.gettyimages.com/photos/GettyImages-621866810-640x480.jpg?s=612x612", "id:621866810"),
        ("//cdn.example.com/images/poster-2024.jpg#top", "path:/images/poster-2024.jpg"),
        ("  /relative/picture12345.png  ", "id:picture12345"),
    ])
    func keysOfKnownURLs(url: String, key: String) throws {
        let keys = StructuredDataChecks.imageKeys(url)
        #expect(keys.contains(key), "\(keys)")
        #expect(StructuredDataChecks.printableASCIIImageKeys(url) == StructuredDataChecks.characterImageKeys(url))
    }

    /// 20,000 URL-like strings built from pieces that stop or split a key (scheme, slashes, dots,
    /// query, fragment, white space inside and around, CR LF, non-ASCII): the byte path answers
    /// for the printable ones, with the `Character` path's keys, and leaves the rest to it.
    @Test func bytePathGivesTheCharacterPathsKeys() {
        let pieces = [
            "https://", "http:/", "://", "//", "/", "/", ".", "..", "?", "#", " ", "\t", "\r\n", "\n", "a", "Z", "0",
            "9", "-", "_", "img", "1234567", "photo", "%20", ":", "é", "\u{00A0}", "x.jpg", "GettyImages-", "\u{1F}",
        ]
        var numbers = SeededNumbers(seed: 0x9E37_79B9_7F4A_7C15)
        func next(_ bound: Int) -> Int { numbers.next(below: bound) }
        var answered = 0
        for _ in 0..<20_000 {
            let url = (0..<(1 + next(12))).map { _ in pieces[next(pieces.count)] }.joined()
            guard let keys = StructuredDataChecks.printableASCIIImageKeys(url) else { continue }
            answered += 1
            #expect(keys == StructuredDataChecks.characterImageKeys(url), "\(url.debugDescription)")
        }
        #expect(answered > 5_000)
        #expect(answered < 20_000)
    }
}

/// CT's "description repeats the title" test: ASCII texts take a byte path (`asciiRepeats`),
/// which must answer as the `Character` path does.
@Suite("Description repeats title")
struct RepeatsTests {
    @Test(arguments: [
        ("Paddington", "Paddington (2014) - Family Cinema", true),
        ("  PADDINGTON!!  ", "paddington", true),
        ("A bear in London.", "Paddington: a  bear\tin london", true),
        ("A bear in Paris", "Paddington: a bear in London", false),
        ("...", "Paddington", false),
        ("Café", "Le Café de Flore", true),
    ])
    func knownPairs(description: String, title: String, repeats: Bool) {
        #expect(ContentChecks.repeats(description, title) == repeats)
        #expect(ContentChecks.characterRepeats(description, title) == repeats)
    }

    /// 20,000 pairs built from words, case, punctuation, symbols and white space (CR LF among it):
    /// the byte path's answer is the `Character` path's.
    @Test func bytePathAnswersAsTheCharacterPath() {
        let pieces = [
            "bear", "Bear", "BEAR", "in", "London", " ", "  ", "\t", "\r\n", "\n", ".", "!", "-", "(", ")", "$", "+",
            "~", "_", "'", "\"", "2014", "|", "@", "#", ":", "\u{1F}", "é",
        ]
        var numbers = SeededNumbers(seed: 0x2545_F491_4F6C_DD1D)
        func next(_ bound: Int) -> Int { numbers.next(below: bound) }
        func text() -> String { (0..<next(8)).map { _ in pieces[next(pieces.count)] }.joined() }
        var answered = 0
        var repeated = 0
        for _ in 0..<20_000 {
            let description = text()
            let title = next(3) == 0 ? text() + description.uppercased() + text() : text()
            guard let answer = ContentChecks.asciiRepeats(description, title) else { continue }
            answered += 1
            if answer { repeated += 1 }
            #expect(
                answer == ContentChecks.characterRepeats(description, title),
                "\(description.debugDescription) in \(title.debugDescription)")
        }
        #expect(answered > 5_000)
        #expect(repeated > 500)
    }
}

/// The same numbers on every run (a 64-bit linear congruential generator, Knuth's MMIX constants),
/// so a generated case that fails fails again.
struct SeededNumbers {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next(below bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(bound))
    }
}
