import Foundation
import SpotCheckTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 35 §4 through the executable: `validate FOLDER` with a FIFO named `*.html`,
/// `validate FIFO` and `extract FIFO` hung with no output. They name the FIFO and exit 3 (an
/// input could not be read), as `aasa check` and `robots check` do for what they cannot read.
@Suite("validate and extract with a FIFO", .serialized)
struct NonRegularInputTests {
    static func folderWithFIFO() throws -> (folder: String, fifo: String) {
        let folder = try temporaryFolder("fifo-input")
        try Data(#"<!doctype html><html><head><title>A</title></head><body>A</body></html>"#.utf8)
            .write(to: URL(fileURLWithPath: folder + "/a.html"))
        let fifo = folder + "/b.html"
        guard mkfifo(fifo, 0o600) == 0 else { throw TestFailure("\(fifo): mkfifo failed") }
        return (folder, fifo)
    }

    @Test(
        "the FIFO is named and the exit status is 3",
        arguments: [
            (
                ["validate", "{folder}", "--output", "{folder}/out"],
                "{fifo}: cannot be read: not a regular file (a FIFO)"
            ),
            (
                ["validate", "{fifo}", "--output", "{folder}/out"],
                "{fifo}: cannot be read: not a regular file (a FIFO, with no writer)"
            ),
            (["extract", "{fifo}"], "{fifo}: cannot be read: not a regular file (a FIFO, with no writer)"),
        ])
    func fifo(arguments: [String], says: String) async throws {
        let (folder, fifo) = try Self.folderWithFIFO()
        func filled(_ text: String) -> String {
            text.replacingOccurrences(of: "{folder}", with: folder).replacingOccurrences(of: "{fifo}", with: fifo)
        }
        let result = try await runProcess(
            try spotcheckExecutable(), arguments.map(filled), in: folder)
        #expect(result.status == 3, "\(result.output)")
        #expect(result.output.contains(filled(says)), "\(result.output)")
    }
}
