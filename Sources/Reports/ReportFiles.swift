import Foundation
public import LenientJSON
public import Rulebook

/// The report files beside `report.json`: `findings.sarif`, `junit.xml`, `index.html`,
/// `gl-code-quality-report.json` (`gitlab`); and `github`, workflow-command annotations on stdout.
public enum ReportFormat: String, CaseIterable, Sendable, Hashable {
    case json, sarif, junit, html, github, gitlab
}

/// Why a report file could not be written: the path and what went wrong.
public struct ReportFileError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}

/// Writes the report files asked for (`--format`): SARIF, JUnit, GitLab and GitHub from findings,
/// `index.html` from the typed report (`HTMLReport`).
public struct ReportFiles: Sendable {
    public var formats: Set<ReportFormat>
    /// The tool's version, as SARIF's driver names it.
    public var toolVersion: String
    /// A folder as a `file://` URL: the SARIF log names pages read from files under it relative
    /// to it (`%SRCROOT%`) instead of by absolute `file://` URLs (`validate` gives the working
    /// directory; a crawl's pages have http(s) URLs).
    public var sourceRoot: String?
    /// `--baseline`: the findings it accepted arrive marked (`Finding.isSuppressed`, set by
    /// `BaselineMatch.marked`); SARIF marks them suppressed (`baselineState`, `suppressions`
    /// naming this file), every other output leaves them out.
    public var knownFindings: FindingBaseline?

    /// The file each page was read from (`validate`, `crawl FOLDER`): every output locates a
    /// finding in its file with it, and falls back to the page's URL.
    public var sourceFiles: SourceFiles?
    /// Where `github`'s annotation lines go (the CLI writes them to stdout); nil: nowhere.
    public var annotationOutput: (@Sendable (String) -> Void)?

    public init(formats: Set<ReportFormat>, toolVersion: String, sourceRoot: String? = nil) {
        self.formats = formats
        self.toolVersion = toolVersion
        self.sourceRoot = sourceRoot
    }

    /// Whether a format besides `report.json` is asked for (the callers gather page findings then).
    public var wantsMore: Bool { formats.contains { $0 != .json } }

    /// Writes the SARIF, JUnit, GitLab and HTML files asked for into `folder`, and hands the
    /// GitHub annotations to `annotationOutput`; returns the files' paths. `html` is the report
    /// `index.html` shows (needed when `formats` has `.html`).
    public func write(
        pages: [(url: String, findings: [Finding])], siteFindings: [Finding], suite: String, into folder: String,
        html: HTMLReport? = nil
    ) throws(ReportFileError) -> [String] {
        var written: [String] = []
        let all = pages.flatMap(\.findings) + siteFindings
        // Every output sees the same findings and the same baseline marks: SARIF marks the
        // accepted ones as suppressed, the others leave them out.
        let accepted = knownFindings != nil || all.contains(where: \.isSuppressed) ? all.map(\.isSuppressed) : nil
        let newFindings = all.filter { !$0.isSuppressed }
        let paths = sourceFiles?.pathsByURL ?? [:]
        if formats.contains(.sarif) {
            let path = (folder as NSString).appendingPathComponent("findings.sarif")
            var log = SARIFLog(toolVersion: toolVersion, findings: all, sourceRoot: sourceRoot)
            log.sourceFiles = sourceFiles
            var json = log.json
            if let accepted { json = SARIFLog.marking(json, known: accepted, baselineFile: knownFindings?.file) }
            try Self.write(json.serialized(pretty: true) + "\n", to: path)
            written.append(path)
        }
        if formats.contains(.junit) {
            let path = (folder as NSString).appendingPathComponent("junit.xml")
            var cases = pages.map {
                JUnitReport.Case(name: paths[$0.url] ?? $0.url, findings: $0.findings.filter { !$0.isSuppressed })
            }
            let site = siteFindings.filter { !$0.isSuppressed }
            cases.append(
                JUnitReport.Case(name: "site-level rules", findings: site, places: site.map { paths[$0.url] ?? $0.url })
            )
            try Self.write(JUnitReport(suiteName: suite, cases: cases).xml, to: path)
            written.append(path)
        }
        if formats.contains(.gitlab) {
            let path = (folder as NSString).appendingPathComponent(CodeQualityReport.fileName)
            let report = CodeQualityReport(findings: newFindings, sourcePaths: paths)
            try Self.write(report.json.serialized(pretty: true) + "\n", to: path)
            written.append(path)
        }
        if formats.contains(.github), let annotationOutput {
            annotationOutput(GitHubAnnotations(findings: newFindings, sourcePaths: paths).text)
        }
        if formats.contains(.html) {
            guard let html else {
                throw ReportFileError(
                    path: (folder as NSString).appendingPathComponent("index.html"),
                    message: "cannot be written: no report was given to make it from")
            }
            written.append(try Self.writeHTML(html, into: folder))
        }
        return written
    }

    /// `index.html` in `folder` from the typed report, written as it is rendered.
    public static func writeHTML(_ report: HTMLReport, into folder: String) throws(ReportFileError) -> String {
        let path = (folder as NSString).appendingPathComponent("index.html")
        // PartialFile: buffered, a failed write (a full disk) thrown at commit, never half a file.
        let file = try PartialFile(path)
        report.render { piece in file.write(piece) }
        try file.commit()
        return path
    }

    private static func write(_ text: String, to path: String) throws(ReportFileError) {
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw ReportFileError(path: path, message: "cannot be written (\(error.localizedDescription))")
        }
    }
}

extension ReportDiff {
    /// A `report.json`, or the one in a crawl folder or beside a `crawl.sqlite`; nil when it
    /// cannot be read or is not JSON. Returns the file it read, for messages.
    public static func loadReport(_ path: String) -> (file: String, report: JSONValue?) {
        var isFolder: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
        let file =
            isFolder.boolValue
            ? (path as NSString).appendingPathComponent("report.json")
            : path.hasSuffix(".sqlite")
                ? ((path as NSString).deletingLastPathComponent as NSString).appendingPathComponent("report.json")
                : path
        guard let data = FileManager.default.contents(atPath: file) else { return (file, nil) }
        return (file, JSONParser.parse(String(decoding: data, as: UTF8.self), lenient: false).value)
    }
}
