import Foundation
public import ProjectConfiguration

/// One HTML file to analyse and the URL it stands for.
public struct PageInput: Sendable, Hashable {
    /// The path as the user named it (or as found under a named folder).
    public var path: String
    /// The URL the page is read as: `--base-url` joined with the path under the folder (a
    /// folder's `index.html` read as the folder, `…/movies/`), else a `file://` URL.
    public var url: String

    public init(path: String, url: String) {
        self.path = path
        self.url = url
    }
}

/// Why an input could not be analysed. Each case names the file; `exitCode` is documented in
/// docs/cli.md.
public struct InputProblem: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: String, Sendable, Hashable {
        case missing = "missing"
        case unreadable = "unreadable"
        case folderWithoutHTML = "no-html"
        case isFolder = "is-folder"
        case empty = "empty"
        case binary = "binary"
        case tooLarge = "too-large"
    }

    public var code: Code
    public var path: String
    public var message: String

    public init(_ code: Code, path: String, message: String) {
        self.code = code
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}

/// Expands the command line's files and folders into page inputs.
public struct InputCollector: Sendable {
    public static let htmlExtensions: Set<String> = ["html", "htm", "xhtml"]

    /// Maps the named folder (or file) onto this URL; nil means `file://` URLs.
    public var baseURL: String?

    public init(baseURL: String? = nil) {
        self.baseURL = baseURL
    }

    /// Files are taken as they are (any extension); folders are searched recursively for
    /// `.html`/`.htm`/`.xhtml` files, in sorted path order. Missing paths and folders without
    /// HTML become problems; everything else is still collected.
    public func collect(_ arguments: [String], allowFolders: Bool = true) -> (
        inputs: [PageInput], problems: [InputProblem]
    ) {
        let collected = collect(arguments, allowFolders: allowFolders, ignoring: IgnoreList())
        return (collected.inputs, collected.problems)
    }

    /// `collect`, leaving out the files on the ignore list (returned as `ignored`, their paths).
    /// A folder whose every HTML file is ignored is not a problem.
    public func collect(_ arguments: [String], allowFolders: Bool = true, ignoring ignore: IgnoreList) -> (
        inputs: [PageInput], problems: [InputProblem], ignored: [String]
    ) {
        var inputs: [PageInput] = []
        var problems: [InputProblem] = []
        var ignored: [String] = []
        func add(_ input: PageInput, relativePath: String?) {
            if ignore.pattern(ignoringFile: input.path, relativePath: relativePath, url: input.url) != nil {
                ignored.append(input.path)
            } else {
                inputs.append(input)
            }
        }
        let fileManager = FileManager.default
        for argument in arguments {
            var isDirectory: ObjCBool = false
            guard fileManager.fileExists(atPath: argument, isDirectory: &isDirectory) else {
                if allowFolders {
                    problems.append(InputProblem(.missing, path: argument, message: "no such file or folder"))
                } else {
                    // Keep its place in the output: loading it reports the missing file.
                    inputs.append(PageInput(path: argument, url: url(forFile: argument, relativePath: nil)))
                }
                continue
            }
            guard isDirectory.boolValue else {
                add(PageInput(path: argument, url: url(forFile: argument, relativePath: nil)), relativePath: nil)
                continue
            }
            guard allowFolders else {
                problems.append(
                    InputProblem(
                        .isFolder, path: argument,
                        message: "is a folder; name HTML files (or use `spotcheck validate` for folders)"))
                continue
            }
            let found = htmlFiles(under: argument)
            if found.isEmpty {
                problems.append(
                    InputProblem(
                        .folderWithoutHTML, path: argument, message: "folder contains no .html, .htm or .xhtml file"))
            }
            for relative in found {
                let path = argument.hasSuffix("/") ? argument + relative : argument + "/" + relative
                // A FIFO named `x.html` in a folder is no page, and opening it would wait for a
                // writer (issue 35 §4): refused unopened, like any file that is not a regular one.
                if let kind = PageFile.nonRegularKind(at: path) {
                    problems.append(
                        InputProblem(.unreadable, path: path, message: "cannot be read: not a regular file (\(kind))"))
                    continue
                }
                add(PageInput(path: path, url: url(forFile: path, relativePath: relative)), relativePath: relative)
            }
        }
        return (inputs, problems, ignored)
    }

    private func htmlFiles(under folder: String) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: folder) else { return [] }
        var found: [String] = []
        while let relative = enumerator.nextObject() as? String {
            let ext = (relative as NSString).pathExtension.lowercased()
            if Self.htmlExtensions.contains(ext) { found.append(relative) }
        }
        return found.sorted()
    }

    private func url(forFile path: String, relativePath: String?) -> String {
        if let baseURL {
            guard var relativePath else { return baseURL }
            // A folder's index.html stands for the folder, as static web servers serve it.
            if relativePath == "index.html" || relativePath.hasSuffix("/index.html") {
                relativePath.removeLast("index.html".count)
            }
            let encoded = relativePath.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? relativePath
            return baseURL.hasSuffix("/") ? baseURL + encoded : baseURL + "/" + encoded
        }
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        return URL(fileURLWithPath: absolute).standardizedFileURL.absoluteString
    }
}

/// Reads a page from disk with the checks that keep bad input from reaching the parser.
public enum PageLoader {
    /// Default limit on a page's size (16 MiB); larger files are refused, not truncated.
    public static let defaultMaximumBytes = 16 << 20

    public static func load(_ input: PageInput, maximumBytes: Int = defaultMaximumBytes) throws(InputProblem) -> [UInt8]
    {
        let path = input.path
        let contents: PageFile.Contents
        do {
            contents = try PageFile.contents(of: path, limit: maximumBytes)
        } catch {
            if error.code == ENOENT || error.code == ENOTDIR {
                throw InputProblem(.missing, path: path, message: "no such file or folder")
            }
            if error.code == 0 {
                throw InputProblem(.unreadable, path: path, message: "cannot be read: \(error.message)")
            }
            throw InputProblem(.unreadable, path: path, message: "cannot be read (\(error.message))")
        }
        let bytes = contents.bytes
        if bytes.count > maximumBytes {
            // A device or a pipe (/dev/zero, <(…)) has no size of its own: say what was read.
            let amount =
                if let size = contents.regularFileSize, size > maximumBytes {
                    "\(size) bytes is"
                } else {
                    "more than \(maximumBytes) bytes (it has no end in sight) is"
                }
            throw InputProblem(
                .tooLarge, path: path,
                message: "\(amount) over the \(maximumBytes)-byte page limit (raise it with --max-page-bytes)")
        }
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == 0x0C }) {
            throw InputProblem(.empty, path: path, message: bytes.isEmpty ? "empty file" : "file holds only whitespace")
        }
        if let kind = binaryKind(bytes) {
            throw InputProblem(.binary, path: path, message: "is binary (\(kind)), not HTML")
        }
        return bytes
    }

    /// Recognises common binary formats and NUL bytes (outside UTF-16 text).
    static func binaryKind(_ bytes: [UInt8]) -> String? {
        let signatures: [(String, [UInt8])] = [
            ("PNG image", [0x89, 0x50, 0x4E, 0x47]), ("GIF image", [0x47, 0x49, 0x46, 0x38]),
            ("JPEG image", [0xFF, 0xD8, 0xFF]),
            ("PDF document", [0x25, 0x50, 0x44, 0x46, 0x2D]), ("ZIP archive", [0x50, 0x4B, 0x03, 0x04]),
            ("gzip data", [0x1F, 0x8B]),
            ("ELF executable", [0x7F, 0x45, 0x4C, 0x46]), ("WebP/RIFF data", [0x52, 0x49, 0x46, 0x46]),
        ]
        for (name, signature) in signatures where bytes.starts(with: signature) { return name }
        let isUTF16 = bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF])
        if !isUTF16, bytes.prefix(8192).contains(0) { return "contains NUL bytes" }
        return nil
    }
}
