import ArgumentParser
import Foundation

/// `crawl --help` with the options first and the exit-code table last (issue 31): ArgumentParser
/// prints a command's discussion, which holds the table, before the options, and has no epilogue.
enum HelpLayout {
    /// The reordered help when `arguments` (after the program's name) ask for `crawl`'s, else nil.
    static func text(for arguments: [String]) -> String? {
        let asked =
            (arguments.first == "crawl" && arguments.contains { $0 == "--help" || $0 == "-h" })
            || arguments == ["help", "crawl"]
        guard asked else { return nil }
        return exitTableLast(SpotCheck.helpMessage(for: Crawl.self))
    }

    /// `help` with its "Exit codes (the shared table, …)" paragraph moved to the end.
    static func exitTableLast(_ help: String) -> String {
        var paragraphs = help.components(separatedBy: "\n\n")
        guard let index = paragraphs.firstIndex(where: { $0.hasPrefix("Exit codes (the shared table") }) else {
            return help
        }
        let table = paragraphs.remove(at: index)
        return paragraphs.joined(separator: "\n\n").trimmingCharacters(in: .newlines) + "\n\n" + table
    }
}
