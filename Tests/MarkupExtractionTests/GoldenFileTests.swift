import Foundation
import LenientJSON
import MarkupExtraction
import Testing

/// Runs the extractor over every page of the fixture site (`Fixtures/html`) and compares the
/// `extract` contract with `Tests/MarkupExtractionTests/Golden/<relative path>.json`.
///
/// To (re)write the golden files after an intended change:
/// `SPOTCHECK_RECORD_GOLDEN=1 swift test --filter GoldenFileTests`, then review the diff.
@Suite("Golden files")
struct GoldenFileTests {
    static let testFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    /// `Tests/MarkupExtractionTests/` → the package root.
    static let packageRoot = testFolder.deletingLastPathComponent().deletingLastPathComponent()
    static let fixturesRoot = packageRoot.appendingPathComponent("Fixtures/html")
    static let goldenRoot = testFolder.appendingPathComponent("Golden")
    static let baseURL = "https://www.example.com/"
    static let isRecording = ProcessInfo.processInfo.environment["SPOTCHECK_RECORD_GOLDEN"] == "1"

    /// Relative paths of the fixture pages, sorted.
    static let fixtures: [String] = {
        guard let enumerator = FileManager.default.enumerator(atPath: fixturesRoot.path) else { return [] }
        var paths: [String] = []
        while let relative = enumerator.nextObject() as? String {
            let ext = (relative as NSString).pathExtension.lowercased()
            if ext == "html" || ext == "htm" { paths.append(relative) }
        }
        return paths.sorted()
    }()

    static func contract(of relativePath: String) throws -> String {
        let bytes = [UInt8](try Data(contentsOf: fixturesRoot.appendingPathComponent(relativePath)))
        let page = MarkupExtractor().extract(html: bytes, url: baseURL + relativePath)
        return page.contractJSON.serialized(pretty: true, sortKeys: true) + "\n"
    }

    @Test("the fixture site is found from the test file's path")
    func fixturesFound() {
        #expect(FileManager.default.fileExists(atPath: Self.fixturesRoot.appendingPathComponent("index.html").path))
        #expect(Self.fixtures.count > 10)
    }

    @Test("extract contract matches the golden file", arguments: fixtures)
    func matchesGolden(_ relativePath: String) throws {
        let actual = try Self.contract(of: relativePath)
        let goldenURL = Self.goldenRoot.appendingPathComponent(relativePath + ".json")
        if Self.isRecording {
            try FileManager.default.createDirectory(
                at: goldenURL.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(actual.utf8).write(to: goldenURL, options: .atomic)
            return
        }
        guard let data = FileManager.default.contents(atPath: goldenURL.path) else {
            Issue.record("no golden file \(goldenURL.path); record it with SPOTCHECK_RECORD_GOLDEN=1")
            return
        }
        let expected = String(decoding: data, as: UTF8.self)
        if actual != expected {
            let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
            let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
            let first =
                Array(zip(actualLines, expectedLines)).firstIndex { $0 != $1 }
                ?? min(actualLines.count, expectedLines.count)
            let shown = { (lines: [Substring]) in first < lines.count ? String(lines[first]) : "<end of file>" }
            Issue.record(
                """
                \(relativePath): extract contract differs from \(goldenURL.lastPathComponent) at line \(first + 1)
                  golden: \(shown(expectedLines))
                  actual: \(shown(actualLines))
                (re-record with SPOTCHECK_RECORD_GOLDEN=1 if the change is intended)
                """)
        }
    }

    @Test(
        "every golden file belongs to a fixture page",
        .disabled(if: isRecording, "recording the golden files (SPOTCHECK_RECORD_GOLDEN=1)"))
    func noStaleGoldens() throws {
        try #require(
            FileManager.default.fileExists(atPath: Self.goldenRoot.path), "no golden folder at \(Self.goldenRoot.path)")
        let enumerator = try #require(FileManager.default.enumerator(atPath: Self.goldenRoot.path))
        let expected = Set(Self.fixtures.map { $0 + ".json" })
        var stale: [String] = []
        while let relative = enumerator.nextObject() as? String {
            if relative.hasSuffix(".json"), !expected.contains(relative) { stale.append(relative) }
        }
        #expect(stale.isEmpty, "golden files without a fixture page: \(stale)")
    }

    @Test("extraction is deterministic: the same page twice gives the same contract")
    func deterministic() throws {
        let page = try #require(Self.fixtures.first { $0.hasPrefix("movies/") } ?? Self.fixtures.first)
        let first = try Self.contract(of: page)
        let second = try Self.contract(of: page)
        #expect(first == second)
    }
}
