public import Foundation

/// The third-party conformance data in `../shared/corpora`, beside the package (present in CI):
/// one place that knows where it is, for every suite that reads it.
public enum SharedCorpora {
    /// `../shared/corpora`, found from this file's place in the package.
    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // SpotCheckTestSupport
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // the package
        .deletingLastPathComponent()
        .appendingPathComponent("shared/corpora")

    /// `../shared/corpora/<path>`.
    public static func url(_ path: String) -> URL {
        root.appendingPathComponent(path)
    }

    /// Whether `../shared/corpora/<path>` is there.
    public static func isPresent(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: url(path).path)
    }
}
