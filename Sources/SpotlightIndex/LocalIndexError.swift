import DatabaseOpening
import GRDB

/// A failure of the local index: the file it concerns, what kind of failure, and the message.
/// SQLite failures keep their (extended) result code, both in `sqliteCode` and in the message.
public struct LocalIndexError: Error, CustomStringConvertible, Sendable {
    /// What went wrong, coarsely: the CLI maps each kind to an exit code.
    public enum Kind: String, Sendable, Hashable {
        /// The file cannot be opened as an index: unreadable, not a database, corrupt, or written
        /// by a newer SpotCheck.
        case cannotOpen
        /// The SQLite library has no FTS5 module, so the search table cannot exist.
        case fullTextSearchUnavailable
        /// A client state of 250 bytes or more (Core Spotlight's `CSIndexErrorCodeInvalidClientState`,
        /// −1002); the batch is not applied.
        case invalidClientState
        /// Batches and client states on the default index (Core Spotlight's
        /// `CSIndexErrorCodeIndexingUnsupported`, −1005, rule AS016), or an empty index name.
        case batchingUnsupported
        /// An item or activity the index cannot take (an empty `uniqueIdentifier`, a `rankingHint`
        /// outside 0–100 …), Core Spotlight's `CSIndexErrorCodeInvalidItemError` (−1001).
        case invalidItem
        /// Any other failure while reading or writing the database.
        case databaseFailure
    }

    /// The database file.
    public var path: String
    public var kind: Kind
    /// What failed, e.g. `"indexItems: SQLite error 13 (database or disk is full)"`.
    public var message: String
    /// The SQLite extended result code, when SQLite reported the failure.
    public var sqliteCode: Int32?

    public init(path: String, kind: Kind, message: String, sqliteCode: Int32? = nil) {
        self.path = path
        self.kind = kind
        self.message = message
        self.sqliteCode = sqliteCode
    }

    public var description: String { "\(path): \(message)" }
}

extension LocalIndexError {
    /// Wraps any error thrown while `operation` used the database at `path`. Errors already
    /// typed keep their kind; others become `kind`.
    init(wrapping error: any Error, path: String, operation: String, kind: Kind = .databaseFailure) {
        switch error {
        case let error as LocalIndexError:
            self = error
        case let error as IndexFailure:
            self.init(path: path, kind: error.kind, message: "\(operation): \(error.message)")
        case let error as DatabaseError:
            let code = error.extendedResultCode
            var message = "\(operation): SQLite error \(code)"
            if let detail = error.message, !code.description.hasSuffix("(\(detail))") {
                message += ": \(detail)"
            }
            self.init(path: path, kind: kind, message: message, sqliteCode: code.rawValue)
        case let error as RowDecodingError:
            self.init(path: path, kind: kind, message: "\(operation): \(damagedRowMessage(error))")
        default:
            self.init(path: path, kind: kind, message: "\(operation): \(error)")
        }
    }
}

/// A failure of the index's own rules inside a transaction (not SQLite's); it rolls the
/// transaction back and is wrapped as `LocalIndexError` with its kind.
struct IndexFailure: Error {
    var kind: LocalIndexError.Kind
    var message: String

    init(_ kind: LocalIndexError.Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }
}
