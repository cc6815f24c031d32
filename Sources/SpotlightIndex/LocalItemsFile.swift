import Foundation
import LenientJSON

/// Reading a local-items file: a JSON array of records (DESIGN.md, "Local items") or JSON Lines
/// (one record per line, blank lines skipped), told apart by the first character that is not
/// white space (`[` or `{`). JSON Lines are streamed, so memory stays flat however long the file;
/// a JSON array is parsed whole.
public enum LocalItemsFile {
    public enum Format: String, Sendable {
        case jsonArray = "JSON array"
        case jsonLines = "JSON Lines"
    }

    /// Calls `body` with every record in file order: its position and either the decoded record
    /// or why it is invalid. Throws `LocalItemsFileError` when the file cannot be read or is not
    /// JSON at all (a JSON array that does not parse), and whatever `body` throws.
    @discardableResult
    public static func read(
        path: String, _ body: (RecordPosition, Result<LocalRecord, RecordProblem>) throws -> Void
    ) throws -> Format {
        try read(path: path) { position, _, result in try body(position, result) }
    }

    /// `read`, with where each record starts in the file (the line and column of its `{`), so
    /// that a finding about a record can point at it.
    @discardableResult
    public static func read(
        path: String, _ body: (RecordPosition, RecordPlace, Result<LocalRecord, RecordProblem>) throws -> Void
    ) throws -> Format {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            var isFolder: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
            throw LocalItemsFileError(
                path: path, message: !exists ? "no such file" : isFolder.boolValue ? "is a folder" : "cannot be read")
        }
        defer { try? handle.close() }
        var reader = ChunkedReader(handle: handle, path: path)
        // Find the first significant byte (after a byte order mark and white space).
        var first: UInt8?
        while first == nil {
            guard try reader.fill() else { break }
            if reader.buffer.starts(with: [0xEF, 0xBB, 0xBF]) { reader.buffer.removeFirst(3) }
            first = reader.buffer.first { !Self.isWhiteSpace($0) }
            if first == nil, reader.isAtEnd { break }
        }
        switch first {
        case UInt8(ascii: "["):
            while try reader.fill() {}
            try readArray(reader.buffer, path: path, body)
            return .jsonArray
        case UInt8(ascii: "{"):
            try readLines(&reader, body)
            return .jsonLines
        case nil:
            throw LocalItemsFileError(path: path, message: "empty file (no records)")
        default:
            throw LocalItemsFileError(
                path: path, message: "neither a JSON array nor JSON Lines (it starts with neither [ nor {)")
        }
    }

    private static func readArray(
        _ bytes: [UInt8], path: String,
        _ body: (RecordPosition, RecordPlace, Result<LocalRecord, RecordProblem>) throws -> Void
    ) throws {
        let parsed = JSONParser.parse(bytes, lenient: false)
        guard let value = parsed.value else {
            let failure = parsed.failure.map { "line \($0.line), column \($0.column): \($0.reason)" } ?? "invalid"
            throw LocalItemsFileError(path: path, message: "not valid JSON: \(failure)")
        }
        guard let records = value.arrayValue else {
            throw LocalItemsFileError(path: path, message: "the top-level JSON value is not an array")
        }
        let places = elementPlaces(bytes)
        for (index, record) in records.enumerated() {
            let place = index < places.count ? places[index] : RecordPlace(line: 1, column: 1)
            try body(.arrayIndex(index), place, decode(record, at: .arrayIndex(index)))
        }
    }

    /// Where each element of the top-level array of `bytes` (valid JSON) starts: its line and
    /// column (1-based, in bytes of the line), found by a scan that passes over strings.
    static func elementPlaces(_ bytes: [UInt8]) -> [RecordPlace] {
        var places: [RecordPlace] = []
        var (line, lineStart, depth) = (1, 0, 0)
        var expectingElement = false
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if expectingElement, !isWhiteSpace(byte), byte != UInt8(ascii: "]") {
                places.append(RecordPlace(line: line, column: index - lineStart + 1))
                expectingElement = false
            }
            switch byte {
            case UInt8(ascii: "\n"):
                line += 1
                lineStart = index + 1
            case UInt8(ascii: "\""):
                // A string: to its closing quote, past escapes (JSON strings hold no raw newline).
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                }
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                if depth == 1 { expectingElement = true }
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth -= 1
            case UInt8(ascii: ","):
                if depth == 1 { expectingElement = true }
            default:
                break
            }
            index += 1
        }
        return places
    }

    private static func readLines(
        _ reader: inout ChunkedReader,
        _ body: (RecordPosition, RecordPlace, Result<LocalRecord, RecordProblem>) throws -> Void
    ) throws {
        var lineNumber = 0
        while let next = try reader.nextLine() {
            lineNumber += 1
            let position = RecordPosition.line(lineNumber)
            guard case .line(let line) = next else {
                if case .tooLong(let bytes) = next {
                    let problem = RecordProblem(
                        position: position,
                        "the line is \(bytes) bytes, over the \(ChunkedReader.maximumLineBytes)-byte limit of a record")
                    try body(position, RecordPlace(line: lineNumber, column: 1), .failure(problem))
                }
                continue
            }
            guard let first = line.firstIndex(where: { !isWhiteSpace($0) }) else { continue }
            let place = RecordPlace(line: lineNumber, column: line.distance(from: line.startIndex, to: first) + 1)
            let parsed = JSONParser.parse(line, lenient: false)
            guard let value = parsed.value else {
                let reason = parsed.failure.map { "column \($0.column): \($0.reason)" } ?? "invalid"
                try body(position, place, .failure(RecordProblem(position: position, "not valid JSON: \(reason)")))
                continue
            }
            try body(position, place, decode(value, at: position))
        }
    }

    private static func decode(_ value: JSONValue, at position: RecordPosition) -> Result<LocalRecord, RecordProblem> {
        do {
            return .success(try LocalRecord(json: value))
        } catch {
            var problem = error
            problem.position = position
            return .failure(problem)
        }
    }

    static func isWhiteSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
}

/// A local-items file that cannot be read, or is not JSON at all.
public struct LocalItemsFileError: Error, CustomStringConvertible, Sendable {
    public var path: String
    public var message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}

/// Reads a file a megabyte at a time and splits it into lines (`\n`, a trailing `\r` dropped), in
/// time linear in the file (each byte is searched for a newline once: a 1 GB line took 347 s when
/// every chunk rescanned the line, issue 17 §2.10) and memory bounded by `maximumLineBytes` (a
/// longer line is reported with its length and skipped, not kept).
struct ChunkedReader {
    /// The longest line kept: 64 MiB.
    static let maximumLineBytes = 64 << 20

    enum Line {
        case line(ArraySlice<UInt8>)
        /// A line over `maximumLineBytes`, skipped; its length.
        case tooLong(bytes: Int)
    }

    let handle: FileHandle
    let path: String
    var buffer: [UInt8] = []
    /// Where the unread part of `buffer` starts.
    var start = 0
    /// Where the search for the next newline goes on (bytes before it hold none).
    private var searched = 0
    private(set) var isAtEnd = false

    init(handle: FileHandle, path: String) {
        self.handle = handle
        self.path = path
    }

    /// Appends the next chunk; false at the end of the file.
    mutating func fill() throws -> Bool {
        guard !isAtEnd else { return false }
        let chunk: Data?
        do {
            chunk = try handle.read(upToCount: 1 << 20)
        } catch {
            throw LocalItemsFileError(path: path, message: "read failed: \(error.localizedDescription)")
        }
        guard let chunk, !chunk.isEmpty else {
            isAtEnd = true
            return false
        }
        if start > 0 {
            buffer.removeFirst(start)
            searched -= start
            start = 0
        }
        buffer.append(contentsOf: chunk)
        return true
    }

    /// The next line without its terminator (or the length of one too long to keep); nil at the
    /// end of the file.
    mutating func nextLine() throws -> Line? {
        var skipped = 0  // bytes of a too-long line already dropped
        while true {
            if let newline = buffer[max(start, searched)...].firstIndex(of: 0x0A) {
                var line = buffer[start..<newline]
                start = newline + 1
                searched = start
                if skipped > 0 || line.count > Self.maximumLineBytes {
                    return .tooLong(bytes: skipped + line.count + 1)
                }
                if line.last == 0x0D { line = line.dropLast() }
                return .line(line)
            }
            searched = buffer.count
            if buffer.count - start > Self.maximumLineBytes {
                skipped += buffer.count - start
                start = buffer.count
            }
            if try !fill() {
                guard start < buffer.count || skipped > 0 else { return nil }
                let line = buffer[start...]
                start = buffer.count
                searched = start
                return skipped > 0 ? .tooLong(bytes: skipped + line.count) : .line(line)
            }
        }
    }
}
