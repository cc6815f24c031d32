import CrawlStore
public import Crawling
import Foundation
public import PostgresStorage
public import Reports
public import Verification

/// Crawls shared through a PostgreSQL database (`crawl --store postgres://…`): the workers that
/// join them (`spotcheck worker`), the list of crawls (`spotcheck crawls`) and their reports
/// written again (`spotcheck report --store … --crawl ID`).
public enum SharedCrawls {
    /// A crawl of the database with its progress, as `spotcheck crawls` lists it.
    public typealias Listing = PostgresCrawlStore.CrawlListing

    /// Whether `text` names a PostgreSQL database (`postgres://…`), which `--store` takes.
    public static func isDatabaseURL(_ text: String) -> Bool {
        PostgresLocation.isURL(text)
    }

    /// What a worker did.
    public enum WorkerOutcome: Sendable {
        /// There was no unfinished crawl to join (or the one named has finished): why, in words.
        case nothingToDo(String)
        /// The worker fetched pages of `crawl` until the crawl was over.
        case worked(crawl: Int64, summary: CrawlSummary)
    }

    /// Joins crawl `crawl` (nil: the oldest unfinished one) in the database `store` and works on
    /// it until the crawl is over, with the settings and page rules the crawl was started with.
    public static func work(
        store: String, crawl: Int64?, leaseSeconds: Double = 30, progress: (@Sendable (CrawlProgress) -> Void)? = nil,
        notices: (@Sendable (CrawlNotice) -> Void)? = nil
    ) async throws(CrawlJobError) -> WorkerOutcome {
        let (database, location) = try connect(store, leaseSeconds: leaseSeconds)
        let run: CrawlRun?
        do {
            run = try database.open(crawl: crawl)
        } catch {
            throw CrawlJobError(.storeUnusable, "\(error)")
        }
        guard let run, let id = database.crawlID else {
            return .nothingToDo(
                crawl.map { "\(location): there is no crawl \($0); `spotcheck crawls --store \(location)` lists them" }
                    ?? "\(location): no crawl is unfinished, so there is nothing to do")
        }
        if let finished = run.finishedAt {
            return .nothingToDo("\(location): crawl \(id) finished at \(StoredCrawl.utcTime(finished)); nothing to do")
        }
        let settings: CrawlSettings
        let verifier: PageVerifier
        do {
            settings = try JSONDecoder().decode(CrawlSettings.self, from: Data(run.settingsJSON.utf8))
            verifier = try settings.pageRules?.verifier() ?? PageVerifier()
        } catch {
            throw CrawlJobError(.storeUnusable, "\(location): crawl \(id)'s stored settings cannot be read: \(error)")
        }
        // The leases follow this worker's own share of the crawl's concurrency.
        let worker = try reconnect(
            database, location: location, crawl: id, settings: settings, leaseSeconds: leaseSeconds)
        let crawler = Crawler(settings: settings, store: worker, verifier: verifier, appIDs: verifier.appIDs)
        do {
            let summary = try await crawler.run(resume: true, progress: progress, notices: notices)
            return .worked(crawl: id, summary: summary)
        } catch {
            throw CrawlJobError(.cannotCrawl, "\(error)")
        }
    }

    /// The crawls of the database `store`, newest first, and its URL without the password.
    public static func list(store: String) throws(CrawlJobError) -> (
        location: String, crawls: [Listing]
    ) {
        let (database, location) = try connect(store, leaseSeconds: 30)
        do {
            return (location.description, try database.crawls())
        } catch {
            throw CrawlJobError(.storeUnusable, "\(error)")
        }
    }

    /// Writes the reports of crawl `crawl` of the database `store` into `folder` (default
    /// `reports/crawl-ID`), with today's site rules; returns the paths written.
    public static func writeReports(
        store: String, crawl: Int64, into folder: String?, siteRules configuration: RuleConfiguration,
        reportFiles: ReportFiles, includesMarkup: Bool = false
    ) throws(CrawlJobError) -> [String] {
        let (database, location) = try connect(store, leaseSeconds: 30)
        let run: CrawlRun?
        do {
            run = try database.open(crawl: crawl)
        } catch {
            throw CrawlJobError(.storeUnusable, "\(error)")
        }
        guard let run else {
            throw CrawlJobError(
                .cannotCrawl,
                "\(location): there is no crawl \(crawl); `spotcheck crawls --store \(location)` lists them")
        }
        return try StoredCrawl.writeReports(
            of: database, run: run, into: folder ?? "reports/crawl-\(crawl)", siteRules: configuration,
            reportFiles: reportFiles, includesMarkup: includesMarkup)
    }

    private static func connect(_ store: String, leaseSeconds: Double) throws(CrawlJobError) -> (
        PostgresCrawlStore, PostgresLocation
    ) {
        do {
            let location = try PostgresLocation(url: store)
            return (try PostgresCrawlStore(location: location, leaseSeconds: leaseSeconds), location)
        } catch {
            throw CrawlJobError(.storeUnusable, "\(error)")
        }
    }

    /// A store on crawl `id` whose lease count follows the crawl's settings.
    private static func reconnect(
        _ database: PostgresCrawlStore, location: PostgresLocation, crawl id: Int64, settings: CrawlSettings,
        leaseSeconds: Double
    ) throws(CrawlJobError) -> PostgresCrawlStore {
        do {
            let worker = try PostgresCrawlStore(
                location: location, leaseSeconds: leaseSeconds, maximumLeases: CrawlJob.maximumLeases(settings))
            _ = try worker.open(crawl: id)
            return worker
        } catch {
            throw CrawlJobError(.storeUnusable, "\(error)")
        }
    }
}
