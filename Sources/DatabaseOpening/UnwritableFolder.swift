import Foundation

/// Why the folder of the database at `path` cannot be written (a read-only file system, no
/// permission), or nil when it can (or is missing: that is SQLite's own error to report). SQLite in WAL mode writes beside the file (its `-wal` and
/// `-shm` files) even to read it, so such a folder makes opening fail with SQLite's bare
/// "unable to open database file" (code 14); this names the real cause.
public func unwritableFolderReason(forDatabaseAt path: String) -> String? {
    let folder = (path as NSString).deletingLastPathComponent
    let checked = folder.isEmpty ? "." : folder
    guard access(checked, W_OK) != 0 else { return nil }
    let reason: String
    switch errno {
    case EROFS: reason = "is on a read-only file system"
    case EACCES, EPERM: reason = "cannot be written by this user"
    default: return nil  // a missing folder, say: SQLite's own message names it
    }
    return "the folder \(checked) \(reason), and SQLite writes its journal (-wal, -shm) beside the "
        + "database even to read it; copy the folder somewhere writable"
}
