import Foundation
import PageAnalysis
import Testing

@Suite("Page loader")
struct PageLoaderTests {
    /// Loads and returns the problem, or records an issue when loading succeeded.
    func refusal(loading path: String, maximumBytes: Int = PageLoader.defaultMaximumBytes) -> InputProblem? {
        do {
            let bytes = try PageLoader.load(PageInput(path: path, url: "https://x/"), maximumBytes: maximumBytes)
            Issue.record("expected \(path) to be refused, got \(bytes.count) bytes")
            return nil
        } catch {
            return error
        }
    }

    @Test("a readable HTML file is returned byte for byte")
    func loadsHTML() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("page.html", simplePage)
        let bytes = try PageLoader.load(PageInput(path: path, url: "https://x/"))
        #expect(bytes == Array(simplePage.utf8))
    }

    @Test("a missing file is refused and named")
    func missingFile() throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/nope.html"
        let problem = try #require(refusal(loading: path))
        #expect(problem.code == .missing)
        #expect(problem.message == "no such file or folder")
        #expect(problem.path == path)
        #expect(problem.description.hasPrefix(path + ": "))
    }

    @Test("a folder is not loadable as a page")
    func folderPath() throws {
        let folder = try TemporaryFolder()
        let problem = try #require(refusal(loading: folder.path))
        #expect(problem.code == .unreadable)
        #expect(problem.path == folder.path)
    }

    struct RefusedCase: Sendable, CustomTestStringConvertible {
        var name: String
        var bytes: [UInt8]
        var code: InputProblem.Code
        var messageFragment: String
        var testDescription: String { name }
    }

    @Test(
        "unusable content is refused with its code and the path",
        arguments: [
            RefusedCase(name: "empty file", bytes: [], code: .empty, messageFragment: "empty file"),
            RefusedCase(
                name: "whitespace only", bytes: Array(" \n\t\r\n \u{0C}".utf8), code: .empty,
                messageFragment: "only whitespace"),
            RefusedCase(
                name: "PNG image", bytes: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13], code: .binary,
                messageFragment: "PNG image"),
            RefusedCase(
                name: "GIF image", bytes: Array("GIF89a".utf8) + [1, 0, 1, 0], code: .binary,
                messageFragment: "GIF image"),
            RefusedCase(
                name: "JPEG image", bytes: [0xFF, 0xD8, 0xFF, 0xE0, 0, 16], code: .binary, messageFragment: "JPEG image"
            ),
            RefusedCase(name: "PDF document", bytes: Array("%PDF-1.7\n".utf8), code: .binary, messageFragment: "PDF"),
            RefusedCase(name: "gzip data", bytes: [0x1F, 0x8B, 8, 0], code: .binary, messageFragment: "gzip"),
            RefusedCase(
                name: "NUL bytes in text", bytes: Array("<html>".utf8) + [0, 0, 0] + Array("</html>".utf8),
                code: .binary, messageFragment: "NUL"),
        ])
    func refused(_ testCase: RefusedCase) throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("page.html", bytes: testCase.bytes)
        let problem = try #require(refusal(loading: path))
        #expect(problem.code == testCase.code)
        #expect(problem.path == path)
        #expect(problem.message.contains(testCase.messageFragment), "message: \(problem.message)")
        #expect(problem.description == "\(path): \(problem.message)")
    }

    @Test("a file over maximumBytes is refused with its size; one exactly at the limit is read")
    func sizeLimit() throws {
        let folder = try TemporaryFolder()
        let limit = 1000
        let atLimit = try folder.write("at.html", String(repeating: "a", count: limit))
        #expect(try PageLoader.load(PageInput(path: atLimit, url: "https://x/"), maximumBytes: limit).count == limit)
        let over = try folder.write("over.html", String(repeating: "a", count: limit + 500))
        let problem = try #require(refusal(loading: over, maximumBytes: limit))
        #expect(problem.code == .tooLarge)
        #expect(problem.path == over)
        #expect(problem.message.contains("1500 bytes"))
        #expect(problem.message.contains("1000-byte"))
    }

    /// Issue 17 §2.13: `/dev/zero` has no size of its own; the message said "0 bytes is over the
    /// limit". It says what was read.
    @Test("an endless device is refused with what was read, not a size of 0")
    func endlessDevice() throws {
        let problem = try #require(refusal(loading: "/dev/zero", maximumBytes: 4096))
        #expect(problem.code == .tooLarge)
        #expect(problem.message.contains("more than 4096 bytes"), "\(problem.message)")
        #expect(!problem.message.hasPrefix("0 bytes"))
    }

    @Test("UTF-16 text with a byte order mark is not mistaken for binary")
    func utf16NotBinary() throws {
        let folder = try TemporaryFolder()
        let text = "<html><head><title>T</title></head></html>"
        let bytes: [UInt8] = [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let path = try folder.write("utf16.html", bytes: bytes)
        #expect(try PageLoader.load(PageInput(path: path, url: "https://x/")) == bytes)
    }
}
