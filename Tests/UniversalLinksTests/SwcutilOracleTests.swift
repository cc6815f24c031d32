import Foundation
import Testing
import UniversalLinks

/// Matching checked against Apple's `swcutil` (issue 33 §4): public records of what `swcutil` decided,
/// replayed through ``AASAMatcher`` — the code `spotcheck aasa check --app … --url …` runs. The data is in
/// `Swcutil/` (`Swcutil/MANIFEST.md`: sources, commits, licences, how it was transcribed):
///
/// - `blazingly-aasa/`: raw `swcutil` output captured by sergii-ziborov/blazingly-aasa on macOS 27.0
///   (26A5388g), 2026-09-02 — `swcutil verify -d -j -u` over 73 documents (`swcutil-corpus-results.tsv`,
///   the documents in `corpus-documents.json`), `swcutil match -u -j` over 67 single rules
///   (`swcutil-probes.tsv`) and 16 more probes of unknown rule keys and pattern keys in `defaults`
///   (`swcutil-gap-probes.tsv`).
/// - `universal-links-test/`: st-tech/universal-links-test's `tests/node.test.ts`, whose every case asserts
///   the same result from `swcutil verify` (run as root on macOS in that project's CI) and from its simulator.
///
/// A `swcutil match` probe tests one rule; it is replayed as the only component of one entry.
@Suite("swcutil-verified matching")
struct SwcutilOracleTests {
    /// What `swcutil` (or SpotCheck) said about one URL for one app.
    enum Verdict: String, Sendable {
        /// `… matched.` / `Matched by pattern …` — ``AASAMatchResult/handled(_:)``.
        case match
        /// `… blocked match.` — ``AASAMatchResult/excluded(_:)``.
        case block
        /// No line for the app, `Input JSON did not match input URL.`, `Did not match.` —
        /// ``AASAMatchResult/notMatched``.
        case unset
        /// `Input domain "…" did not match input URL's domain "…".` — ``AASAMatchResult/notUniversalLink``.
        case otherDomain = "other-domain"
        /// The file is not read at all (`swcutil` fails; SpotCheck has no document).
        case rejected
    }

    struct Case: Sendable, CustomTestStringConvertible {
        /// `<file>: <case name>[ for <app>]`.
        var id: String
        /// The association file as JSON text.
        var aasa: String
        /// The domain `swcutil` was given (`-d`), used as `servedForHost`.
        var domain: String
        var url: String
        var appID: String
        var swcutil: Verdict
        /// `swcutil`'s output as recorded, or the source's assertion.
        var evidence: String

        var testDescription: String { id }
    }

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Swcutil")
    static let appID = "ABCDE12345.com.example.app"

    static func text(_ name: String) -> String {
        (try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)) ?? ""
    }

    /// The lines of a TSV file that are data (not empty, not `#` comments), split on tabs.
    static func rows(_ name: String) -> [[String]] {
        text(name).split(separator: "\n").filter { !$0.hasPrefix("#") }
            .map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
    }

    /// `swcutil verify` output for one app: its `{ s = applinks, a = <app>, … }` line, or the whole-run message.
    static func verifyVerdict(_ output: String, appID: String) -> Verdict {
        if output.hasPrefix("Input domain ") { return .otherDomain }
        let marker = "{ s = applinks, a = \(appID), d = "
        for piece in output.split(separator: "|") {
            let line = piece.trimmingCharacters(in: .whitespaces)
            guard line.hasPrefix(marker) else { continue }
            if line.hasSuffix("blocked match.") { return .block }
            if line.hasSuffix("matched.") { return .match }
        }
        return .unset
    }

    /// `swcutil match` output.
    static func matchVerdict(_ output: String) -> Verdict {
        output.hasPrefix("Matched by pattern") ? .match : .unset
    }

    /// A single rule as the only component of one entry for ``appID``.
    static func wrapped(_ rule: String) -> String {
        #"{"applinks":{"details":[{"appIDs":[""# + appID + #""],"components":["# + rule + "]}]}}"
    }

    /// `corpus-documents.json`, one `"name": {…}` member a line, kept as written.
    static let corpusDocuments: [String: String] = {
        var documents: [String: String] = [:]
        for line in text("blazingly-aasa/corpus-documents.json").split(separator: "\n") {
            let member = line.trimmingCharacters(in: .whitespaces)
            guard member.hasPrefix("\""), let colon = member.range(of: "\": ") else { continue }
            let name = String(member[member.index(after: member.startIndex)..<colon.lowerBound])
            var value = String(member[colon.upperBound...])
            if value.hasSuffix(",") { value.removeLast() }
            documents[name] = value
        }
        return documents
    }()

    static let corpus: [Case] = rows("blazingly-aasa/swcutil-corpus-results.tsv").compactMap { row in
        guard row.count == 7 else { return nil }
        return Case(
            id: "blazingly-aasa corpus: \(row[0])", aasa: corpusDocuments[row[0]] ?? "", domain: row[1], url: row[3],
            appID: row[2], swcutil: verifyVerdict(row[6], appID: row[2]), evidence: row[6])
    }

    static let probes: [Case] = rows("blazingly-aasa/swcutil-probes.tsv").compactMap { row in
        guard row.count == 6 else { return nil }
        return Case(
            id: "blazingly-aasa probe: \(row[0])/\(row[1]) \(row[2])", aasa: wrapped(row[2]), domain: "example.com",
            url: row[3], appID: appID, swcutil: matchVerdict(row[5]), evidence: row[5])
    }

    /// A subject starting `{"applinks"` is a whole document (`swcutil verify`), else one rule (`swcutil match`).
    static let gapProbes: [Case] = rows("blazingly-aasa/swcutil-gap-probes.tsv").compactMap { row in
        guard row.count == 6 else { return nil }
        let isDocument = row[2].hasPrefix(#"{"applinks""#)
        return Case(
            id: "blazingly-aasa gap probe: \(row[0])/\(row[1])", aasa: isDocument ? row[2] : wrapped(row[2]),
            domain: "example.com", url: row[3], appID: appID,
            swcutil: isDocument ? verifyVerdict(row[5], appID: appID) : matchVerdict(row[5]), evidence: row[5])
    }

    struct NodeTestCase: Decodable {
        var name: String
        var aasa: String
        var path: String
        var rejected: Bool
        var swcutil: [String: String]
    }

    /// One case per app the test names or the file lists (an app missing from the test's expected map is
    /// `unset`); a file both reject has one case with no app.
    static let nodeTests: [Case] = text("universal-links-test/node-test-cases.jsonl").split(separator: "\n")
        .compactMap { try? JSONDecoder().decode(NodeTestCase.self, from: Data($0.utf8)) }
        .flatMap { test -> [Case] in
            let url = "https://www.example.com" + test.path
            let evidence = "node.test.ts: \"\(test.name)\""
            if test.rejected || test.swcutil.isEmpty {
                return [
                    Case(
                        id: "universal-links-test: \(test.name)", aasa: test.aasa, domain: "www.example.com", url: url,
                        appID: appID, swcutil: test.rejected ? .rejected : .unset, evidence: evidence)
                ]
            }
            return test.swcutil.keys.sorted().map { app in
                Case(
                    id: "universal-links-test: \(test.name) for \(app)", aasa: test.aasa, domain: "www.example.com",
                    url: url, appID: app, swcutil: Verdict(rawValue: test.swcutil[app] ?? "") ?? .unset,
                    evidence: evidence)
            }
        }

    static let cases: [Case] = corpus + probes + gapProbes + nodeTests

    /// Cases where SpotCheck decides otherwise, by ``Case/id``, each with its reason. A listed case that starts
    /// agreeing fails (`withKnownIssue`), so the list cannot outlive the difference.
    static let knownDifferences: [String: String] = [:]

    /// What SpotCheck decides, the way `aasa check` reads and matches a file.
    static func spotcheck(_ testCase: Case) -> Verdict {
        guard let document = AASADocument.parse(testCase.aasa).document else { return .rejected }
        switch document.match(testCase.url, appID: testCase.appID, servedForHost: testCase.domain) {
        case .handled: return .match
        case .excluded: return .block
        case .notMatched: return .unset
        case .notUniversalLink: return .otherDomain
        }
    }

    static func mismatch(_ testCase: Case) -> String? {
        let ours = spotcheck(testCase)
        guard ours != testCase.swcutil else { return nil }
        return "\(testCase.id): swcutil \(testCase.swcutil.rawValue), SpotCheck \(ours.rawValue) — \(testCase.url) "
            + "for \(testCase.appID) in \(testCase.aasa) (swcutil: \(testCase.evidence))"
    }

    @Test("the data files are there, whole")
    func dataIsPresent() {
        #expect(Self.corpus.count == 73)
        #expect(Self.corpusDocuments.count == 73)
        #expect(Self.corpus.allSatisfy { !$0.aasa.isEmpty }, "a corpus case without its document")
        #expect(Self.probes.count == 67)
        #expect(Self.gapProbes.count == 16)
        #expect(Self.nodeTests.count == 18)
        for id in Self.knownDifferences.keys {
            #expect(Self.cases.contains { $0.id == id }, "knownDifferences names \(id), not in the data")
        }
    }

    @Test("each case: SpotCheck decides as swcutil did", arguments: cases)
    func agreesWithSwcutil(_ testCase: Case) {
        let difference = Self.mismatch(testCase)
        if let reason = Self.knownDifferences[testCase.id] {
            withKnownIssue(Comment(rawValue: reason)) {
                #expect(difference == nil, "\(difference ?? "")")
            }
            return
        }
        #expect(difference == nil, "\(difference ?? "")")
    }

    @Test("summary: cases covered and agreeing")
    func summary() {
        let differing = Self.cases.filter { Self.mismatch($0) != nil }
        let unlisted = differing.filter { Self.knownDifferences[$0.id] == nil }
        print(
            "swcutil-verified matching: \(Self.cases.count) cases, \(Self.cases.count - differing.count) agree, "
                + "\(differing.count) differ (\(Self.knownDifferences.count) listed as known differences)")
        for testCase in differing { print("  differs: \(Self.mismatch(testCase) ?? "")") }
        #expect(unlisted.isEmpty, "\(unlisted.map(\.id))")
        #expect(differing.count == Self.knownDifferences.count)
    }
}
