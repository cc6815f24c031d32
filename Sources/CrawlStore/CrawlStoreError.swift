import DatabaseOpening
import GRDB

/// A failure of the crawl store: the database file it concerns and what went wrong. SQLite
/// failures keep their (extended) result code, both in `sqliteCode` and in the message.
public struct CrawlStoreError: Error, CustomStringConvertible, Sendable {
    /// The database file.
    public var path: String
    /// What failed, e.g. `"complete: SQLite error 19 (constraint failed): CHECK constraint failed: depth >= 0"`.
    public var message: String
    /// The SQLite extended result code, when SQLite reported the failure.
    public var sqliteCode: Int32?

    public init(path: String, message: String, sqliteCode: Int32? = nil) {
        self.path = path
        self.message = message
        self.sqliteCode = sqliteCode
    }

    public var description: String { "\(path): \(message)" }
}

extension CrawlStoreError {
    /// Wraps any error thrown while `operation` used the database at `path`.
    init(wrapping error: any Error, path: String, operation: String) {
        switch error {
        case let error as CrawlStoreError:
            self = error
        case let error as DatabaseError:
            let code = error.extendedResultCode
            var message = "\(operation): SQLite error \(code)"
            if let detail = error.message, !code.description.hasSuffix("(\(detail))") {
                message += ": \(detail)"
            }
            self.init(path: path, message: message, sqliteCode: code.rawValue)
        case let error as RowDecodingError:
            self.init(path: path, message: "\(operation): \(damagedRowMessage(error))")
        default:
            self.init(path: path, message: "\(operation): \(error)")
        }
    }
}
