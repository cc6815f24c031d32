import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The folder a command writes its reports into (`--output`, or `reports/<name>-<time>/`),
/// created with its missing parents. When it cannot be, the error says which folder stopped it
/// and why in words (not Foundation's `NSCocoaErrorDomain Code=4`).
public enum OutputFolder {
    /// Why an output folder cannot be created: the folder asked for and the reason.
    public struct CreationError: Error, Sendable, CustomStringConvertible {
        /// The folder asked for.
        public var path: String
        /// What stopped it, naming the folder concerned, e.g. `/proc does not take new folders`.
        public var reason: String

        public var description: String {
            "\(path): cannot create the output folder: \(reason); name a folder you can write to with --output"
        }
    }

    /// Creates `path` and its missing parents; returns true when the folder did not exist before
    /// (the caller may remove it again if its run cannot start). An existing folder is left as
    /// it is.
    @discardableResult
    public static func create(_ path: String) throws(CreationError) -> Bool {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
            guard isFolder.boolValue else { throw CreationError(path: path, reason: "it is a file, not a folder") }
            return false
        }
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var missing: [String] = []
        var ancestor = (absolute as NSString).standardizingPath
        while !FileManager.default.fileExists(atPath: ancestor, isDirectory: &isFolder) {
            missing.append(ancestor)
            let parent = (ancestor as NSString).deletingLastPathComponent
            guard parent != ancestor, !parent.isEmpty else { break }
            ancestor = parent
        }
        guard isFolder.boolValue else {
            throw CreationError(path: path, reason: "\(ancestor) is a file, not a folder")
        }
        for folder in missing.reversed() where mkdir(folder, 0o777) != 0 && errno != EEXIST {
            throw CreationError(
                path: path, reason: reason(errno, parent: (folder as NSString).deletingLastPathComponent))
        }
        return true
    }

    /// Creates a folder of its own for a default output (`reports/<name>-<time>`): `base`, or
    /// `base-2`, `base-3` … when another run already has it (two runs in the same second never
    /// share a folder, and no earlier report is overwritten). Returns the folder created.
    public static func createUnique(_ base: String) throws(CreationError) -> String {
        try create((base as NSString).deletingLastPathComponent)
        for attempt in 1...10_000 {
            let candidate = attempt == 1 ? base : "\(base)-\(attempt)"
            if mkdir(candidate, 0o777) == 0 { return candidate }
            guard errno == EEXIST else {
                throw CreationError(
                    path: candidate, reason: reason(errno, parent: (candidate as NSString).deletingLastPathComponent))
            }
        }
        throw CreationError(path: base, reason: "10,000 folders of that name exist already")
    }

    static func reason(_ code: Int32, parent: String) -> String {
        switch code {
        case EACCES, EPERM: "permission denied in \(parent)"
        case EROFS: "\(parent) is on a read-only file system"
        case ENOENT: "\(parent) does not take new folders"
        case ENOSPC, EDQUOT: "no space left for it in \(parent)"
        case ENAMETOOLONG: "the name is too long"
        default: String(cString: strerror(code))
        }
    }
}
