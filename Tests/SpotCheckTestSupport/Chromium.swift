import BrowserRendering
import Foundation

/// Headless Chromium for the rendering tests (issue 14): `make test` and `.ci/run` install
/// Debian's `chromium`; elsewhere a missing Chromium skips those tests visibly, but never in CI
/// (`CI` set), where the test runs and fails.
public enum ChromiumForTests {
    /// The browser binary, where the renderer finds it (Debian's package first).
    public static let executable = ChromiumRenderer.browserExecutable()

    /// Whether the rendering tests run: Chromium is installed, or this is CI.
    public static let runsTests = executable != nil || ProcessInfo.processInfo.environment["CI"] != nil

    public static let skipped = "Chromium is not installed (make test installs Debian's chromium)"

    /// The process ids of running Chromium processes whose command line contains `marker`.
    public static func processes(containing marker: String) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> Int32? in
            guard let pid = Int32(entry),
                let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline")
            else { return nil }
            let commandLine = String(decoding: data.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self)
            return commandLine.contains("chrom") && commandLine.contains(marker) ? pid : nil
        }
    }
}
