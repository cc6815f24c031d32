import ArgumentParser
import CrawlJobs
import Foundation
import LenientJSON
import Reports
import Rulebook
import Verification

/// `spotcheck diff OLD NEW`: what changed between two crawls (or validations).
struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare two reports: pages, findings, attribute-set fields and candidates that changed.",
        discussion: """
            OLD and NEW are report.json files, crawl output folders, or crawl stores: an output \
            folder's crawl.sqlite (the report.json beside it is read) or a store file of its own (crawl \
            --store FILE; its report is made from the store). With --store postgres://…, OLD and NEW are \
            crawl ids of that database (`spotcheck crawls` lists them), reported from it. Exit 1 when \
            there are differences.

            \(ExitStatus.help([
                .success, .verdictNegative, .inputUnreadable, .crawlFailed, .badConfiguration, .databaseUnusable,
                .usage,
            ]))
            """
    )

    @Argument(help: "The earlier report.json, its folder or its crawl store (with --store: a crawl id).")
    var old: String

    @Argument(help: "The later report.json, its folder or its crawl store (with --store: a crawl id).")
    var new: String

    @Option(
        help: ArgumentHelp(
            "A PostgreSQL database (postgres://user@host:port/db) whose crawls OLD and NEW are.",
            valueName: "postgres-url"))
    var store: String?

    @Option(help: "Output: text or json.")
    var format: String = "text"

    @Option(
        parsing: .singleValue,
        help: "Override a rule for reports made from a store: ID=off|error|warning|info (repeatable).")
    var rule: [String] = []

    @OptionGroup var project: ConfigOption

    func validate() throws {
        if !["text", "json"].contains(format) { throw ValidationError("--format takes text or json") }
        if let store {
            guard SharedCrawls.isDatabaseURL(store) else {
                throw ValidationError("--store: not a postgres:// URL (a store file is named as OLD or NEW itself)")
            }
            for id in [old, new] where Int64(id) == nil {
                throw ValidationError("\(id): with --store, OLD and NEW are crawl ids (`spotcheck crawls --store URL`)")
            }
        }
    }

    func run() throws {
        let diff = ReportDiff(old: try load(old), new: try load(new))
        print(
            format == "json" ? diff.json.serialized(pretty: true) : diff.text, terminator: format == "json" ? "\n" : "")
        if !diff.isEmpty { throw ExitStatus.verdictNegative }
    }

    /// The report of `argument`: read from report.json, or made from a crawl store (a store file
    /// with no report.json beside it, or a crawl id of the --store database).
    func load(_ argument: String) throws -> JSONValue {
        if let store, let crawl = Int64(argument) {
            let rules = try siteRules()
            return try Self.reported(from: "crawl \(crawl) of \(store)") { folder throws(CrawlJobError) in
                try SharedCrawls.writeReports(
                    store: store, crawl: crawl, into: folder, siteRules: rules, reportFiles: Self.json)
            }
        }
        let (file, report) = ReportDiff.loadReport(argument)
        if let report { return report }
        // A store file of its own (any name): SQLite says whether it is one.
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: argument, isDirectory: &isFolder), !isFolder.boolValue,
            !argument.hasSuffix(".json")
        {
            let rules = try siteRules()
            return try Self.reported(from: argument) { folder throws(CrawlJobError) in
                try StoredCrawl.writeReports(of: argument, into: folder, siteRules: rules, reportFiles: Self.json)
            }
        }
        Console.log.error("\(file): not a readable report.json")
        throw ExitStatus.inputUnreadable
    }

    /// The rules over the whole crawl for a report made from a store, as `report` takes them.
    private func siteRules() throws -> RuleConfiguration {
        do {
            return try Rules.loadConfiguration(file: project.config, overrides: rule)
        } catch {
            Console.log.error("\(error)")
            throw ExitStatus.badConfiguration
        }
    }

    private static var json: ReportFiles {
        ReportFiles(formats: [.json], toolVersion: SpotCheck.configuration.version)
    }

    /// The report.json `write` makes in a temporary folder (removed after).
    private static func reported(
        from source: String, _ write: (String) throws(CrawlJobError) -> [String]
    ) throws -> JSONValue {
        let folder = NSTemporaryDirectory() + "spotcheck-diff-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        do {
            _ = try write(folder)
        } catch {
            Console.log.error("\(error)")
            throw ExitStatus(error.kind)
        }
        guard let report = ReportDiff.loadReport(folder).report else {
            Console.log.error("\(source): no report could be made")
            throw ExitStatus.inputUnreadable
        }
        return report
    }
}
