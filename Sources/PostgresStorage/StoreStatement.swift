import PostgresNIO

/// One of the store's statements that runs often enough to be prepared once per connection
/// (`PostgresSession.Statements.rows(_:_:)`).
protocol StoreStatement: SendableMetatype {
    static var sql: String { get }
    /// The parameters' types as postgres-nio binds the Swift values (`Int` is `int8`): declared,
    /// not inferred from the first call, whose nulls would leave a type to the server's guess.
    static var parameterTypes: [PostgresDataType] { get }
    /// Whether the statement is planned on every call with its values (an unnamed statement)
    /// rather than prepared: for a statement whose best plan depends on how big the frontier has
    /// grown. A prepared statement's generic plan is made once the connection has run it five
    /// times, from the statistics of that moment (a frontier of a few rows at the start of a crawl,
    /// read with a sequential scan ever after, until autovacuum's next analyze).
    static var plansEachCall: Bool { get }
}

extension StoreStatement {
    static var plansEachCall: Bool { false }
}

/// A `StoreStatement` as postgres-nio prepares it: named after the statement's type, with the
/// bindings of one call; rows are handed back undecoded.
struct Prepared<Statement: StoreStatement>: PostgresPreparedStatement {
    typealias Row = PostgresRow

    static var name: String { "spotcheck." + String(describing: Statement.self) }
    static var sql: String { Statement.sql }
    static var bindingDataTypes: [PostgresDataType] { Statement.parameterTypes }

    let bindings: PostgresBindings

    func makeBindings() throws -> PostgresBindings { bindings }

    func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }
}
