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

extension ValidationRun {
    /// `root` with each page's URL → the file it was read from, named relative to the repository's
    /// root (or the working folder outside one), as every output locates findings.
    func sourceFiles(in root: SourceFiles) -> SourceFiles {
        var files = root
        for page in pages where files[page.markup.url] == nil {
            files.add(url: page.markup.url, file: page.input.path)
        }
        return files
    }
}
