import ArgumentParser
import Foundation
import PageAnalysis
import Reports

/// `--format`: the report files written besides `report.json`, and GitHub annotations on stdout.
struct ReportFormats: ParsableArguments {
    @Option(
        name: .customLong("format"),
        help: """
            Reports to write, comma-separated: json (always written), sarif (findings.sarif), junit (junit.xml), \
            html (index.html), gitlab (gl-code-quality-report.json), github (annotations on stdout).
            """
    )
    var formats: String = "json"

    func validate() throws {
        for name in requested where ReportFormat(rawValue: name) == nil {
            throw ValidationError(
                "--format takes json, sarif, junit, html, gitlab and github, comma-separated; not \(name)")
        }
    }

    private var requested: [String] {
        formats.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
    }

    /// The files asked for, as the library writes them; GitHub's annotation lines go to stdout.
    var files: ReportFiles {
        var files = ReportFiles(
            formats: Set(requested.compactMap(ReportFormat.init(rawValue:))),
            toolVersion: SpotCheck.configuration.version)
        files.annotationOutput = { text in FileHandle.standardOutput.write(Data(text.utf8)) }
        return files
    }
}

extension ValidationReport {
    /// Each page's URL → the file it was read from, relative to the working directory when it is
    /// under it (GitHub and GitLab locate findings in the repository's files with it).
    var sourcePaths: [String: String] {
        let root = FileManager.default.currentDirectoryPath + "/"
        var paths: [String: String] = [:]
        for page in pages where paths[page.markup.url] == nil {
            var path = page.input.path
            if path.hasPrefix(root) { path.removeFirst(root.count) }
            if path.hasPrefix("./") { path.removeFirst(2) }
            paths[page.markup.url] = path
        }
        return paths
    }
}
