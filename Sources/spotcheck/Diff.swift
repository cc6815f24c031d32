import ArgumentParser
import Foundation
import LenientJSON
import Reports

/// `spotcheck diff OLD NEW`: what changed between two crawls (or validations).
struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Compare two reports: pages, findings, attribute-set fields and candidates that changed.",
        discussion: """
            OLD and NEW are report.json files, crawl output folders or their crawl.sqlite (the \
            report.json beside it is read; `spotcheck report` writes it again from a store). Exit codes: 0 no difference; 1 differences; \
            3 a report cannot be read; 64 bad command line.
            """
    )

    @Argument(help: "The earlier report.json, or its folder.")
    var old: String

    @Argument(help: "The later report.json, or its folder.")
    var new: String

    @Option(help: "Output: text or json.")
    var format: String = "text"

    func validate() throws {
        if !["text", "json"].contains(format) { throw ValidationError("--format takes text or json") }
    }

    func run() throws {
        let diff = ReportDiff(old: try Self.load(old), new: try Self.load(new))
        print(
            format == "json" ? diff.json.serialized(pretty: true) : diff.text, terminator: format == "json" ? "\n" : "")
        if !diff.isEmpty { throw ExitCode(1) }
    }

    static func load(_ path: String) throws -> JSONValue {
        var standardError = StandardError()
        var isFolder: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
        // A crawl folder, or its crawl.sqlite, stands for the report.json beside it.
        let file =
            isFolder.boolValue
            ? (path as NSString).appendingPathComponent("report.json")
            : path.hasSuffix(".sqlite")
                ? ((path as NSString).deletingLastPathComponent as NSString).appendingPathComponent("report.json")
                : path
        guard let data = FileManager.default.contents(atPath: file),
            let value = JSONParser.parse(String(decoding: data, as: UTF8.self), lenient: false).value
        else {
            print("spotcheck: error: \(file): not a readable report.json", to: &standardError)
            throw ExitCode(3)
        }
        return value
    }
}
