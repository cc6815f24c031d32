import Foundation

/// The folder of a database cannot be written (a read-only file system, no permission). SQLite in
/// WAL mode writes beside the file (its `-wal` and `-shm` files) even to read it, so such a folder
/// makes opening fail with SQLite's bare "unable to open database file" (code 14); `PoolOpener`
/// throws this instead, naming the real cause.
public struct UnwritableFolderError: Error, CustomStringConvertible, Sendable {
    /// What is wrong and what to do, e.g. "the folder /mnt/out is on a read-only file system, …".
    public var description: String

    /// The error for the database at `path`, or nil when its folder can be written (or is missing:
    /// that is SQLite's own error to report).
    init?(databaseAt path: String) {
        let folder = (path as NSString).deletingLastPathComponent
        let checked = folder.isEmpty ? "." : folder
        guard access(checked, W_OK) != 0 else { return nil }
        let reason: String
        switch errno {
        case EROFS: reason = "is on a read-only file system"
        case EACCES, EPERM: reason = "cannot be written by this user"
        default: return nil
        }
        description =
            "the folder \(checked) \(reason), and SQLite writes its journal (-wal, -shm) beside the "
            + "database even to read it; copy the folder somewhere writable"
    }
}
