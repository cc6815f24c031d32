import URLNormalization

/// What an AASA file says about one URL for one app (§3.5).
public enum AASAMatchResult: Sendable, Hashable {
    /// The first matching rule for the app includes the URL: the app may open it as a universal link.
    case handled(AASAMatchedRule)
    /// The first matching rule for the app has `exclude: true` (or is a legacy `NOT ` path): the URL stays in
    /// the browser.
    case excluded(AASAMatchedRule)
    /// No rule of the app's entries matches (or the app has no entry).
    case notMatched
    /// The URL cannot be a universal link of this file: not `http`/`https`, not parseable, or another host than
    /// the one the file was served for.
    case notUniversalLink
}

/// The rule that decided a match.
public struct AASAMatchedRule: Sendable, Hashable, CustomStringConvertible {
    /// Whether the rule is a `components` object or a legacy `paths` string.
    public enum Kind: String, Sendable, Hashable {
        /// `applinks.details[entryIndex].components[ruleIndex]`.
        case component
        /// `applinks.details[entryIndex].paths[ruleIndex]`.
        case legacyPath
    }

    /// The index of the entry in `applinks.details`.
    public var entryIndex: Int
    /// The index in the entry's `components` or `paths` array, as in the file.
    public var ruleIndex: Int
    /// Which array ``ruleIndex`` indexes.
    public var kind: Kind
    /// The rule as text: `{"/": "/private/*", "?": "…", "#": "…"}` (pattern keys only) or the `paths` string.
    public var pattern: String
    /// The component's `comment`, when it has one.
    public var comment: String?
    /// The app ID keying the entry when `details` is the obsolete dictionary form (``AASADetail/dictionaryKey``).
    public var entryKey: String?

    /// Creates a matched-rule description.
    public init(
        entryIndex: Int, ruleIndex: Int, kind: Kind, pattern: String, comment: String? = nil, entryKey: String? = nil
    ) {
        self.entryIndex = entryIndex
        self.ruleIndex = ruleIndex
        self.kind = kind
        self.pattern = pattern
        self.comment = comment
        self.entryKey = entryKey
    }

    /// The rule's JSON path, e.g. `applinks.details[0].components[2]` (`applinks.details["<app ID>"].paths[0]`
    /// in the dictionary form).
    public var path: String {
        let details = JSONPath.root.key("applinks").key("details")
        let entry = entryKey.map { details.key($0) } ?? details.index(entryIndex)
        return entry.key(kind == .component ? "components" : "paths").index(ruleIndex).description
    }

    /// `applinks.details[0].components[2] {"/": "/x/*"} ("comment")`.
    public var description: String {
        var text = path + " " + pattern
        if let comment {
            text += " (" + Quoted.text(comment) + ")"
        }
        return text
    }
}

/// The matching algorithm of §3.5 as a pure function.
public enum AASAMatcher {
    /// Decides what `document` says about `url` for `appID`.
    ///
    /// Entries are tried in array order, skipping those that do not list `appID`. An entry with `components`
    /// uses them (first match wins, `exclude` stops the scan) and ignores `paths`; otherwise its legacy `paths`
    /// are tried (`NOT ` excludes; path only). Component matching follows §3.4/§3.5: defaults hierarchy, the
    /// path rules of [3P-oracle] (leading `/` optional, trailing `/` insignificant, `/x/*` matches `/x`), whole
    /// query or query dictionary, fragment, case folding and percent-decoding of the URL side.
    ///
    /// - Parameters:
    ///   - url: an absolute URL.
    ///   - appID: `<prefix>.<bundle ID>`, compared exactly.
    ///   - document: the AASA file.
    ///   - host: the host the file was served for; when given, a URL on another host is not a universal link.
    public static func match(
        _ url: String, appID: String, in document: AASADocument, servedForHost host: String? = nil
    ) -> AASAMatchResult {
        guard let parsed = URLParser.parse(url), parsed.scheme == "https" || parsed.scheme == "http",
            let urlHost = parsed.host
        else { return .notUniversalLink }
        if let host {
            let expected = URLParser.parse("https://" + host + "/")?.host ?? host.lowercased()
            if urlHost != expected {
                return .notUniversalLink
            }
        }
        guard let appLinks = document.applinks else { return .notMatched }
        let target = MatchTarget(parsed)
        let variables = appLinks.substitutionVariables.reduce(into: [String: [String]]()) {
            $0[$1.name] = $1.values
        }
        for (entryIndex, entry) in appLinks.details.enumerated() where entry.appIDs.contains(appID) {
            if let components = entry.components {
                for (ruleIndex, written) in components.enumerated() where written.isUsable {
                    let component = written.applyingDefaults(entry: entry.defaults, domain: appLinks.defaults)
                    let settings = MatchSettings(component: component, entry: entry, appLinks: appLinks)
                    guard target.matches(component, settings: settings, variables: variables) else { continue }
                    let rule = AASAMatchedRule(
                        entryIndex: entryIndex, ruleIndex: ruleIndex, kind: .component,
                        pattern: ComponentText.describe(component), comment: component.comment,
                        entryKey: entry.dictionaryKey)
                    return component.exclude ? .excluded(rule) : .handled(rule)
                }
            } else if let paths = entry.paths {
                for (position, path) in paths.enumerated() {
                    let negated = path.hasPrefix("NOT ")
                    let pattern = negated ? String(path.dropFirst(4)) : path
                    guard target.pathMatches(pattern, settings: .builtin, variables: nil) else { continue }
                    let rule = AASAMatchedRule(
                        entryIndex: entryIndex, ruleIndex: entry.pathIndices[position], kind: .legacyPath,
                        pattern: path, entryKey: entry.dictionaryKey)
                    return negated ? .excluded(rule) : .handled(rule)
                }
            }
        }
        return .notMatched
    }
}

extension AASADocument {
    /// What this file says about `url` for `appID` (see ``AASAMatcher/match(_:appID:in:servedForHost:)``).
    public func match(_ url: String, appID: String, servedForHost host: String? = nil) -> AASAMatchResult {
        AASAMatcher.match(url, appID: appID, in: self, servedForHost: host)
    }
}

/// The effective `caseSensitive` / `percentEncoded` of a rule: rule, then entry defaults, then domain defaults,
/// then `true` (§3.4).
struct MatchSettings: Hashable {
    var caseSensitive: Bool
    var percentEncoded: Bool

    static let builtin = MatchSettings(caseSensitive: true, percentEncoded: true)

    init(caseSensitive: Bool, percentEncoded: Bool) {
        self.caseSensitive = caseSensitive
        self.percentEncoded = percentEncoded
    }

    init(component: AASAComponent, entry: AASADetail, appLinks: AASAAppLinks) {
        caseSensitive =
            component.caseSensitive ?? entry.defaults?.caseSensitive ?? appLinks.defaults?.caseSensitive ?? true
        percentEncoded =
            component.percentEncoded ?? entry.defaults?.percentEncoded ?? appLinks.defaults?.percentEncoded ?? true
    }
}

/// The parts of a URL that rules look at, as written (percent-encoded, WHATWG-serialized).
struct MatchTarget {
    var path: String
    var query: String
    var fragment: String
    /// The query items, split on `&`; names percent-decoded, values as written.
    var queryItems: [(name: String, value: String)]

    init(_ url: ParsedURL) {
        let path = url.path
        self.path = path.isEmpty ? "/" : path
        query = url.query ?? ""
        fragment = url.fragment ?? ""
        queryItems = query.split(separator: "&").map { piece in
            if let equals = piece.firstIndex(of: "=") {
                return (PercentDecoding.decode(String(piece[..<equals])), String(piece[piece.index(after: equals)...]))
            }
            return (PercentDecoding.decode(String(piece)), "")
        }
    }

    init(path: String) {
        self.path = path
        query = ""
        fragment = ""
        queryItems = []
    }

    /// The URL side of a comparison: decoded when `percentEncoded` is false, folded when case-insensitive.
    static func prepare(_ text: String, settings: MatchSettings) -> String {
        let decoded = settings.percentEncoded ? text : PercentDecoding.decode(text)
        return settings.caseSensitive ? decoded : GlobPattern.fold(decoded)
    }

    func matches(_ component: AASAComponent, settings: MatchSettings, variables: [String: [String]]) -> Bool {
        if let pathPattern = component.path, !pathMatches(pathPattern, settings: settings, variables: variables) {
            return false
        }
        switch component.query {
        case nil, .ignoredDictionary?:
            break
        case .whole(let pattern)?:
            let compiled = GlobPattern(pattern, variables: variables, foldCase: !settings.caseSensitive)
            if !compiled.matches(Self.prepare(query, settings: settings)) {
                return false
            }
        case .items(let items)?:
            for item in items {
                let compiled = GlobPattern(item.pattern, variables: variables, foldCase: !settings.caseSensitive)
                let name = settings.caseSensitive ? item.name : GlobPattern.fold(item.name)
                let values = queryItems.filter {
                    (settings.caseSensitive ? $0.name : GlobPattern.fold($0.name)) == name
                }
                .map(\.value)
                // An absent item counts as "" and every occurrence must match (§3.4, WWDC 2019-717).
                for value in values.isEmpty ? [""] : values
                where !compiled.matches(Self.prepare(value, settings: settings)) {
                    return false
                }
            }
        }
        if let fragmentPattern = component.fragment {
            let compiled = GlobPattern(fragmentPattern, variables: variables, foldCase: !settings.caseSensitive)
            if !compiled.matches(Self.prepare(fragment, settings: settings)) {
                return false
            }
        }
        return true
    }

    /// Path comparison (§3.5 [3P-oracle]): a pattern without a leading `/` (and not starting with `*`) gets one,
    /// a run of leading slashes counts as one (`//abc` matches `/abc`, as `swcutil match` decides), trailing
    /// slashes of pattern and path are ignored, and `/x/*` also matches `/x`. `variables == nil` means a legacy
    /// `paths` string, where `$(` is literal.
    func pathMatches(_ pattern: String, settings: MatchSettings, variables: [String: [String]]?) -> Bool {
        var normalized = pattern
        if !normalized.hasPrefix("/"), !normalized.hasPrefix("*") {
            normalized = "/" + normalized
        }
        while normalized.hasPrefix("//") {
            normalized.removeFirst()
        }
        normalized = Self.trimmingTrailingSlashes(normalized)
        let input = Self.trimmingTrailingSlashes(Self.prepare(path, settings: settings))
        let foldCase = !settings.caseSensitive
        let compiled = GlobPattern(
            normalized, variables: variables ?? [:], foldCase: foldCase, expandingVariables: variables != nil)
        if compiled.matches(input) {
            return true
        }
        guard normalized.hasSuffix("/*") else { return false }
        let parent = Self.trimmingTrailingSlashes(String(normalized.dropLast(2)))
        return GlobPattern(
            parent.isEmpty ? "/" : parent, variables: variables ?? [:], foldCase: foldCase,
            expandingVariables: variables != nil
        ).matches(input)
    }

    static func trimmingTrailingSlashes(_ text: String) -> String {
        guard let first = text.unicodeScalars.indices.first else { return text }
        var end = text.unicodeScalars.endIndex
        while end > text.unicodeScalars.index(after: first),
            text.unicodeScalars[text.unicodeScalars.index(before: end)] == "/"
        {
            end = text.unicodeScalars.index(before: end)
        }
        return String(text.unicodeScalars[..<end])
    }
}

/// Percent-decoding of URL text (`%XX` → byte; invalid escapes kept; the bytes read as UTF-8).
enum PercentDecoding {
    static func decode(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return text }
        return String(decoding: PercentEncoding.decode(text), as: UTF8.self)
    }
}

/// The text of a rule for reports.
enum ComponentText {
    static func describe(_ component: AASAComponent) -> String {
        var parts: [String] = []
        if let path = component.path {
            parts.append("\"/\": " + json(path))
        }
        switch component.query {
        case .whole(let pattern)?:
            parts.append("\"?\": " + json(pattern))
        case .items(let items)?:
            parts.append(
                "\"?\": {" + items.map { json($0.name) + ": " + json($0.pattern) }.joined(separator: ", ") + "}")
        case .ignoredDictionary?:
            parts.append("\"?\": {…}")
        case nil:
            break
        }
        if let fragment = component.fragment {
            parts.append("\"#\": " + json(fragment))
        }
        return "{" + parts.joined(separator: ", ") + "}"
    }

    private static func json(_ text: String) -> String {
        var output = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            default:
                if scalar.value < 0x20 {
                    output += "\\u00" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        return output + "\""
    }
}
