import Foundation
import Testing

/// A fresh temporary folder, removed when the value is deinitialised.
final class TemporaryFolder: Sendable {
    let path: String

    init() throws {
        path =
            FileManager.default.temporaryDirectory.appendingPathComponent("spotcheck-tests-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Writes `bytes` at `relative` (creating folders) and returns the full path.
    @discardableResult
    func write(_ relative: String, bytes: [UInt8]) throws -> String {
        let full = path + "/" + relative
        try FileManager.default.createDirectory(
            atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: full))
        return full
    }

    @discardableResult
    func write(_ relative: String, _ text: String) throws -> String {
        try write(relative, bytes: Array(text.utf8))
    }

    func makeFolder(_ relative: String) throws -> String {
        let full = path + "/" + relative
        try FileManager.default.createDirectory(atPath: full, withIntermediateDirectories: true)
        return full
    }
}

let simplePage =
    #"<html><head><title>T</title><meta name="apple-itunes-app" content="app-id=1, app-argument=https://x/a"></head><body></body></html>"#
