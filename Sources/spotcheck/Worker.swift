import ArgumentParser
import CrawlJobs
import Crawling

/// `spotcheck worker --store postgres://…`: joins a crawl registered there and works on it.
struct Worker: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker",
        abstract: "Join a crawl registered in a PostgreSQL database (crawl --store) and fetch its pages until it ends.",
        discussion: """
            Any number of workers, on any machines that reach the database and the site, work on one crawl: \
            each leases hosts (never single URLs), so the crawl's per-host limit, delay, Crawl-delay and \
            back-off hold across all of them, and a worker that dies gives its hosts back when its leases \
            expire (--lease on crawl). The crawl's settings and page rules are the ones it was started with. \
            A worker exits 0 when the crawl is over, or at once, saying so, when there is nothing to do (exit 6 \
            when --crawl names no crawl of the database); the \
            process that started the crawl writes the reports (spotcheck report URL --crawl ID writes them \
            again anywhere).

            \(ExitStatus.help([.success, .crawlFailed, .databaseUnusable, .usage, .interrupted]))
            """
    )

    @Option(help: ArgumentHelp("The PostgreSQL database the crawl is registered in.", valueName: "postgres-url"))
    var store: String

    @Option(help: "The crawl to join (default: the oldest unfinished one; `spotcheck crawls` lists them).")
    var crawl: Int64?

    @Option(parsing: .unconditional, help: "Seconds a host lease lasts unless renewed (renewed every third).")
    var lease: Double = 30

    @OptionGroup var verbosity: Verbosity

    func validate() throws {
        guard SharedCrawls.isDatabaseURL(store) else {
            throw ValidationError("--store: not a postgres:// URL")
        }
        if lease < 3 { throw ValidationError("--lease \(lease): must be at least 3 seconds") }
    }

    func run() async throws {
        Console.configure(verbose: verbosity.verbose)
        let console = CrawlConsole(verbosity: verbosity)
        let outcome: SharedCrawls.WorkerOutcome
        do {
            outcome = try await SharedCrawls.work(
                store: store, crawl: crawl, leaseSeconds: lease, progress: { console.show(.progress($0)) },
                notices: { console.show(.notice($0)) })
        } catch {
            console.progress.finish()
            Console.log.error("\(error)")
            throw ExitStatus(error.kind)
        }
        console.progress.finish()
        switch outcome {
        case .nothingToDo(let why):
            Console.log.notice("\(why)")
        case .worked(let crawl, let summary):
            guard !verbosity.quiet else { return }
            print(
                "crawl \(crawl) is over: this worker fetched \(summary.fetched) pages (\(summary.errors) errors) "
                    + "in \(String(format: "%.1f", summary.elapsed)) s")
        }
    }
}

/// `spotcheck crawls --store postgres://…`: the crawls registered there, with their progress.
struct Crawls: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crawls",
        abstract: "List the crawls registered in a PostgreSQL database (crawl --store), with their progress.",
        discussion: ExitStatus.help([.success, .databaseUnusable, .usage])
    )

    @Option(help: ArgumentHelp("The PostgreSQL database.", valueName: "postgres-url"))
    var store: String

    func validate() throws {
        guard SharedCrawls.isDatabaseURL(store) else {
            throw ValidationError("--store: not a postgres:// URL")
        }
    }

    func run() throws {
        let listing: (location: String, crawls: [SharedCrawls.Listing])
        do {
            listing = try SharedCrawls.list(store: store)
        } catch {
            Console.log.error("\(error)")
            throw ExitStatus(error.kind)
        }
        guard !listing.crawls.isEmpty else {
            print("\(listing.location): no crawl yet")
            return
        }
        print("id\tstate\tdone\tskipped\tqueued\tin flight\thosts leased\tworkers\tstarted (UTC)\tseed")
        for crawl in listing.crawls {
            let counts = crawl.counts
            print(
                [
                    "\(crawl.id)", crawl.finishedAt == nil ? "running" : "finished", "\(counts.done)",
                    "\(counts.skipped)", "\(counts.queued)", "\(counts.inFlight)", "\(crawl.leasedHosts)",
                    "\(crawl.workers)", StoredCrawl.utcTime(crawl.startedAt), crawl.seed,
                ].joined(separator: "\t"))
        }
    }
}
