public import GRDB

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Opens an SQLite file through a GRDB `DatabasePool` when another process may be creating the
/// same file at the same moment (a crawl and a report viewer, two imports into one index).
///
/// Two processes opening a new file at once race twice: switching a new file to WAL answers
/// `SQLITE_BUSY` at once (SQLite does not call the busy handler for it), and a migrator's check
/// and its transaction are not one step, so the slower process may fail to create tables the
/// other has just committed. Busy: try again shortly; tables already there: wait until the other
/// has applied every migration (up to two seconds), then use it.
public enum PoolOpener {
    /// How many times a busy open is tried again, and how long to wait between tries.
    static let retries = 100
    static let retryDelayMicroseconds: UInt32 = 20_000

    /// Opens `path` (creating it if needed) with `configuration`, runs `check` on the pool (a
    /// check that refuses the file throws, and that error is thrown as it is), then brings the
    /// schema up to date with `migrator`. Errors are GRDB's, `check`'s, or `UnwritableFolderError`
    /// when SQLite failed in a folder that cannot be written.
    public static func open(
        path: String, configuration: Configuration, migrator: DatabaseMigrator,
        check: (DatabasePool) throws -> Void = { _ in }
    ) throws -> DatabasePool {
        do {
            return try openRetrying(path: path, configuration: configuration, migrator: migrator, check: check)
        } catch let error as DatabaseError {
            throw UnwritableFolderError(databaseAt: path) ?? error
        }
    }

    private static func openRetrying(
        path: String, configuration: Configuration, migrator: DatabaseMigrator, check: (DatabasePool) throws -> Void
    ) throws -> DatabasePool {
        var attempts = 0
        while true {
            do {
                let pool = try DatabasePool(path: path, configuration: configuration)
                try check(pool)
                do {
                    try migrator.migrate(pool)
                } catch {
                    // The other process may be half-way through the migrations (each is its own
                    // transaction): wait until it has applied them all.
                    var waited = 0
                    while try !pool.read({ try migrator.hasCompletedMigrations($0) }) {
                        guard waited < retries else { throw error }
                        waited += 1
                        usleep(retryDelayMicroseconds)
                    }
                }
                return pool
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && attempts < retries {
                attempts += 1
                usleep(retryDelayMicroseconds)
            }
        }
    }
}
