/// Encodes `Encodable` values in the CompactBinary format (``CompactBinaryFormat``).
///
/// The value is written straight into one growing buffer, in the order the containers are
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
        return session.output.bytes
    }
}

/// The state of one `encode` call, and the `Encoder` of every value in it (each nested value
/// sets ``valueStart`` and ``valuePath`` while its `encode(to:)` runs, then restores them).
///
/// A session lives inside one `encode` call on one thread and never hands out its properties
/// `inout`, so its mutable properties opt out of the runtime's exclusivity checks (about a sixth
/// of the coding time under `perf`).
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

    /// The payload so far.
    let output = OutputBuffer(capacity: 1024)
    let userInfo: [CodingUserInfoKey: Any]
    /// Open containers, innermost last.
    @exclusivity(unchecked) private var frames: [Frame] = []
    @exclusivity(unchecked) private var nextFrameID = 0
    /// Where the value being encoded through the `Encoder` methods starts.
    @exclusivity(unchecked) private var valueStart = 0
    @exclusivity(unchecked) private var valuePath: CodingPathNode?
    /// How many frames were open when the current value began: writing into one of those while the
    /// value is unfinished would put bytes inside it.
    @exclusivity(unchecked) private var floor = 0
    /// An error from a method that cannot throw (`nestedContainer`, `superEncoder`, opening a
    /// container too deep), thrown by the next write through that container or at the end.
    @exclusivity(unchecked) private var deferredError: CompactBinaryError?

    init(userInfo: [CodingUserInfoKey: Any]) {
        self.userInfo = userInfo
        frames.reserveCapacity(8)
    }

    var codingPath: [any CodingKey] { CodingPathNode.path(of: valuePath) }

    func encodeTopLevel<T: Encodable>(_ value: T) throws {
        try encodeValue(value, path: nil)
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

    /// Writes `value` at the end of the output, as the entry `key` of the innermost container.
    @inline(__always)
    func encodeValue<T: Encodable>(_ value: T, parent: CodingPathNode?, key: some CodingKey) throws {
        if writePrimitive(value) { return }
        try encodeComposite(value, path: CodingPathNode(parent: parent, key: key))
    }

    /// Writes `value` at the end of the output, with the coding path `path` (a single value).
    func encodeValue<T: Encodable>(_ value: T, path: CodingPathNode?) throws {
        if writePrimitive(value) { return }
        try encodeComposite(value, path: path)
    }

    /// Writes `value` if it is a primitive; arrays and optionals of primitives reach the generic
    /// `encode` methods, and this spares them a trip through `encode(to:)`.
    @inline(__always)
    private func writePrimitive<T: Encodable>(_ value: T) -> Bool {
        if T.self == String.self {
            writeString(unsafeBitCast(value, to: String.self))
        } else if T.self == Int.self {
            writeSigned(Int64(unsafeBitCast(value, to: Int.self)))
        } else if T.self == Bool.self {
            writeBool(unsafeBitCast(value, to: Bool.self))
        } else if T.self == Double.self {
            writeDouble(unsafeBitCast(value, to: Double.self))
        } else if T.self == Float.self {
            writeDouble(Double(unsafeBitCast(value, to: Float.self)))
        } else if T.self == Int64.self {
            writeSigned(unsafeBitCast(value, to: Int64.self))
        } else if T.self == UInt64.self {
            writeUnsigned(unsafeBitCast(value, to: UInt64.self))
        } else if T.self == Int32.self {
            writeSigned(Int64(unsafeBitCast(value, to: Int32.self)))
        } else if T.self == UInt32.self {
            writeUnsigned(UInt64(unsafeBitCast(value, to: UInt32.self)))
        } else if T.self == UInt8.self {
            writeUnsigned(UInt64(unsafeBitCast(value, to: UInt8.self)))
        } else if T.self == UInt.self {
            writeUnsigned(UInt64(unsafeBitCast(value, to: UInt.self)))
        } else {
            return false
        }
        return true
    }

    /// Writes a value that is not a primitive through its `encode(to:)`.
    private func encodeComposite<T: Encodable>(_ value: T, path: CodingPathNode?) throws {
        let saved = (valueStart, valuePath, floor)
        valueStart = output.count
        valuePath = path
        floor = frames.count
        defer { (valueStart, valuePath, floor) = saved }

        try value.encode(to: self)
        while frames.count > floor { closeInnermostFrame() }
        if output.count == valueStart { writeEmptyMap() }
    }

    // MARK: - Containers

    /// Starts the array or map of the value at `start`, or returns the one already started there
    /// (a class and its superclass asking the same encoder for a keyed container share one map).
    /// Returns the frame id; -1 (which every write rejects) when the value already holds something else.
    func openContainer(tag: UInt8, at start: Int, path: CodingPathNode?) -> Int {
        if output.count == start { return openFrame(tag: tag, path: path) }
        if start >= 0, start < output.count, output[start] == tag,
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
        output.append(tag)
        let id = nextFrameID
        nextFrameID += 1
        frames.append(Frame(id: id, countOffset: output.count))
        output.append(0)
        return id
    }

    /// Prepares the next entry of a map: finishes the containers opened inside it since its last
    /// entry, counts the entry and writes `key`.
    @inline(__always)
    func beginEntry<Key: CodingKey>(in frameID: Int, key: Key, path: CodingPathNode?) throws {
        let index = try innermostFrame(frameID) ?? reopenFrame(frameID, key: key, path: path)
        countEntry(at: index)
        writeKey(key.stringValue)
    }

    /// Prepares the next element of an array, as ``beginEntry(in:key:path:)`` does for maps.
    @inline(__always)
    func beginElement(in frameID: Int, path: CodingPathNode?) throws {
        countEntry(at: try innermostFrame(frameID) ?? reopenFrame(frameID, key: nil, path: path))
    }

    /// The frame's index if it is the innermost one and belongs to the current value (the usual case).
    @inline(__always)
    private func innermostFrame(_ frameID: Int) -> Int? {
        let index = frames.count - 1
        return index >= floor && frames[index].id == frameID ? index : nil
    }

    /// The frame's index after finishing the frames opened inside it; an error if it is finished
    /// or belongs to an enclosing value.
    private func reopenFrame(_ frameID: Int, key: (any CodingKey)?, path: CodingPathNode?) throws -> Int {
        guard let index = frames.lastIndex(where: { $0.id == frameID }), index >= floor else {
            if frameID < 0, let deferredError { throw deferredError }
            let codingPath = key.map { CodingPathNode.path(of: path, appending: $0) } ?? CodingPathNode.path(of: path)
            throw CompactBinaryError(
                .invalidContainerUse, expected: "a container that is still open",
                found: "one finished by a write to an enclosing container", offset: output.count,
                codingPath: codingPath)
        }
        while frames.count - 1 > index { closeInnermostFrame() }
        return index
    }

    @inline(__always)
    private func countEntry(at index: Int) {
        if let slot = frames[index].pendingSlot {
            if slot == output.count { writeEmptyMap() }
            frames[index].pendingSlot = nil
        }
        frames[index].count += 1
    }

    /// Begins an entry (with `key`) or an element (without), for the methods that cannot throw.
    private func beginEntryOrElement(in frameID: Int, key: (any CodingKey)?, path: CodingPathNode?) throws {
        if let key {
            try beginEntry(in: frameID, key: key, path: path)
        } else {
            try beginElement(in: frameID, path: path)
        }
    }

    /// A nested container's frame, opened after its entry was begun in the container `frameID`.
    func openNestedContainer(tag: UInt8, in frameID: Int, key: (any CodingKey)?, path: CodingPathNode?) -> Int {
        do {
            try beginEntryOrElement(in: frameID, key: key, path: path)
        } catch {
            deferredError = deferredError ?? error as? CompactBinaryError
            return -1
        }
        return openFrame(tag: tag, path: path)
    }

    /// An encoder for the value of a new entry of the container `frameID` (`superEncoder()`).
    func slotEncoder(in frameID: Int, key: (any CodingKey)?, path: CodingPathNode?) -> SlotEncoder {
        do {
            try beginEntryOrElement(in: frameID, key: key, path: path)
        } catch {
            deferredError = deferredError ?? error as? CompactBinaryError
            return SlotEncoder(session: self, start: -1, path: path)
        }
        frames[frames.count - 1].pendingSlot = output.count
        return SlotEncoder(session: self, start: output.count, path: path)
    }

    /// Checks that nothing was written yet at `start`, where a single value container writes.
    func beginSingleValue(at start: Int, path: CodingPathNode?) throws {
        guard output.count == start else {
            throw CompactBinaryError(
                .invalidContainerUse, expected: "one value in a single value container", found: "a second one",
                offset: output.count, codingPath: CodingPathNode.path(of: path))
        }
    }

    private func closeInnermostFrame() {
        let frame = frames.removeLast()
        if frame.pendingSlot == output.count { writeEmptyMap() }
        if frame.count < 0x80 {
            output[frame.countOffset] = UInt8(truncatingIfNeeded: frame.count)
        } else {
            var count: [UInt8] = []
            var rest = UInt64(frame.count)
            while rest >= 0x80 {
                count.append(UInt8(truncatingIfNeeded: rest) | 0x80)
                rest >>= 7
            }
            count.append(UInt8(truncatingIfNeeded: rest))
            output.replaceByte(at: frame.countOffset, with: count)
        }
    }

    private func deferError(
        _ reason: CompactBinaryError.Reason, expected: String, found: String, _ path: CodingPathNode?
    ) {
        if deferredError == nil {
            deferredError = CompactBinaryError(
                reason, expected: expected, found: found, offset: output.count,
                codingPath: CodingPathNode.path(of: path))
        }
    }

    // MARK: - Writing

    func writeNil() { output.append(Tag.null) }

    func writeBool(_ value: Bool) { output.append(value ? Tag.true : Tag.false) }

    func writeSigned(_ value: Int64) {
        output.append(Tag.signed)
        output.appendVarint(ZigZag.encode(value))
    }

    func writeUnsigned(_ value: UInt64) {
        output.append(Tag.unsigned)
        output.appendVarint(value)
    }

    func writeDouble(_ value: Double) {
        output.append(Tag.double)
        let pattern = value.bitPattern
        for shift in stride(from: 0, to: 64, by: 8) { output.append(UInt8(truncatingIfNeeded: pattern >> shift)) }
    }

    func writeString(_ value: String) {
        output.append(Tag.string)
        writeKey(value)
    }

    /// A string without its tag: byte count, then UTF-8 (how map keys are written).
    func writeKey(_ value: String) {
        var value = value
        // One copy of a contiguous buffer, rather than the `utf8` view's generic collection path.
        value.withUTF8 { utf8 in
            output.appendVarint(UInt64(utf8.count))
            output.append(utf8)
        }
    }

    private func writeEmptyMap() {
        output.append(Tag.map)
        output.append(0)
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
