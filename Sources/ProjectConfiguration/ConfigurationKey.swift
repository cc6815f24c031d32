/// The commands that read the project configuration file.
public enum ConfigurationCommand: String, Sendable, Hashable, CaseIterable {
    case crawl, validate, report, rules
}

/// One key of the project configuration file (docs/config.md): the long option it stands for,
/// the JSON it takes and the commands that read it. A key is the option's long name in camelCase
/// (`--max-pages` → `maxPages`), except `rules`, the object that `--rule ID=LEVEL` options add to,
/// and `overrides`, rule levels for some pages only.
public struct ConfigurationKey: Sendable, Hashable {
    /// What a key's value is, in JSON, and how it becomes options.
    public enum Kind: Sendable, Hashable {
        /// A JSON integer: `--option=N`.
        case integer
        /// A JSON number: `--option=X`.
        case number
        /// A JSON string: `--option=TEXT`.
        case string
        /// A JSON string naming a file or folder, relative to the configuration file's folder.
        case path
        /// `true` gives `--option`; `false` gives nothing (the default).
        case flag
        /// An array of strings: `--option=TEXT` for each.
        case strings
        /// A string of comma-separated names, or an array of names: `--format=a,b`.
        case formats
        /// The rule settings: an object of rule id or group → level (not an option).
        case rules
        /// Per-path rule settings: an array of `{"files": [pattern], "rules": {…}}` (not an option).
        case overrides
    }

    public var name: String
    public var kind: Kind
    public var commands: Set<ConfigurationCommand>

    public init(_ name: String, _ kind: Kind, _ commands: Set<ConfigurationCommand>) {
        self.name = name
        self.kind = kind
        self.commands = commands
    }

    /// The long option the key stands for: `maxPages` → `--max-pages`; nil for `rules`.
    public var option: String? {
        guard kind != .rules, kind != .overrides else { return nil }
        var text = "--"
        for character in name {
            if character.isUppercase { text += "-" + character.lowercased() } else { text.append(character) }
        }
        return text
    }

    /// The value an example shows, for messages: `"maxPages": 500`.
    var example: String {
        switch kind {
        case .integer: "500"
        case .number: "0.5"
        case .string: "\"…\""
        case .path: "\"reports/site\""
        case .flag: "true"
        case .strings: "[\"…\"]"
        case .formats: "\"json,sarif\""
        case .rules: "{\"SAB004\": \"off\", \"SAB*\": \"warning\"}"
        case .overrides: "[{\"files\": [\"legal/**\"], \"rules\": {\"IX002\": \"off\"}}]"
        }
    }

    /// What the key takes, in words, for messages.
    var expectation: String {
        switch kind {
        case .integer: "an integer"
        case .number: "a number"
        case .string: "a string"
        case .path: "a string (a path, relative to the configuration file's folder)"
        case .flag: "true or false"
        case .strings: "an array of strings"
        case .formats: "a string of comma-separated names or an array of names"
        case .rules: "an object of rule id or group → level"
        case .overrides: "an array of {\"files\": [path patterns], \"rules\": {rule id or group: level}}"
        }
    }

    /// Every key, in the order docs/config.md lists them.
    public static let all: [ConfigurationKey] = [
        // crawl: where, how far, how politely
        ConfigurationKey("as", .string, [.crawl]),
        ConfigurationKey("concurrency", .integer, [.crawl]),
        ConfigurationKey("perHost", .integer, [.crawl]),
        ConfigurationKey("delay", .number, [.crawl]),
        ConfigurationKey("depth", .integer, [.crawl]),
        ConfigurationKey("maxPages", .integer, [.crawl]),
        ConfigurationKey("userAgent", .string, [.crawl]),
        ConfigurationKey("allowHost", .strings, [.crawl]),
        ConfigurationKey("include", .strings, [.crawl]),
        ConfigurationKey("exclude", .strings, [.crawl]),
        ConfigurationKey("maxBody", .integer, [.crawl]),
        ConfigurationKey("maxImages", .integer, [.crawl]),
        ConfigurationKey("consumers", .strings, [.crawl]),
        ConfigurationKey("render", .flag, [.crawl]),
        ConfigurationKey("renderConcurrency", .integer, [.crawl]),
        ConfigurationKey("renderTimeout", .number, [.crawl]),
        ConfigurationKey("caFile", .string, [.crawl]),
        ConfigurationKey("timeout", .number, [.crawl]),
        ConfigurationKey("robotsRetry", .number, [.crawl]),
        ConfigurationKey("noSitemaps", .flag, [.crawl]),
        ConfigurationKey("resume", .flag, [.crawl]),
        ConfigurationKey("baseline", .path, [.crawl, .validate]),
        ConfigurationKey("includeMarkup", .flag, [.crawl, .report]),
        ConfigurationKey("items", .path, [.crawl]),
        ConfigurationKey("index", .path, [.crawl]),
        ConfigurationKey("marketingUrl", .strings, [.crawl]),
        // validate: how pages are read
        ConfigurationKey("baseUrl", .string, [.validate]),
        ConfigurationKey("jobs", .integer, [.validate]),
        ConfigurationKey("maxPageBytes", .integer, [.validate]),
        ConfigurationKey("noRdfa", .flag, [.validate]),
        ConfigurationKey("encoding", .string, [.validate]),
        ConfigurationKey("aasa", .path, [.validate]),
        // both: what is checked and reported
        ConfigurationKey("microdataWhatwg", .flag, [.crawl, .validate]),
        ConfigurationKey("microdataContentAnywhere", .flag, [.crawl, .validate]),
        ConfigurationKey("output", .path, [.crawl, .validate]),
        ConfigurationKey("quiet", .flag, [.crawl, .validate]),
        ConfigurationKey("verbose", .flag, [.crawl, .validate]),
        ConfigurationKey("noProgress", .flag, [.crawl, .validate]),
        ConfigurationKey("appId", .string, [.crawl, .validate]),
        ConfigurationKey("app", .strings, [.crawl, .validate]),
        ConfigurationKey("failOn", .string, [.crawl, .validate]),
        ConfigurationKey("format", .formats, [.crawl, .validate, .report]),
        ConfigurationKey("ignore", .strings, [.crawl, .validate]),
        ConfigurationKey("rules", .rules, [.crawl, .validate, .report, .rules]),
        ConfigurationKey("overrides", .overrides, [.crawl, .validate, .report]),
    ]

    /// The key named `name` exactly.
    public static func named(_ name: String) -> ConfigurationKey? {
        all.first { $0.name == name }
    }

    /// The key a misspelt name probably meant: the same letters in another case or with `-`/`_`
    /// (`fail-on`, `failon` → `failOn`), or `rule` → `rules`.
    static func suggestion(for name: String) -> ConfigurationKey? {
        func folded(_ text: String) -> String { text.lowercased().filter { $0 != "-" && $0 != "_" } }
        let wanted = folded(name)
        return all.first { folded($0.name) == wanted || folded($0.name) == wanted + "s" }
    }
}
