import Foundation
import MarkupExtraction
import SpotCheckTestSupport
import Testing

/// html5lib-tests' encoding data (`../shared/corpora/html5lib-encoding`: tests1.dat, tests2.dat,
/// test-yahoo-jp.dat, MIT): each `#data` is a document's bytes, `#encoding` the encoding a browser
/// decodes it with when no transport-layer charset is given (the WHATWG prescan, the parser's
/// "change the encoding", the windows-1252 default). Every case is asserted; `knownExceptions`
/// lists those SpotCheck answers differently on purpose, each with its reason.
@Suite("html5lib-tests encoding data")
struct HTML5LibEncodingTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var file: String
        var index: Int
        var data: [UInt8]
        var expected: String

        var testDescription: String {
            let shown = String(decoding: data.prefix(60), as: UTF8.self).replacingOccurrences(of: "\n", with: "⏎")
            return "\(file) #\(index): \(shown)"
        }
    }

    static let corpus = SharedCorpora.url("html5lib-encoding")

    static let files = ["tests1.dat", "tests2.dat", "test-yahoo-jp.dat"]

    static var corpusIsPresent: Bool {
        FileManager.default.fileExists(atPath: corpus.appendingPathComponent("tests1.dat").path)
    }

    /// Cases SpotCheck decides otherwise on purpose ("file #index": reason). None at present.
    static let knownExceptions: [String: String] = [:]

    /// The cases of the three files, in order; none when the corpus is absent.
    static let cases: [Case] = files.flatMap { name -> [Case] in
        guard let bytes = try? [UInt8](Data(contentsOf: corpus.appendingPathComponent(name))) else { return [] }
        return parse(bytes, file: name)
    }

    /// The .dat format: `#data`, the document's lines, `#encoding`, one line with the encoding. The
    /// line break before `#encoding` is not part of the document.
    static func parse(_ bytes: [UInt8], file: String) -> [Case] {
        let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { Array($0) }
        var cases: [Case] = []
        var index = 0
        while index < lines.count {
            guard lines[index] == Array("#data".utf8) else {
                index += 1
                continue
            }
            var body: [[UInt8]] = []
            index += 1
            while index < lines.count, lines[index] != Array("#encoding".utf8) {
                body.append(lines[index])
                index += 1
            }
            guard index + 1 < lines.count else { break }
            let expected = String(decoding: lines[index + 1], as: UTF8.self).trimmingCharacters(in: .whitespaces)
            cases.append(
                Case(
                    file: file, index: cases.count + 1, data: Array(body.joined(separator: [0x0A])),
                    expected: expected))
            index += 2
        }
        return cases
    }

    @Test(
        "the three files hold the 82 cases the README counts",
        .enabled(if: corpusIsPresent, "../shared/corpora/html5lib-encoding is not present"))
    func caseCount() {
        #expect(Self.cases.count == 82)
    }

    @Test(
        "each case's encoding",
        .enabled(if: corpusIsPresent, "../shared/corpora/html5lib-encoding is not present"),
        arguments: cases)
    func encoding(_ testCase: Case) {
        let page = MarkupExtractor().extract(html: testCase.data, url: "https://example.com/")
        let key = "\(testCase.file) #\(testCase.index)"
        if let reason = Self.knownExceptions[key] {
            withKnownIssue(Comment(rawValue: reason)) {
                #expect(page.encoding.lowercased() == testCase.expected.lowercased())
            }
            return
        }
        #expect(page.encoding.lowercased() == testCase.expected.lowercased(), "\(key)")
    }
}
