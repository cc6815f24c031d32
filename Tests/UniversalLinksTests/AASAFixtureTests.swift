import Foundation
import Testing
import UniversalLinks

/// The fixture site's real file (`Fixtures/html/.well-known/apple-app-site-association`, see
/// `Fixtures/html/MANIFEST.md`).
@Suite("AASA fixture file")
struct AASAFixtureTests {
    static let appID = "ABCDE12345.com.example.familycinema"

    static func fixtureBytes() throws -> [UInt8] {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        url.appendPathComponent("Fixtures/html/.well-known/apple-app-site-association")
        return Array(try Data(contentsOf: url))
    }

    @Test func isValidForTheFixtureApp() throws {
        let result = AASAValidator.validate(try Self.fixtureBytes(), configuredAppID: Self.appID)
        #expect(result.problems.isEmpty, "\(result.problems)")
        let document = try #require(result.document)
        #expect(document.applinks?.details.count == 1)
        #expect(document.applinks?.details.first?.appIDs == [Self.appID])
        #expect(document.applinks?.details.first?.components?.count == 11)
        #expect(document.applinks?.apps == [])
        #expect(document.webcredentials?.apps == [Self.appID])
        #expect(document.appclips?.apps == ["ABCDE12345.com.example.familycinema.Clip"])
        #expect(document.otherServices.isEmpty)
    }

    @Test(arguments: [
        ("https://www.example.com/private/secret.html", Expected.excluded(0)),
        ("https://www.example.com/broken/no-deep-link.html", .excluded(1)),
        ("https://www.example.com/", .handled(2)),
        ("https://www.example.com/index.html", .handled(3)),
        ("https://www.example.com/movies/up.html", .handled(4)),
        ("https://www.example.com/movies/", .handled(4)),
        ("https://www.example.com/family/", .handled(5)),
        ("https://www.example.com/colleagues/office.html", .handled(6)),
        ("https://www.example.com/about.html", .handled(7)),
        ("https://www.example.com/markup-tests.html", .handled(8)),
        ("https://www.example.com/broken/og-missing-image.html", .handled(9)),
        ("https://www.example.com/sitemap.xml", .notMatched),
        ("https://other.example.com/movies/up.html", .notUniversalLink),
    ])
    func matchesTheManifest(_ url: String, _ expected: Expected) throws {
        let document = try #require(AASADocument.parse(try Self.fixtureBytes()).document)
        #expect(Expected(document.match(url, appID: Self.appID, servedForHost: "www.example.com")) == expected)
    }

    @Test func exclusionCarriesTheComment() throws {
        let document = try #require(AASADocument.parse(try Self.fixtureBytes()).document)
        let result = document.match("https://www.example.com/broken/no-deep-link.html", appID: Self.appID)
        guard case .excluded(let rule) = result else {
            Issue.record("expected an exclusion, got \(result)")
            return
        }
        #expect(rule.comment == "Fixture page that must have no deep link at all (DL001)")
        #expect(rule.pattern == #"{"/": "/broken/no-deep-link.html"}"#)
        #expect(rule.kind == .component)
    }

    @Test func otherAppsAreNotMatched() throws {
        let document = try #require(AASADocument.parse(try Self.fixtureBytes()).document)
        #expect(
            document.match("https://www.example.com/", appID: "ABCDE12345.com.example.familycinema.Clip") == .notMatched
        )
    }
}
