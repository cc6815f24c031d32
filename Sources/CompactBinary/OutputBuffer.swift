/// The growing output of one encode: raw memory it owns, appended to with no uniqueness or
/// generic-collection checks (appending to a `[UInt8]` cost over 100 instructions a string).
/// Only ``EncodingSession`` uses it, inside one `encode` call.
final class OutputBuffer {
    @exclusivity(unchecked) private var storage: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var capacity: Int
    @exclusivity(unchecked) private(set) var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        storage = UnsafeMutablePointer<UInt8>.allocate(capacity: self.capacity)
    }

    deinit { storage.deallocate() }

    /// The bytes written, as an array.
    var bytes: [UInt8] { Array(UnsafeBufferPointer(start: storage, count: count)) }

    subscript(offset: Int) -> UInt8 {
        get {
            precondition(offset >= 0 && offset < count)
            return storage[offset]
        }
        set {
            precondition(offset >= 0 && offset < count)
            storage[offset] = newValue
        }
    }

    @inline(__always)
    func append(_ byte: UInt8) {
        if count == capacity { grow(toHold: 1) }
        storage[count] = byte
        count += 1
    }

    @inline(__always)
    func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        if capacity - count < bytes.count { grow(toHold: bytes.count) }
        (storage + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    /// An unsigned LEB128 varint.
    @inline(__always)
    func appendVarint(_ value: UInt64) {
        if capacity - count < 10 { grow(toHold: 10) }
        var rest = value
        while rest >= 0x80 {
            storage[count] = UInt8(truncatingIfNeeded: rest) | 0x80
            count += 1
            rest >>= 7
        }
        storage[count] = UInt8(truncatingIfNeeded: rest)
        count += 1
    }

    /// Replaces the byte at `offset` with `bytes`, moving everything after it along.
    func replaceByte(at offset: Int, with bytes: [UInt8]) {
        precondition(offset >= 0 && offset < count && !bytes.isEmpty)
        let extra = bytes.count - 1
        if capacity - count < extra { grow(toHold: extra) }
        UnsafeMutableRawPointer(storage + offset + 1 + extra).copyMemory(
            from: storage + offset + 1, byteCount: count - offset - 1)
        for (index, byte) in bytes.enumerated() { storage[offset + index] = byte }
        count += extra
    }

    private func grow(toHold extra: Int) {
        let newCapacity = max(capacity * 2, count + extra)
        let newStorage = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newStorage.initialize(from: storage, count: count)
        storage.deallocate()
        storage = newStorage
        capacity = newCapacity
    }
}
