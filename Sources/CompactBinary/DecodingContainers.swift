extension DecodingSession {
    /// The entries of one map, read through the map's cursor (``DecodingSession/locate(_:in:)``).
    struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let session: DecodingSession
        let state: Int
        let path: CodingPathNode?

        var codingPath: [any CodingKey] { CodingPathNode.path(of: path) }
        /// Arrays and maps enclosing the entries' values, this map included.
        private var depth: Int { session.containers[state].depth }

        var allKeys: [Key] {
            do {
                return try session.locating({ codingPath }) { try session.keys(of: state) }.compactMap {
                    Key(stringValue: $0)
                }
            } catch {
                session.deferError(error)
                return []
            }
        }

        func contains(_ key: Key) -> Bool {
            do {
                return try find(key.stringValue) != nil
            } catch {
                session.deferError(error)
                return false
            }
        }

        private func find(_ name: String) throws -> Location? {
            try session.locating({ codingPath }) { try session.locate(name, in: state) }
        }

        private func require(_ key: some CodingKey) throws -> Location {
            guard let location = try find(key.stringValue) else { throw session.missingKey(key, in: state, path: path) }
            return location
        }

        func decodeNil(forKey key: Key) throws -> Bool {
            let location = try require(key)
            guard session.isNil(at: location.valueStart) else { return false }
            session.didDecode(location, end: location.valueStart + 1, in: state)
            return true
        }

        /// The primitive under `key` (found at `location`), read by `read`.
        @inline(__always)
        private func read<R>(_ location: Location, _ key: Key, _ read: (Int) throws -> (R, Int)) throws -> R {
            let (value, end) = try session.locating({ CodingPathNode.path(of: path, appending: key) }) {
                try read(location.valueStart)
            }
            session.didDecode(location, end: end, in: state)
            return value
        }

        @inline(__always)
        private func primitive<R>(_ key: Key, _ read: (Int) throws -> (R, Int)) throws -> R {
            try self.read(try require(key), key, read)
        }

        /// Nil for a missing key or a nil value, as `decodeIfPresent` wants, in one lookup.
        @inline(__always)
        private func primitiveIfPresent<R>(_ key: Key, _ read: (Int) throws -> (R, Int)) throws -> R? {
            guard let location = try find(key.stringValue) else { return nil }
            if session.isNil(at: location.valueStart) {
                session.didDecode(location, end: location.valueStart + 1, in: state)
                return nil
            }
            return try self.read(location, key, read)
        }

        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
            try primitive(key) { try session.readBool(at: $0) }
        }
        func decode(_ type: String.Type, forKey key: Key) throws -> String {
            try primitive(key) { try session.readString(at: $0) }
        }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
            try primitive(key) { try session.readDouble(at: $0) }
        }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
            try primitive(key) { try session.readFloat(at: $0) }
        }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(key) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(key) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(key) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(key) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(key) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(key) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(key) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(key) }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(key) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(key) }

        @inline(__always)
        private func integer<I: FixedWidthInteger>(_ key: Key) throws -> I {
            try primitive(key) { try session.readInteger(I.self, at: $0) }
        }

        func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
            try primitiveIfPresent(key) { try session.readBool(at: $0) }
        }
        func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
            try primitiveIfPresent(key) { try session.readString(at: $0) }
        }
        func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
            try primitiveIfPresent(key) { try session.readDouble(at: $0) }
        }
        func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
            try primitiveIfPresent(key) { try session.readFloat(at: $0) }
        }
        func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try integerIfPresent(key) }
        func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try integerIfPresent(key) }
        func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try integerIfPresent(key) }
        func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try integerIfPresent(key) }
        func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try integerIfPresent(key) }
        func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try integerIfPresent(key) }
        func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try integerIfPresent(key) }
        func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try integerIfPresent(key) }
        func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try integerIfPresent(key) }
        func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try integerIfPresent(key) }

        @inline(__always)
        private func integerIfPresent<I: FixedWidthInteger>(_ key: Key) throws -> I? {
            try primitiveIfPresent(key) { try session.readInteger(I.self, at: $0) }
        }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            try decodeValue(type, at: try require(key), key)
        }

        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            guard let location = try find(key.stringValue) else { return nil }
            if session.isNil(at: location.valueStart) {
                session.didDecode(location, end: location.valueStart + 1, in: state)
                return nil
            }
            return try decodeValue(type, at: location, key)
        }

        private func decodeValue<T: Decodable>(_ type: T.Type, at location: Location, _ key: Key) throws -> T {
            var end = 0
            let value = try session.decodeValue(
                type, at: location.valueStart, parent: path, key: key, depth: depth, end: &end)
            session.didDecode(location, end: end, in: state)
            return value
        }

        /// Moves past the entry at `location` without decoding it (for nested containers and
        /// `superDecoder`, which read it later).
        private func skip(_ location: Location, _ nestedPath: CodingPathNode) throws {
            let end = try session.locating({ CodingPathNode.path(of: nestedPath) }) {
                try session.skipValue(at: location.valueStart, depth: depth)
            }
            session.didDecode(location, end: end, in: state)
        }

        func nestedContainer<NestedKey: CodingKey>(
            keyedBy type: NestedKey.Type, forKey key: Key
        ) throws -> KeyedDecodingContainer<NestedKey> {
            let location = try require(key)
            let nestedPath = CodingPathNode(parent: path, key: key)
            let nested = try session.openContainer(
                tag: Tag.map, at: location.valueStart, path: nestedPath, depth: depth + 1)
            try skip(location, nestedPath)
            return KeyedDecodingContainer(KeyedContainer<NestedKey>(session: session, state: nested, path: nestedPath))
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            let location = try require(key)
            let nestedPath = CodingPathNode(parent: path, key: key)
            let nested = try session.openContainer(
                tag: Tag.array, at: location.valueStart, path: nestedPath, depth: depth + 1)
            try skip(location, nestedPath)
            return UnkeyedContainer(session: session, state: nested, path: nestedPath)
        }

        func superDecoder() throws -> any Decoder { try superDecoder(SuperKey()) }

        func superDecoder(forKey key: Key) throws -> any Decoder { try superDecoder(key) }

        private func superDecoder(_ key: some CodingKey) throws -> any Decoder {
            let location = try require(key)
            let nestedPath = CodingPathNode(parent: path, key: key)
            try skip(location, nestedPath)
            return PositionedDecoder(session: session, offset: location.valueStart, path: nestedPath, depth: depth)
        }
    }

    /// The elements of one array, read in order.
    struct UnkeyedContainer: UnkeyedDecodingContainer {
        let session: DecodingSession
        let state: Int
        let path: CodingPathNode?

        var codingPath: [any CodingKey] { CodingPathNode.path(of: path) }
        var count: Int? { session.containers[state].count }
        var isAtEnd: Bool { session.containers[state].isFinished }
        var currentIndex: Int { session.containers[state].index }
        /// Arrays and maps enclosing the elements, this array included.
        private var depth: Int { session.containers[state].depth }

        private var elementPath: [any CodingKey] {
            CodingPathNode.path(of: path, appending: ArrayIndexKey(currentIndex))
        }

        mutating func decodeNil() throws -> Bool {
            let offset = try session.nextElement(of: state, path: path)
            let (isNil, end) = try session.locating({ elementPath }) { try session.readNil(at: offset) }
            if isNil { session.advanceElement(of: state, to: end) }
            return isNil
        }

        @inline(__always)
        private func primitive<R>(_ read: (Int) throws -> (R, Int)) throws -> R {
            let offset = try session.nextElement(of: state, path: path)
            let (value, end) = try session.locating({ elementPath }) { try read(offset) }
            session.advanceElement(of: state, to: end)
            return value
        }

        mutating func decode(_ type: Bool.Type) throws -> Bool { try primitive { try session.readBool(at: $0) } }
        mutating func decode(_ type: String.Type) throws -> String { try primitive { try session.readString(at: $0) } }
        mutating func decode(_ type: Double.Type) throws -> Double { try primitive { try session.readDouble(at: $0) } }
        mutating func decode(_ type: Float.Type) throws -> Float { try primitive { try session.readFloat(at: $0) } }
        mutating func decode(_ type: Int.Type) throws -> Int { try integer() }
        mutating func decode(_ type: Int8.Type) throws -> Int8 { try integer() }
        mutating func decode(_ type: Int16.Type) throws -> Int16 { try integer() }
        mutating func decode(_ type: Int32.Type) throws -> Int32 { try integer() }
        mutating func decode(_ type: Int64.Type) throws -> Int64 { try integer() }
        mutating func decode(_ type: UInt.Type) throws -> UInt { try integer() }
        mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try integer() }
        mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try integer() }
        mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try integer() }
        mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try integer() }

        @inline(__always)
        private func integer<I: FixedWidthInteger>() throws -> I {
            try primitive { try session.readInteger(I.self, at: $0) }
        }

        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            let index = currentIndex
            let offset = try session.nextElement(of: state, path: path)
            var end = 0
            let value = try session.decodeValue(
                type, at: offset, parent: path, key: ArrayIndexKey(index), depth: depth, end: &end)
            session.advanceElement(of: state, to: end)
            return value
        }

        /// Moves past the next element without decoding it; returns where it starts and its path.
        private func skipElement() throws -> (Int, CodingPathNode) {
            let elementPath = CodingPathNode(parent: path, key: ArrayIndexKey(currentIndex))
            let offset = try session.nextElement(of: state, path: path)
            let end = try session.locating({ CodingPathNode.path(of: elementPath) }) {
                try session.skipValue(at: offset, depth: depth)
            }
            session.advanceElement(of: state, to: end)
            return (offset, elementPath)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy type: NestedKey.Type
        ) throws -> KeyedDecodingContainer<NestedKey> {
            let (offset, elementPath) = try skipElement()
            let nested = try session.openContainer(tag: Tag.map, at: offset, path: elementPath, depth: depth + 1)
            return KeyedDecodingContainer(KeyedContainer<NestedKey>(session: session, state: nested, path: elementPath))
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            let (offset, elementPath) = try skipElement()
            let nested = try session.openContainer(tag: Tag.array, at: offset, path: elementPath, depth: depth + 1)
            return UnkeyedContainer(session: session, state: nested, path: elementPath)
        }

        mutating func superDecoder() throws -> any Decoder {
            let (offset, elementPath) = try skipElement()
            return PositionedDecoder(session: session, offset: offset, path: elementPath, depth: depth)
        }
    }

    /// The one value at `offset`.
    struct SingleValueContainer: SingleValueDecodingContainer {
        let session: DecodingSession
        let offset: Int
        let path: CodingPathNode?
        /// Arrays and maps enclosing the value.
        let depth: Int

        var codingPath: [any CodingKey] { CodingPathNode.path(of: path) }

        func decodeNil() -> Bool { session.isNil(at: offset) }

        @inline(__always)
        private func primitive<R>(_ read: (Int) throws -> (R, Int)) throws -> R {
            try session.locating({ codingPath }) { try read(offset) }.0
        }

        func decode(_ type: Bool.Type) throws -> Bool { try primitive { try session.readBool(at: $0) } }
        func decode(_ type: String.Type) throws -> String { try primitive { try session.readString(at: $0) } }
        func decode(_ type: Double.Type) throws -> Double { try primitive { try session.readDouble(at: $0) } }
        func decode(_ type: Float.Type) throws -> Float { try primitive { try session.readFloat(at: $0) } }
        func decode(_ type: Int.Type) throws -> Int { try integer() }
        func decode(_ type: Int8.Type) throws -> Int8 { try integer() }
        func decode(_ type: Int16.Type) throws -> Int16 { try integer() }
        func decode(_ type: Int32.Type) throws -> Int32 { try integer() }
        func decode(_ type: Int64.Type) throws -> Int64 { try integer() }
        func decode(_ type: UInt.Type) throws -> UInt { try integer() }
        func decode(_ type: UInt8.Type) throws -> UInt8 { try integer() }
        func decode(_ type: UInt16.Type) throws -> UInt16 { try integer() }
        func decode(_ type: UInt32.Type) throws -> UInt32 { try integer() }
        func decode(_ type: UInt64.Type) throws -> UInt64 { try integer() }

        @inline(__always)
        private func integer<I: FixedWidthInteger>() throws -> I {
            try primitive { try session.readInteger(I.self, at: $0) }
        }

        func decode<T: Decodable>(_ type: T.Type) throws -> T {
            var end = 0
            return try session.decodeValue(type, at: offset, path: path, depth: depth, end: &end)
        }
    }
}
