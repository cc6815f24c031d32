import ArgumentParser
import Foundation
import ProjectConfiguration

/// `--config FILE`: the project configuration file (`crawl`, `validate`, `report`, `rules`).
struct ConfigOption: ParsableArguments {
    @Option(
        help: """
            The project configuration file (default: .spotcheck.json in the working folder or the nearest \
            parent folder that has one; docs/config.md). Options on the command line win over it.
            """)
    var config: String?
}

/// The project configuration file as the command line sees it: found (or named with `--config`),
/// checked, and turned into options placed before the user's own, which therefore win. A key
/// whose value the command refuses is reported with the file and the key (exit 7); which file was
/// used is said on stderr, even with `--quiet`, because it decides the verdict.
struct ProjectFile {
    /// What ArgumentParser parses.
    var arguments: [String]
    /// The arguments as typed.
    var given: [String]
    var file: ConfigurationFile?
    /// Found by looking up from the working folder (not named with `--config`).
    var discovered = false
    var added = ConfigurationArguments()
    var command: ConfigurationCommand?

    /// The arguments with the configuration file's options added; a file that cannot be used is
    /// named on stderr and exits 7. `--help` and its kin (`readsNoFile`) never read a file.
    static func resolve(_ given: [String]) throws(ExitStatus) -> ProjectFile {
        var project = ProjectFile(arguments: given, given: given)
        guard let name = given.first, let command = ConfigurationCommand(rawValue: name) else { return project }
        let rest = Array(given.dropFirst())
        let options = Array(rest.prefix { $0 != "--" })
        if options.contains(where: Self.readsNoFile) { return project }
        let named = value(of: "--config", in: options)
        guard let path = named ?? ConfigurationFile.discover(from: FileManager.default.currentDirectoryPath) else {
            return project
        }
        do {
            project.file = try ConfigurationFile.load(path)
        } catch {
            Console.log.error("\(error)")
            throw .badConfiguration
        }
        project.command = command
        project.discovered = named == nil
        project.added =
            project.file?.arguments(for: command) { option in
                options.contains { $0 == option || $0.hasPrefix(option + "=") }
            } ?? ConfigurationArguments()
        project.arguments = [name] + project.added.all + (named == nil ? ["--config=\(path)"] : []) + rest
        return project
    }

    /// The options that print what the command definitions say and run nothing: help, the tool
    /// description generate-manual reads (`make package`'s man page) and the completion scripts.
    static func readsNoFile(_ option: String) -> Bool {
        ["--help", "-h", "--experimental-dump-help", "--generate-completion-script"].contains(option)
            || option.hasPrefix("--generate-completion-script=")
    }

    /// The value of `--name VALUE` or `--name=VALUE` among the options, if given.
    static func value(of name: String, in options: [String]) -> String? {
        for (index, option) in options.enumerated() {
            if option == name, index + 1 < options.count { return options[index + 1] }
            if option.hasPrefix(name + "=") { return String(option.dropFirst(name.count + 1)) }
        }
        return nil
    }

    /// Parses the arguments. A command line that is wrong by itself is reported as such; when it is
    /// fine alone, the file is at fault: the key and the command's reason are named (exit 7).
    func parse() throws -> any ParsableCommand {
        do {
            return try SpotCheck.parseAsRoot(arguments)
        } catch {
            guard let file, arguments != given else { throw error }
            _ = try SpotCheck.parseAsRoot(given)
            guard let (key, reason) = culprit() else { throw error }
            Console.log.error("\(file.path): \(key): \(reason)")
            throw ExitStatus.badConfiguration
        }
    }

    /// The first key whose options alone make the command refuse the command line, with the
    /// command's reason.
    private func culprit() -> (key: String, reason: String)? {
        guard let name = given.first else { return nil }
        for applied in added.applied where !applied.arguments.isEmpty {
            do {
                _ = try SpotCheck.parseAsRoot([name] + applied.arguments + given.dropFirst())
            } catch {
                return (applied.key, SpotCheck.message(for: error))
            }
        }
        return nil
    }

    /// Says which file was used and what it set (on stderr, even with `--quiet`).
    func announce() {
        guard let file, let command else { return }
        var used = added.applied.map(\.key).joined(separator: ", ")
        if used.isEmpty { used = "no key for \(command.rawValue)" }
        if !added.overridden.isEmpty {
            used += "; the command line overrides \(added.overridden.joined(separator: ", "))"
        }
        let how = discovered ? "" : " (--config)"
        Console.log.notice("configuration: \(file.path)\(how): \(used)")
    }
}
