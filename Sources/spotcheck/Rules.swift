import ArgumentParser
import Foundation
import ProjectConfiguration
import Rulebook
import Verification

struct Rules: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "List the rule catalogue: id, severity, citation, and whether SpotCheck checks it yet.",
        discussion: """
            Severities as configured: the project configuration file (--config, or .spotcheck.json in the \
            working folder or its nearest parent: {"rules": {"SAB004": "off", "SAB*": "warning"}}), then \
            --rule options. docs/rules.md is \
            this command's --format md output.

            \(ExitStatus.help([.success, .badConfiguration, .usage]))
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json, md
    }

    @Option(help: "text, json or md.")
    var format: Format = .text

    @Option(parsing: .singleValue, help: "Override a rule or group (SAB*): ID=off|error|warning|info (repeatable).")
    var rule: [String] = []

    @OptionGroup var project: ConfigOption

    func run() throws {
        let configuration: RuleConfiguration
        do {
            configuration = try Self.loadConfiguration(file: project.config, overrides: rule)
        } catch {
            Console.log.error("\(error)")
            throw ExitStatus.badConfiguration
        }
        let output: String
        switch format {
        case .text: output = RuleCatalogue.text(configuration: configuration)
        case .json: output = RuleCatalogue.json(configuration: configuration).serialized(pretty: true) + "\n"
        case .md: output = RuleCatalogue.markdown()
        }
        FileHandle.standardOutput.write(Data(output.utf8))
    }

    /// The `"rules"` of the project configuration file (`--config`, which `ProjectFile` sets to the
    /// file it found), then the `--rule` options.
    static func loadConfiguration(file: String?, overrides: [String]) throws -> RuleConfiguration {
        var configuration =
            try file.map { path throws(ConfigurationError) in try ConfigurationFile.load(path).rules }
            ?? RuleConfiguration()
        for option in overrides { try configuration.apply(option: option) }
        return configuration
    }
}
