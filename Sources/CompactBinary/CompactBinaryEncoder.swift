/// Encodes `Encodable` values in the CompactBinary format (``CompactBinaryFormat``).
///
/// The value is written straight into one growing byte array, in the order the containers are
/// filled: an array's or map's count is written as one placeholder byte and patched when the
/// container is finished (the rare container of 128 entries or more shifts its contents once).
/// So a container is finished when anything is written to an enclosing container; using it after
/// that (which synthesized code never does) is a ``CompactBinaryError``, not a corrupt payload.
public struct CompactBinaryEncoder: Sendable {
    /// Handed to `encode(to:)` implementations as `Encoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    public init() {}

    /// The bytes of `value`; they decode with ``CompactBinaryDecoder`` into an equal value.
    public func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        let session = EncodingSession(userInfo: userInfo.isEmpty ? [:] : userInfo.mapValues { $0 as Any })
        try session.encodeTopLevel(value)
        return session.bytes
    }
}

/// The state of one `encode` call, and the `Encoder` of every value in it (each nested value
/// sets ``valueStart`` and ``valuePath`` while its `encode(to:)` runs, then restores them).
final class EncodingSession: Encoder {
    /// An array or map that is still open: its count is patched in when it is finished.
    private struct Frame {
        let id: Int
        let countOffset: Int
        var count = 0
        /// Where the value of a `superEncoder()` entry starts; still empty when the frame moves on
        /// means the encoder was never used, and the entry gets an empty map.
        var pendingSlot: Int?
    }

    private(set) var bytes: [UInt8] = []
    let userInfo: [CodingUserInfoKey: Any]
    /// Open containers, innermost last.
    private var frames: [Frame] = []
    private var nextFrameID = 0
    /// Where the value being encoded through the `Encoder` methods starts.
    private var valueStart = 0
    private var valuePath: CodingPathNode?
    /// How many frames were open when the current value began: writing into one of those while the
    /// value is unfinished would put bytes inside it.
    private var floor = 0
    /// An error from a method that cannot throw (`nestedContainer`, `superEncoder`, opening a
    /// container too deep), thrown by the next write through that container or at the end.
    private var deferredError: CompactBinaryError?

    init(userInfo: [CodingUserInfoKey: Any]) {
        self.userInfo = userInfo
        bytes.reserveCapacity(256)
    }

    var codingPath: [any CodingKey] { CodingPathNode.path(of: valuePath) }

    func encodeTopLevel<T: Encodable>(_ value: T) throws {
        try encodeValue(value, parent: nil, key: nil)
        if let deferredError { throw deferredError }
    }

    // MARK: - Encoder

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let frameID = openContainer(tag: Tag.map, at: valueStart, path: valuePath)
        return KeyedEncodingContainer(KeyedContainer<Key>(session: self, frameID: frameID, path: valuePath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        UnkeyedContainer(
            session: self, frameID: openContainer(tag: Tag.array, at: valueStart, path: valuePath), path: valuePath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueContainer(session: self, start: valueStart, path: valuePath)
    }

    // MARK: - Values

    /// Writes `value` at the end of the output, as the current entry of the innermost container.
    func encodeValue<T: Encodable>(_ value: T, parent: CodingPathNode?, key: (any CodingKey)?) throws {
        // Arrays and optionals of primitives reach here through the generic `encode`.
        if T.self == String.self { return writeString(unsafeBitCast(value, to: String.self)) }
        if T.self == Int.self { return writeSigned(Int64(unsafeBitCast(value, to: Int.self))) }
        if T.self == Bool.self { return writeBool(unsafeBitCast(value, to: Bool.self)) }
        if T.self == Double.self { return writeDouble(unsafeBitCast(value, to: Double.self)) }
        if T.self == Float.self { return writeDouble(Double(unsafeBitCast(value, to: Float.self))) }
        if T.self == Int64.self { return writeSigned(unsafeBitCast(value, to: Int64.self)) }
        if T.self == UInt64.self { return writeUnsigned(unsafeBitCast(value, to: UInt64.self)) }
        if T.self == Int32.self { return writeSigned(Int64(unsafeBitCast(value, to: Int32.self))) }
        if T.self == UInt32.self { return writeUnsigned(UInt64(unsafeBitCast(value, to: UInt32.self))) }
        if T.self == UInt8.self { return writeUnsigned(UInt64(unsafeBitCast(value, to: UInt8.self))) }
        if T.self == UInt.self { return writeUnsigned(UInt64(unsafeBitCast(value, to: UInt.self))) }

        let saved = (valueStart, valuePath, floor)
        valueStart = bytes.count
        if let key { valuePath = CodingPathNode(parent: parent, key: key) } else { valuePath = parent }
        floor = frames.count
        defer { (valueStart, valuePath, floor) = saved }

        try value.encode(to: self)
        while frames.count > floor { closeInnermostFrame() }
        if bytes.count == valueStart { writeEmptyMap() }
    }

    // MARK: - Containers

    /// Starts the array or map of the value at `start`, or returns the one already started there
    /// (a class and its superclass asking the same encoder for a keyed container share one map).
    /// Returns the frame id; -1 (which every write rejects) when the value already holds something else.
    func openContainer(tag: UInt8, at start: Int, path: CodingPathNode?) -> Int {
        if bytes.count == start { return openFrame(tag: tag, path: path) }
        if start >= 0, start < bytes.count, bytes[start] == tag,
            let frame = frames.last(where: { $0.countOffset == start + 1 })
        {
            return frame.id
        }
        deferError(.invalidContainerUse, expected: "one container or value per value", found: "a second one", path)
        return -1
    }

    /// Writes the tag and a placeholder count of a new array or map and opens its frame.
    private func openFrame(tag: UInt8, path: CodingPathNode?) -> Int {
        guard frames.count < CompactBinaryFormat.maximumDepth else {
            deferError(
                .nestingTooDeep, expected: "at most \(CompactBinaryFormat.maximumDepth) nested arrays and maps",
                found: "more", path)
            return -1
        }
        bytes.append(tag)
        let id = nextFrameID
        nextFrameID += 1
        frames.append(Frame(id: id, countOffset: bytes.count))
        bytes.append(0)
        return id
    }

    /// Prepares the next entry or element of a container: finishes the containers opened inside it
    /// since its last entry, writes `key` (for maps) and counts the entry.
    @inline(__always)
    func beginEntry(in frameID: Int, key: (any CodingKey)?, path: CodingPathNode?) throws {
        var index = frames.count - 1
        if index < floor || frames[index].id != frameID {
            index = try frameIndex(of: frameID, key: key, path: path)
            while frames.count - 1 > index { closeInnermostFrame() }
        }
        if let slot = frames[index].pendingSlot {
            if slot == bytes.count { writeEmptyMap() }
            frames[index].pendingSlot = nil
        }
        frames[index].count += 1
        if let key { writeKey(key.stringValue) }
    }

    private func frameIndex(of frameID: Int, key: (any CodingKey)?, path: CodingPathNode?) throws -> Int {
        if let index = frames.lastIndex(where: { $0.id == frameID }), index >= floor { return index }
        if frameID < 0, let deferredError { throw deferredError }
        let codingPath = key.map { CodingPathNode.path(of: path, appending: $0) } ?? CodingPathNode.path(of: path)
        throw CompactBinaryError(
            .invalidContainerUse, expected: "a container that is still open",
            found: "one finished by a write to an enclosing container", offset: bytes.count, codingPath: codingPath)
    }

    /// A nested container's frame, opened after its entry was begun in the container `frameID`.
    func openNestedContainer(tag: UInt8, in frameID: Int, key: (any CodingKey)?, path: CodingPathNode?) -> Int {
        do {
            try beginEntry(in: frameID, key: key, path: path)
        } catch {
            deferredError = deferredError ?? error as? CompactBinaryError
            return -1
        }
        return openFrame(tag: tag, path: path)
    }

    /// An encoder for the value of a new entry of the container `frameID` (`superEncoder()`).
    func slotEncoder(in frameID: Int, key: (any CodingKey)?, path: CodingPathNode?) -> SlotEncoder {
        do {
            try beginEntry(in: frameID, key: key, path: path)
        } catch {
            deferredError = deferredError ?? error as? CompactBinaryError
            return SlotEncoder(session: self, start: -1, path: path)
        }
        frames[frames.count - 1].pendingSlot = bytes.count
        return SlotEncoder(session: self, start: bytes.count, path: path)
    }

    /// Checks that nothing was written yet at `start`, where a single value container writes.
    func beginSingleValue(at start: Int, path: CodingPathNode?) throws {
        guard bytes.count == start else {
            throw CompactBinaryError(
                .invalidContainerUse, expected: "one value in a single value container", found: "a second one",
                offset: bytes.count, codingPath: CodingPathNode.path(of: path))
        }
    }

    private func closeInnermostFrame() {
        let frame = frames.removeLast()
        if frame.pendingSlot == bytes.count { writeEmptyMap() }
        if frame.count < 0x80 {
            bytes[frame.countOffset] = UInt8(truncatingIfNeeded: frame.count)
        } else {
            var count: [UInt8] = []
            var rest = UInt64(frame.count)
            while rest >= 0x80 {
                count.append(UInt8(truncatingIfNeeded: rest) | 0x80)
                rest >>= 7
            }
            count.append(UInt8(truncatingIfNeeded: rest))
            bytes.replaceSubrange(frame.countOffset..<frame.countOffset + 1, with: count)
        }
    }

    private func deferError(
        _ reason: CompactBinaryError.Reason, expected: String, found: String, _ path: CodingPathNode?
    ) {
        if deferredError == nil {
            deferredError = CompactBinaryError(
                reason, expected: expected, found: found, offset: bytes.count,
                codingPath: CodingPathNode.path(of: path))
        }
    }

    // MARK: - Writing

    @inline(__always)
    private func writeVarint(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(truncatingIfNeeded: rest))
    }

    func writeNil() { bytes.append(Tag.null) }

    func writeBool(_ value: Bool) { bytes.append(value ? Tag.true : Tag.false) }

    func writeSigned(_ value: Int64) {
        bytes.append(Tag.signed)
        writeVarint(ZigZag.encode(value))
    }

    func writeUnsigned(_ value: UInt64) {
        bytes.append(Tag.unsigned)
        writeVarint(value)
    }

    func writeDouble(_ value: Double) {
        bytes.append(Tag.double)
        var pattern = value.bitPattern.littleEndian
        withUnsafeBytes(of: &pattern) { bytes.append(contentsOf: $0) }
    }

    func writeString(_ value: String) {
        bytes.append(Tag.string)
        writeKey(value)
    }

    /// A string without its tag: byte count, then UTF-8 (how map keys are written).
    func writeKey(_ value: String) {
        let utf8 = value.utf8
        writeVarint(UInt64(utf8.count))
        bytes.append(contentsOf: utf8)
    }

    private func writeEmptyMap() {
        bytes.append(Tag.map)
        bytes.append(0)
    }
}

/// The `Encoder` a `superEncoder()` returns: it writes the value of the entry begun for it.
struct SlotEncoder: Encoder {
    let session: EncodingSession
    /// Where the value goes; -1 when the entry could not be begun.
    let start: Int
    let path: CodingPathNode?

    var codingPath: [any CodingKey] { CodingPathNode.path(of: path) }
    var userInfo: [CodingUserInfoKey: Any] { session.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let frameID = session.openContainer(tag: Tag.map, at: start, path: path)
        return KeyedEncodingContainer(
            EncodingSession.KeyedContainer<Key>(session: session, frameID: frameID, path: path))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        EncodingSession.UnkeyedContainer(
            session: session, frameID: session.openContainer(tag: Tag.array, at: start, path: path), path: path)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        EncodingSession.SingleValueContainer(session: session, start: start, path: path)
    }
}
