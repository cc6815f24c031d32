import LenientJSON
public import RuleIDs

/// A project's choices about rules: some switched off, some with another severity. Read from
/// `.spotcheck.json` in the working directory (`{"rules": {"SAB004": "off", "SAB009": "error"}}`)
/// and from `--rule ID=LEVEL` options, which win.
public struct RuleConfiguration: Sendable, Hashable {
    public enum Setting: Sendable, Hashable {
        case off
        case severity(Severity)
    }

    /// The configuration file's name.
    public static let fileName = ".spotcheck.json"

    public private(set) var settings: [RuleID: Setting]

    public init(settings: [RuleID: Setting] = [:]) {
        self.settings = settings
    }

    /// The severity a rule is reported with, or nil when it is switched off.
    public func severity(of rule: Rule) -> Severity? {
        switch settings[rule.id] {
        case .off: nil
        case .severity(let severity): severity
        case nil: rule.severity
        }
    }

    /// Sets one rule: `id` is its text in any case (`SAB004`, `sab004`); `level` is `off`, `error`,
    /// `warning` or `info`; `origin` names where it came from (a file, an option) for the error message.
    public mutating func set(_ id: String, _ level: String, origin: String) throws(RuleConfigurationError) {
        guard let rule = RuleID(text: id) else {
            throw RuleConfigurationError(origin: origin, message: "unknown rule \"\(id)\" (spotcheck rules lists them)")
        }
        switch level.lowercased() {
        case "off": settings[rule] = .off
        case let name:
            guard let severity = Severity(rawValue: name) else {
                throw RuleConfigurationError(
                    origin: origin, message: "\(rule): \"\(level)\" is not off, error, warning or info")
            }
            settings[rule] = .severity(severity)
        }
    }

    /// Applies `ID=LEVEL` (a command-line option).
    public mutating func apply(option: String) throws(RuleConfigurationError) {
        let parts = option.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2 else {
            throw RuleConfigurationError(origin: "--rule \(option)", message: "expected ID=LEVEL, e.g. SAB004=off")
        }
        try set(parts[0], parts[1], origin: "--rule \(option)")
    }

    /// Reads a configuration file's text (`path` names it in errors).
    public static func parse(_ text: String, path: String) throws(RuleConfigurationError) -> RuleConfiguration {
        let result = JSONParser.parse(text, lenient: false)
        guard let value = result.value, result.isStrictlyValid else {
            let first = result.diagnostics.first
            let position = first.map { "line \($0.line), column \($0.column): " } ?? ""
            throw RuleConfigurationError(origin: path, message: "\(position)\(first?.reason ?? "not JSON")")
        }
        guard case .object(let object) = value else {
            throw RuleConfigurationError(origin: path, message: "expected a JSON object")
        }
        var configuration = RuleConfiguration()
        guard let rules = object["rules"] else { return configuration }
        guard case .object(let entries) = rules else {
            throw RuleConfigurationError(origin: path, message: "\"rules\" must be an object of rule id → level")
        }
        for member in entries.members {
            guard case .string(let level) = member.value else {
                throw RuleConfigurationError(origin: path, message: "\(member.key): the level must be a string")
            }
            try configuration.set(member.key, level, origin: path)
        }
        return configuration
    }
}

/// A configuration that cannot be used; `origin` is the file or option.
public struct RuleConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    public var origin: String
    public var message: String

    public init(origin: String, message: String) {
        self.origin = origin
        self.message = message
    }

    public var description: String { "\(origin): \(message)" }
}
