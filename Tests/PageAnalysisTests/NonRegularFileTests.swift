import Foundation
import PageAnalysis
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 35 §4: a FIFO named `*.html` (in a folder, or named itself) made `validate` and
/// `extract` wait forever for a writer, with no output. If these tests hang, that is the bug.
@Suite("Files that are not regular files")
struct NonRegularFileTests {
    static func fifo(in folder: TemporaryFolder, _ name: String) throws -> String {
        let path = folder.path + "/" + name
        guard mkfifo(path, 0o600) == 0 else { throw CocoaError(.fileWriteUnknown) }
        return path
    }

    @Test("a FIFO nothing writes to is refused as not a regular file, without waiting")
    func fifoWithoutWriter() throws {
        let folder = try TemporaryFolder()
        let path = try Self.fifo(in: folder, "page.html")
        do {
            let bytes = try PageLoader.load(PageInput(path: path, url: "https://x/"))
            Issue.record("expected a refusal, got \(bytes.count) bytes")
        } catch {
            #expect(error.code == .unreadable)
            #expect(error.description == "\(path): cannot be read: not a regular file (a FIFO, with no writer)")
        }
    }

    /// `validate <(curl …)` reads a pipe whose writer is there: it still works.
    @Test("a pipe with a writer is still read to its end")
    func pipeWithWriter() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let page = Array(simplePage.utf8)
        #expect(page.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) } == page.count)
        close(ends[1])
        let bytes = try PageLoader.load(PageInput(path: "/dev/fd/\(ends[0])", url: "https://x/"))
        #expect(bytes == page)
    }

    @Test("a folder's FIFO named x.html is reported, unopened; the other pages are collected")
    func fifoInAFolder() throws {
        let folder = try TemporaryFolder()
        try folder.write("a.html", simplePage)
        let fifo = try Self.fifo(in: folder, "b.html")
        let collected = InputCollector().collect([folder.path])
        #expect(collected.inputs.map(\.path) == [folder.path + "/a.html"])
        #expect(collected.problems.map(\.description) == ["\(fifo): cannot be read: not a regular file (a FIFO)"])
        #expect(collected.problems.map(\.code) == [.unreadable])
    }
}
