extension EncodingSession {
    /// The entries of one map.
    struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let session: EncodingSession
        let frameID: Int
        let path: CodingPathNode?

        var codingPath: [any CodingKey] { CodingPathNode.path(of: path) }

        mutating func encodeNil(forKey key: Key) throws {
            try session.beginEntry(in: frameID, key: key, path: path)
            session.writeNil()
        }

        mutating func encode(_ value: Bool, forKey key: Key) throws {
            try session.beginEntry(in: frameID, key: key, path: path)
            session.writeBool(value)
        }

        mutating func encode(_ value: String, forKey key: Key) throws {
            try session.beginEntry(in: frameID, key: key, path: path)
            session.writeString(value)
        }

        mutating func encode(_ value: Double, forKey key: Key) throws {
            try session.beginEntry(in: frameID, key: key, path: path)
            session.writeDouble(value)
        }

        mutating func encode(_ value: Float, forKey key: Key) throws {
            try session.beginEntry(in: frameID, key: key, path: path)
            session.writeDouble(Double(value))
        }

        mutating func encode(_ value: Int, forKey key: Key) throws { try signed(Int64(value), key) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { try signed(Int64(value), key) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { try signed(Int64(value), key) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { try signed(Int64(value), key) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { try signed(value, key) }
        mutating func encode(_ value: UInt, forKey key: Key) throws { try unsigned(UInt64(value), key) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { try unsigned(UInt64(value), key) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { try unsigned(UInt64(value), key) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { try unsigned(UInt64(value), key) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { try unsigned(value, key) }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            try session.beginEntry(in: frameID, key: key, path: path)
            try session.encodeValue(value, parent: path, key: key)
        }

        private func signed(_ value: Int64, _ key: Key) throws {
            try session.beginEntry(in: frameID, key: key, path: path)
            session.writeSigned(value)
        }

        private func unsigned(_ value: UInt64, _ key: Key) throws {
            try session.beginEntry(in: frameID, key: key, path: path)
            session.writeUnsigned(value)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type, forKey key: Key
        ) -> KeyedEncodingContainer<NestedKey> {
            let nestedPath = CodingPathNode(parent: path, key: key)
            let nestedID = session.openNestedContainer(tag: Tag.map, in: frameID, key: key, path: nestedPath)
            return KeyedEncodingContainer(
                KeyedContainer<NestedKey>(session: session, frameID: nestedID, path: nestedPath))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let nestedPath = CodingPathNode(parent: path, key: key)
            let nestedID = session.openNestedContainer(tag: Tag.array, in: frameID, key: key, path: nestedPath)
            return UnkeyedContainer(session: session, frameID: nestedID, path: nestedPath)
        }

        mutating func superEncoder() -> any Encoder {
            session.slotEncoder(in: frameID, key: SuperKey(), path: CodingPathNode(parent: path, key: SuperKey()))
        }

        mutating func superEncoder(forKey key: Key) -> any Encoder {
            session.slotEncoder(in: frameID, key: key, path: CodingPathNode(parent: path, key: key))
        }
    }

    /// The elements of one array.
    struct UnkeyedContainer: UnkeyedEncodingContainer {
        let session: EncodingSession
        let frameID: Int
        let path: CodingPathNode?
        private(set) var count = 0

        init(session: EncodingSession, frameID: Int, path: CodingPathNode?) {
            self.session = session
            self.frameID = frameID
            self.path = path
        }

        var codingPath: [any CodingKey] { CodingPathNode.path(of: path) }

        private mutating func beginElement() throws {
            try session.beginElement(in: frameID, path: path)
            count += 1
        }

        mutating func encodeNil() throws {
            try beginElement()
            session.writeNil()
        }

        mutating func encode(_ value: Bool) throws {
            try beginElement()
            session.writeBool(value)
        }

        mutating func encode(_ value: String) throws {
            try beginElement()
            session.writeString(value)
        }

        mutating func encode(_ value: Double) throws {
            try beginElement()
            session.writeDouble(value)
        }

        mutating func encode(_ value: Float) throws {
            try beginElement()
            session.writeDouble(Double(value))
        }

        mutating func encode(_ value: Int) throws { try signed(Int64(value)) }
        mutating func encode(_ value: Int8) throws { try signed(Int64(value)) }
        mutating func encode(_ value: Int16) throws { try signed(Int64(value)) }
        mutating func encode(_ value: Int32) throws { try signed(Int64(value)) }
        mutating func encode(_ value: Int64) throws { try signed(value) }
        mutating func encode(_ value: UInt) throws { try unsigned(UInt64(value)) }
        mutating func encode(_ value: UInt8) throws { try unsigned(UInt64(value)) }
        mutating func encode(_ value: UInt16) throws { try unsigned(UInt64(value)) }
        mutating func encode(_ value: UInt32) throws { try unsigned(UInt64(value)) }
        mutating func encode(_ value: UInt64) throws { try unsigned(value) }

        mutating func encode<T: Encodable>(_ value: T) throws {
            let index = count
            try beginElement()
            try session.encodeValue(value, parent: path, key: ArrayIndexKey(index))
        }

        private mutating func signed(_ value: Int64) throws {
            try beginElement()
            session.writeSigned(value)
        }

        private mutating func unsigned(_ value: UInt64) throws {
            try beginElement()
            session.writeUnsigned(value)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type
        ) -> KeyedEncodingContainer<NestedKey> {
            let nestedPath = CodingPathNode(parent: path, key: ArrayIndexKey(count))
            count += 1
            let nestedID = session.openNestedContainer(tag: Tag.map, in: frameID, key: nil, path: nestedPath)
            return KeyedEncodingContainer(
                KeyedContainer<NestedKey>(session: session, frameID: nestedID, path: nestedPath))
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let nestedPath = CodingPathNode(parent: path, key: ArrayIndexKey(count))
            count += 1
            let nestedID = session.openNestedContainer(tag: Tag.array, in: frameID, key: nil, path: nestedPath)
            return UnkeyedContainer(session: session, frameID: nestedID, path: nestedPath)
        }

        mutating func superEncoder() -> any Encoder {
            let nestedPath = CodingPathNode(parent: path, key: ArrayIndexKey(count))
            count += 1
            return session.slotEncoder(in: frameID, key: nil, path: nestedPath)
        }
    }

    /// The one value of a single value container, written where the container's value starts.
    struct SingleValueContainer: SingleValueEncodingContainer {
        let session: EncodingSession
        let start: Int
        let path: CodingPathNode?

        var codingPath: [any CodingKey] { CodingPathNode.path(of: path) }

        mutating func encodeNil() throws {
            try session.beginSingleValue(at: start, path: path)
            session.writeNil()
        }

        mutating func encode(_ value: Bool) throws {
            try session.beginSingleValue(at: start, path: path)
            session.writeBool(value)
        }

        mutating func encode(_ value: String) throws {
            try session.beginSingleValue(at: start, path: path)
            session.writeString(value)
        }

        mutating func encode(_ value: Double) throws {
            try session.beginSingleValue(at: start, path: path)
            session.writeDouble(value)
        }

        mutating func encode(_ value: Float) throws {
            try session.beginSingleValue(at: start, path: path)
            session.writeDouble(Double(value))
        }

        mutating func encode(_ value: Int) throws { try signed(Int64(value)) }
        mutating func encode(_ value: Int8) throws { try signed(Int64(value)) }
        mutating func encode(_ value: Int16) throws { try signed(Int64(value)) }
        mutating func encode(_ value: Int32) throws { try signed(Int64(value)) }
        mutating func encode(_ value: Int64) throws { try signed(value) }
        mutating func encode(_ value: UInt) throws { try unsigned(UInt64(value)) }
        mutating func encode(_ value: UInt8) throws { try unsigned(UInt64(value)) }
        mutating func encode(_ value: UInt16) throws { try unsigned(UInt64(value)) }
        mutating func encode(_ value: UInt32) throws { try unsigned(UInt64(value)) }
        mutating func encode(_ value: UInt64) throws { try unsigned(value) }

        mutating func encode<T: Encodable>(_ value: T) throws {
            try session.beginSingleValue(at: start, path: path)
            try session.encodeValue(value, path: path)
        }

        private func signed(_ value: Int64) throws {
            try session.beginSingleValue(at: start, path: path)
            session.writeSigned(value)
        }

        private func unsigned(_ value: UInt64) throws {
            try session.beginSingleValue(at: start, path: path)
            session.writeUnsigned(value)
        }
    }
}
