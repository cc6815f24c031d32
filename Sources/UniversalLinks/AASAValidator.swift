public import Rulebook

/// A file read and checked: the model (when there is one) and every problem, each with a catalogue rule id.
public struct AASAValidationResult: Sendable, Hashable {
    /// The document; `nil` when the body is not a JSON object (see ``AASAParseResult/document``).
    public var document: AASADocument?
    /// The problems found while reading and those of ``AASAValidator/check(_:configuredAppID:)``, in file order.
    public var problems: [AASAProblem]

    /// Creates a result.
    public init(document: AASADocument?, problems: [AASAProblem]) {
        self.document = document
        self.problems = problems
    }
}

/// The file-content checks of §7.3 (UL006–UL019, UL022, UL025), the serving checks (UL001–UL005, UL007) and
/// the entitlement-domain check (UL024). Pure functions: no I/O.
public enum AASAValidator {
    /// The catalogue rules this module reports (UL020/UL021 are page-level uses of ``AASAMatcher``, UL023 needs
    /// two fetches; see docs/universal-links.md): the file rules' registration in the catalogue.
    public static let rules = RuleCatalogue.associationFileRules

    /// Rules checked only in part, with what is missing.
    public static let partlyImplementedRules = RuleCatalogue.associationFilePartly

    /// Reads and checks a file body. `configuredAppID` enables UL019.
    public static func validate(_ bytes: some Collection<UInt8>, configuredAppID: String? = nil)
        -> AASAValidationResult
    {
        let (parsed, json) = AASADocument.parseKeepingJSON(Array(bytes))
        guard let document = parsed.document else {
            return AASAValidationResult(document: nil, problems: parsed.problems)
        }
        var modelProblems = check(document, configuredAppID: configuredAppID)
        JSONValueLocator.fillLocations(of: &modelProblems, in: json)
        return AASAValidationResult(document: document, problems: inFileOrder(parsed.problems + modelProblems))
    }

    /// Reads and checks a file given as text.
    public static func validate(_ text: String, configuredAppID: String? = nil) -> AASAValidationResult {
        validate(Array(text.utf8), configuredAppID: configuredAppID)
    }

    /// `problems` sorted by line and column (stable; problems without a position, such as UL007, first).
    static func inFileOrder(_ problems: [AASAProblem]) -> [AASAProblem] {
        problems.enumerated().sorted { left, right in
            let leftKey = (left.element.location?.line ?? 0, left.element.location?.column ?? 0, left.offset)
            let rightKey = (right.element.location?.line ?? 0, right.element.location?.column ?? 0, right.offset)
            return leftKey < rightKey
        }.map(\.element)
    }

    /// The checks that need the whole model: UL015 (`NOT ` misuse), UL016 (shadowed rules), UL017 (undefined
    /// variables), UL018 (non-ASCII patterns matched encoded) and UL019 (configured app ID absent). Locations
    /// have paths only (``validate(_:configuredAppID:)-(Collection<UInt8>,_)`` adds lines and columns).
    public static func check(_ document: AASADocument, configuredAppID: String? = nil) -> [AASAProblem] {
        var problems: [AASAProblem] = []
        if let appLinks = document.applinks {
            var checks = ModelChecks(appLinks: appLinks)
            problems += checks.run()
        }
        if let configuredAppID {
            var listed: [String] = []
            for appID in document.applinks?.details.flatMap(\.appIDs) ?? [] where !listed.contains(appID) {
                listed.append(appID)
            }
            if !listed.contains(configuredAppID) {
                let known = listed.isEmpty ? "no app IDs" : listed.map { Quoted.text($0) }.joined(separator: ", ")
                problems.append(
                    AASAProblem(
                        rule: .ul019, severity: .error,
                        message: "the configured app ID \(Quoted.text(configuredAppID)) is in no applinks.details "
                            + "entry (the file lists \(known))",
                        location: JSONPath.root.key("applinks").location))
            }
        }
        return problems
    }
}

extension AASADocument {
    /// ``parse(_:)-(Collection<UInt8>)`` and the JSON bytes that were parsed (the embedded JSON of a signed file).
    static func parseKeepingJSON(_ body: [UInt8]) -> (AASAParseResult, [UInt8]) {
        if SignedFileDetector.looksSigned(body), let embedded = SignedFileDetector.embeddedContent(body) {
            return (parse(body), embedded)
        }
        return (parse(body), body)
    }
}

/// UL015–UL018 over one `applinks` object.
struct ModelChecks {
    let appLinks: AASAAppLinks
    let variables: [String: [String]]
    private(set) var problems: [AASAProblem] = []

    init(appLinks: AASAAppLinks) {
        self.appLinks = appLinks
        variables = appLinks.substitutionVariables.reduce(into: [:]) { $0[$1.name] = $1.values }
    }

    private static let detailsPath = JSONPath.root.key("applinks").key("details")

    private mutating func report(
        _ rule: RuleID, _ severity: AASAProblem.Severity, _ message: String, at path: JSONPath
    ) {
        problems.append(AASAProblem(rule: rule, severity: severity, message: message, location: path.location))
    }

    mutating func run() -> [AASAProblem] {
        for (entryIndex, entry) in appLinks.details.enumerated() {
            let entryPath = entry.dictionaryKey.map { Self.detailsPath.key($0) } ?? Self.detailsPath.index(entryIndex)
            if let components = entry.components {
                checkComponents(components, entry: entry, at: entryPath.key("components"))
            }
            if let paths = entry.paths {
                checkPaths(paths, indices: entry.pathIndices, at: entryPath.key("paths"))
            }
        }
        checkShadowedEntries()
        return problems
    }

    private mutating func checkComponents(_ written: [AASAComponent], entry: AASADetail, at path: JSONPath) {
        // The pattern checks read the rules as written; shadowing, the rules as matched (with `defaults`' keys).
        let components = written.map { $0.applyingDefaults(entry: entry.defaults, domain: appLinks.defaults) }
        let settings = components.map { MatchSettings(component: $0, entry: entry, appLinks: appLinks) }
        var earlier = ShadowIndex()
        for (index, component) in components.enumerated() where component.isUsable {
            let componentPath = path.index(index)
            if let pattern = written[index].path, pattern.hasPrefix("NOT ") {
                report(
                    .ul015, .warning,
                    "path pattern \(Quoted.text(pattern)) starts with \"NOT \", which components do not understand "
                        + "(it is matched literally); use \"exclude\": true", at: componentPath.key("/"))
            }
            for (key, pattern) in Self.patterns(of: written[index]) {
                checkVariables(in: pattern, at: componentPath.key(key))
                if settings[index].percentEncoded, let scalar = pattern.unicodeScalars.first(where: { !$0.isASCII }) {
                    report(
                        .ul018, .warning,
                        "pattern \(Quoted.text(pattern)) contains the non-ASCII character \(Quoted.text(String(scalar))) "
                            + "but percentEncoded is true, so it can never match; percent-encode it or set "
                            + "percentEncoded to false", at: componentPath.key(key))
                }
            }
            let shadowing = earlier.firstCovering(
                path: component.path, query: component.query, fragment: component.fragment, settings: settings[index]
            ) { Shadowing.covers(components[$0], settings[$0], component, settings[index]) }
            earlier.insert(
                index, path: component.path, query: component.query, fragment: component.fragment,
                settings: settings[index])
            if let shadowing {
                report(
                    .ul016, .warning,
                    "rule \(ComponentText.describe(component)) can never apply: the earlier rule components"
                        + "[\(shadowing)] \(ComponentText.describe(components[shadowing])) matches every URL it "
                        + "matches (the first match wins)", at: componentPath)
            }
        }
    }

    /// The pattern strings of a rule with the key to report them under.
    private static func patterns(of component: AASAComponent) -> [(String, String)] {
        var result: [(String, String)] = []
        if let path = component.path { result.append(("/", path)) }
        switch component.query {
        case .whole(let pattern)?:
            result.append(("?", pattern))
        case .items(let items)?:
            for item in items {
                result.append(("?", item.name))
                result.append(("?", item.pattern))
            }
        default:
            break
        }
        if let fragment = component.fragment { result.append(("#", fragment)) }
        return result
    }

    private mutating func checkVariables(in pattern: String, at path: JSONPath) {
        for name in Self.variableNames(in: pattern)
        where variables[name] == nil && !GlobPattern.predefinedNames.contains(name) {
            report(
                .ul017, .error,
                "pattern \(Quoted.text(pattern)) uses $(\(name)), which is neither predefined nor in "
                    + "substitutionVariables (the pattern can never match)", at: path)
        }
    }

    /// The names of the `$(name)` references in a pattern.
    static func variableNames(in pattern: String) -> [String] {
        var names: [String] = []
        var rest = Substring(pattern)
        while let start = rest.range(of: "$(") {
            rest = rest[start.upperBound...]
            guard let close = rest.firstIndex(of: ")") else { break }
            names.append(String(rest[..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return names
    }

    private mutating func checkPaths(_ paths: [String], indices: [Int], at path: JSONPath) {
        var earlier = ShadowIndex()
        for (position, pattern) in paths.enumerated() {
            let patternPath = path.index(indices[position])
            if pattern.hasPrefix("NOT"), !pattern.hasPrefix("NOT ") {
                report(
                    .ul015, .warning,
                    "path \(Quoted.text(pattern)) starts with \"NOT\" without the space, so it is a literal path, not "
                        + "an exclusion; write \"NOT /…\"", at: patternPath)
            }
            if let scalar = pattern.unicodeScalars.first(where: { !$0.isASCII }) {
                report(
                    .ul018, .warning,
                    "path \(Quoted.text(pattern)) contains the non-ASCII character \(Quoted.text(String(scalar))); "
                        + "URLs are compared percent-encoded, so it can never match", at: patternPath)
            }
            let stripped = Shadowing.legacyPattern(pattern)
            let shadowing = earlier.firstCovering(path: stripped, query: nil, fragment: nil, settings: .builtin) {
                Shadowing.coversPath(Shadowing.legacyPattern(paths[$0]), .builtin, stripped, .builtin)
            }
            earlier.insert(position, path: stripped, query: nil, fragment: nil, settings: .builtin)
            if let shadowing {
                report(
                    .ul016, .warning,
                    "path \(Quoted.text(pattern)) can never apply: the earlier path \(Quoted.text(paths[shadowing])) "
                        + "matches every URL it matches (evaluation stops at the first match)", at: patternPath)
            }
        }
    }

    /// An entry is unreachable for an app when an earlier entry for that app has a rule matching every URL.
    private mutating func checkShadowedEntries() {
        var decidedApps: [String: Int] = [:]
        for (entryIndex, entry) in appLinks.details.enumerated() {
            if !entry.appIDs.isEmpty, let decider = entry.appIDs.compactMap({ decidedApps[$0] }).max(),
                entry.appIDs.allSatisfy({ decidedApps[$0] != nil })
            {
                report(
                    .ul016, .warning,
                    "details entry for \(entry.appIDs.map { Quoted.text($0) }.joined(separator: ", ")) can never "
                        + "apply: earlier entries (up to details[\(decider)]) for the same app IDs have a rule "
                        + "matching every URL", at: Self.detailsPath.index(entryIndex))
            }
            let matchesEverything: Bool
            if let components = entry.components {
                matchesEverything = components.contains {
                    $0.isUsable
                        && Shadowing.matchesEverything(
                            $0.applyingDefaults(entry: entry.defaults, domain: appLinks.defaults))
                }
            } else if let paths = entry.paths {
                matchesEverything = paths.contains { Shadowing.isMatchAll(Shadowing.legacyPattern($0)) }
            } else {
                matchesEverything = false
            }
            if matchesEverything {
                for appID in entry.appIDs where decidedApps[appID] == nil {
                    decidedApps[appID] = entryIndex
                }
            }
        }
    }
}

/// The conservative shadowing test behind UL016: `covers(a, b)` is true only when every URL `b` matches is
/// certainly matched by `a`. Detected: `a` matches everything (`/` absent, `*` or `/*`, and no `?`/`#`
/// constraint); `a`'s path is literal and equal to `b`'s; `a`'s path is a literal prefix followed by one final `*`
/// and `b`'s path starts with that prefix (or is the parent that `/x/*` also matches). Query and fragment must be
/// unconstrained in `a` or equal in both; `a` must fold case if `b` does; `percentEncoded` must agree.
enum Shadowing {
    static func matchesEverything(_ component: AASAComponent) -> Bool {
        isMatchAll(component.path) && isUnconstrained(component.query) && isMatchAll(component.fragment)
    }

    static func isMatchAll(_ pattern: String?) -> Bool {
        guard let pattern else { return true }
        return pattern == "/*" || (!pattern.isEmpty && pattern.allSatisfy { $0 == "*" })
    }

    static func isUnconstrained(_ query: AASAQueryPattern?) -> Bool {
        switch query {
        case nil, .ignoredDictionary?: true
        case .whole(let pattern)?: isMatchAll(pattern)
        case .items(let items)?: items.allSatisfy { isMatchAll($0.pattern) }
        }
    }

    /// A legacy path without its `NOT ` prefix (both kinds of rule stop the scan).
    static func legacyPattern(_ path: String) -> String {
        path.hasPrefix("NOT ") ? String(path.dropFirst(4)) : path
    }

    static func covers(_ a: AASAComponent, _ aSettings: MatchSettings, _ b: AASAComponent, _ bSettings: MatchSettings)
        -> Bool
    {
        let sameSettings = aSettings == bSettings
        let queryCovered = isUnconstrained(a.query) || (sameSettings && a.query == b.query)
        let fragmentCovered = isMatchAll(a.fragment) || (sameSettings && a.fragment == b.fragment)
        guard queryCovered, fragmentCovered else { return false }
        return coversPath(a.path, aSettings, b.path, bSettings)
    }

    static func coversPath(_ a: String?, _ aSettings: MatchSettings, _ b: String?, _ bSettings: MatchSettings) -> Bool {
        if isMatchAll(a) {
            return true
        }
        guard let a, let b, aSettings.percentEncoded == bSettings.percentEncoded,
            !aSettings.caseSensitive || bSettings.caseSensitive
        else { return false }
        let fold = !aSettings.caseSensitive
        let aPattern = normalized(a, fold: fold)
        let bPattern = normalized(b, fold: fold)
        if !hasWildcard(aPattern) {
            return aPattern == bPattern
        }
        // `a` = literal prefix + one final `*`.
        guard aPattern.hasSuffix("*") else { return false }
        let prefix = String(aPattern.dropLast())
        guard !hasWildcard(prefix) else { return false }
        if !hasWildcard(bPattern), prefix.hasSuffix("/"), bPattern == String(prefix.dropLast()) {
            return true  // `/x/*` also matches `/x`
        }
        guard literalPrefix(bPattern).hasPrefix(prefix) else { return false }
        guard bPattern.hasSuffix("/*") else { return true }
        // `b` also matches its parent path: every match of the parent starts with the parent's literal prefix.
        let parent = MatchTarget.trimmingTrailingSlashes(String(bPattern.dropLast(2)))
        return literalPrefix(parent).hasPrefix(prefix) || (prefix.hasSuffix("/") && parent == prefix.dropLast())
    }

    static func normalized(_ pattern: String, fold: Bool) -> String {
        var text = pattern
        if !text.hasPrefix("/"), !text.hasPrefix("*") {
            text = "/" + text
        }
        while text.hasPrefix("//") {
            text.removeFirst()
        }
        text = MatchTarget.trimmingTrailingSlashes(text)
        return fold ? GlobPattern.fold(text) : text
    }

    static func hasWildcard(_ pattern: String) -> Bool {
        pattern.contains("*") || pattern.contains("?") || pattern.contains("$(")
    }

    /// The text before the first `*`, `?` or `$(`.
    static func literalPrefix(_ pattern: String) -> String {
        var output = ""
        var previousDollar = false
        for character in pattern {
            if character == "*" || character == "?" {
                break
            }
            if previousDollar, character == "(" {
                output.removeLast()
                break
            }
            previousDollar = character == "$"
            output.append(character)
        }
        return output
    }
}
