import Foundation

/// The file each page was read from, named the way every output names it: relative to one folder,
/// the root of the git repository the working folder is in (so GitHub and GitLab can place an
/// annotation in the repository's files), else the working folder. `validate` reads pages from
/// files; `crawl FOLDER` serves them, and each page's URL maps back to the file that answered it.
public struct SourceFiles: Sendable, Hashable {
    /// An absolute, standardized folder path without a trailing `/`.
    public let root: String
    /// Page URL → the file's path relative to `root` (or absolute, when it lies outside).
    public private(set) var pathsByURL: [String: String] = [:]

    public init(root: String) {
        let standardized = URL(fileURLWithPath: root, isDirectory: true).standardizedFileURL.path
        self.root =
            standardized.count > 1 && standardized.hasSuffix("/") ? String(standardized.dropLast()) : standardized
    }

    /// The repository root above (or at) `directory` (nil: the working folder), else `directory` itself.
    public static func root(enclosing directory: String? = nil) -> SourceFiles {
        let directory = directory ?? FileManager.default.currentDirectoryPath
        var folder = URL(fileURLWithPath: directory, isDirectory: true).standardizedFileURL
        while true {
            // `.git` is a folder in a clone, a file in a worktree or a submodule.
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent(".git").path) {
                return SourceFiles(root: folder.path)
            }
            let parent = folder.deletingLastPathComponent()
            if parent.path == folder.path { return SourceFiles(root: directory) }
            folder = parent
        }
    }

    /// `root` as a `file://` URL ending in `/` (SARIF's `originalUriBaseIds`).
    public var rootURL: String {
        URL(fileURLWithPath: root, isDirectory: true).absoluteString
    }

    /// The path an output shows for `file` (absolute, or relative to the working folder).
    public func path(ofFile file: String) -> String {
        let absolute = URL(fileURLWithPath: file).standardizedFileURL.path
        let prefix = root == "/" ? "/" : root + "/"
        return absolute.hasPrefix(prefix) ? String(absolute.dropFirst(prefix.count)) : absolute
    }

    /// Records that the page at `url` was read from `file`.
    public mutating func add(url: String, file: String) {
        pathsByURL[url] = path(ofFile: file)
    }

    /// Records the page at `url` as read from `path`, already named by `path(ofFile:)`.
    public mutating func add(url: String, path: String) {
        pathsByURL[url] = path
    }

    /// The file of the page at `url`, as the outputs name it; nil for a page that has none.
    public subscript(url: String) -> String? { pathsByURL[url] }
}
