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
            report.json beside it is read; `spotcheck report` writes it again from a store). Exit 1 when \
            there are differences.

            \(ExitStatus.help([.success, .verdictNegative, .inputUnreadable, .usage]))
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
        if !diff.isEmpty { throw ExitStatus.verdictNegative }
    }

    static func load(_ path: String) throws -> JSONValue {
        let (file, report) = ReportDiff.loadReport(path)
        guard let report else {
            Console.log.error("\(file): not a readable report.json")
            throw ExitStatus.inputUnreadable
        }
        return report
    }
}
