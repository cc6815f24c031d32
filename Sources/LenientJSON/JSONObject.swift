/// A JSON object that keeps its members in insertion (source) order.
///
/// Duplicate keys are allowed and kept, in order, because parsed input may contain them. Lookups follow
/// `JSON.parse`: ``subscript(key:)`` returns the value of the **last** member with that key. Keys are compared
/// with Swift `String` equality. Lookups are linear, which is the fastest choice for the small objects of
/// JSON-LD; use ``deduplicated()`` or build a dictionary for large objects.
///
/// Two objects are equal when they have the same members in the same order.
public struct JSONObject: Sendable, Hashable, RandomAccessCollection, ExpressibleByDictionaryLiteral {
    /// One `key: value` member of an object.
    public struct Member: Sendable, Hashable {
        /// The member's key.
        public var key: String
        /// The member's value.
        public var value: JSONValue

        /// Creates a member.
        public init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// A member seen as a collection element.
    public typealias Element = (key: String, value: JSONValue)
    /// Members are indexed by their position.
    public typealias Index = Int

    /// The members, in order.
    public var members: [Member]

    /// Creates an empty object.
    public init() {
        members = []
    }

    /// Creates an object with the given members, in order (duplicate keys are kept).
    public init(_ members: [(String, JSONValue)]) {
        self.members = members.map { Member(key: $0.0, value: $0.1) }
    }

    /// Creates an object with the given members, in order (duplicate keys are kept).
    public init(members: [Member]) {
        self.members = members
    }

    /// Creates an object from a dictionary literal, keeping the literal's order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements)
    }

    // MARK: Collection

    /// The position of the first member.
    public var startIndex: Int { members.startIndex }
    /// The position one past the last member.
    public var endIndex: Int { members.endIndex }

    /// The member at `position`.
    public subscript(position: Int) -> Element {
        let member = members[position]
        return (key: member.key, value: member.value)
    }

    // MARK: Lookup

    /// The keys, in order (a duplicated key appears once per member).
    public var keys: [String] { members.map(\.key) }

    /// The values, in order.
    public var values: [JSONValue] { members.map(\.value) }

    /// The value of the last member with `key`, as `JSON.parse` would give it; `nil` when there is none.
    ///
    /// Setting a value calls ``set(_:_:)``; setting `nil` removes every member with that key.
    public subscript(key: String) -> JSONValue? {
        get {
            members.last { $0.key == key }?.value
        }
        set {
            if let newValue {
                set(key, newValue)
            } else {
                removeValue(forKey: key)
            }
        }
    }

    /// The values of every member with `key`, in order (more than one when the key is duplicated).
    public func values(forKey key: String) -> [JSONValue] {
        members.filter { $0.key == key }.map(\.value)
    }

    /// Whether a member has `key`.
    public func contains(key: String) -> Bool {
        members.contains { $0.key == key }
    }

    /// Whether a key occurs more than once.
    public var hasDuplicateKeys: Bool {
        var seen = Set<String>()
        for member in members where !seen.insert(member.key).inserted {
            return true
        }
        return false
    }

    // MARK: Mutation

    /// Appends a member, even when the key already exists.
    public mutating func append(_ key: String, _ value: JSONValue) {
        members.append(Member(key: key, value: value))
    }

    /// Replaces the value of the first member with `key` (removing any later member with the same key, so
    /// that lookups return `value`), or appends a new member when there is none.
    public mutating func set(_ key: String, _ value: JSONValue) {
        guard let first = members.firstIndex(where: { $0.key == key }) else {
            append(key, value)
            return
        }
        members[first].value = value
        let later = members.index(after: first)
        if members[later...].contains(where: { $0.key == key }) {
            var kept = Array(members[..<later])
            kept.append(contentsOf: members[later...].lazy.filter { $0.key != key })
            members = kept
        }
    }

    /// Removes every member with `key` and returns the value ``subscript(key:)`` returned before.
    @discardableResult
    public mutating func removeValue(forKey key: String) -> JSONValue? {
        let old = self[key]
        if old != nil {
            members.removeAll { $0.key == key }
        }
        return old
    }

    /// The object `JSON.parse` would build: one member per key, at the position of its first occurrence,
    /// with the value of its last occurrence.
    public func deduplicated() -> JSONObject {
        guard hasDuplicateKeys else { return self }
        var positions: [String: Int] = [:]
        var result: [Member] = []
        for member in members {
            if let position = positions[member.key] {
                result[position].value = member.value
            } else {
                positions[member.key] = result.count
                result.append(member)
            }
        }
        return JSONObject(members: result)
    }
}
