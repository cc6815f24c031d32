import ArgumentParser
import Foundation
import Reports
import Verification

/// `--format`: the report files written besides `report.json`.
struct ReportFormats: ParsableArguments {
    enum Format: String, CaseIterable {
        case json, sarif, junit
    }

    @Option(
        name: .customLong("format"),
        help: "Reports to write, comma-separated: json (always written), sarif (findings.sarif), junit (junit.xml).")
    var formats: String = "json"

    func validate() throws {
        for name in requested where Format(rawValue: name) == nil {
            throw ValidationError("--format takes json, sarif and junit, comma-separated; not \(name)")
        }
    }

    private var requested: [String] {
        formats.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
    }

    func wants(_ format: Format) -> Bool { requested.contains(format.rawValue) }

    /// Writes the SARIF and JUnit files asked for into `folder`; returns their paths.
    func write(pages: [(url: String, findings: [Finding])], siteFindings: [Finding], suite: String, into folder: String)
        throws -> [String]
    {
        var written: [String] = []
        if wants(.sarif) {
            let path = (folder as NSString).appendingPathComponent("findings.sarif")
            let log = SARIFLog(
                toolVersion: SpotCheck.configuration.version, findings: pages.flatMap(\.findings) + siteFindings)
            try Data((log.json.serialized(pretty: true) + "\n").utf8).write(
                to: URL(fileURLWithPath: path), options: .atomic)
            written.append(path)
        }
        if wants(.junit) {
            let path = (folder as NSString).appendingPathComponent("junit.xml")
            var cases = pages.map { JUnitReport.Case(name: $0.url, findings: $0.findings) }
            cases.append(JUnitReport.Case(name: "site-level rules", findings: siteFindings))
            let report = JUnitReport(suiteName: suite, cases: cases)
            try Data(report.xml.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
            written.append(path)
        }
        return written
    }
}
