import ArgumentParser
import Reports

/// `--format`: the report files written besides `report.json`.
struct ReportFormats: ParsableArguments {
    @Option(
        name: .customLong("format"),
        help:
            "Reports to write, comma-separated: json (always written), sarif (findings.sarif), junit (junit.xml), html (index.html)."
    )
    var formats: String = "json"

    func validate() throws {
        for name in requested where ReportFormat(rawValue: name) == nil {
            throw ValidationError("--format takes json, sarif, junit and html, comma-separated; not \(name)")
        }
    }

    private var requested: [String] {
        formats.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
    }

    /// The files asked for, as the library writes them.
    var files: ReportFiles {
        ReportFiles(
            formats: Set(requested.compactMap(ReportFormat.init(rawValue:))),
            toolVersion: SpotCheck.configuration.version)
    }
}
