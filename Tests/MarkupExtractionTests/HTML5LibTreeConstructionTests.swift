import Foundation
import MarkupExtraction
import Testing

/// html5lib-tests' tree-construction data (MIT) for the elements SpotCheck reports: each case's
/// expected `#document` tree says whether a browser puts each `<meta>`, `<link>`, `<title>`,
/// `<base>` and `<script>` in the head or the body (issue 33). `HTML5Lib/tree-construction-placement.jsonl`
/// holds the cases, made by `Scripts/extract-html5lib-placement.py` (`HTML5Lib/MANIFEST.md`: the
/// source commits and the command).
///
/// html5lib's documents mostly write these tags without attributes, which SpotCheck does not
/// report (a `<meta>` without `name`/`property`/`http-equiv` is nothing to it). So each start tag
/// of those names in the data is given attributes that make SpotCheck report it (`probed`): a
/// `<meta>` an Open Graph key of its own, a `<link>` `rel=canonical` and an `href` of its own, a
/// `<script>` `type=application/ld+json`, a `<base>` an `href`. Attributes change nothing in where
/// HTML's tree construction (§13.2.6.4) puts these elements, nor in how the tokenizer reads what
/// follows (they are unquoted, so the same bytes written inside a quoted value, a comment or raw
/// text stay text there). Then, per kind, the sections SpotCheck recorded, in document order, are
/// compared with the tree's: every `<meta>`, `<link>` and JSON-LD `<script>`; the first `<title>`
/// and the first `<base>` (SpotCheck reports only those).
@Suite("html5lib-tests tree-construction placement")
struct HTML5LibTreeConstructionTests {
    struct Case: Sendable, Decodable, CustomTestStringConvertible {
        var source: String
        var data: String
        /// `[name, "head" | "body" | "none"]` in tree order.
        var elements: [[String]]

        var testDescription: String {
            "\(source): \(data.prefix(70).replacingOccurrences(of: "\n", with: "⏎"))"
        }
    }

    static let dataFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("HTML5Lib/tree-construction-placement.jsonl")

    static let cases: [Case] = {
        guard let text = try? String(contentsOf: dataFile, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            try? JSONDecoder().decode(Case.self, from: Data(line.utf8))
        }
    }()

    /// Cases SpotCheck reads otherwise, by `source`, each with its reason. A listed case that
    /// starts passing fails (`withKnownIssue`), so the list cannot outlive the difference.
    static let knownDifferences: [String: String] = [:]

    /// The sections a browser's tree gives, per kind, as SpotCheck can report them.
    static func expected(_ testCase: Case) -> [String: [String]] {
        var result: [String: [String]] = [:]
        for element in testCase.elements where element.count == 2 {
            result[element[0], default: []].append(element[1])
        }
        for single in ["title", "base"] {
            if let first = result[single]?.first { result[single] = [first] }
        }
        return result.filter { !$0.value.isEmpty }
    }

    /// The sections SpotCheck recorded for the probed elements, per kind, in document order.
    static func reported(_ page: PageMarkup) -> [String: [String]] {
        var result: [String: [String]] = [:]
        let metas = page.openGraph.filter { $0.key.hasPrefix("og:spotcheck-") }
        if !metas.isEmpty { result["meta"] = metas.map(\.section.rawValue) }
        let links = page.canonicals.filter { $0.asWritten?.hasPrefix("/spotcheck-") == true }
        if !links.isEmpty { result["link"] = links.map(\.section.rawValue) }
        if !page.jsonLD.isEmpty { result["script"] = page.jsonLD.map(\.section.rawValue) }
        if let title = page.title { result["title"] = [title.section.rawValue] }
        if let base = page.baseHref { result["base"] = [base.section.rawValue] }
        return result
    }

    /// The data with attributes added to each `<meta`, `<link`, `<script` and `<base` start tag
    /// (the name in any case, followed by white space, `/` or `>`).
    static func probed(_ data: String) -> String {
        let bytes = Array(data.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 64)
        var counter = 0
        var index = 0
        while index < bytes.count {
            output.append(bytes[index])
            guard bytes[index] == UInt8(ascii: "<") else {
                index += 1
                continue
            }
            index += 1
            for name in ["meta", "link", "script", "base"] {
                let end = index + name.utf8.count
                guard end < bytes.count,
                    bytes[index..<end].elementsEqual(name.utf8, by: { $0 | 0x20 == $1 }),
                    [0x09, 0x0A, 0x0C, 0x0D, 0x20, UInt8(ascii: "/"), UInt8(ascii: ">")].contains(bytes[end])
                else { continue }
                counter += 1
                let attributes =
                    switch name {
                    case "meta": " property=og:spotcheck-\(counter) content=x "
                    case "link": " rel=canonical href=/spotcheck-\(counter) "
                    case "script": " type=application/ld+json "
                    default: " href=/spotcheck-base-\(counter)/ "
                    }
                output += bytes[index..<end]
                output += Array(attributes.utf8)
                index = end
                break
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    static func mismatch(_ testCase: Case) -> String? {
        let page = extract(probed(testCase.data), url: "https://example.com/")
        let want = expected(testCase)
        let got = reported(page)
        guard want != got else { return nil }
        func shown(_ sections: [String: [String]]) -> String {
            sections.keys.sorted().map { "\($0): \(sections[$0]!.joined(separator: ","))" }.joined(separator: "; ")
        }
        return "\(testCase.source): the browser's tree [\(shown(want))], SpotCheck [\(shown(got))] — \(testCase.data)"
    }

    @Test("the data file is there and holds cases")
    func dataFileIsPresent() {
        #expect(Self.cases.count > 0, "\(Self.dataFile.path)")
        for source in Self.knownDifferences.keys {
            #expect(Self.cases.contains { $0.source == source }, "knownDifferences names \(source), not in the data")
        }
    }

    @Test("each case's head/body placement", arguments: cases)
    func placement(_ testCase: Case) {
        let difference = Self.mismatch(testCase)
        if let reason = Self.knownDifferences[testCase.source] {
            withKnownIssue(Comment(rawValue: reason)) {
                #expect(difference == nil, "\(difference ?? "")")
            }
            return
        }
        #expect(difference == nil, "\(difference ?? "")")
    }

    @Test("summary: cases covered and passing")
    func summary() {
        let failing = Self.cases.filter { Self.mismatch($0) != nil }
        let unlisted = failing.filter { Self.knownDifferences[$0.source] == nil }
        print(
            "html5lib tree-construction placement: \(Self.cases.count) cases covered, "
                + "\(Self.cases.count - failing.count) passing, \(failing.count) failing "
                + "(\(Self.knownDifferences.count) listed as known differences)")
        for testCase in failing { print("  differs: \(Self.mismatch(testCase) ?? "")") }
        #expect(unlisted.isEmpty, "\(unlisted.map(\.source))")
        #expect(failing.count == Self.knownDifferences.count)
    }
}
