import CrawlStore
public import Crawling
import Foundation
public import PostgresStorage
public import Reports
public import Rulebook
import Verification

/// Crawls shared through a PostgreSQL database (`crawl --store postgres://…`): the workers that
/// join them (`spotcheck worker`), the list of crawls (`spotcheck crawls`) and their reports
/// written again (`spotcheck report URL --crawl ID`).
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
        let location = try location(store)
        // The crawl is looked up through a store of its own, closed before the work starts: the
        // worker's store leases hosts by the crawl's concurrency, which only the crawl tells.
        let id: Int64
        let run: CrawlRun
        switch try join(crawl, at: location) {
        case .nothing(let why): return .nothingToDo(why)
        case .found(let foundID, let foundRun): (id, run) = (foundID, foundRun)
        }
        let settings: CrawlSettings
        let verifier: PageVerifier
        do {
            settings = try JSONDecoder().decode(CrawlSettings.self, from: Data(run.settingsJSON.utf8))
            if let problem = settings.problem() { throw StoredCrawl.TamperedSettings(problem: problem) }
            verifier = try settings.pageRules?.verifier() ?? PageVerifier()
        } catch {
            throw CrawlJobError(.storeUnusable, "\(location): crawl \(id)'s stored settings cannot be read: \(error)")
        }
        let worker: PostgresCrawlStore
        do {
            worker = try PostgresCrawlStore(
                location: location, leaseSeconds: leaseSeconds, maximumLeases: CrawlJob.maximumLeases(settings))
            _ = try worker.open(crawl: id)
        } catch {
            throw CrawlJobError(.storeUnusable, "\(error)")
        }
        let crawler = Crawler(settings: settings, store: worker, verifier: verifier, appIDs: verifier.appIDs)
        do {
            let summary = try await crawler.run(resume: true, progress: progress, notices: notices)
            return .worked(crawl: id, summary: summary)
        } catch {
            throw CrawlJobError(.cannotCrawl, "\(error)")
        }
    }

    /// What a worker finds when it looks for the crawl to join.
    private enum Joined {
        case found(id: Int64, run: CrawlRun)
        /// Nothing to join: why, in words.
        case nothing(String)
    }

    /// Crawl `crawl` (nil: the oldest unfinished one), if it is there and unfinished.
    private static func join(_ crawl: Int64?, at location: PostgresLocation) throws(CrawlJobError) -> Joined {
        let database = try open(location)
        // A crawl id that names no crawl is a mistake (exit 6), unlike no crawl left to join.
        let found = if let crawl { try run(crawl, of: database, at: location) } else { try opened(nil, in: database) }
        guard let run = found, let id = database.crawlID else {
            return .nothing("\(location): no crawl is unfinished, so there is nothing to do")
        }
        if let finished = run.finishedAt {
            return .nothing("\(location): crawl \(id) finished at \(StoredCrawl.utcTime(finished)); nothing to do")
        }
        return .found(id: id, run: run)
    }

    /// The crawls of the database `store`, newest first, and its URL without the password.
    public static func list(store: String) throws(CrawlJobError) -> (
        location: String, crawls: [Listing]
    ) {
        let location = try location(store)
        let database = try open(location)
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
        let location = try location(store)
        let database = try open(location)
        let run = try run(crawl, of: database, at: location)
        return try StoredCrawl.writeReports(
            of: database, run: run, into: folder ?? "reports/crawl-\(crawl)", siteRules: configuration,
            reportFiles: reportFiles, includesMarkup: includesMarkup)
    }

    /// `database` opened on crawl `crawl` (nil: the oldest unfinished one), and its run, if any.
    private static func opened(_ crawl: Int64?, in database: PostgresCrawlStore) throws(CrawlJobError) -> CrawlRun? {
        do {
            return try database.open(crawl: crawl)
        } catch {
            throw CrawlJobError(.storeUnusable, "\(error)")
        }
    }

    /// `database` opened on crawl `crawl`, and its run; a crawl id that names no crawl is
    /// `.cannotCrawl`.
    private static func run(_ crawl: Int64, of database: PostgresCrawlStore, at location: PostgresLocation)
        throws(CrawlJobError) -> CrawlRun
    {
        guard let run = try opened(crawl, in: database) else {
            throw CrawlJobError(.cannotCrawl, noSuchCrawl(crawl, at: location))
        }
        return run
    }

    /// "there is no crawl ID", with the command that lists them.
    private static func noSuchCrawl(_ crawl: Int64, at location: PostgresLocation) -> String {
        "\(location): there is no crawl \(crawl); `spotcheck crawls --store \(location)` lists them"
    }

    private static func location(_ store: String) throws(CrawlJobError) -> PostgresLocation {
        do {
            return try PostgresLocation(url: store)
        } catch {
            throw CrawlJobError(.storeUnusable, "\(error)")
        }
    }

    /// A store on the database, to look crawls up (no crawl open yet).
    private static func open(_ location: PostgresLocation) throws(CrawlJobError) -> PostgresCrawlStore {
        do {
            return try PostgresCrawlStore(location: location)
        } catch {
            throw CrawlJobError(.storeUnusable, "\(error)")
        }
    }
}
