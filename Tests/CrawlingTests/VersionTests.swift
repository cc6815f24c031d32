import CrawlStore
import Foundation
import LenientJSON
import SpotCheckTestSupport
import Testing

/// One version: what `--version` prints is what the User-Agent sends and SARIF's driver names.
@Suite("the version, everywhere", .serialized)
struct VersionTests {
    @Test("--version, the default User-Agent of a crawl and the SARIF driver agree")
    func versionAgrees() async throws {
        let executable = try spotcheckExecutable()
        let version = try await runProcess(executable, ["--version"]).output.trimmingCharacters(
            in: .whitespacesAndNewlines)
        #expect(version.split(separator: ".").count == 3, "\(version)")
        let folder = try temporaryFolder("version")
        let crawl = try await runProcess(
            executable,
            ["crawl", TestSite.fixtureRoot, "-o", folder, "-q", "--max-pages", "1", "--format", "json,sarif"])
        #expect(crawl.status == 0, "\(crawl.output)")
        let settings = try #require(try CrawlStore(path: folder + "/crawl.sqlite").currentRun()?.settingsJSON)
        let userAgent = try #require(JSONParser.parse(settings, lenient: false).value?["userAgent"]?.stringValue)
        #expect(userAgent == "Mozilla/5.0 (compatible; spotcheck/\(version))")
        let sarif = try String(contentsOfFile: folder + "/findings.sarif", encoding: .utf8)
        let driver = JSONParser.parse(sarif, lenient: false).value?["runs"]?[0]?["tool"]?["driver"]
        #expect(driver?["version"]?.stringValue == version)
    }
}
