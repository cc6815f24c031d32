public import Foundation

/// A test set-up that could not be made (no executable, no temporary file).
public struct TestFailure: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// The path of the `spotcheck` executable built beside the test bundle.
public func spotcheckExecutable() throws -> String {
    try builtExecutable("spotcheck")
}

/// The path of an executable of this package built beside the test bundle.
public func builtExecutable(_ name: String) throws -> String {
    let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    var folder = bundle.deletingLastPathComponent()
    for _ in 0..<4 {
        let candidate = folder.appendingPathComponent(name).path
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        folder.deleteLastPathComponent()
    }
    let fallback = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        .appendingPathComponent(name).path
    guard FileManager.default.isExecutableFile(atPath: fallback) else {
        throw TestFailure("\(name) executable not found next to \(bundle.path)")
    }
    return fallback
}

/// Waits for a process to end without blocking a concurrency thread (polls every 20 ms).
public func waitForExit(_ process: Process) async -> Int32 {
    while process.isRunning {
        try? await Task.sleep(nanoseconds: 20_000_000)
    }
    return process.terminationStatus
}
