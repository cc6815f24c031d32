import CrawlStore
import PostgresNIO

/// A failure talking to PostgreSQL: the database it concerns (its URL without the password), what
/// went wrong and, when the server said, its SQLSTATE code. No message ever carries the password:
/// the location is always the redacted URL, and server messages never contain it.
public struct PostgresStoreError: Error, Sendable, CustomStringConvertible {
    /// `postgres://user@host:port/database`, without the password.
    public var location: String
    public var message: String
    /// The server's SQLSTATE (e.g. `28P01`, a wrong password), when it answered with an error.
    public var sqlState: String?

    public init(location: String, message: String, sqlState: String? = nil) {
        self.location = location
        self.message = message
        self.sqlState = sqlState
    }

    public var description: String { "\(location): \(message)" }

    /// Whether the server refused the login (a wrong password or user: SQLSTATE class 28).
    public var isLoginRefused: Bool { sqlState?.hasPrefix("28") == true }

    /// The same failure as the crawl store's error type (the `CrawlStoring` methods throw those).
    var crawlStoreError: CrawlStoreError { CrawlStoreError(path: location, message: message) }
}

extension PostgresStoreError {
    /// Wraps what postgres-nio (or the store itself) threw while `operation` ran against `location`.
    init(wrapping error: any Error, location: PostgresLocation, operation: String) {
        switch error {
        case let error as PostgresStoreError:
            self = error
        case let error as PSQLError:
            let state = error.serverInfo?[.sqlState]
            if let message = error.serverInfo?[.message] {
                let detail = error.serverInfo?[.detail].map { " (\($0))" } ?? ""
                self.init(
                    location: location.description,
                    message: "\(operation): PostgreSQL error \(state ?? "?"): \(message)\(detail)", sqlState: state)
            } else {
                self.init(
                    location: location.description,
                    message: "\(operation): \(Self.connectionProblem(error, location: location))", sqlState: state)
            }
        case let error as StoreFailure:
            self.init(location: location.description, message: "\(operation): \(error.description)")
        default:
            self.init(location: location.description, message: "\(operation): \(error)")
        }
    }

    /// Why a connection could not be made, in words: SwiftNIO's `NIOConnectionError` prints as a
    /// `SingleConnectionFailure(…)` dump, so the socket error is read from its text.
    static func connectionFailure(_ underlying: (any Error)?) -> String {
        guard let underlying else { return "no connection" }
        let text = "\(underlying) \(String(reflecting: underlying))"
        if text.contains("Connection refused") || text.contains("errno: 111") {
            return "connection refused — is the server running (and listening on that port)?"
        }
        if text.contains("timed out") || text.contains("errno: 110") {
            return "no answer (timed out) — is the host right, and does a firewall let the port through?"
        }
        if text.contains("connectionErrors: []") {
            return "the host name could not be resolved — is it spelled right?"
        }
        if text.contains("unreachable") || text.contains("errno: 113") || text.contains("errno: 101") {
            return "the host cannot be reached from here (no route)"
        }
        return "\(underlying)"
    }

    /// A client-side failure in words (postgres-nio's own description hides everything).
    private static func connectionProblem(_ error: PSQLError, location: PostgresLocation) -> String {
        let server = "the PostgreSQL server at \(location.host):\(location.port)"
        switch error.code {
        case .connectionError:
            return "cannot connect to PostgreSQL at \(location.host):\(location.port): "
                + connectionFailure(error.underlying)
        case .serverClosedConnection, .uncleanShutdown:
            return "\(server) closed the connection"
        case .clientClosedConnection:
            return "the connection to \(server) was closed"
        case .authMechanismRequiresPassword:
            return "\(server) asks for a password and none was given (in the URL, PGPASSWORD or ~/.pgpass)"
        case .unsupportedAuthMechanism:
            return "\(server) asks for a login method SpotCheck does not support"
        case .sslUnsupported:
            return "\(server) does not accept the connection's TLS setting"
        default:
            return "PostgreSQL client error \(error.code) with \(server)"
        }
    }
}

/// A store-level failure inside a transaction (not the server's).
struct StoreFailure: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
