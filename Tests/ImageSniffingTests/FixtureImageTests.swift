import Foundation
import ImageSniffing
import Testing

/// The real images of the fixture site, with the sizes `Fixtures/html/MANIFEST.md` ("Images") gives them.
enum FixtureImages {
    /// The repository root: three levels up from this file (`Tests/ImageSniffingTests/<file>`).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let directory = root.appendingPathComponent("Fixtures/html/images")

    /// Every file under `Fixtures/html/images`, as paths relative to it, sorted.
    static let paths: [String] = {
        guard let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)
        else { return [] }
        let prefix = directory.standardizedFileURL.path + "/"
        var paths: [String] = []
        for case let url as URL in enumerator where !url.hasDirectoryPath {
            let path = url.standardizedFileURL.path
            paths.append(path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path)
        }
        return paths.sorted()
    }()

    static func bytes(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: directory.appendingPathComponent(path)))
    }

    /// The manifest's size for a file, by its group; nil for a file the manifest does not list.
    static func expected(_ path: String) -> ImageHeader? {
        let parts = path.split(separator: "/").map(String.init)
        let name = parts.last ?? ""
        switch (parts.count, parts.first ?? "") {
        case (2, "movies") where name.hasSuffix("-wide.png"): return sized(.png, 1200, 630)
        case (2, "movies") where name.hasSuffix("-poster.jpg"): return sized(.jpeg, 600, 900)
        case (2, "family") where name.hasSuffix(".jpg"): return sized(.jpeg, 400, 400)
        case (2, "colleagues") where name.hasSuffix(".png"): return sized(.png, 400, 400)
        case (2, "site") where name == "office.jpg": return sized(.jpeg, 1200, 630)
        case (2, "site") where name.hasSuffix(".png"): return sized(.png, 1200, 630)
        case (2, "broken") where name.hasSuffix(".png"): return sized(.png, 1200, 630)
        case (1, _) where name == "logo.png": return sized(.png, 512, 512)
        case (1, _) where name == "apple-touch-icon.png": return sized(.png, 180, 180)
        case (1, _) where name == "favicon.png": return sized(.png, 32, 32)
        default: return nil
        }
    }
}

@Suite("Fixture-site images")
struct FixtureImageTests {
    @Test func theManifestGroupsAreAllPresent() {
        let paths = FixtureImages.paths
        #expect(paths.count >= 40, "found \(paths.count) images under \(FixtureImages.directory.path)")
        #expect(paths.filter { $0.hasPrefix("movies/") && $0.hasSuffix("-poster.jpg") }.count == 4)
        #expect(paths.filter { $0.hasPrefix("movies/") && $0.hasSuffix("-wide.png") }.count == 4)
        #expect(paths.filter { $0.hasPrefix("family/") }.count == 3)
        #expect(paths.filter { $0.hasPrefix("colleagues/") }.count == 3)
        #expect(paths.contains("site/office.jpg"))
        #expect(paths.contains("logo.png") && paths.contains("apple-touch-icon.png") && paths.contains("favicon.png"))
    }

    @Test(arguments: FixtureImages.paths)
    func sniffsTheManifestSize(path: String) throws {
        let expected = try #require(FixtureImages.expected(path), "\(path) is in no manifest group")
        let bytes = try FixtureImages.bytes(path)
        #expect(ImageHeader.sniff(bytes) == expected)
        // The prefix a fetcher reads gives the same answer, as do slices and non-contiguous collections.
        #expect(ImageHeader.sniff(bytes.prefix(ImageHeader.bytesNeeded)) == expected)
        #expect(ImageHeader.sniff(Data(bytes)) == expected)
        #expect(ImageHeader.sniff(bytes.lazy.map { $0 }) == expected)
        let padded = [0, 0, 0] + bytes
        #expect(ImageHeader.sniff(padded[3...]) == expected)
        #expect(ImageHeader.sniff(padded) == nil)
    }

    @Test(arguments: FixtureImages.paths)
    func theDeclaredTypeFromTheExtensionMatches(path: String) throws {
        let header = try #require(ImageHeader.sniff(try FixtureImages.bytes(path)))
        let declared = path.hasSuffix(".jpg") ? "image/jpeg" : "image/png"
        #expect(header.matches(mediaType: declared))
        #expect(!header.matches(mediaType: path.hasSuffix(".jpg") ? "image/png" : "image/jpeg"))
    }

    /// Every prefix of a real file either has the true size or none; short of the size fields it says more
    /// bytes are needed (real files have no malformed headers), and from some length on it has the size.
    @Test(arguments: FixtureImages.paths)
    func everyPrefixGivesTheTrueSizeOrAsksForMore(path: String) throws {
        let bytes = try FixtureImages.bytes(path)
        let expected = try #require(FixtureImages.expected(path))
        var firstSized: Int?
        for length in 0...min(bytes.count, 4096) {
            guard let header = ImageHeader.sniff(bytes[..<length]) else {
                // Too short to tell the format: only within the signature.
                #expect(length < 8, "prefix of \(length) bytes not recognised")
                continue
            }
            #expect(header.format == expected.format)
            if header.width != nil {
                #expect(header == expected, "prefix of \(length) bytes")
                if firstSized == nil { firstSized = length }
            } else {
                #expect(header.dimensionsNeedMoreBytes, "prefix of \(length) bytes")
                #expect(firstSized == nil, "prefix of \(length) bytes lost the size again")
            }
        }
        #expect(firstSized != nil)
    }
}
