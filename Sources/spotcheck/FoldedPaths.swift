import Synchronization

/// Long lists of file arguments, folded past swift-argument-parser.
///
/// swift-argument-parser 1.8.2 records where each value of a repeated positional argument came
/// from in a set that it copies and merges again for every value (`ParsedValues.set`), so `n`
/// file arguments cost O(n²) before any page is read: `spotcheck extract` over copies of one small
/// page spent 0.13 s at 1,000 files, 0.95 s at 5,000 and 11.2 s at 20,000 (`/usr/bin/time`),
/// almost all in `ParsedValues.set`'s `Set.formUnion` (`perf`). For the commands that take file
/// lists (`extract`, `validate`), a run of at least ``minimumRun`` consecutive plain arguments
/// is folded before parsing into its first argument, which may be the value of the option before
/// it, and one token standing for the rest, which can only be files: every option of these
/// commands takes exactly one value. The command unfolds its list in `validate()`, which the
/// parser calls once, before `run()`. Arguments after
/// `--` and shorter runs are left alone.
enum FoldedPaths {
    /// The commands whose positional arguments are files or folders.
    static let commands: Set<String> = ["extract", "validate"]
    /// Shorter runs are parsed as they are (their cost is a few milliseconds).
    static let minimumRun = 64
    /// Starts a token that stands for a folded run; no path starts with a control character.
    static let marker = "\u{1}spotcheck-folded-paths:"

    private static let runs = Mutex<[[String]]>([])

    /// `arguments` (the command first) with each long run of plain arguments folded.
    static func fold(_ arguments: [String]) -> [String] {
        guard let command = arguments.first, commands.contains(command) else { return arguments }
        var folded: [String] = []
        folded.reserveCapacity(arguments.count)
        var run: [String] = []
        func closeRun() {
            if run.count >= minimumRun {
                folded.append(run[0])
                let rest = Array(run.dropFirst())
                let index = runs.withLock { runs in
                    runs.append(rest)
                    return runs.count - 1
                }
                folded.append(marker + String(index))
            } else {
                folded += run
            }
            run = []
        }
        for (position, argument) in arguments.enumerated() {
            if argument == "--" {
                closeRun()
                folded += arguments[position...]
                return folded
            }
            if position > 0, !argument.hasPrefix("-") {
                run.append(argument)
            } else {
                closeRun()
                folded.append(argument)
            }
        }
        closeRun()
        return folded
    }

    /// The parsed file list with each folded run put back in its place.
    static func unfold(_ paths: [String]) -> [String] {
        guard paths.contains(where: { $0.hasPrefix(marker) }) else { return paths }
        let stored = runs.withLock { $0 }
        var unfolded: [String] = []
        for path in paths {
            if path.hasPrefix(marker), let index = Int(path.dropFirst(marker.count)), stored.indices.contains(index) {
                unfolded += stored[index]
            } else {
                unfolded.append(path)
            }
        }
        return unfolded
    }
}
