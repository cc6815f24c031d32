import Foundation
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

    /// Rule levels for some pages only (`"overrides"`, as ESLint's): each entry's `files` are path
    /// patterns (`PathPattern`) matched against the page's path; the entries that match apply in
    /// order after `settings`, so a later one wins. `--rule` options win over them.
    public struct PathOverride: Sendable, Hashable {
        public var files: [String]
        public var settings: [RuleID: Setting]

        public init(files: [String], settings: [RuleID: Setting]) {
            self.files = files
            self.settings = settings
        }
    }

    public var overrides: [PathOverride] = []

    /// Folders (absolute paths) that a `file://` page's path is taken relative to for `overrides`
    /// (`validate`'s named folders); a file elsewhere is taken relative to the working folder.
    public var fileRoots: [String] = []

    public init(settings: [RuleID: Setting] = [:]) {
        self.settings = settings
    }

    /// The severity a rule is reported with, or nil when it is switched off.
    public func severity(of rule: Rule) -> Severity? {
        Self.severity(settings[rule.id], rule)
    }

    /// A finding of `rule` with the severity configured for the page at `url` and the rule's fix
    /// hint; nil when the rule is switched off there. Every check makes its findings with it.
    ///
    /// `milderCase`: the severity the rule's own text gives this case where it names a milder one
    /// than the rule's (UL009: an `applinks` in the obsolete dictionary form is a warning, not an
    /// error); a setting of the project for the rule still wins.
    public func finding(
        _ rule: RuleID, url: String, line: Int, column: Int? = nil, excerpt: String, message: String,
        milderCase: Severity? = nil
    ) -> Finding? {
        let catalogued = RuleCatalogue.rule(rule)
        guard var severity = severity(of: catalogued, at: url) else { return nil }
        if let milderCase, milderCase < catalogued.severity, severity == catalogued.severity,
            settings[rule] == nil, !overrides.contains(where: { $0.settings[rule] != nil })
        {
            severity = milderCase
        }
        return Finding(
            rule: rule, severity: severity, url: url, line: line, column: line > 0 ? column : nil, excerpt: excerpt,
            message: message, fixHint: RuleCatalogue.fixHints[rule] ?? "")
    }

    /// The severity a rule is reported with on the page at `url`, the overrides whose patterns
    /// match its path applied; nil when it is switched off there.
    public func severity(of rule: Rule, at url: String) -> Severity? {
        var setting = settings[rule.id]
        if overrides.contains(where: { $0.settings[rule.id] != nil }) {
            let paths = overridePaths(of: url)
            for entry in overrides where entry.settings[rule.id] != nil {
                if entry.files.contains(where: { pattern in paths.contains { PathPattern.matches(pattern, path: $0) } })
                {
                    setting = entry.settings[rule.id]
                }
            }
        }
        return Self.severity(setting, rule)
    }

    private static func severity(_ setting: Setting?, _ rule: Rule) -> Severity? {
        switch setting {
        case .off: nil
        case .severity(let severity): severity
        case nil: rule.severity
        }
    }

    /// The paths `overrides` match for a page: an http(s) URL's path without the leading `/`; a
    /// `file://` page's path under each of `fileRoots` holding it, else under the working folder.
    /// An http(s) URL that ends in `/` is also matched as its `index.html` (the file a folder serves).
    func overridePaths(of url: String) -> [String] {
        guard url.hasPrefix("file://") else {
            guard let path = PathPattern.path(of: url) else { return [] }
            return path.isEmpty || path.hasSuffix("/") ? [path, path + "index.html"] : [path]
        }
        guard let path = PathPattern.path(of: url).map({ "/" + $0 }) else { return [] }
        let under = fileRoots.compactMap { root -> String? in
            let folder = root.hasSuffix("/") ? root : root + "/"
            return path.hasPrefix(folder) ? String(path.dropFirst(folder.count)) : nil
        }
        if !under.isEmpty { return under }
        let working = FileManager.default.currentDirectoryPath
        let folder = working.hasSuffix("/") ? working : working + "/"
        return [path.hasPrefix(folder) ? String(path.dropFirst(folder.count)) : String(path.dropFirst())]
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
        // The command line wins over the file's per-path levels too.
        let rules = try Self.rules(matching: parts[0], origin: "--rule \(option)")
        for index in overrides.indices {
            for rule in rules { overrides[index].settings[rule] = nil }
        }
    }

    /// Reads `"overrides"`: an array of `{"files": [pattern, …], "rules": {id or group: level}}`
    /// (`origin` names it in errors, e.g. `/project/.spotcheck.json: overrides[0]`).
    public static func parse(overrides value: JSONValue, origin: String) throws(RuleConfigurationError)
        -> [PathOverride]
    {
        let example = #"[{"files": ["legal/**"], "rules": {"IX002": "off"}}]"#
        guard case .array(let entries) = value else {
            throw RuleConfigurationError(origin: origin, message: "must be an array of overrides, e.g. \(example)")
        }
        var overrides: [PathOverride] = []
        for (index, entry) in entries.enumerated() {
            let place = "\(origin)[\(index)]"
            guard case .object(let object) = entry else {
                throw RuleConfigurationError(
                    origin: place, message: "must be an object with \"files\" and \"rules\", e.g. \(example)")
            }
            if let unknown = object.members.first(where: { $0.key != "files" && $0.key != "rules" }) {
                throw RuleConfigurationError(
                    origin: place, message: "unknown key \"\(unknown.key)\"; an override has \"files\" and \"rules\"")
            }
            guard let files = object["files"]?.arrayValue, !files.isEmpty,
                files.allSatisfy({ $0.stringValue?.isEmpty == false })
            else {
                throw RuleConfigurationError(
                    origin: place + ".files", message: "must be a non-empty array of path patterns, e.g. [\"legal/**\"]"
                )
            }
            guard let rules = object["rules"] else {
                throw RuleConfigurationError(origin: place, message: "has no \"rules\", e.g. {\"IX002\": \"off\"}")
            }
            let parsed = try parse(rules: rules, origin: place + ".rules")
            overrides.append(PathOverride(files: files.compactMap(\.stringValue), settings: parsed.settings))
        }
        return overrides
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
