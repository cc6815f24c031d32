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

extension OutputFolder {
    /// An existing folder SpotCheck will not write its reports into: it holds a file SpotCheck did
    /// not write (a site's own `index.html`), or a folder where SpotCheck writes a file.
    public struct ForeignContentError: Error, Sendable, CustomStringConvertible {
        /// The output folder asked for.
        public var folder: String
        /// The entry in it that stops the run.
        public var entry: String
        /// Why, in words.
        public var reason: String

        public var description: String {
            "\(folder): \(reason); SpotCheck writes its reports only into a new or empty folder or an earlier "
                + "report folder of its own, and never replaces a file it did not write: name another folder with "
                + "--output"
        }
    }

    /// The names SpotCheck writes in an output folder (a crawl's store with SQLite's companions,
    /// its lock, report.json and the `--format` files), each possibly with `.partial` while written.
    public static let writtenNames: Set<String> = [
        "report.json", "index.html", "findings.sarif", "junit.xml", "gl-code-quality-report.json",
        "candidates.jsonl", "baseline-diff.json", "crawl.sqlite", "crawl.sqlite-wal", "crawl.sqlite-shm",
        "crawl.sqlite-journal", "crawl.lock", "report.json.pages", "index.html.pages",
    ]

    /// Creates `path` like `create`, after checking that an existing folder is SpotCheck's to write
    /// in (issue 31: `validate site --output site` replaced the site's own `index.html`). An
    /// existing folder is taken when it is empty or an earlier SpotCheck report folder (`isReportFolder`)
    /// whose report names are files, not folders; anything else is refused before any work, naming
    /// the entry. Returns true when the folder did not exist before.
    @discardableResult
    public static func claim(_ path: String) throws -> Bool {
        try checkOwnership(path)
        return try create(path)
    }

    /// Throws `ForeignContentError` when `path` is an existing folder SpotCheck may not write in.
    public static func checkOwnership(_ path: String) throws(ForeignContentError) {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: path), !entries.isEmpty else { return }
        let sorted = entries.sorted()
        guard isReportFolder(path) else {
            // The entry a report would overwrite is the one worth naming, else the first.
            let named = sorted.first { writtenNames.contains(partialless($0)) } ?? sorted[0]
            throw ForeignContentError(
                folder: path, entry: named,
                reason: "it holds \(named), which SpotCheck did not write (no report.json or crawl store of "
                    + "SpotCheck's is there)")
        }
        for entry in sorted where writtenNames.contains(partialless(entry)) {
            var status = stat()
            guard lstat(join(path, entry), &status) == 0 else { continue }
            if status.st_mode & S_IFMT != S_IFREG {
                let kind = status.st_mode & S_IFMT == S_IFDIR ? "a folder" : "not a regular file"
                throw ForeignContentError(
                    folder: path, entry: entry,
                    reason:
                        "\(join(path, entry)) is \(kind), where SpotCheck writes a file of its own; it is left alone")
            }
        }
    }

    /// Whether `path` is a folder an earlier SpotCheck run wrote: its `report.json` is a regular
    /// file that opens with `{"tool": "spotcheck"` (both report kinds start so), or it holds a
    /// crawl's `crawl.sqlite` (an SQLite file; the store itself refuses one that is not a crawl
    /// store) or `crawl.lock` (a crawl interrupted before its reports, its store elsewhere).
    public static func isReportFolder(_ path: String) -> Bool {
        if let head = head(of: join(path, "report.json"), bytes: 256) {
            let compact = String(decoding: head.filter { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }, as: UTF8.self)
            if compact.hasPrefix(#"{"tool":"spotcheck""#) { return true }
        }
        if let head = head(of: join(path, "crawl.sqlite"), bytes: 16), head == Array("SQLite format 3\0".utf8) {
            return true
        }
        return head(of: join(path, "crawl.lock"), bytes: 0) != nil
    }

    /// The first `bytes` bytes of a regular file (not following a symbolic link), nil when it is
    /// not one or cannot be read.
    private static func head(of file: String, bytes: Int) -> [UInt8]? {
        var status = stat()
        guard lstat(file, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        guard bytes > 0 else { return [] }
        let descriptor = open(file, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: bytes)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, bytes) }
        return count < 0 ? nil : Array(buffer.prefix(count))
    }

    private static func partialless(_ name: String) -> String {
        name.hasSuffix(".partial") ? String(name.dropLast(".partial".count)) : name
    }

    private static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }
}
