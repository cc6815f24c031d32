import ArgumentParser
import CrawlStore
import Crawling
import Foundation
import LenientJSON
import URLNormalization
import Verification

/// `spotcheck report STORE`: the reports of a stored crawl, written again without fetching.
struct Report: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Write a stored crawl's reports again (report.json, candidates.jsonl, SARIF, JUnit) without fetching.",
        discussion: """
            STORE is a crawl's output folder or its crawl.sqlite. Page findings are the ones stored by the \
            crawl; the rules over the whole crawl run again with today's rule configuration. Exit codes: 0 \
            written; 5 a report could not be written; 6 the store cannot be opened or holds no crawl; 7 an \
            invalid rule configuration; 64 bad command line.
            """
    )

    @Argument(help: "The crawl's output folder, or its crawl.sqlite.")
    var store: String

    @Option(help: "Folder for the reports (default: the store's folder).")
    var output: String?

    @Option(
        parsing: .singleValue,
        help: "Override a rule for the site-level checks: ID=off|error|warning|info (repeatable).")
    var rule: [String] = []

    @OptionGroup var reportFormats: ReportFormats

    func run() throws {
        var standardError = StandardError()
        var isFolder: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: store, isDirectory: &isFolder)
        let path = isFolder.boolValue ? (store as NSString).appendingPathComponent(Crawl.storeName) : store
        guard exists, FileManager.default.fileExists(atPath: path) else {
            print("spotcheck: error: \(path): no crawl store here", to: &standardError)
            throw SpotCheckExit.crawlFailed
        }
        let crawlStore: CrawlStore
        let run: CrawlRun
        do {
            crawlStore = try CrawlStore(path: path)
            guard let current = try crawlStore.currentRun() else {
                print("spotcheck: error: \(path): the store holds no crawl", to: &standardError)
                throw SpotCheckExit.crawlFailed
            }
            run = current
        } catch let exit as ExitCode {
            throw exit
        } catch {
            print("spotcheck: error: \(path): \(error)", to: &standardError)
            throw SpotCheckExit.crawlFailed
        }
        let configuration: RuleConfiguration
        do {
            configuration = try Rules.loadConfiguration(overrides: rule)
        } catch {
            print("spotcheck: error: \(error)", to: &standardError)
            throw SpotCheckExit.badConfiguration
        }
        let settings = try? JSONDecoder().decode(CrawlSettings.self, from: Data(run.settingsJSON.utf8))
        let mapping = settings?.publicOrigin.flatMap { publicOrigin in
            URLParser.parse(run.seed).flatMap {
                OriginMapping(fetchOrigin: OriginMapping.origin(of: $0), publicOrigin: publicOrigin)
            }
        }
        let folder = output ?? (path as NSString).deletingLastPathComponent
        let writer = CrawlReportWriter(
            store: crawlStore, mapping: mapping, siteVerifier: SiteVerifier(configuration: configuration))
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let report = try writer.write(into: folder)
            var written: [String] = []
            if reportFormats.wantsMore {
                let pages = try writer.pageFindings()
                written = try reportFormats.write(
                    pages: pages, siteFindings: report.siteFindings, suite: settings?.publicOrigin ?? run.seed,
                    into: folder)
            }
            for file in [report.path] + written { print("wrote \(file)") }
        } catch {
            print("spotcheck: error: \(folder): reports not written: \(error)", to: &standardError)
            throw SpotCheckExit.reportNotWritable
        }
    }
}
