import ArgumentParser
import Foundation
import LenientJSON
import Reports
import Verification

/// `--format`: the report files written besides `report.json`.
struct ReportFormats: ParsableArguments {
    enum Format: String, CaseIterable {
        case json, sarif, junit, html
    }

    @Option(
        name: .customLong("format"),
        help:
            "Reports to write, comma-separated: json (always written), sarif (findings.sarif), junit (junit.xml), html (index.html)."
    )
    var formats: String = "json"

    func validate() throws {
        for name in requested where Format(rawValue: name) == nil {
            throw ValidationError("--format takes json, sarif, junit and html, comma-separated; not \(name)")
        }
    }

    private var requested: [String] {
        formats.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
    }

    func wants(_ format: Format) -> Bool { requested.contains(format.rawValue) }

    /// Whether a format besides `report.json` is asked for (the callers gather page findings then).
    var wantsMore: Bool { Format.allCases.contains { $0 != .json && wants($0) } }

    /// Writes the SARIF and JUnit files asked for into `folder`; returns their paths.
    func write(
        pages: [(url: String, findings: [Finding])], siteFindings: [Finding], suite: String, into folder: String,
        baseline: ReportDiff? = nil
    )
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
        if wants(.html) { written.append(try writeHTML(into: folder, baseline: baseline)) }
        return written
    }

    /// `index.html` from the `report.json` already in `folder`, written as it is rendered.
    func writeHTML(into folder: String, baseline: ReportDiff? = nil) throws -> String {
        let source = (folder as NSString).appendingPathComponent("report.json")
        let data = try Data(contentsOf: URL(fileURLWithPath: source))
        guard let report = JSONParser.parse(data, lenient: false).value else {
            throw ValidationError("\(source): not JSON, so index.html cannot be made from it")
        }
        let path = (folder as NSString).appendingPathComponent("index.html")
        let partial = path + ".partial"
        guard FileManager.default.createFile(atPath: partial, contents: nil),
            let handle = FileHandle(forWritingAtPath: partial)
        else { throw ValidationError("\(partial): cannot be written") }
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 20)
        var html = HTMLReport(report: report)
        html.baseline = baseline
        html.render { piece in
            buffer.append(contentsOf: piece.utf8)
            if buffer.count >= 1 << 20 {
                handle.write(Data(buffer))
                buffer.removeAll(keepingCapacity: true)
            }
        }
        handle.write(Data(buffer))
        try handle.close()
        if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
        try FileManager.default.moveItem(atPath: partial, toPath: path)
        return path
    }
}
