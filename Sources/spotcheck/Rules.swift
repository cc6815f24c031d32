import ArgumentParser
import Foundation
import Verification

struct Rules: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the rule catalogue: id, severity, citation, and whether SpotCheck checks it yet.",
        discussion: """
            Severities as configured: .spotcheck.json in the working directory \
            ({"rules": {"SAB004": "off", "SAB009": "error"}}), then --rule options. docs/rules.md is \
            this command's --format md output. Exit codes: 0 listed; 7 the configuration is invalid \
            (the file or option is named); 64 bad command line.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json, md
    }

    @Option(help: "text, json or md.")
    var format: Format = .text

    @Option(parsing: .singleValue, help: "Override a rule: ID=off|error|warning|info (repeatable).")
    var rule: [String] = []

    func run() throws {
        let configuration: RuleConfiguration
        do {
            configuration = try Self.loadConfiguration(overrides: rule)
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

    /// `.spotcheck.json` in the working directory (if any), then the `--rule` options.
    static func loadConfiguration(overrides: [String]) throws(RuleConfigurationError) -> RuleConfiguration {
        var configuration = RuleConfiguration()
        let path = RuleConfiguration.fileName
        if FileManager.default.fileExists(atPath: path) {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw RuleConfigurationError(origin: path, message: "cannot be read")
            }
            configuration = try RuleConfiguration.parse(String(decoding: data, as: UTF8.self), path: path)
        }
        for option in overrides { try configuration.apply(option: option) }
        return configuration
    }
}
