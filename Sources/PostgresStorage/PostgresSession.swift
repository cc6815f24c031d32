import Foundation
import Logging
import NumericClamping
import PostgresNIO
import Synchronization

/// One connection to PostgreSQL, used synchronously: each transaction blocks the calling thread
/// (the crawl's store queue, never an event loop or Swift's cooperative pool) until the server has
/// answered, exactly like the SQLite store's calls.
///
/// Every transaction is all or nothing. When the connection is lost (the server restarted, a
/// network blip), the transaction is rolled back by the server, and the session reconnects with
/// back-off (0.1 s doubling to 5 s, for up to `reconnectSeconds`) and runs it again from the
/// start; serialization failures and deadlocks are retried the same way. Only a connection that
/// cannot be made at all at first (the server unreachable, the login refused) fails at once.
final class PostgresSession: @unchecked Sendable {
    // @unchecked: `connection` and `hasConnected` are read and written only with `lock` held,
    // and the connection is used only inside `transaction`, which holds the lock throughout; the
    // other stored properties are immutable.
    let location: PostgresLocation
    private let lock = NSLock()
    private var connection: PostgresConnection?
    private var hasConnected = false
    private var connectionCount = 0
    private let logger: Logger
    /// How long a lost connection is tried again before the transaction fails.
    let reconnectSeconds: Double

    /// How long one statement may take before its connection is given up.
    let statementSeconds: Double
    /// Whether a transaction whose `COMMIT` lost its connection runs again. True for the crawl
    /// store, whose transactions may apply twice (every write is keyed); false for the index,
    /// where the caller is told the outcome is unknown instead.
    let rerunsAfterLostCommit: Bool

    init(
        location: PostgresLocation, reconnectSeconds: Double = 120, statementSeconds: Double = 30,
        rerunsAfterLostCommit: Bool = true
    ) {
        self.location = location
        self.reconnectSeconds = reconnectSeconds
        self.statementSeconds = statementSeconds
        self.rerunsAfterLostCommit = rerunsAfterLostCommit
        var logger = Logger(label: "spotcheck.postgres")
        logger.logLevel = .critical
        self.logger = logger
    }

    deinit {
        if let connection { try? connection.close().wait() }
    }

    /// What a transaction's body runs its statements with.
    struct Statements {
        fileprivate let connection: PostgresConnection
        fileprivate let logger: Logger
        fileprivate let statementSeconds: Double

        /// Runs one statement; returns its rows.
        @discardableResult
        func rows(_ query: PostgresQuery) throws -> [PostgresRow] {
            Array(try answer(to: query).rows)
        }

        /// Runs one statement; returns how many rows it inserted, updated or deleted.
        @discardableResult
        func execute(_ query: PostgresQuery) throws -> Int {
            try answer(to: query).metadata.rows ?? 0
        }

        /// Runs one of the store's hot statements as a named prepared statement: the connection
        /// prepares it on first use and the server plans it once per connection, where an unnamed
        /// statement is parsed and planned on every call (issue 32: planning was a fifth of the
        /// server's time per page).
        @discardableResult
        func rows<Statement: StoreStatement>(_ statement: Statement.Type, _ bindings: PostgresBindings) throws
            -> [PostgresRow]
        {
            if Statement.plansEachCall { return try rows(PostgresQuery(unsafeSQL: Statement.sql, binds: bindings)) }
            let connection = connection
            let logger = logger
            return try waited { () async throws -> [PostgresRow] in
                var rows: [PostgresRow] = []
                for try await row in try await connection.execute(
                    Prepared<Statement>(bindings: bindings), logger: logger)
                {
                    rows.append(row)
                }
                return rows
            }
        }

        /// The server's answer, waited for at most `statementSeconds`: a connection that stopped
        /// answering (seen after a server restart: the query's future never completed) is closed
        /// and the transaction runs again on a new one.
        private func answer(to query: PostgresQuery) throws -> PostgresQueryResult {
            let answered = DispatchSemaphore(value: 0)
            let outcome = Mutex<Result<PostgresQueryResult, any Error>?>(nil)
            connection.query(query, logger: logger).whenComplete { result in
                outcome.withLock { $0 = result }
                answered.signal()
            }
            return try wait(for: answered, outcome)
        }

        /// `work`'s result, waited for as `answer(to:)` waits. The task runs on a queue of its own
        /// (`StatementTasks`), never on Swift's cooperative pool, whose threads may be the very
        /// ones blocked here (a caller on the pool, such as a test, would wait for ever).
        private func waited<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
            let answered = DispatchSemaphore(value: 0)
            let outcome = Mutex<Result<T, any Error>?>(nil)
            Task(executorPreference: StatementTasks.executor) {
                let result: Result<T, any Error>
                do { result = .success(try await work()) } catch { result = .failure(error) }
                outcome.withLock { $0 = result }
                answered.signal()
            }
            return try wait(for: answered, outcome)
        }

        private func wait<T>(for answered: DispatchSemaphore, _ outcome: borrowing Mutex<Result<T, any Error>?>)
            throws -> T
        {
            guard answered.wait(timeout: .now() + statementSeconds) == .success else {
                connection.close().whenComplete { _ in }
                throw NoAnswer(seconds: statementSeconds)
            }
            return try outcome.withLock { $0 ?? .failure(NoAnswer(seconds: statementSeconds)) }.get()
        }
    }

    /// The server did not answer a statement in `statementSeconds`.
    struct NoAnswer: Error, CustomStringConvertible {
        var seconds: Double
        var description: String { "the server did not answer within \(clampedInt(seconds)) s" }
    }

    /// The connection was lost while the server committed: the transaction may have been applied.
    struct CommitUnknown: Error, CustomStringConvertible {
        var description: String {
            "the connection was lost while the transaction committed, so whether it was applied is unknown; "
                + "look at the data and run the command again if it was not"
        }
    }

    @discardableResult
    /// Runs `body` in one transaction (`BEGIN` … `COMMIT`); on any error it is rolled back. See the
    /// type's comment for reconnection and retries.
    func transaction<T>(
        _ operation: String, begin: PostgresQuery = "BEGIN", _ body: (Statements) throws -> T
    ) throws(PostgresStoreError) -> T {
        try run(operation, begin: begin, rerunnable: true, body)
    }

    /// Runs `body` in one read-only transaction that sees one snapshot throughout (`REPEATABLE
    /// READ`): several statements read the same state while others write. With `rerunnable`
    /// false a lost connection fails it (after reconnecting, the next call works) instead of
    /// running `body` again: for a body that has handed rows on.
    func snapshot<T>(_ operation: String, rerunnable: Bool = true, _ body: (Statements) throws -> T)
        throws(PostgresStoreError) -> T
    {
        try run(operation, begin: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", rerunnable: rerunnable, body)
    }

    private func run<T>(
        _ operation: String, begin: PostgresQuery?, rerunnable: Bool, _ body: (Statements) throws -> T
    ) throws(PostgresStoreError) -> T {
        lock.lock()
        defer { lock.unlock() }
        var backoff = 0.1
        let deadline = Date().addingTimeInterval(reconnectSeconds)
        var conflicts = 0
        while true {
            do {
                let statements = Statements(
                    connection: try connected(), logger: logger, statementSeconds: statementSeconds)
                guard let begin else { return try body(statements) }
                try statements.execute(begin)
                do {
                    let value = try body(statements)
                    do {
                        try statements.execute("COMMIT")
                    } catch  where !rerunsAfterLostCommit && Self.isConnectionLoss(error) {
                        dropConnection()
                        throw CommitUnknown()
                    }
                    return value
                } catch {
                    if let connection, !connection.isClosed { _ = try? statements.execute("ROLLBACK") }
                    throw error
                }
            } catch {
                if Self.isConflict(error), conflicts < 20 {
                    conflicts += 1
                    Thread.sleep(forTimeInterval: Double.random(in: 0.001...0.02))
                    continue
                }
                guard hasConnected, Self.isConnectionLoss(error), Date() < deadline else {
                    throw PostgresStoreError(wrapping: error, location: location, operation: operation)
                }
                guard rerunnable else {
                    dropConnection()
                    throw PostgresStoreError(wrapping: error, location: location, operation: operation)
                }
                dropConnection()
                Thread.sleep(forTimeInterval: backoff)
                backoff = min(5, backoff * 2)
            }
        }
    }

    /// Runs `body`, whose one statement is atomic on its own (a read, or `complete`'s one write),
    /// without `BEGIN` and `COMMIT` (two round trips fewer); reconnection and retries as for
    /// `transaction`.
    @discardableResult
    func read<T>(_ operation: String, _ body: (Statements) throws -> T) throws(PostgresStoreError) -> T {
        try run(operation, begin: nil, rerunnable: true, body)
    }

    /// Closes the connection (the next transaction opens a new one).
    func close() {
        lock.lock()
        defer { lock.unlock() }
        dropConnection()
    }

    /// The open connection, made first if there is none. Called with the lock held.
    private func connected() throws -> PostgresConnection {
        if let connection, !connection.isClosed { return connection }
        dropConnection()
        let made = try Self.connect(to: location, id: connectionCount, logger: logger)
        connectionCount += 1
        connection = made
        hasConnected = true
        return made
    }

    /// Called with the lock held.
    private func dropConnection() {
        if let connection { _ = try? connection.close().wait() }
        connection = nil
    }

    /// A new connection to `location` (blocking).
    static func connect(to location: PostgresLocation, id: Int, logger: Logger) throws -> PostgresConnection {
        var configuration = PostgresConnection.Configuration(
            host: location.host, port: location.port, username: location.user, password: location.password,
            database: location.database, tls: try tls(for: location))
        configuration.options.connectTimeout = .seconds(10)
        configuration.options.additionalStartupParameters = location.serverSettings.sorted { $0.key < $1.key }
            .map { ($0.key, $0.value) }
        return try PostgresConnection.connect(
            on: MultiThreadedEventLoopGroup.singleton.next(), configuration: configuration, id: id, logger: logger
        ).wait()
    }

    /// libpq's `sslmode` as postgres-nio's TLS setting.
    private static func tls(for location: PostgresLocation) throws -> PostgresConnection.Configuration.TLS {
        var configuration = TLSConfiguration.makeClientConfiguration()
        switch location.tls {
        case .disable:
            return .disable
        case .allow, .prefer:
            configuration.certificateVerification = .none
            return .prefer(try NIOSSLContext(configuration: configuration))
        case .require:
            configuration.certificateVerification = .none
            return .require(try NIOSSLContext(configuration: configuration))
        case .verifyCA, .verifyFull:
            configuration.certificateVerification =
                location.tls == .verifyCA ? .noHostnameVerification : .fullVerification
            if let root = location.rootCertificate { configuration.trustRoots = .file(root) }
            return .require(try NIOSSLContext(configuration: configuration))
        }
    }

    /// The connection went away: the server closed it, shut down or restarted, or cannot take
    /// connections for now (starting up, shutting down).
    static func isConnectionLoss(_ error: any Error) -> Bool {
        if let error = error as? PSQLError {
            switch error.code {
            case .serverClosedConnection, .uncleanShutdown, .connectionError, .clientClosedConnection:
                return true
            default:
                // 57P01–57P03: the administrator ended the session, a crash, "cannot connect now".
                return error.serverInfo?[.sqlState].map { $0.hasPrefix("57P") } ?? false
            }
        }
        return error is ChannelError || error is IOError || error is NoAnswer
    }

    /// A serialization failure or a deadlock: the transaction may simply run again.
    static func isConflict(_ error: any Error) -> Bool {
        guard let state = (error as? PSQLError)?.serverInfo?[.sqlState] else { return false }
        return state == "40001" || state == "40P01"
    }
}

/// Where the prepared statements' tasks run: a serial dispatch queue, so a thread blocked waiting
/// for one (`Statements.rows(_:_:)`) never holds up the task it waits for.
final class StatementTasks: TaskExecutor {
    static let executor = StatementTasks()

    private let queue = DispatchQueue(label: "spotcheck.postgres.statements")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
