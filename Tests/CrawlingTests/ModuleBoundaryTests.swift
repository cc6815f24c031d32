import Foundation
import Testing

/// The module boundaries of issue 30: the crawl only crawls (it imports neither the reports nor
/// the local index), what reads findings (the reports, the configuration file) needs only the
/// rule catalogue, not the 9,000 lines of checks, and joining the app's items to the pages is not
/// the verifier's.
@Suite("module boundaries")
struct ModuleBoundaryTests {
    /// The modules every `import` line of a module's sources names (`@testable`, `public`,
    /// `package` … imports included).
    static func imports(of module: String) throws -> Set<String> {
        let folder = TestSite.projectRoot.appendingPathComponent("Sources/\(module)").path
        var modules: Set<String> = []
        for file in try FileManager.default.contentsOfDirectory(atPath: folder) where file.hasSuffix(".swift") {
            let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ")
                guard let position = words.firstIndex(of: "import"), position + 1 < words.count,
                    words[..<position].allSatisfy({ ["public", "package", "internal", "@testable"].contains($0) })
                else { continue }
                modules.insert(String(words[position + 1]))
            }
        }
        #expect(!modules.isEmpty, "\(module) has sources")
        return modules
    }

    @Test(
        "a module does not import what it must not",
        arguments: [
            ("Crawling", ["Reports", "SpotlightIndex"]),
            ("Reports", ["Verification", "Crawling", "CrawlStore"]),
            ("ProjectConfiguration", ["Verification"]),
            ("Rulebook", ["Verification", "MarkupExtraction", "SpotlightModel", "UniversalLinks"]),
            ("ItemLinking", ["Verification", "MarkupExtraction"]),
        ])
    func forbiddenImports(module: String, forbidden: [String]) throws {
        let imported = try Self.imports(of: module)
        #expect(imported.isDisjoint(with: forbidden), "\(module) imports \(imported.intersection(forbidden).sorted())")
    }
}
