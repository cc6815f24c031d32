/// Decodes `Decodable` values from the CompactBinary format (``CompactBinaryFormat``).
///
/// Values are read in place, without building a tree first. A keyed container keeps a cursor on
/// its map: synthesized `init(from:)` asks for keys in the order the encoder wrote them, so the
/// next entry is tried first, and the entries are indexed (key → value offset) only on the first
/// miss, such as an optional left out by `encodeIfPresent`. Any malformed input is a
/// ``CompactBinaryError`` naming the byte offset and the coding path.
public struct CompactBinaryDecoder: Sendable {
    /// Handed to `init(from:)` implementations as `Decoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    public init() {}

    /// The value of type `T` that `bytes` hold; they must hold exactly one value.
    public func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        let session = DecodingSession(bytes: bytes, userInfo: userInfo.isEmpty ? [:] : userInfo.mapValues { $0 as Any })
        return try session.decodeTopLevel(type)
    }

    /// The value of type `T` that `bytes` hold (copied once into an array first).
    public func decode<T: Decodable>(_ type: T.Type, from bytes: ArraySlice<UInt8>) throws -> T {
        try decode(type, from: Array(bytes))
    }
}

/// The state of one `decode` call, and the `Decoder` of every value in it (each nested value sets
/// ``valueOffset`` and ``valuePath`` while its `init(from:)` runs, then restores them).
///
/// A session lives inside one `decode` call on one thread and never hands out its properties
/// `inout`, so its mutable properties opt out of the runtime's exclusivity checks.
final class DecodingSession: Decoder {
    /// Where one map entry's key and value lie in the input.
    struct MapEntry {
        let keyStart: Int
        let keyEnd: Int
        let valueStart: Int
        let valueEnd: Int
    }

    /// An array or map being read: how many entries, which comes next and where.
    struct ContainerState {
        /// Where its tag is (for error messages).
        let offset: Int
        let start: Int
        let count: Int
        /// Arrays and maps enclosing its entries, itself included.
        let depth: Int
        /// The next entry: its number and where its key (or the element) starts.
        var index = 0
        var cursor: Int
        /// A map's entries, indexed on the first key that is not the next entry.
        var entries: [MapEntry]?
        /// Key → entry number, for maps too large to search the entries one by one.
        var entryByKey: [String: Int]?

        var isFinished: Bool { index == count }
    }

    /// A key found in a map: where its value starts, and the entry number if it was not the next
    /// entry (-1 if it was).
    struct Location {
        let valueStart: Int
        let entry: Int
    }

    /// Maps with more entries than this get a hash table of their keys when indexed.
    static let linearSearchLimit = 16

    let bytes: [UInt8]
    let userInfo: [CodingUserInfoKey: Any]
    /// Every container opened during this decode; `ContainerState`s are addressed by position.
    @exclusivity(unchecked) private(set) var containers: [ContainerState] = []
    /// The value being decoded through the `Decoder` methods: where it starts, its path and the
    /// arrays and maps around it.
    @exclusivity(unchecked) private var valueOffset = 0
    @exclusivity(unchecked) private var valuePath: CodingPathNode?
    @exclusivity(unchecked) private var valueDepth = 0
    /// The container opened on that value, if any: once it is read to its end, so is the value.
    @exclusivity(unchecked) private var valueContainer = -1
    /// An error met where none can be thrown (`allKeys`, `contains`), thrown when the value ends.
    @exclusivity(unchecked) private var deferredError: CompactBinaryError?

    init(bytes: [UInt8], userInfo: [CodingUserInfoKey: Any]) {
        self.bytes = bytes
        self.userInfo = userInfo
        containers.reserveCapacity(16)
    }

    var codingPath: [any CodingKey] { CodingPathNode.path(of: valuePath) }

    func decodeTopLevel<T: Decodable>(_ type: T.Type) throws -> T {
        var end = 0
        let value = try decodeValue(type, at: 0, path: nil, depth: 0, end: &end)
        guard end == bytes.count else {
            throw CompactBinaryError(
                .trailingBytes, expected: "the end of the input", found: "\(bytes.count - end) more bytes", offset: end)
        }
        return value
    }

    // MARK: - Decoder

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let state = try openContainer(tag: Tag.map, at: valueOffset, path: valuePath, depth: valueDepth + 1)
        valueContainer = state
        return KeyedDecodingContainer(KeyedContainer<Key>(session: self, state: state, path: valuePath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let state = try openContainer(tag: Tag.array, at: valueOffset, path: valuePath, depth: valueDepth + 1)
        valueContainer = state
        return UnkeyedContainer(session: self, state: state, path: valuePath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueContainer(session: self, offset: valueOffset, path: valuePath, depth: valueDepth)
    }

    // MARK: - Values

    /// Decodes the value at `offset`, the entry `key` of a container (enclosed, with it, by `depth`
    /// arrays and maps); sets `end` to the offset just past it.
    @inline(__always)
    func decodeValue<T: Decodable>(
        _ type: T.Type, at offset: Int, parent: CodingPathNode?, key: some CodingKey, depth: Int, end: inout Int
    ) throws -> T {
        try decode(
            type, at: offset, depth: depth, end: &end, errorPath: { CodingPathNode.path(of: parent, appending: key) },
            path: { CodingPathNode(parent: parent, key: key) })
    }

    /// Decodes the value at `offset`, whose coding path is `path` (a single value).
    func decodeValue<T: Decodable>(
        _ type: T.Type, at offset: Int, path: CodingPathNode?, depth: Int, end: inout Int
    ) throws -> T {
        try decode(
            type, at: offset, depth: depth, end: &end, errorPath: { CodingPathNode.path(of: path) }, path: { path })
    }

    /// Reads primitives directly (arrays and optionals of primitives reach the generic `decode`
    /// methods, and this spares them a trip through `init(from:)`), and other values through
    /// ``decodeComposite(_:at:path:depth:end:)``.
    @inline(__always)
    private func decode<T: Decodable>(
        _ type: T.Type, at offset: Int, depth: Int, end: inout Int, errorPath: () -> [any CodingKey],
        path: () -> CodingPathNode?
    ) throws -> T {
        if T.self == String.self {
            return unsafeBitCast(try primitive(offset, &end, errorPath) { try readString(at: $0) }, to: T.self)
        }
        if T.self == Int.self {
            return unsafeBitCast(
                try primitive(offset, &end, errorPath) { try readInteger(Int.self, at: $0) }, to: T.self)
        }
        if T.self == Bool.self {
            return unsafeBitCast(try primitive(offset, &end, errorPath) { try readBool(at: $0) }, to: T.self)
        }
        if T.self == Double.self {
            return unsafeBitCast(try primitive(offset, &end, errorPath) { try readDouble(at: $0) }, to: T.self)
        }
        if T.self == Float.self {
            return unsafeBitCast(try primitive(offset, &end, errorPath) { try readFloat(at: $0) }, to: T.self)
        }
        if T.self == Int64.self {
            return unsafeBitCast(
                try primitive(offset, &end, errorPath) { try readInteger(Int64.self, at: $0) }, to: T.self)
        }
        if T.self == UInt64.self {
            return unsafeBitCast(
                try primitive(offset, &end, errorPath) { try readInteger(UInt64.self, at: $0) }, to: T.self)
        }
        if T.self == Int32.self {
            return unsafeBitCast(
                try primitive(offset, &end, errorPath) { try readInteger(Int32.self, at: $0) }, to: T.self)
        }
        if T.self == UInt32.self {
            return unsafeBitCast(
                try primitive(offset, &end, errorPath) { try readInteger(UInt32.self, at: $0) }, to: T.self)
        }
        if T.self == UInt8.self {
            return unsafeBitCast(
                try primitive(offset, &end, errorPath) { try readInteger(UInt8.self, at: $0) }, to: T.self)
        }
        return try decodeComposite(type, at: offset, path: path(), depth: depth, end: &end)
    }

    /// A primitive read by `read`, with the coding path added to its errors.
    @inline(__always)
    private func primitive<R>(
        _ offset: Int, _ end: inout Int, _ errorPath: () -> [any CodingKey], _ read: (Int) throws -> (R, Int)
    ) throws -> R {
        let (value, valueEnd) = try locating(errorPath) { try read(offset) }
        end = valueEnd
        return value
    }

    /// Decodes a value that is not a primitive through its `init(from:)`.
    private func decodeComposite<T: Decodable>(
        _ type: T.Type, at offset: Int, path: CodingPathNode?, depth: Int, end: inout Int
    ) throws -> T {
        let saved = (valueOffset, valuePath, valueDepth, valueContainer)
        valueOffset = offset
        valuePath = path
        valueDepth = depth
        valueContainer = -1
        defer { (valueOffset, valuePath, valueDepth, valueContainer) = saved }

        let value: T
        do {
            value = try T(from: self)
        } catch {
            // An error `allKeys` or `contains` could not throw is why the value failed, if there is one.
            throw deferredError ?? error
        }
        if let deferredError { throw deferredError }
        if valueContainer >= 0, containers[valueContainer].isFinished {
            end = containers[valueContainer].cursor
        } else {
            end = try locating({ CodingPathNode.path(of: path) }) { try skipValue(at: offset, depth: depth) }
        }
        return value
    }

    /// Runs `body`, giving a `CompactBinaryError` it throws without a coding path the path `path()`.
    @inline(__always)
    func locating<R>(_ path: () -> [any CodingKey], _ body: () throws -> R) throws -> R {
        do {
            return try body()
        } catch var error as CompactBinaryError where error.codingPath.isEmpty {
            error.codingPath = path()
            throw error
        }
    }

    func deferError(_ error: any Error) {
        if deferredError == nil, let error = error as? CompactBinaryError { deferredError = error }
    }

    // MARK: - Containers

    /// Reads the header of the array or map at `offset` and registers it; returns its state's number.
    func openContainer(tag expected: UInt8, at offset: Int, path: CodingPathNode?, depth: Int) throws -> Int {
        try locating({ CodingPathNode.path(of: path) }) {
            let what = expected == Tag.map ? "a map" : "an array"
            guard depth <= CompactBinaryFormat.maximumDepth else { throw tooDeep(at: offset) }
            let tag = try readTag(at: offset, expected: what)
            guard tag == expected else { throw unexpected(what, tag, at: offset) }
            let (count, start) = try readCount(at: offset + 1, bytesPerItem: expected == Tag.map ? 2 : 1)
            containers.append(ContainerState(offset: offset, start: start, count: count, depth: depth, cursor: start))
            return containers.count - 1
        }
    }

    /// Where the value of `name` starts in the map `state`, or nil if the map has no such key.
    @inline(__always)
    func locate(_ name: String, in state: Int) throws -> Location? {
        if containers[state].index < containers[state].count {
            let cursor = containers[state].cursor
            let (length, keyStart) = try readCount(at: cursor, bytesPerItem: 1)
            if keyEquals(name, start: keyStart, length: length) {
                return Location(valueStart: keyStart + length, entry: -1)
            }
        }
        return try lookUp(name, in: state)
    }

    /// The slow path of ``locate(_:in:)``: the map's entries, indexed on first use.
    private func lookUp(_ name: String, in state: Int) throws -> Location? {
        if containers[state].entries == nil { try indexEntries(of: state) }
        if let entryByKey = containers[state].entryByKey {
            guard let entry = entryByKey[name] else { return nil }
            return Location(valueStart: containers[state].entries?[entry].valueStart ?? 0, entry: entry)
        }
        for (number, entry) in (containers[state].entries ?? []).enumerated()
        where keyEquals(name, start: entry.keyStart, length: entry.keyEnd - entry.keyStart) {
            return Location(valueStart: entry.valueStart, entry: number)
        }
        return nil
    }

    /// Walks the whole map once, recording where every key and value lies.
    private func indexEntries(of state: Int) throws {
        let container = containers[state]
        var entries: [MapEntry] = []
        entries.reserveCapacity(container.count)
        var position = container.start
        for _ in 0..<container.count {
            let (length, keyStart) = try readCount(at: position, bytesPerItem: 1)
            let valueStart = keyStart + length
            let valueEnd = try skipValue(at: valueStart, depth: container.depth)
            entries.append(MapEntry(keyStart: keyStart, keyEnd: valueStart, valueStart: valueStart, valueEnd: valueEnd))
            position = valueEnd
        }
        if entries.count > Self.linearSearchLimit {
            var entryByKey: [String: Int] = [:]
            entryByKey.reserveCapacity(entries.count)
            for (number, entry) in entries.enumerated() {
                // A key that is not UTF-8 equals no `String`; the first of duplicate keys wins.
                if let key = makeString(entry.keyStart, entry.keyEnd),
                    entryByKey[key] == nil
                {
                    entryByKey[key] = number
                }
            }
            containers[state].entryByKey = entryByKey
        }
        containers[state].entries = entries
    }

    /// Moves the map's cursor past the entry of `location`, whose value ends at `end`.
    @inline(__always)
    func didDecode(_ location: Location, end: Int, in state: Int) {
        if location.entry < 0 {
            containers[state].index += 1
        } else {
            containers[state].index = location.entry + 1
        }
        containers[state].cursor = end
    }

    /// The keys of the map `state`, in order.
    func keys(of state: Int) throws -> [String] {
        if containers[state].entries == nil { try indexEntries(of: state) }
        return try (containers[state].entries ?? []).map { entry in
            guard let key = makeString(entry.keyStart, entry.keyEnd) else {
                throw CompactBinaryError(
                    .invalidUTF8, expected: "a UTF-8 key", found: "invalid UTF-8", offset: entry.keyStart)
            }
            return key
        }
    }

    /// The missing-key error of the map `state`.
    func missingKey(_ key: some CodingKey, in state: Int, path: CodingPathNode?) -> CompactBinaryError {
        let container = containers[state]
        return CompactBinaryError(
            .missingKey, expected: "key \"\(key.stringValue)\"",
            found: "a map of \(container.count) entries without it", offset: container.offset,
            codingPath: CodingPathNode.path(of: path))
    }

    /// Where the next element of the array `state` starts; an error past its end.
    @inline(__always)
    func nextElement(of state: Int, path: CodingPathNode?) throws -> Int {
        guard containers[state].index < containers[state].count else {
            throw CompactBinaryError(
                .invalidContainerUse, expected: "another element",
                found: "the end of an array of \(containers[state].count) elements", offset: containers[state].cursor,
                codingPath: CodingPathNode.path(of: path))
        }
        return containers[state].cursor
    }

    @inline(__always)
    func advanceElement(of state: Int, to end: Int) {
        containers[state].index += 1
        containers[state].cursor = end
    }

    func isNil(at offset: Int) -> Bool { offset < bytes.count && bytes[offset] == Tag.null }

    // MARK: - Reading

    func readTag(at offset: Int, expected: @autoclosure () -> String) throws -> UInt8 {
        guard offset < bytes.count else { throw truncated(expected(), at: offset) }
        return bytes[offset]
    }

    /// An unsigned LEB128 varint of at most 64 bits, and the offset after it.
    @inline(__always)
    func readVarint(at offset: Int) throws -> (UInt64, Int) {
        if offset < bytes.count, bytes[offset] < 0x80 { return (UInt64(bytes[offset]), offset + 1) }
        var value: UInt64 = 0
        var shift: UInt64 = 0
        var position = offset
        while true {
            guard position < bytes.count else { throw truncated("the rest of a varint", at: position) }
            let byte = bytes[position]
            position += 1
            if shift == 63, byte > 1 {
                throw CompactBinaryError(
                    .numberOutOfRange, expected: "a varint of at most 64 bits", found: "a longer one", offset: offset)
            }
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return (value, position) }
            shift += 7
        }
    }

    /// A count of items of at least `bytesPerItem` bytes each, which must fit in what is left.
    @inline(__always)
    func readCount(at offset: Int, bytesPerItem: Int) throws -> (Int, Int) {
        let (count, start) = try readVarint(at: offset)
        guard count <= UInt64(bytes.count - start) / UInt64(bytesPerItem) else {
            throw CompactBinaryError(
                .countExceedsInput, expected: "a count of at most \((bytes.count - start) / bytesPerItem)",
                found: "\(count)", offset: offset)
        }
        return (Int(count), start)
    }

    /// Whether the input bytes `start..<start + length` are the UTF-8 of `name` (eight bytes at a
    /// time: this runs for every key read).
    @inline(__always)
    func keyEquals(_ name: String, start: Int, length: Int) -> Bool {
        let utf8 = name.utf8
        let equal = utf8.withContiguousStorageIfAvailable { name in
            guard name.count == length else { return false }
            return bytes.withUnsafeBytes { input in
                let key = UnsafeRawBufferPointer(name)
                var position = 0
                while position + 8 <= length {
                    if key.loadUnaligned(fromByteOffset: position, as: UInt64.self)
                        != input.loadUnaligned(fromByteOffset: start + position, as: UInt64.self)
                    {
                        return false
                    }
                    position += 8
                }
                while position < length {
                    if key[position] != input[start + position] { return false }
                    position += 1
                }
                return true
            }
        }
        return equal ?? utf8.elementsEqual(bytes[start..<start + length])
    }

    func readNil(at offset: Int) throws -> (Bool, Int) {
        let tag = try readTag(at: offset, expected: "nil")
        return (tag == Tag.null, tag == Tag.null ? offset + 1 : offset)
    }

    func readBool(at offset: Int) throws -> (Bool, Int) {
        let tag = try readTag(at: offset, expected: "a boolean")
        switch tag {
        case Tag.false: return (false, offset + 1)
        case Tag.true: return (true, offset + 1)
        default: throw unexpected("a boolean", tag, at: offset)
        }
    }

    @inline(__always)
    func readInteger<I: FixedWidthInteger>(_ type: I.Type, at offset: Int) throws -> (I, Int) {
        let tag = try readTag(at: offset, expected: "an integer")
        switch tag {
        case Tag.signed:
            let (raw, end) = try readVarint(at: offset + 1)
            let value = ZigZag.decode(raw)
            guard let result = I(exactly: value) else { throw outOfRange(I.self, "\(value)", at: offset) }
            return (result, end)
        case Tag.unsigned:
            let (value, end) = try readVarint(at: offset + 1)
            guard let result = I(exactly: value) else { throw outOfRange(I.self, "\(value)", at: offset) }
            return (result, end)
        default:
            throw unexpected("an integer", tag, at: offset)
        }
    }

    func readDouble(at offset: Int) throws -> (Double, Int) {
        let tag = try readTag(at: offset, expected: "a floating-point number")
        guard tag == Tag.double else { throw unexpected("a floating-point number", tag, at: offset) }
        guard bytes.count - offset >= 9 else { throw truncated("8 bytes of a floating-point number", at: offset + 1) }
        let pattern = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset + 1, as: UInt64.self) }
        return (Double(bitPattern: UInt64(littleEndian: pattern)), offset + 9)
    }

    func readFloat(at offset: Int) throws -> (Float, Int) {
        let (value, end) = try readDouble(at: offset)
        guard !value.isFinite || value.magnitude <= Double(Float.greatestFiniteMagnitude) else {
            throw outOfRange(Float.self, "\(value)", at: offset)
        }
        return (Float(value), end)
    }

    func readString(at offset: Int) throws -> (String, Int) {
        let tag = try readTag(at: offset, expected: "a string")
        guard tag == Tag.string else { throw unexpected("a string", tag, at: offset) }
        let (length, start) = try readCount(at: offset + 1, bytesPerItem: 1)
        let end = start + length
        guard let string = makeString(start, end) else {
            throw CompactBinaryError(.invalidUTF8, expected: "a UTF-8 string", found: "invalid UTF-8", offset: start)
        }
        return (string, end)
    }

    /// The string of the input bytes `start..<end`, or nil if they are not UTF-8. ASCII (most keys
    /// and values) takes `String(decoding:)`, which is specialized for buffers; the generic
    /// `String(validating:as:)` looks up type metadata on every call.
    @inline(__always)
    func makeString(_ start: Int, _ end: Int) -> String? {
        bytes.withUnsafeBufferPointer { input in
            let utf8 = UnsafeBufferPointer(rebasing: input[start..<end])
            if Self.isASCII(utf8) { return String(decoding: utf8, as: UTF8.self) }
            return String(validating: utf8, as: UTF8.self)
        }
    }

    /// Whether no byte has its high bit set, eight bytes at a time.
    @inline(__always)
    static func isASCII(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        let raw = UnsafeRawBufferPointer(utf8)
        var position = 0
        while position + 8 <= raw.count {
            if raw.loadUnaligned(fromByteOffset: position, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 {
                return false
            }
            position += 8
        }
        while position < raw.count {
            if raw[position] >= 0x80 { return false }
            position += 1
        }
        return true
    }

    /// The offset just past the value at `offset` (enclosed by `depth` arrays and maps), found by
    /// walking its tags and counts without building anything.
    func skipValue(at offset: Int, depth: Int) throws -> Int {
        let tag = try readTag(at: offset, expected: "a value")
        switch tag {
        case Tag.null, Tag.false, Tag.true:
            return offset + 1
        case Tag.signed, Tag.unsigned:
            return try readVarint(at: offset + 1).1
        case Tag.double:
            guard bytes.count - offset >= 9 else {
                throw truncated("8 bytes of a floating-point number", at: offset + 1)
            }
            return offset + 9
        case Tag.string:
            let (length, start) = try readCount(at: offset + 1, bytesPerItem: 1)
            return start + length
        case Tag.array:
            guard depth < CompactBinaryFormat.maximumDepth else { throw tooDeep(at: offset) }
            let (count, start) = try readCount(at: offset + 1, bytesPerItem: 1)
            var position = start
            for _ in 0..<count { position = try skipValue(at: position, depth: depth + 1) }
            return position
        case Tag.map:
            guard depth < CompactBinaryFormat.maximumDepth else { throw tooDeep(at: offset) }
            let (count, start) = try readCount(at: offset + 1, bytesPerItem: 2)
            var position = start
            for _ in 0..<count {
                let (length, keyStart) = try readCount(at: position, bytesPerItem: 1)
                position = try skipValue(at: keyStart + length, depth: depth + 1)
            }
            return position
        default:
            throw unexpected("a value", tag, at: offset)
        }
    }

    // MARK: - Errors

    private func truncated(_ expected: String, at offset: Int) -> CompactBinaryError {
        CompactBinaryError(.truncated, expected: expected, found: "the end of the input", offset: offset)
    }

    private func unexpected(_ expected: String, _ tag: UInt8, at offset: Int) -> CompactBinaryError {
        CompactBinaryError(.unexpectedTag, expected: expected, found: Tag.describe(tag), offset: offset)
    }

    private func outOfRange(_ type: Any.Type, _ value: String, at offset: Int) -> CompactBinaryError {
        CompactBinaryError(.numberOutOfRange, expected: "a number that fits \(type)", found: value, offset: offset)
    }

    private func tooDeep(at offset: Int) -> CompactBinaryError {
        CompactBinaryError(
            .nestingTooDeep, expected: "at most \(CompactBinaryFormat.maximumDepth) nested arrays and maps",
            found: "more", offset: offset)
    }
}

/// The `Decoder` a `superDecoder()` returns: it reads the value of one entry.
struct PositionedDecoder: Decoder {
    let session: DecodingSession
    let offset: Int
    let path: CodingPathNode?
    /// Arrays and maps enclosing the value.
    let depth: Int

    var codingPath: [any CodingKey] { CodingPathNode.path(of: path) }
    var userInfo: [CodingUserInfoKey: Any] { session.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let state = try session.openContainer(tag: Tag.map, at: offset, path: path, depth: depth + 1)
        return KeyedDecodingContainer(DecodingSession.KeyedContainer<Key>(session: session, state: state, path: path))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let state = try session.openContainer(tag: Tag.array, at: offset, path: path, depth: depth + 1)
        return DecodingSession.UnkeyedContainer(session: session, state: state, path: path)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        DecodingSession.SingleValueContainer(session: session, offset: offset, path: path, depth: depth)
    }
}
