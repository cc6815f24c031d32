public import Foundation

/// Where tests write their files: one folder per test process under the temporary directory,
/// removed when the process exits, so a test run leaves nothing behind. (Before, every run left
/// 300-odd folders and logs directly in /tmp: 3.0 GB after a few days of `make test` here.) A
/// process that crashes leaves its folder, `spotcheck-tests-PID`, for a look at what it wrote.
public enum Scratch {
    /// The process's folder, made on first use; its removal at exit is registered then.
    public static let root: String = {
        let path = NSTemporaryDirectory() + "spotcheck-tests-\(getpid())"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: Scratch.root) }
        return path
    }()

    /// A fresh path under ``root`` named `name-UUID` plus `suffix`; nothing is created.
    public static func path(_ name: String, suffix: String = "") -> String {
        root + "/\(name)-\(UUID().uuidString)\(suffix)"
    }

    /// A fresh, empty folder under ``root``.
    public static func folder(_ name: String) throws -> String {
        let path = path(name)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
