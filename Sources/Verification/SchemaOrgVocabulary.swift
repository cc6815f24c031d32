import Synchronization

/// The schema.org vocabulary of one release (``release``, from ``sourceFile``): types with their
/// superclasses, properties with their `domainIncludes` and `rangeIncludes`, enumeration members, and
/// which terms are pending or superseded. SD003–SD006 read it.
///
/// The table is generated text (`SchemaOrgVocabulary+Table.swift`, by
/// `Scripts/generate-schemaorg-vocabulary.py`), parsed once, on first use, into dictionaries; the
/// lineage (superclasses, transitively) of every type is computed then too, so a lookup is a hash.
struct SchemaOrgVocabulary: Sendable {
    /// A term's standing in the release.
    struct Status: Sendable, Hashable {
        /// `isPartOf` https://pending.schema.org: proposed, not yet part of the core.
        var isPending = false
        /// The term `supersededBy` names.
        var supersededBy: String?
    }

    struct TypeTerm: Sendable {
        var superclasses: [String]
        var status: Status
    }

    struct PropertyTerm: Sendable {
        var domains: [String]
        var ranges: [String]
        var status: Status
    }

    struct EnumerationMember: Sendable {
        /// The enumerations the member belongs to (`InStock`: `ItemAvailability`).
        var enumerations: [String]
        var status: Status
    }

    private(set) var types: [String: TypeTerm] = [:]
    private(set) var properties: [String: PropertyTerm] = [:]
    private(set) var members: [String: EnumerationMember] = [:]
    /// Each type and its superclasses, transitively.
    private var lineages: [String: Set<String>] = [:]
    /// Names by their lower-cased form, for suggestions that differ only in case.
    private var typesByLowercase: [String: String] = [:]
    private var propertiesByLowercase: [String: String] = [:]
    /// Made on the first suggestion: most processes never need one.
    private var typeSpellings = LazySpellingIndex([])
    private var propertySpellings = LazySpellingIndex([])

    /// The release SpotCheck ships.
    static let current = SchemaOrgVocabulary(table: table)

    /// Reads the generated table (`SchemaOrgVocabulary+Table.swift`), one term a line. The lines
    /// are split as UTF-8 bytes: splitting the 3,000 lines as `Character`s cost about 50 ms of
    /// every process that checks a page (175 M instructions, 12 % of `extract` over 40 pages,
    /// callgrind).
    init(table: String) {
        var table = table
        table.withUTF8 { bytes in
            for line in bytes.split(separator: UInt8(ascii: "\n")) {
                let fields = line.split(separator: UInt8(ascii: " ")).map { String(decoding: $0, as: UTF8.self) }
                add(fields)
            }
        }
        for name in types.keys {
            lineages[name] = lineage(of: name)
            typesByLowercase[name.lowercased()] = name
        }
        for name in properties.keys { propertiesByLowercase[name.lowercased()] = name }
        typeSpellings = LazySpellingIndex(types.keys)
        propertySpellings = LazySpellingIndex(properties.keys)
    }

    /// One line of the table, as its space-separated fields.
    private mutating func add(_ fields: [String]) {
        guard fields.count >= 3, fields[0] != "#" else { return }
        func list(_ field: String) -> [String] {
            field == "-" ? [] : field.utf8.split(separator: UInt8(ascii: ",")).map { String(Substring($0)) }
        }
        let name = fields[1]
        let listCount = fields[0] == "P" ? 2 : 1
        var status = Status()
        for flag in fields.dropFirst(2 + listCount) {
            if flag == "pending" { status.isPending = true }
            if flag.hasPrefix("superseded:") { status.supersededBy = String(flag.dropFirst("superseded:".count)) }
        }
        switch fields[0] {
        case "T": types[name] = TypeTerm(superclasses: list(fields[2]), status: status)
        case "P" where fields.count >= 4:
            properties[name] = PropertyTerm(domains: list(fields[2]), ranges: list(fields[3]), status: status)
        case "M": members[name] = EnumerationMember(enumerations: list(fields[2]), status: status)
        default: return
        }
    }

    private func lineage(of type: String) -> Set<String> {
        var seen: Set<String> = [type]
        var queue = [type]
        while let next = queue.popLast() {
            for superclass in types[next]?.superclasses ?? [] where seen.insert(superclass).inserted {
                queue.append(superclass)
            }
        }
        return seen
    }

    // MARK: Lookups

    /// Whether `name` may stand as a type: a type, or an enumeration member (some pages type an
    /// item `InStock`; schema.org lets a member stand for its enumeration).
    func isKnownType(_ name: String) -> Bool { types[name] != nil || members[name] != nil }

    func isKnownProperty(_ name: String) -> Bool { properties[name] != nil }

    /// Whether `name` is an Actions input or output annotation: `<property>-input` or
    /// `<property>-output` for a known property (`query-input` on a SearchAction; schema.org's
    /// Potential Actions, https://schema.org/docs/actions.html).
    func isActionAnnotation(_ name: String) -> Bool {
        for suffix in ["-input", "-output"] where name.hasSuffix(suffix) {
            return isKnownProperty(String(name.dropLast(suffix.count)))
        }
        return false
    }

    /// The status of a type, property or enumeration member.
    func status(of term: String) -> Status? {
        types[term]?.status ?? properties[term]?.status ?? members[term]?.status
    }

    /// The term that replaces a superseded one, following chains (`seasons` → `season` →
    /// `containsSeason`) to the first term that is not superseded; nil when `term` is current.
    func replacement(of term: String) -> String? {
        var current = term
        var seen: Set<String> = [term]
        while let next = status(of: current)?.supersededBy, seen.insert(next).inserted { current = next }
        return current == term ? nil : current
    }

    /// A type and its superclasses, transitively; for an enumeration member, its enumerations'.
    func lineage(_ type: String) -> Set<String> {
        if let lineage = lineages[type] { return lineage }
        guard let member = members[type] else { return [] }
        return member.enumerations.reduce(into: [type]) { $0.formUnion(lineages[$1] ?? [$1]) }
    }

    /// Whether `type` is `ancestor` or one of its subclasses.
    func isA(_ type: String, _ ancestor: String) -> Bool { lineage(type).contains(ancestor) }

    /// Whether schema.org lets `property` be used on an item of these (known) types: the property has
    /// no domain, or its `domainIncludes` holds one of the types or a superclass of one (so a domain
    /// of `Thing` allows every type). Data types and enumeration members standing as types are not
    /// judged (schema.org: "data types … and enumerations are ok"), nor is an unknown property.
    func allows(_ property: String, on itemTypes: [String]) -> Bool {
        guard let domains = properties[property]?.domains, !domains.isEmpty else { return true }
        return itemTypes.contains { type in
            if members[type] != nil && types[type] == nil { return true }
            let lineage = lineage(type)
            // A Role stands in for the value of the property that holds it and repeats that
            // property (`"actor": {"@type": "PerformanceRole", "actor": {…}}`, schema.org/Role).
            return lineage.contains("DataType") || lineage.contains("Role") || domains.contains { lineage.contains($0) }
        }
    }

    // MARK: Suggestions

    /// The known type nearest to an unknown one (edit distance), if one is near enough.
    func nearestType(to name: String) -> String? {
        if let sameLetters = typesByLowercase[name.lowercased()] { return sameLetters }
        return typeSpellings.nearest(to: name)
    }

    /// The known property nearest to an unknown one (edit distance), if one is near enough.
    func nearestProperty(to name: String) -> String? {
        if let sameLetters = propertiesByLowercase[name.lowercased()] { return sameLetters }
        return propertySpellings.nearest(to: name)
    }

    /// A `SpellingIndex` built on first use, once, whichever thread asks first. Building one
    /// lower-cases every name (5 M instructions for the two, callgrind), which a process that
    /// suggests nothing should not pay at start-up. Answers are kept (up to `keptAnswers`): the
    /// pages of one site repeat the same unknown names, and a lookup compares the name with
    /// hundreds of candidates.
    final class LazySpellingIndex: Sendable {
        static let keptAnswers = 4096
        private let names: [String]
        private let built = Mutex<SpellingIndex?>(nil)
        private let answers = Mutex<[String: String?]>([:])

        init(_ names: some Sequence<String>) {
            self.names = Array(names)
        }

        private var index: SpellingIndex {
            built.withLock { built in
                if let index = built { return index }
                let index = SpellingIndex(names)
                built = index
                return index
            }
        }

        /// `SpellingIndex.nearest(to:)`, answered from the kept answers when the name was asked before.
        func nearest(to name: String) -> String? {
            if let answer = answers.withLock({ $0[name] }) { return answer }
            let answer = index.nearest(to: name)
            answers.withLock { answers in
                if answers.count < Self.keptAnswers { answers[name] = answer }
            }
            return answer
        }
    }

    /// Names by the length of their lower-cased form, each with that form made once: a lookup
    /// reads only the lengths its budget allows and lower-cases only the name asked for. (Scanning
    /// every property and lower-casing each per lookup was 1.2 % of `extract`'s CPU on the real
    /// pages, `perf`.)
    struct SpellingIndex: Sendable {
        private struct Candidate: Sendable {
            var name: String
            var lowered: [Unicode.Scalar]
        }

        private var byLength: [Int: [Candidate]] = [:]

        init(_ names: some Sequence<String>) {
            for name in names {
                let lowered = Array(name.lowercased().unicodeScalars)
                byLength[lowered.count, default: []].append(Candidate(name: name, lowered: lowered))
            }
        }

        /// The candidate at the smallest case-insensitive edit distance, within a budget that grows
        /// with the name's length (1 up to 4 characters, 2 up to 9, else 3); ties go to the
        /// candidate whose case matches better, then to the alphabetically first.
        func nearest(to name: String) -> String? {
            let lowered = Array(name.lowercased().unicodeScalars)
            let scalars = Array(name.unicodeScalars)
            let budget = lowered.count <= 4 ? 1 : lowered.count <= 9 ? 2 : 3
            var best: (distance: Int, caseDistance: Int, name: String)?
            for length in max(0, lowered.count - budget)...(lowered.count + budget) {
                for candidate in byLength[length] ?? [] {
                    let distance = SchemaOrgVocabulary.editDistance(lowered, candidate.lowered)
                    guard distance <= budget, distance <= best?.distance ?? Int.max else { continue }
                    let caseDistance = SchemaOrgVocabulary.editDistance(scalars, Array(candidate.name.unicodeScalars))
                    if let current = best,
                        (distance, caseDistance, candidate.name) >= (
                            current.distance, current.caseDistance, current.name
                        )
                    {
                        continue
                    }
                    best = (distance, caseDistance, candidate.name)
                }
            }
            return best?.name
        }
    }

    /// Optimal string alignment distance: insertions, deletions, substitutions and transpositions of
    /// two neighbours (`datePublsihed` → `datePublished` is 1).
    static func editDistance<Element: Equatable>(_ a: [Element], _ b: [Element]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
            }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count]
    }
}
