import Foundation
public import LenientJSON
import Rulebook
public import Rulebook

/// Why a project configuration file cannot be used: the file, the key at fault (when one is) and
/// what is wrong and allowed. The CLI exits 7 with it.
public struct ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    public var path: String
    public var key: String?
    public var message: String

    public init(path: String, key: String? = nil, message: String) {
        self.path = path
        self.key = key
        self.message = message
    }

    public var description: String { key.map { "\(path): \($0): \(message)" } ?? "\(path): \(message)" }
}

/// The project configuration file, `.spotcheck.json` (docs/config.md): a JSON object whose keys
/// are `crawl` and `validate` options in camelCase (`"maxPages": 500`), plus `"rules"` (rule id or
/// group → level) and `"ignore"` (URL and path patterns). Reading it checks every key: an unknown
/// key, a value of the wrong JSON type or an invalid rule setting is an error naming the file and
/// the key. The command line's options win over the file's.
public struct ConfigurationFile: Sendable {
    /// `.spotcheck.json`.
    public static let fileName = RuleConfiguration.fileName

    /// The file as it was named (or found).
    public var path: String
    /// Its top-level object, every key checked.
    public var object: JSONObject
    /// Its `"rules"`, read.
    public var rules: RuleConfiguration

    /// The folder relative paths in the file are read from.
    public var folder: String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        return URL(fileURLWithPath: absolute).standardizedFileURL.deletingLastPathComponent().path
    }

    /// The `.spotcheck.json` in `directory` or the nearest of its parents, or nil.
    public static func discover(from directory: String) -> String? {
        var folder = URL(fileURLWithPath: directory, isDirectory: true).standardizedFileURL
        while true {
            let candidate = folder.appendingPathComponent(fileName).path
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isFolder), !isFolder.boolValue {
                return candidate
            }
            let parent = folder.deletingLastPathComponent()
            if parent.path == folder.path { return nil }
            folder = parent
        }
    }

    /// Reads and checks the file at `path`.
    public static func load(_ path: String) throws(ConfigurationError) -> ConfigurationFile {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw ConfigurationError(path: path, message: "no such file")
        }
        guard !isFolder.boolValue else {
            throw ConfigurationError(path: path, message: "a folder, not a configuration file")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigurationError(path: path, message: "cannot be read")
        }
        return try ConfigurationFile(text: String(decoding: data, as: UTF8.self), path: path)
    }

    /// Checks a configuration file's text; `path` names it in errors and anchors its relative paths.
    public init(text: String, path: String) throws(ConfigurationError) {
        self.path = path
        let result = JSONParser.parse(text, lenient: false)
        guard let value = result.value, result.isStrictlyValid else {
            let first = result.diagnostics.first
            let position = first.map { "line \($0.line), column \($0.column): " } ?? ""
            throw ConfigurationError(path: path, message: "not valid JSON: \(position)\(first?.reason ?? "not JSON")")
        }
        guard case .object(let object) = value else {
            throw ConfigurationError(
                path: path,
                message: "expected a JSON object of settings, e.g. {\"maxPages\": 500, \"failOn\": \"error\"}")
        }
        self.object = object
        var seen: Set<String> = []
        for member in object.members {
            guard seen.insert(member.key).inserted else {
                throw ConfigurationError(path: path, key: member.key, message: "appears twice; keep one")
            }
            try Self.check(member.key, member.value, path: path)
        }
        rules = RuleConfiguration()
        if let value = object["rules"] {
            do {
                rules = try RuleConfiguration.parse(rules: value, origin: "rules")
            } catch {
                throw ConfigurationError(path: path, key: error.origin, message: error.message)
            }
        }
        if let value = object["overrides"] {
            do {
                rules.overrides = try RuleConfiguration.parse(overrides: value, origin: "overrides")
            } catch {
                throw ConfigurationError(path: path, key: error.origin, message: error.message)
            }
        }
    }

    /// `"ignore"`: the URL and path patterns whose pages are neither fetched nor checked.
    public var ignore: [String] {
        object["ignore"]?.arrayValue?.compactMap(\.stringValue) ?? []
    }

    /// One key's value, checked against what the key takes.
    private static func check(_ name: String, _ value: JSONValue, path: String) throws(ConfigurationError) {
        guard let key = ConfigurationKey.named(name) else {
            throw ConfigurationError(path: path, message: unknownKeyMessage(name))
        }
        let fits: Bool
        switch (key.kind, value) {
        case (.integer, .number(let text)): fits = Int(text) != nil
        case (.number, .number): fits = true
        case (.string, .string), (.path, .string): fits = true
        case (.flag, .bool): fits = true
        case (.strings, .array(let items)), (.formats, .array(let items)):
            fits = items.allSatisfy { $0.stringValue != nil }
        case (.formats, .string): fits = true
        case (.rules, .object), (.overrides, .array): fits = true
        default: fits = false
        }
        guard fits else {
            let option = key.option.map { ", as \($0) takes" } ?? ""
            throw ConfigurationError(
                path: path, key: name,
                message:
                    "expected \(key.expectation)\(option) (e.g. \"\(name)\": \(key.example)), not \(describe(value))")
        }
        if key.kind == .strings || key.kind == .path || key.kind == .string,
            (value.arrayValue ?? [value]).contains(where: { $0.stringValue?.isEmpty == true })
        {
            throw ConfigurationError(path: path, key: name, message: "an empty string names nothing; leave it out")
        }
    }

    private static func unknownKeyMessage(_ name: String) -> String {
        var message = "unknown key \"\(name)\""
        if let suggestion = ConfigurationKey.suggestion(for: name) {
            message += " (did you mean \"\(suggestion.name)\"?)"
        } else if RuleID(text: name) != nil || name.contains("*") {
            message += " (a rule's level goes inside \"rules\": {\"rules\": {\"\(name)\": \"off\"}})"
        }
        let keys = ConfigurationKey.all.map(\.name).sorted().joined(separator: ", ")
        return message + "; the keys are \(keys) (docs/config.md)"
    }

    /// A JSON value in a few words, for messages.
    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let flag): flag ? "true" : "false"
        case .number(let text): text
        case .string(let text): "\"\(text)\""
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// What a configuration file adds to one command's arguments.
public struct ConfigurationArguments: Sendable, Hashable {
    /// One key the command reads, with the options it stands for (`rules` stands for none).
    public struct Applied: Sendable, Hashable {
        public var key: String
        public var arguments: [String]

        public init(key: String, arguments: [String]) {
            self.key = key
            self.arguments = arguments
        }
    }

    /// The keys used, in the file's order.
    public var applied: [Applied] = []
    /// Keys the command line overrides (it gives their options itself).
    public var overridden: [String] = []

    public init(applied: [Applied] = [], overridden: [String] = []) {
        self.applied = applied
        self.overridden = overridden
    }

    /// Every option, in order.
    public var all: [String] { applied.flatMap(\.arguments) }
}

extension ConfigurationFile {
    /// The options the file gives `command`: the keys it reads, less the ones whose option the
    /// command line gives (`isGiven("--max-pages")`), which win. A list given on the command line
    /// replaces the file's list; `rules` are merged by `RuleConfiguration` (`--rule` wins per rule).
    /// Values are written `--option=value`, so a value starting with `-` stays a value.
    public func arguments(for command: ConfigurationCommand, isGiven: (String) -> Bool) -> ConfigurationArguments {
        var result = ConfigurationArguments()
        for member in object.members {
            guard let key = ConfigurationKey.named(member.key), key.commands.contains(command) else { continue }
            guard let option = key.option else {
                result.applied.append(.init(key: key.name, arguments: []))
                continue
            }
            if isGiven(option) {
                result.overridden.append(key.name)
                continue
            }
            let arguments = self.arguments(option: option, kind: key.kind, value: member.value)
            if !arguments.isEmpty { result.applied.append(.init(key: key.name, arguments: arguments)) }
        }
        return result
    }

    private func arguments(option: String, kind: ConfigurationKey.Kind, value: JSONValue) -> [String] {
        switch (kind, value) {
        case (.flag, .bool(let on)): return on ? [option] : []
        case (.integer, .number(let text)), (.number, .number(let text)): return ["\(option)=\(text)"]
        case (.string, .string(let text)): return ["\(option)=\(text)"]
        case (.path, .string(let text)): return ["\(option)=\(resolved(text))"]
        case (.strings, .array(let items)): return items.compactMap(\.stringValue).map { "\(option)=\($0)" }
        case (.formats, .string(let text)): return ["\(option)=\(text)"]
        case (.formats, .array(let items)):
            return ["\(option)=\(items.compactMap(\.stringValue).joined(separator: ","))"]
        default: return []
        }
    }

    /// A path from the file, read from the file's folder unless it is absolute.
    public func resolved(_ path: String) -> String {
        path.hasPrefix("/") ? path : (folder as NSString).appendingPathComponent(path)
    }
}
