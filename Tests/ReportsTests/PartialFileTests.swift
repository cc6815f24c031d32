import Foundation
import SpotCheckTestSupport
import Testing

@testable import Reports

/// A report written to a full disk fails with the reason (issue 17 §2.8: it trapped, SIGILL,
/// instead of exit 5), and the finished file is not replaced by half a report.
@Suite("report files on a full disk")
struct PartialFileTests {
    @Test("a write that fails is thrown by commit, with the system's reason, and path is left alone")
    func fullDiskIsAnError() throws {
        let folder = Scratch.path("full")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/report.json"
        try Data("the previous report".utf8).write(to: URL(fileURLWithPath: path))
        // The scratch file is /dev/full: every write fails with ENOSPC.
        try FileManager.default.createSymbolicLink(atPath: path + ".partial", withDestinationPath: "/dev/full")
        let file = try PartialFile(path)
        for _ in 0..<3 { file.write(String(repeating: "x", count: 1 << 20)) }
        #expect {
            try file.commit()
        } throws: { error in
            "\(error)".contains("No space left on device")
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "the previous report")
    }
}
