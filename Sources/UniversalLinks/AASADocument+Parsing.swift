public import LenientJSON
import Rulebook

/// The outcome of reading an AASA file: the model (when the file is a JSON object) and the structural problems.
public struct AASAParseResult: Sendable, Hashable {
    /// The document; `nil` when the body is not strict JSON with an object at the top level (UL006), or a signed
    /// file whose JSON could not be extracted (UL008).
    public var document: AASADocument?
    /// Problems found while reading (UL006–UL014, UL017 names, UL022, UL025): UL007/UL008 first, then in file
    /// order.
    /// Checks that need the whole model or a configured app ID are in ``AASAValidator``.
    public var problems: [AASAProblem]

    /// Creates a parse result.
    public init(document: AASADocument?, problems: [AASAProblem]) {
        self.document = document
        self.problems = problems
    }
}

extension AASADocument {
    /// The largest uncompressed size iOS 9.3.1 and later accept: 128 KB (§3.1, UL007).
    public static let maximumByteCount = 128 * 1024

    /// Reads a file body: checks the size (UL007), recognises a signed CMS file (UL008, whose JSON is then
    /// extracted when the DER structure is simple), parses strictly (UL006: a BOM, comments, trailing commas are
    /// errors) and reads the model. Problem locations carry line and column where the value could be located.
    public static func parse(_ bytes: some Collection<UInt8>) -> AASAParseResult {
        let body = Array(bytes)
        var problems: [AASAProblem] = []
        if body.count > maximumByteCount {
            problems.append(
                AASAProblem(
                    rule: .ul007, severity: .error,
                    message: "the file is \(body.count) bytes, more than the 128 KB (\(maximumByteCount) bytes) limit",
                    location: JSONPath.root.location))
        }
        var json = body
        if SignedFileDetector.looksSigned(body) {
            let extracted = SignedFileDetector.embeddedContent(body)
            let outcome =
                extracted == nil
                ? "the JSON inside could not be extracted, so the content was not checked"
                : "its embedded JSON was checked"
            problems.append(
                AASAProblem(
                    rule: .ul008, severity: .warning,
                    message: "the file is signed (CMS/PKCS #7 DER), which is deprecated; \(outcome)",
                    location: JSONPath.root.location))
            guard let extracted else { return AASAParseResult(document: nil, problems: problems) }
            json = extracted
        }
        let parsed = JSONParser.parse(json, lenient: false)
        guard let value = parsed.value, parsed.isStrictlyValid else {
            problems.append(invalidJSONProblem(parsed, bytes: json))
            return AASAParseResult(document: nil, problems: problems)
        }
        guard case .object(let object) = value else {
            problems.append(
                AASAProblem(
                    rule: .ul006, severity: .error,
                    message: "the top level is \(JSONTypeName.of(value)), not an object",
                    location: AASALocation(path: "$", line: 1, column: 1)))
            return AASAParseResult(document: nil, problems: problems)
        }
        var reader = DocumentReader()
        let document = reader.read(object)
        var located = reader.problems
        JSONValueLocator.fillLocations(of: &located, in: json)
        return AASAParseResult(document: document, problems: problems + AASAValidator.inFileOrder(located))
    }

    /// Reads a file given as text (its UTF-8 bytes).
    public static func parse(_ text: String) -> AASAParseResult {
        parse(Array(text.utf8))
    }

    /// Reads an already parsed JSON object; the problems have paths but no line or column.
    public static func read(_ object: JSONObject) -> AASAParseResult {
        var reader = DocumentReader()
        let document = reader.read(object)
        return AASAParseResult(document: document, problems: reader.problems)
    }

    private static func invalidJSONProblem(_ parsed: JSONParseResult, bytes: [UInt8]) -> AASAProblem {
        let diagnostic = parsed.firstError ?? parsed.failure
        var message = "the file is not valid JSON"
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            message += " (it starts with a UTF-8 byte order mark)"
        }
        if let diagnostic {
            message += ": " + diagnostic.reason
        }
        return AASAProblem(
            rule: .ul006, severity: .error, message: message,
            location: AASALocation(path: "$", line: diagnostic?.line, column: diagnostic?.column))
    }
}

/// "a string", "an array", … for messages.
enum JSONTypeName {
    static func of(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let bool): "the boolean \(bool)"
        case .number(let text): "the number \(text)"
        case .string(let string): "the string \(Quoted.text(string))"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// Quoting of values in messages (long values shortened).
enum Quoted {
    static func text(_ string: String, limit: Int = 80) -> String {
        if string.count <= limit {
            return "\"" + string + "\""
        }
        return "\"" + string.prefix(limit) + "…\""
    }
}

/// Walks the JSON object once, building the model and recording type problems.
struct DocumentReader {
    private(set) var problems: [AASAProblem] = []

    private mutating func report(
        _ rule: RuleID, _ severity: AASAProblem.Severity, _ message: String, at path: JSONPath
    ) {
        problems.append(AASAProblem(rule: rule, severity: severity, message: message, location: path.location))
    }

    mutating func read(_ object: JSONObject) -> AASADocument {
        var document = AASADocument()
        let root = JSONPath.root
        for member in object.deduplicated() {
            let path = root.key(member.key)
            switch member.key {
            case "applinks":
                document.applinks = readAppLinks(member.value, at: path)
            case "webcredentials":
                document.webcredentials = readAppList(member.value)
            case "appclips":
                document.appclips = readAppList(member.value)
            default:
                document.otherServices.append(AASAUnknownService(name: member.key, value: member.value))
            }
        }
        return document
    }

    private func readAppList(_ value: JSONValue) -> AASAAppList? {
        guard let object = value.objectValue else { return nil }
        return AASAAppList(apps: object["apps"]?.arrayValue?.compactMap(\.stringValue))
    }

    private mutating func readAppLinks(_ value: JSONValue, at path: JSONPath) -> AASAAppLinks? {
        guard let object = value.objectValue else {
            report(
                .ul009, .error, "applinks is \(JSONTypeName.of(value)), not an object with a details array", at: path)
            return nil
        }
        var appLinks = AASAAppLinks(apps: nil)
        switch object["details"] {
        case nil:
            report(.ul009, .error, "applinks has no details array", at: path)
        case .array(let entries)?:
            let detailsPath = path.key("details")
            appLinks.details = entries.enumerated().map { readDetail($1, at: detailsPath.index($0)) }
        case .object(let dictionary)?:
            appLinks.usesObsoleteDetailsDictionary = true
            let keys = dictionary.keys.prefix(3).map { Quoted.text($0) }.joined(separator: ", ")
            report(
                .ul009, .warning,
                "details is a dictionary keyed by app ID (\(keys)), the obsolete iOS 9 beta form (swcutil still "
                    + "matches it); use an array of entries with appIDs", at: path.key("details"))
            // `swcutil` matches each member as the entry of the app ID that keys it.
            let detailsPath = path.key("details")
            appLinks.details = dictionary.deduplicated().map {
                readDetail($0.value, at: detailsPath.key($0.key), dictionaryKey: $0.key)
            }
        case let other?:
            report(.ul009, .error, "details is \(JSONTypeName.of(other)), not an array", at: path.key("details"))
        }
        switch object["apps"] {
        case nil:
            report(.ul010, .info, "applinks.apps is missing; iOS 12 and earlier need \"apps\": []", at: path)
        case .array(let apps)?:
            appLinks.apps = apps.compactMap(\.stringValue)
            if !apps.isEmpty {
                report(
                    .ul010, .info, "applinks.apps has \(apps.count) element(s); it must be an empty array",
                    at: path.key("apps"))
            }
        case let other?:
            report(
                .ul010, .info, "applinks.apps is \(JSONTypeName.of(other)); it must be an empty array",
                at: path.key("apps"))
        }
        if let defaults = object["defaults"] {
            appLinks.defaults = readDefaults(defaults, at: path.key("defaults"))
        }
        if let variables = object["substitutionVariables"] {
            appLinks.substitutionVariables = readSubstitutionVariables(
                variables, at: path.key("substitutionVariables"))
        }
        return appLinks
    }

    private mutating func readDefaults(_ value: JSONValue, at path: JSONPath) -> AASAMatchingDefaults? {
        guard let object = value.objectValue else {
            report(.ul014, .error, "defaults is \(JSONTypeName.of(value)), not an object", at: path)
            return nil
        }
        var defaults = AASAMatchingDefaults()
        for member in object.deduplicated() {
            switch member.key {
            case "caseSensitive":
                defaults.caseSensitive = readBool(member.value, key: member.key, at: path)
            case "percentEncoded":
                defaults.percentEncoded = readBool(member.value, key: member.key, at: path)
            case "/", "?", "#", "exclude":
                // Not documented as defaults, but swcutil applies them to rules that do not set them.
                switch (member.key, member.value) {
                case ("/", .string(let pattern)): defaults.path = pattern
                case ("#", .string(let pattern)): defaults.fragment = pattern
                case ("exclude", .bool(let exclude)): defaults.exclude = exclude
                case ("?", .string(let pattern)): defaults.query = .whole(pattern)
                case ("?", .object):
                    var ignoredRule = AASAComponent()
                    defaults.query = readQuery(member.value, at: path.key(member.key), component: &ignoredRule)
                default: break
                }
                report(
                    .ul022, .warning,
                    "defaults has the key \(Quoted.text(member.key)); Apple documents only caseSensitive and "
                        + "percentEncoded as defaults, but swcutil applies it to every rule that does not set it",
                    at: path.key(member.key))
            default:
                report(
                    .ul022, .warning,
                    "defaults has the key \(Quoted.text(member.key)); only caseSensitive and percentEncoded are "
                        + "defaults", at: path.key(member.key))
            }
        }
        return defaults
    }

    private mutating func readBool(_ value: JSONValue, key: String, at path: JSONPath) -> Bool? {
        guard case .bool(let bool) = value else {
            report(.ul014, .error, "\(key) is \(JSONTypeName.of(value)), not a boolean", at: path.key(key))
            return nil
        }
        return bool
    }

    private mutating func readSubstitutionVariables(
        _ value: JSONValue, at path: JSONPath
    ) -> [AASASubstitutionVariable] {
        guard let object = value.objectValue else {
            report(
                .ul014, .error, "substitutionVariables is \(JSONTypeName.of(value)), not an object", at: path)
            return []
        }
        var variables: [AASASubstitutionVariable] = []
        for member in object.deduplicated() {
            let variablePath = path.key(member.key)
            if member.key.contains(where: { $0 == "$" || $0 == "(" || $0 == ")" }) {
                report(
                    .ul017, .error,
                    "substitution variable name \(Quoted.text(member.key)) contains $, ( or ), which names cannot",
                    at: variablePath)
            }
            guard let elements = member.value.arrayValue else {
                report(
                    .ul014, .error,
                    "substitution variable \(Quoted.text(member.key)) is \(JSONTypeName.of(member.value)), not an "
                        + "array of strings", at: variablePath)
                continue
            }
            var values: [String] = []
            for (index, element) in elements.enumerated() {
                guard let string = element.stringValue else {
                    report(
                        .ul014, .error,
                        "value \(index) of substitution variable \(Quoted.text(member.key)) is "
                            + "\(JSONTypeName.of(element)), not a string", at: variablePath.index(index))
                    continue
                }
                if string.contains("$(") {
                    report(
                        .ul017, .error,
                        "value \(Quoted.text(string)) of substitution variable \(Quoted.text(member.key)) refers to "
                            + "another variable, which values cannot", at: variablePath.index(index))
                }
                values.append(string)
            }
            variables.append(AASASubstitutionVariable(name: member.key, values: values))
        }
        return variables
    }

    /// One `details` entry; `dictionaryKey` is the app ID keying it when `details` is the obsolete dictionary.
    private mutating func readDetail(_ value: JSONValue, at path: JSONPath, dictionaryKey: String? = nil)
        -> AASADetail
    {
        guard let object = value.objectValue else {
            report(.ul011, .error, "details entry is \(JSONTypeName.of(value)), not an object with appIDs", at: path)
            return AASADetail(appIDs: [], isObject: false, dictionaryKey: dictionaryKey)
        }
        var detail = AASADetail(appIDs: [], dictionaryKey: dictionaryKey)
        if let dictionaryKey {
            detail.appIDs = [dictionaryKey]
            if let reason = AppIDFormat.problem(dictionaryKey) {
                report(.ul011, .error, "app ID \(Quoted.text(dictionaryKey)) \(reason)", at: path)
            }
        } else {
            readAppIDs(of: object, at: path, into: &detail)
        }
        readRules(of: object, at: path, into: &detail)
        return detail
    }

    /// `appID` / `appIDs` of an array-form entry (UL011, UL012).
    private mutating func readAppIDs(of object: JSONObject, at path: JSONPath, into detail: inout AASADetail) {
        let singular = object["appID"]
        let plural = object["appIDs"]
        var candidates: [(String, JSONPath)] = []
        if let singular {
            if let string = singular.stringValue {
                candidates.append((string, path.key("appID")))
            } else {
                report(.ul011, .error, "appID is \(JSONTypeName.of(singular)), not a string", at: path.key("appID"))
            }
        }
        if let plural {
            if let array = plural.arrayValue {
                for (index, element) in array.enumerated() {
                    if let string = element.stringValue {
                        candidates.append((string, path.key("appIDs").index(index)))
                    } else {
                        report(
                            .ul011, .error, "appIDs[\(index)] is \(JSONTypeName.of(element)), not a string",
                            at: path.key("appIDs").index(index))
                    }
                }
            } else {
                report(
                    .ul011, .error, "appIDs is \(JSONTypeName.of(plural)), not an array of strings",
                    at: path.key("appIDs"))
            }
        }
        if singular == nil, plural == nil {
            report(.ul011, .error, "details entry has neither appID nor appIDs", at: path)
        } else if singular != nil, plural != nil {
            report(
                .ul012, .warning,
                "details entry has both appID and appIDs; iOS reads appIDs alone, so appID is ignored"
                    + (plural?.arrayValue?.isEmpty == true ? " and the empty appIDs matches no app" : ""),
                at: path)
        }
        for (appID, idPath) in candidates {
            if let reason = AppIDFormat.problem(appID) {
                report(.ul011, .error, "app ID \(Quoted.text(appID)) \(reason)", at: idPath)
            }
            // Where both keys are there, iOS (13 and later) takes the apps from `appIDs` alone;
            // `appID` is the older single-app form (docs/universal-links.md).
            if plural != nil, idPath == path.key("appID") { continue }
            detail.appIDs.append(appID)
        }
    }

    /// `components`, `paths` and `defaults` of an entry (UL013, UL014, UL022).
    private mutating func readRules(of object: JSONObject, at path: JSONPath, into detail: inout AASADetail) {
        if let components = object["components"] {
            if let array = components.arrayValue {
                let componentsPath = path.key("components")
                detail.components = array.enumerated().map { readComponent($1, at: componentsPath.index($0)) }
            } else {
                report(
                    .ul014, .error, "components is \(JSONTypeName.of(components)), not an array",
                    at: path.key("components"))
            }
        }
        if let paths = object["paths"] {
            if let array = paths.arrayValue {
                var strings: [String] = []
                var indices: [Int] = []
                for (index, element) in array.enumerated() {
                    if let string = element.stringValue {
                        strings.append(string)
                        indices.append(index)
                    } else {
                        report(
                            .ul014, .error, "paths[\(index)] is \(JSONTypeName.of(element)), not a string",
                            at: path.key("paths").index(index))
                    }
                }
                detail.paths = strings
                detail.pathIndices = indices
            } else {
                report(
                    .ul014, .error, "paths is \(JSONTypeName.of(paths)), not an array of strings",
                    at: path.key("paths"))
            }
        }
        if object["components"] != nil, object["paths"] != nil {
            report(
                .ul013, .warning,
                "details entry has both paths and components; iOS 13 and later ignore paths, earlier versions "
                    + "ignore components", at: path)
        }
        if let defaults = object["defaults"] {
            detail.defaults = readDefaults(defaults, at: path.key("defaults"))
        }
    }

    private mutating func readComponent(_ value: JSONValue, at path: JSONPath) -> AASAComponent {
        guard let object = value.objectValue else {
            report(.ul014, .error, "component is \(JSONTypeName.of(value)), not an object", at: path)
            return AASAComponent(isUsable: false)
        }
        var component = AASAComponent()
        for member in object.deduplicated() {
            let memberPath = path.key(member.key)
            switch member.key {
            case "/", "#":
                if let string = member.value.stringValue {
                    if member.key == "/" { component.path = string } else { component.fragment = string }
                } else {
                    report(
                        .ul014, .error, "\"\(member.key)\" is \(JSONTypeName.of(member.value)), not a string",
                        at: memberPath)
                    component.isUsable = false
                }
            case "?":
                component.query = readQuery(member.value, at: memberPath, component: &component)
            case "exclude":
                if case .bool(let bool) = member.value {
                    component.exclude = bool
                    component.excludeIsWritten = true
                } else {
                    report(
                        .ul014, .error, "exclude is \(JSONTypeName.of(member.value)), not a boolean", at: memberPath)
                    component.isUsable = false
                }
            case "comment":
                if let string = member.value.stringValue {
                    component.comment = string
                } else {
                    report(.ul014, .error, "comment is \(JSONTypeName.of(member.value)), not a string", at: memberPath)
                }
            case "caseSensitive":
                component.caseSensitive = readBool(member.value, key: member.key, at: path)
            case "percentEncoded":
                component.percentEncoded = readBool(member.value, key: member.key, at: path)
            default:
                break
            }
        }
        return component
    }

    private mutating func readQuery(
        _ value: JSONValue, at path: JSONPath, component: inout AASAComponent
    ) -> AASAQueryPattern? {
        switch value {
        case .string(let string):
            return .whole(string)
        case .object(let dictionary):
            var items: [AASAQueryItemPattern] = []
            var ignored = false
            for member in dictionary.deduplicated() {
                if let pattern = member.value.stringValue {
                    items.append(AASAQueryItemPattern(name: member.key, pattern: pattern))
                } else {
                    ignored = true
                    report(
                        .ul014, .error,
                        "query item \(Quoted.text(member.key)) has \(JSONTypeName.of(member.value)), not a string "
                            + "pattern", at: path.key(member.key))
                    report(
                        .ul025, .warning,
                        "query item \(Quoted.text(member.key)) is not a string, so swcutil ignores the whole \"?\" "
                            + "dictionary and the rule matches any query", at: path.key(member.key))
                }
            }
            return ignored ? .ignoredDictionary : .items(items)
        default:
            report(
                .ul014, .error, "\"?\" is \(JSONTypeName.of(value)), not a string or a dictionary of strings",
                at: path)
            component.isUsable = false
            return nil
        }
    }
}

/// The app ID format: `<10 alphanumeric characters>.<bundle ID>` (§3.2), where the bundle ID is
/// ASCII letters, digits, `-` and `.` with no empty part. The one check of app IDs: the
/// association-file rule UL011 and the command line's `--app` both use it.
public enum AppIDFormat {
    /// Why `appID` is not in the format (a phrase that follows the app ID in a message), or `nil`
    /// when it is.
    public static func problem(_ appID: String) -> String? {
        let scalars = Array(appID.unicodeScalars)
        guard scalars.count > 11, scalars[10] == "." else {
            return "is not <10-character prefix>.<bundle ID>"
        }
        guard scalars[..<10].allSatisfy(isASCIIAlphanumeric) else {
            return "has a prefix \(Quoted.text(String(String.UnicodeScalarView(scalars[..<10])))) that is not 10 "
                + "ASCII letters or digits"
        }
        let bundleID = scalars[11...]
        let allowed = bundleID.allSatisfy { isASCIIAlphanumeric($0) || $0 == "-" || $0 == "." }
        let segments = String(String.UnicodeScalarView(bundleID)).split(
            separator: ".", omittingEmptySubsequences: false)
        guard allowed, !segments.contains(where: \.isEmpty) else {
            return "has a bundle ID \(Quoted.text(String(String.UnicodeScalarView(bundleID)))) with characters "
                + "other than letters, digits, - and . or an empty part"
        }
        return nil
    }

    /// Whether `appID` is in the format.
    public static func isValid(_ appID: String) -> Bool {
        problem(appID) == nil
    }

    private static func isASCIIAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
    }
}
