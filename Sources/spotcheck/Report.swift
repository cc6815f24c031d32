import ArgumentParser
import CrawlJobs
import Rulebook
import Verification

/// `spotcheck report STORE`: the reports of a stored crawl, written again without fetching.
struct Report: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract:
            "Write a stored crawl's reports again (report.json, candidates.jsonl, SARIF, JUnit) without fetching.",
        discussion: """
            STORE is a crawl's output folder or its crawl.sqlite, or a postgres:// URL with --crawl ID (a \
            crawl registered with crawl --store; the reports go to --output, default reports/crawl-ID). Page findings are the ones stored by the \
            crawl; the rules over the whole crawl run again with today's rule configuration (the project \
            configuration file's "rules", then --rule). Exit 6 when there is no store there, or it \
            holds no crawl.

            \(ExitStatus.help([
                .success, .outputNotWritable, .crawlFailed, .badConfiguration, .databaseUnusable, .usage,
            ]))
            """
    )

    @Argument(help: "The crawl's output folder, or its crawl.sqlite (or, with --crawl, a postgres:// URL).")
    var store: String

    @Option(help: "The crawl's id in the PostgreSQL database STORE names (`spotcheck crawls` lists them).")
    var crawl: Int64?

    @Option(help: "Folder for the reports (default: the store's folder).")
    var output: String?

    @Option(
        parsing: .singleValue,
        help: "Override a rule for the site-level checks: ID=off|error|warning|info (repeatable).")
    var rule: [String] = []

    @OptionGroup var reportFormats: ReportFormats

    @OptionGroup var project: ConfigOption

    @Flag(help: "Keep every page's full markup dump (JSON-LD, Microdata, RDFa, Open Graph, links …) in report.json.")
    var includeMarkup = false

    func validate() throws {
        try OutputOption.check(output)
        if crawl != nil, !SharedCrawls.isDatabaseURL(store) {
            throw ValidationError("--crawl names a crawl of a PostgreSQL database: STORE must be a postgres:// URL")
        }
        if crawl == nil, SharedCrawls.isDatabaseURL(store) {
            throw ValidationError("name the crawl with --crawl ID (`spotcheck crawls --store URL` lists them)")
        }
    }

    func run() throws {
        let configuration: RuleConfiguration
        do {
            configuration = try Rules.loadConfiguration(file: project.config, overrides: rule)
        } catch {
            Console.log.error("\(error)")
            throw ExitStatus.badConfiguration
        }
        do {
            let written =
                if let crawl {
                    try SharedCrawls.writeReports(
                        store: store, crawl: crawl, into: output, siteRules: configuration,
                        reportFiles: reportFormats.files, includesMarkup: includeMarkup)
                } else {
                    try StoredCrawl.writeReports(
                        of: store, into: output, siteRules: configuration, reportFiles: reportFormats.files,
                        includesMarkup: includeMarkup)
                }
            for file in written { print("wrote \(file)") }
        } catch {
            Console.log.error("\(error)")
            throw ExitStatus(error.kind)
        }
    }
}
