public import LenientJSON

/// An `apple-app-site-association` file (apple-markup-rules.md §3.2), as far as it could be read.
///
/// Build one with ``parse(_:)-(Collection<UInt8>)`` (or ``AASAValidator/validate(_:configuredAppID:)``, which also
/// checks it). Values of the wrong JSON type are left out of the model and reported as problems; the model never
/// holds a value the file did not have.
public struct AASADocument: Sendable, Hashable {
    /// The `applinks` service (universal links); `nil` when the file has no `applinks` object.
    public var applinks: AASAAppLinks?
    /// `webcredentials.apps` (password autofill); `nil` when the service is absent or not an object.
    public var webcredentials: AASAAppList?
    /// `appclips.apps`; `nil` when the service is absent or not an object.
    public var appclips: AASAAppList?
    /// Every other top-level key (for example `activitycontinuation`), in file order, with its value.
    public var otherServices: [AASAUnknownService]

    /// Creates a document.
    public init(
        applinks: AASAAppLinks? = nil,
        webcredentials: AASAAppList? = nil,
        appclips: AASAAppList? = nil,
        otherServices: [AASAUnknownService] = []
    ) {
        self.applinks = applinks
        self.webcredentials = webcredentials
        self.appclips = appclips
        self.otherServices = otherServices
    }
}

/// A top-level service key this module does not model (kept by name, §3.2: "Unknown keys should be ignored").
public struct AASAUnknownService: Sendable, Hashable {
    /// The key, e.g. `activitycontinuation`.
    public var name: String
    /// Its value as written.
    public var value: JSONValue

    /// Creates an unknown service entry.
    public init(name: String, value: JSONValue) {
        self.name = name
        self.value = value
    }
}

/// A service whose only content is an `apps` list (`webcredentials`, `appclips`).
public struct AASAAppList: Sendable, Hashable {
    /// The app IDs that are strings, in order; `nil` when `apps` is missing or not an array.
    public var apps: [String]?

    /// Creates an app list.
    public init(apps: [String]?) {
        self.apps = apps
    }
}

/// The `applinks` object (§3.2).
public struct AASAAppLinks: Sendable, Hashable {
    /// The `details` entries in file order (array order is priority, §3.5). Empty when `details` is missing. In
    /// the obsolete dictionary form (``usesObsoleteDetailsDictionary``), one entry per member, for the app ID
    /// that keys it (``AASADetail/dictionaryKey``), as `swcutil` reads it.
    public var details: [AASADetail]
    /// `applinks.defaults`: the domain-level matching defaults.
    public var defaults: AASAMatchingDefaults?
    /// `applinks.substitutionVariables`, in file order.
    public var substitutionVariables: [AASASubstitutionVariable]
    /// `applinks.apps` when it is an array (its string elements); `nil` when missing or of another type.
    public var apps: [String]?
    /// `true` when `details` is the iOS 9 beta dictionary keyed by app ID: obsolete (UL009), but `swcutil` still
    /// matches it.
    public var usesObsoleteDetailsDictionary: Bool

    /// Creates an `applinks` value.
    public init(
        details: [AASADetail] = [],
        defaults: AASAMatchingDefaults? = nil,
        substitutionVariables: [AASASubstitutionVariable] = [],
        apps: [String]? = [],
        usesObsoleteDetailsDictionary: Bool = false
    ) {
        self.details = details
        self.defaults = defaults
        self.substitutionVariables = substitutionVariables
        self.apps = apps
        self.usesObsoleteDetailsDictionary = usesObsoleteDetailsDictionary
    }
}

/// One `applinks.details[]` entry (§3.2).
public struct AASADetail: Sendable, Hashable {
    /// The app IDs this entry applies to: the strings of `appIDs` when the entry has that key (iOS
    /// then ignores `appID`; an empty `appIDs` applies to no app), else `appID` (when a string).
    public var appIDs: [String]
    /// The `components` rules in order; `nil` when the entry has no `components` array. A non-object element is
    /// kept as a component with ``AASAComponent/isUsable`` `false`, so indices equal the file's.
    public var components: [AASAComponent]?
    /// The legacy `paths` strings in order (non-string elements left out); `nil` when there is no `paths` array.
    public var paths: [String]?
    /// The entry's `defaults`.
    public var defaults: AASAMatchingDefaults?
    /// `false` when the entry itself is not a JSON object (it then never matches).
    public var isObject: Bool
    /// For each element of ``paths``, its index in the file's `paths` array.
    public var pathIndices: [Int]
    /// The app ID keying this entry when `details` is the obsolete dictionary form (then ``appIDs`` is that
    /// key alone); `nil` for an element of the `details` array.
    public var dictionaryKey: String?

    /// Creates an entry. `pathIndices` defaults to `0..<paths.count`.
    public init(
        appIDs: [String],
        components: [AASAComponent]? = nil,
        paths: [String]? = nil,
        defaults: AASAMatchingDefaults? = nil,
        isObject: Bool = true,
        pathIndices: [Int]? = nil,
        dictionaryKey: String? = nil
    ) {
        self.dictionaryKey = dictionaryKey
        self.appIDs = appIDs
        self.components = components
        self.paths = paths
        self.defaults = defaults
        self.isObject = isObject
        self.pathIndices = pathIndices ?? Array(0..<(paths?.count ?? 0))
    }
}

/// One `components` rule (§3.4). A `nil` pattern means the key was absent (it then matches anything).
public struct AASAComponent: Sendable, Hashable {
    /// `/`: the path pattern.
    public var path: String?
    /// `?`: the query pattern, a whole-query string or per-item patterns.
    public var query: AASAQueryPattern?
    /// `#`: the fragment pattern.
    public var fragment: String?
    /// `exclude` (default `false`).
    public var exclude: Bool
    /// `true` when the rule writes `exclude` itself (even as `false`), so `defaults` cannot supply it.
    public var excludeIsWritten: Bool
    /// `comment`.
    public var comment: String?
    /// `caseSensitive`, when set on this rule.
    public var caseSensitive: Bool?
    /// `percentEncoded`, when set on this rule.
    public var percentEncoded: Bool?
    /// `false` when the rule is not an object or `/`, `#` or `?` has a type no pattern can have; the matcher
    /// then skips the rule rather than treating the bad key as "anything".
    public var isUsable: Bool

    /// Creates a rule.
    public init(
        path: String? = nil,
        query: AASAQueryPattern? = nil,
        fragment: String? = nil,
        exclude: Bool = false,
        comment: String? = nil,
        caseSensitive: Bool? = nil,
        percentEncoded: Bool? = nil,
        isUsable: Bool = true,
        excludeIsWritten: Bool? = nil
    ) {
        self.path = path
        self.query = query
        self.fragment = fragment
        self.exclude = exclude
        self.excludeIsWritten = excludeIsWritten ?? exclude
        self.comment = comment
        self.caseSensitive = caseSensitive
        self.percentEncoded = percentEncoded
        self.isUsable = isUsable
    }
}

/// The `?` key of a rule.
public enum AASAQueryPattern: Sendable, Hashable {
    /// A pattern for the whole query string after `?`.
    case whole(String)
    /// Patterns for named query items, in file order.
    case items([AASAQueryItemPattern])
    /// A dictionary with a non-string value: `swcutil` ignores the whole dictionary (§3.5 [3P-oracle]), so it
    /// constrains nothing (UL025).
    case ignoredDictionary
}

/// One `name: pattern` member of a query dictionary.
public struct AASAQueryItemPattern: Sendable, Hashable {
    /// The query item name (compared literally, percent-decoded).
    public var name: String
    /// The pattern every occurrence of the item's value must match (an absent item counts as `""`).
    public var pattern: String

    /// Creates an item pattern.
    public init(name: String, pattern: String) {
        self.name = name
        self.pattern = pattern
    }
}

/// The defaults of `applinks.defaults` or `details[].defaults`. Apple documents `caseSensitive` and
/// `percentEncoded`; `swcutil` also applies `/`, `?` and `exclude` written there to every rule that does not set
/// them (recorded runs, `Tests/UniversalLinksTests/Swcutil`), and `#` is read the same way. Those four are
/// still reported (UL022).
public struct AASAMatchingDefaults: Sendable, Hashable {
    /// `caseSensitive`, when set.
    public var caseSensitive: Bool?
    /// `percentEncoded`, when set.
    public var percentEncoded: Bool?
    /// `/`, when set (a string).
    public var path: String?
    /// `?`, when set (a string or a dictionary).
    public var query: AASAQueryPattern?
    /// `#`, when set (a string).
    public var fragment: String?
    /// `exclude`, when set (a boolean).
    public var exclude: Bool?

    /// Creates defaults.
    public init(
        caseSensitive: Bool? = nil, percentEncoded: Bool? = nil, path: String? = nil,
        query: AASAQueryPattern? = nil, fragment: String? = nil, exclude: Bool? = nil
    ) {
        self.caseSensitive = caseSensitive
        self.percentEncoded = percentEncoded
        self.path = path
        self.query = query
        self.fragment = fragment
        self.exclude = exclude
    }
}

extension AASAComponent {
    /// The rule as it is matched: each of `/`, `?`, `#` and `exclude` the rule does not set is taken from the
    /// entry's `defaults`, then from `applinks.defaults` (as `swcutil` does; the rule's own key wins, as for
    /// `caseSensitive`).
    public func applyingDefaults(entry: AASAMatchingDefaults?, domain: AASAMatchingDefaults?) -> AASAComponent {
        var rule = self
        if rule.path == nil { rule.path = entry?.path ?? domain?.path }
        if rule.query == nil { rule.query = entry?.query ?? domain?.query }
        if rule.fragment == nil { rule.fragment = entry?.fragment ?? domain?.fragment }
        if !rule.excludeIsWritten, let exclude = entry?.exclude ?? domain?.exclude {
            rule.exclude = exclude
            rule.excludeIsWritten = true
        }
        return rule
    }
}

/// One custom substitution variable (`applinks.substitutionVariables`).
public struct AASASubstitutionVariable: Sendable, Hashable {
    /// The name used as `$(name)`.
    public var name: String
    /// The alternatives (string elements of the array), which may contain `?` and `*`.
    public var values: [String]

    /// Creates a variable.
    public init(name: String, values: [String]) {
        self.name = name
        self.values = values
    }
}
