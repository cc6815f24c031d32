/// Why a value could not be encoded or decoded: what was expected, what was found, the byte
/// offset (in the input when decoding, in the output so far when encoding) and the coding path.
public struct CompactBinaryError: Error, Sendable, CustomStringConvertible {
    /// The kind of problem, for code that reacts to it; ``description`` is for people.
    public enum Reason: Sendable, Hashable {
        /// The input ended inside a value.
        case truncated
        /// A value of another kind (or a byte that is no tag) where a value was expected.
        case unexpectedTag
        /// An integer that does not fit the requested type, or a varint over 64 bits.
        case numberOutOfRange
        /// String or key bytes that are not UTF-8.
        case invalidUTF8
        /// An element, entry or byte count larger than what is left of the input.
        case countExceedsInput
        /// Bytes after the top-level value.
        case trailingBytes
        /// Arrays and maps nested deeper than ``CompactBinaryFormat/maximumDepth``.
        case nestingTooDeep
        /// A map without the key a non-optional property needs.
        case missingKey
        /// No element left in an array, or a container used out of order while encoding.
        case invalidContainerUse
    }

    /// The kind of problem.
    public var reason: Reason
    /// What the coder needed at that point, such as "a string" or "key \"title\"".
    public var expected: String
    /// What it found instead, such as "an unsigned integer" or "the end of the input".
    public var found: String
    /// Where: an offset into the input when decoding, into the output so far when encoding.
    public var offset: Int
    /// The keys and array indices leading to the value.
    public var codingPath: [any CodingKey]

    /// Makes an error; ``codingPath`` is usually filled in by the container that catches it.
    public init(
        _ reason: Reason, expected: String, found: String, offset: Int, codingPath: [any CodingKey] = []
    ) {
        self.reason = reason
        self.expected = expected
        self.found = found
        self.offset = offset
        self.codingPath = codingPath
    }

    public var description: String {
        let path = codingPath.isEmpty ? "the top-level value" : Self.render(codingPath)
        return "CompactBinary: expected \(expected), found \(found) at byte offset \(offset) (coding path: \(path))"
    }

    /// `findings[3].title`: keys joined with dots, array indices in brackets.
    static func render(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if let index = key as? ArrayIndexKey {
                text += "[\(index.index)]"
            } else {
                if !text.isEmpty { text += "." }
                text += key.stringValue
            }
        }
        return text
    }
}

/// The coding key of an array element, as `JSONDecoder` names it ("Index 3").
struct ArrayIndexKey: CodingKey {
    let index: Int

    init(_ index: Int) { self.index = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.index = intValue }

    var stringValue: String { "Index \(index)" }
    var intValue: Int? { index }
}

/// The key `superEncoder()` and `superDecoder()` use, as with `JSONEncoder`.
struct SuperKey: CodingKey {
    init() {}
    init?(stringValue: String) { if stringValue != "super" { return nil } }
    init?(intValue: Int) { nil }

    var stringValue: String { "super" }
    var intValue: Int? { nil }
}

/// One step of a coding path, linked to its parent, so that entering a nested value costs one
/// small allocation and the `[any CodingKey]` array is built only when someone asks for it.
final class CodingPathNode: Sendable {
    let parent: CodingPathNode?
    let key: any CodingKey

    init(parent: CodingPathNode?, key: any CodingKey) {
        self.parent = parent
        self.key = key
    }

    static func path(of node: CodingPathNode?) -> [any CodingKey] {
        var keys: [any CodingKey] = []
        var current = node
        while let step = current {
            keys.append(step.key)
            current = step.parent
        }
        return keys.reversed()
    }

    static func path(of node: CodingPathNode?, appending key: any CodingKey) -> [any CodingKey] {
        path(of: node) + [key]
    }
}
