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
    /// A value SpotCheck never writes (a text in an integer column: the file was changed by hand or
    /// damaged), said in one line: what could not be read, the column, and the row's first column
    /// (its key), e.g. `could not decode Int from database value "abc" - column: "depth", column
    /// index: 4, in the row id:2`. GRDB's own description lists the whole row, which can be
    /// megabytes of stored markup.
    static func damagedRow(_ error: RowDecodingError) -> String {
        let text = String(describing: error)
        guard let rowStart = text.range(of: ", row: [") else { return text }
        let key = text[rowStart.upperBound...].prefix { $0 != " " && $0 != "]" }
        return "the store holds a value SpotCheck never writes (the file was changed outside SpotCheck or is damaged): "
            + text[..<rowStart.lowerBound] + ", in the row \(key)"
    }

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
            self.init(path: path, message: "\(operation): \(Self.damagedRow(error))")
        default:
            self.init(path: path, message: "\(operation): \(error)")
        }
    }
}
