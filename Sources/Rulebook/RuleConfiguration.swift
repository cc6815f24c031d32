public import LenientJSON

/// A project's choices about rules: some switched off, some with another severity. Read from the
/// `"rules"` object of the project's configuration file (`{"rules": {"SAB004": "off", "SAB*":
/// "warning"}}`, docs/config.md) and from `--rule ID=LEVEL` options, which win.
///
/// An id may be a group: an id's beginning and `*` (`SAB*` is every Smart App Banner rule, `UL0*`
/// UL001–UL099, `*` every rule). In a file an exact id wins over a group, and a longer group over a
/// shorter one (`SAB00*` over `SAB*`), whatever their order; `--rule` options apply after the file,
/// in order.
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

    /// Sets one rule or group: `id` is its text in any case (`SAB004`, `sab004`) or a group
    /// (`SAB*`); `level` is `off`, `error`, `warning` or `info`; `origin` names where it came from (a
    /// file, an option) for the error message.
    public mutating func set(_ id: String, _ level: String, origin: String) throws(RuleConfigurationError) {
        let rules = try Self.rules(matching: id, origin: origin)
        let setting: Setting
        switch level.lowercased() {
        case "off": setting = .off
        case let name:
            guard let severity = Severity(rawValue: name) else {
                throw RuleConfigurationError(
                    origin: origin, message: "\(id): \"\(level)\" is not off, error, warning or info")
            }
            setting = .severity(severity)
        }
        for rule in rules { settings[rule] = setting }
    }

    /// The rules an id or group names; throws when it names none.
    static func rules(matching id: String, origin: String) throws(RuleConfigurationError) -> [RuleID] {
        guard id.contains("*") else {
            guard let rule = RuleID(text: id) else {
                throw RuleConfigurationError(
                    origin: origin, message: "unknown rule \"\(id)\" (spotcheck rules lists them)")
            }
            return [rule]
        }
        let prefix = id.dropLast().uppercased()
        guard id.last == "*", !prefix.contains("*") else {
            throw RuleConfigurationError(
                origin: origin, message: "\"\(id)\": a group is an id's beginning followed by one *, e.g. SAB* or UL0*")
        }
        let matching = RuleID.allCases.filter { $0.rawValue.hasPrefix(prefix) }
        guard !matching.isEmpty else {
            throw RuleConfigurationError(
                origin: origin, message: "the group \"\(id)\" matches no rule (spotcheck rules lists the ids)")
        }
        return matching
    }

    /// Applies `ID=LEVEL` (a command-line option; `ID` may be a group such as `SAB*`).
    public mutating func apply(option: String) throws(RuleConfigurationError) {
        let parts = option.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2 else {
            throw RuleConfigurationError(origin: "--rule \(option)", message: "expected ID=LEVEL, e.g. SAB004=off")
        }
        try set(parts[0], parts[1], origin: "--rule \(option)")
    }

    /// Reads the `"rules"` object of a configuration file (`origin` names it in errors, e.g.
    /// `/project/.spotcheck.json: rules`): groups first, the wider before the narrower, then exact
    /// ids, so the most specific entry wins whatever the order in the file.
    public static func parse(rules value: JSONValue, origin: String) throws(RuleConfigurationError)
        -> RuleConfiguration
    {
        guard case .object(let entries) = value else {
            throw RuleConfigurationError(
                origin: origin, message: "must be an object of rule id or group → level, e.g. {\"SAB004\": \"off\"}")
        }
        var configuration = RuleConfiguration()
        let ordered = entries.members.enumerated().sorted { lhs, rhs in
            let left = specificity(lhs.element.key)
            let right = specificity(rhs.element.key)
            return left != right ? left < right : lhs.offset < rhs.offset
        }
        for (_, member) in ordered {
            guard case .string(let level) = member.value else {
                throw RuleConfigurationError(
                    origin: origin, message: "\(member.key): the level must be a string: off, error, warning or info")
            }
            try configuration.set(member.key, level, origin: origin)
        }
        return configuration
    }

    /// How narrowly an id names rules: an exact id above every group, a group by its length.
    private static func specificity(_ id: String) -> Int {
        id.contains("*") ? id.count : Int.max
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
