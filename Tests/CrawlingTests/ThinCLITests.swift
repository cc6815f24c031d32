import Foundation
import Testing

/// `Sources/spotcheck` stays a thin CLI over the libraries (issue 11): it imports no store,
/// fetcher or C module, and none of its functions is longer than 60 lines.
@Suite("the thin command line")
struct ThinCLITests {
    static let folder = TestSite.projectRoot.appendingPathComponent("Sources/spotcheck").path

    static func sources() throws -> [(name: String, lines: [Substring])] {
        try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".swift") }.sorted().map {
            (
                $0,
                try String(contentsOfFile: folder + "/" + $0, encoding: .utf8).split(
                    separator: "\n", omittingEmptySubsequences: false)
            )
        }
    }

    @Test("no store, fetcher or C module is imported")
    func importsOnlyLibraryAPIs() throws {
        let forbidden: Set<String> = [
            "CrawlStore", "PageFetching", "GRDB", "CCurl", "CLibXML2", "CHTMLScanner", "CZlib",
        ]
        let files = try Self.sources()
        #expect(!files.isEmpty)
        for (name, lines) in files {
            for line in lines where line.hasPrefix("import ") || line.contains(" import ") {
                let module = line.split(separator: " ").last.map(String.init) ?? ""
                #expect(!forbidden.contains(module), "\(name): \(line)")
            }
        }
    }

    @Test("no function is longer than 60 lines")
    func functionsAreShort() throws {
        for (name, lines) in try Self.sources() {
            for (index, line) in lines.enumerated() {
                let trimmed = line.drop { $0 == " " }
                let indent = line.count - trimmed.count
                let words = trimmed.split(separator: " ")
                guard
                    let keyword = words.first(where: {
                        !["private", "static", "mutating", "public", "fileprivate", "@MainActor"].contains($0)
                    }),
                    keyword == "func" || keyword.hasPrefix("init("), line.hasSuffix("{")
                else { continue }
                let closing = String(repeating: " ", count: indent) + "}"
                guard let end = lines[(index + 1)...].firstIndex(where: { $0 == closing }) else { continue }
                #expect(end - index + 1 <= 60, "\(name):\(index + 1): \(trimmed) is \(end - index + 1) lines")
            }
        }
    }
}
