import BrowserRendering
public import CrawlScheduling
public import CrawlStore
import Foundation
import LenientJSON
import MarkupExtraction
import NumericClamping
public import PageFetching
import ProjectConfiguration
import RobotsExclusion
import URLNormalization
public import Verification

/// A running tally, for the progress line.
public struct CrawlProgress: Sendable, Hashable {
    /// Pages fetched by this process.
    public var fetched: Int
    /// Frontier entries waiting, and being fetched now.
    public var queued: Int
    public var inFlight: Int
    /// Fetch failures and error statuses among `fetched`.
    public var errors: Int
    /// URLs recorded as not crawled (out of scope, robots.txt, budget …): report.json's
    /// `coverage.skipped`, as it stands.
    public var skipped: Int
    public var elapsed: Double
    /// Frontier entries finished by the whole run (a resumed crawl counts what it inherited).
    public var done: Int = 0
    /// `--max-pages`, the most the crawl fetches.
    public var maximumPages: Int = .max

    public init(
        fetched: Int, queued: Int, inFlight: Int, errors: Int, skipped: Int, elapsed: Double, done: Int = 0,
        maximumPages: Int = .max
    ) {
        self.fetched = fetched
        self.queued = queued
        self.inFlight = inFlight
        self.errors = errors
        self.skipped = skipped
        self.elapsed = elapsed
        self.done = done
        self.maximumPages = maximumPages
    }

    public var pagesPerSecond: Double { elapsed > 0 ? Double(fetched) / elapsed : 0 }

    /// Pages known so far: done, in flight and queued, at most `--max-pages`.
    public var known: Int { min(done + inFlight + queued, maximumPages) }

    /// Seconds until the known pages are done at the current rate (nil before a rate exists).
    public var secondsLeft: Double? {
        guard pagesPerSecond > 0 else { return nil }
        return Double(max(0, known - done)) / pagesPerSecond
    }
}

/// How a crawl ended.
public struct CrawlSummary: Sendable, Hashable {
    /// Pages fetched by this process (a resumed crawl counts only its own).
    public var fetched: Int
    /// Fetch errors and error statuses among them.
    public var errors: Int
    public var elapsed: Double
    public var generation: Int
}

/// Why a crawl could not run.
public struct CrawlError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// The crawl loop: the frontier and the seen set in the crawl store; what to claim, start, retry
/// and admit decided by `CrawlFrontier` (a state machine without I/O); fetching through a
/// `PageFetcher` (libcurl's thread unless another is injected), extraction on the task pool, every
/// page committed to the store with the links it adds in one transaction (so `--resume` after a
/// kill loses nothing and fetches again only what was in flight).
public struct Crawler: Sendable {
    public let settings: CrawlSettings
    public let store: any CrawlStoring
    /// The rule checks run on every HTML page.
    public let verifier: PageVerifier
    /// `--app`: the app IDs (TEAMID.bundle.id) the universal-link rules are about; empty: every app
    /// a host's apple-app-site-association names.
    public let appIDs: [String]
    /// Public URLs to fetch besides what the seed leads to (the app's local items' URLs, so that an
    /// item whose page is gone is reported with its 404), with what named each.
    public let extraURLs: [(url: String, foundOn: String)]
    /// The seeds after `settings.seed` (fetch URLs; several seeds, `--urls-from`): each starts at
    /// depth 0. Their hosts must be in `settings.seedHosts`, which the scope reads (on `--resume`
    /// too).
    public let seeds: [String]
    /// `--header`/`--basic-auth`: added to every request for the seeds' origins, and to no other.
    public let credentials: SiteCredentials?
    /// The HTTP client; nil: each run builds a libcurl `Fetcher` from `settings` (and shuts it down
    /// when the run ends). An injected fetcher belongs to the caller.
    private let fetcher: (any PageFetcher)?
    private let clock: @Sendable () -> Double

    /// Whether the caller runs on a crawl's store queue, where every store call of a crawl runs
    /// (never on Swift's cooperative pool).
    public static var isOnStoreQueue: Bool { StoreQueue.isCurrent }

    /// Seconds since 1970, from the system clock.
    public static let wallClock: @Sendable () -> Double = { Date().timeIntervalSince1970 }

    public init(
        settings: CrawlSettings, store: any CrawlStoring, verifier: PageVerifier = PageVerifier(),
        appIDs: [String] = [],
        extraURLs: [(url: String, foundOn: String)] = [], seeds: [String] = [], credentials: SiteCredentials? = nil,
        fetcher: (any PageFetcher)? = nil, clock: @escaping @Sendable () -> Double = Crawler.wallClock
    ) {
        self.settings = settings
        self.store = store
        self.verifier = verifier
        self.appIDs = appIDs
        self.extraURLs = extraURLs
        self.seeds = seeds
        self.credentials = credentials
        self.fetcher = fetcher
        self.clock = clock
    }

    private enum TaskResult: Sendable {
        case page(FrontierEntry, PageOutcome, seconds: Double)
        /// A page of `host` was stored; the store queued entries on `addedHosts` with it.
        case stored(host: String, addedHosts: [String])
        /// The store said which of a finished page's links it has seen, and how many pages the
        /// whole crawl admitted (`Loop.complete` on a store that answers on a connection of its own).
        case seenKeysAnswered(FinishedPage, known: Set<String>, admitted: Int)
        case sitemaps(SitemapHarvest)
        case tick
    }

    /// A fetched page on its way to the store, with what it found.
    struct FinishedPage: Sendable {
        var entry: FrontierEntry
        var record: PageRecord
        var links: [FrontierEntry]
        var skipped: [SkippedURL]
        /// Links past `PageProcessor.linksExamined`, counted with the budget's refusals.
        var notExamined: Int
    }

    /// Crawls until the frontier is empty (or the budget is spent). `resume` continues the
    /// store's unfinished run instead of starting a new one. `progress` hears the tally several
    /// times a second, `notices` what the user should know as it happens (an unreachable
    /// robots.txt and when it is asked again).
    public func run(
        resume: Bool, progress: (@Sendable (CrawlProgress) -> Void)? = nil,
        notices: (@Sendable (CrawlNotice) -> Void)? = nil
    ) async throws(CrawlError) -> CrawlSummary {
        guard let seed = URLParser.parse(settings.seed), seed.isCrawlable, let seedHost = seed.host else {
            throw CrawlError("\(settings.seed): not an http(s) URL")
        }
        let started = clock()
        var fetcher: any PageFetcher
        var ownFetcher: Fetcher?
        if let injected = self.fetcher {
            fetcher = injected
        } else {
            let curl = try Self.libcurlFetcher(for: settings)
            ownFetcher = curl
            fetcher = curl
        }
        defer { ownFetcher?.shutdown() }
        // Every request of the run passes the one origin rule of the credentials.
        if let credentials, !credentials.headers.isEmpty {
            fetcher = CredentialedFetcher(base: fetcher, credentials: credentials)
        }
        let seedOrigin = OriginMapping.origin(of: seed)
        let mapping = settings.publicOrigin.flatMap { OriginMapping(fetchOrigin: seedOrigin, publicOrigin: $0) }
        let scope = CrawlScope(
            hosts: Set([seedHost] + settings.allowedHosts + (settings.seedHosts ?? [])), include: settings.include,
            exclude: settings.exclude, ignore: IgnoreList(settings.ignore ?? []), mapping: mapping)
        // Every store call runs on the store's own queue, never on the cooperative pool.
        let store = StoreQueue(self.store)
        let robots = RobotsBook(
            fetcher: fetcher, store: store, productToken: settings.productToken, retryWait: settings.robotsRetryWait,
            clock: clock)
        let run: CrawlRun
        let frontier: CrawlFrontier<FrontierEntry>
        do {
            (run, frontier) = try await store.run { [self] store in
                try open(store, resume: resume, seed: seed, scope: scope, mapping: mapping, at: started)
            }
        } catch {
            throw CrawlError((error as? CrawlStoreError)?.description ?? "\(error)")
        }
        // Images and sitemaps are fetched beside the pages, as politely: at most --per-host in flight
        // per origin, --delay or Crawl-delay between two starts, held back after 429/503.
        let sideRequests = HostGate(limit: settings.perHost, delay: settings.delay) { origin in
            await robots.answer(forOrigin: origin).crawlDelay
        }
        var processor = PageProcessor(
            settings: settings, fetcher: fetcher, robots: robots, store: store, scope: scope, mapping: mapping,
            clock: clock, verifier: verifier, isRecrawl: run.generation > 1,
            images: ImageBook(
                fetcher: fetcher, robots: robots, scope: scope, mapping: mapping, productToken: settings.productToken,
                maximumBodyBytes: settings.maximumBodyBytes,
                maximumImages: settings.maximumImages ?? CrawlSettings.defaultMaximumImages, gate: sideRequests,
                onBudgetReached: { [notices] limit in notices?(.imageBudgetReached(limit: limit)) }),
            associations: AssociationBook(
                fetcher: fetcher, store: store, scope: scope, mapping: mapping, appIDs: appIDs, verifier: verifier,
                clock: clock))
        var renderer: ChromiumRenderer?
        defer { renderer?.shutdown() }
        if let render = settings.render {
            do {
                renderer = try ChromiumRenderer(
                    options: ChromiumRenderer.Options(
                        concurrency: render.concurrency, timeout: render.timeout, userAgent: settings.userAgent,
                        executable: render.executable))
            } catch {
                throw CrawlError(error.description)
            }
            processor.rendering = renderer.map {
                PageRendering(
                    renderer: $0, robots: robots, mapping: mapping,
                    extractorOptions: settings.extractorOptions)
            }
        }
        if let names = settings.consumers, !names.isEmpty {
            processor.consumers = ConsumerFetches(
                consumers: names.compactMap(Consumer.named), fetcher: fetcher, robots: robots, scope: scope,
                mapping: mapping, gate: sideRequests, extractorOptions: MarkupExtractor.Options())
        }
        // A process joining a shared crawl (a worker) fetches pages only: the process that
        // started the crawl checks the marketing pages and reads the sitemaps.
        let joinsSharedCrawl = resume && self.store.isShared
        if let marketingURLs = settings.marketingURLs, !marketingURLs.isEmpty, !joinsSharedCrawl {
            let check = MarketingPageCheck(
                fetcher: fetcher, scope: scope, verifier: verifier, maximumRedirects: settings.maximumRedirects)
            do {
                try await check.checkAll(marketingURLs, store: store, clock: clock)
            } catch {
                throw CrawlError((error as? CrawlStoreError)?.description ?? "\(error)")
            }
        }
        var loop = RunLoop(
            settings: settings, store: store, robots: robots, processor: processor, scope: scope, mapping: mapping,
            clock: clock, started: started, progress: progress, notices: notices, frontier: frontier)
        do {
            try await withThrowingTaskGroup(of: TaskResult.self) { group in
                // A resumed run harvests again unless the interrupted one committed its harvest
                // (entries, frontier rows and skipped URLs go in one transaction).
                var harvested = joinsSharedCrawl
                if resume, !harvested { harvested = try await store.run { try $0.hasSitemapEntries() } }
                // An unreachable robots.txt disallows everything on the host, /sitemap.xml too.
                let answer = settings.useSitemaps && !harvested ? await robots.answer(forOrigin: seedOrigin) : nil
                if let answer, !answer.isUnreachable {
                    loop.frontier.harvest(pending: true)
                    try await store.run { try $0.harvest(pending: true) }
                    let collector = SitemapCollector(
                        fetcher: fetcher, mapping: mapping, hosts: scope.hosts, gate: sideRequests)
                    group.addTask {
                        .sitemaps(await collector.collect(origin: seedOrigin, robotsSitemaps: answer.sitemaps))
                    }
                }
                try await loop.crawl(&group)
                group.cancelAll()
            }
            let finished = clock()
            try await store.run { try $0.finishRun(at: finished) }
        } catch let error as CrawlStoreError {
            throw CrawlError(error.description)
        } catch {
            throw CrawlError("\(error)")
        }
        await loop.report(force: true)
        return CrawlSummary(
            fetched: loop.fetched, errors: loop.errors, elapsed: clock() - started, generation: run.generation)
    }

    /// Begins the store's run (the seed and the extra URLs in the frontier, admitted by the
    /// budget) or resumes it (the budget counting what the store admitted), with the frontier
    /// that schedules it.
    private func open(
        _ store: any CrawlStoring, resume: Bool, seed: ParsedURL, scope: CrawlScope, mapping: OriginMapping?,
        at started: Double
    ) throws(CrawlStoreError) -> (CrawlRun, CrawlFrontier<FrontierEntry>) {
        let run: CrawlRun
        var frontier: CrawlFrontier<FrontierEntry>
        if resume {
            run = try store.resumeRun()
            // Counted as the uninterrupted crawl counts: every admitted entry (robots-skipped
            // ones too), not the redirect targets it adds outside the budget.
            frontier = makeFrontier(pagesAdmitted: try store.admittedCount())
        } else {
            let settingsJSON = (try? String(decoding: JSONEncoder().encode(settings), as: UTF8.self)) ?? "{}"
            run = try store.beginRun(seed: settings.seed, settingsJSON: settingsJSON, at: started)
            frontier = makeFrontier(pagesAdmitted: 0)
            _ = frontier.admit(depth: 0)
            let seedURL = seed.serialized(includingFragment: false)
            var entries = [
                FrontierEntry(
                    url: seedURL, key: seed.deduplicationKey ?? seedURL, host: PageProcessor.authority(of: seed),
                    depth: 0, discovery: .seed, foundOn: nil)
            ]
            var keys: Set<String> = [entries[0].key]
            // The further seeds, once each, at depth 0 (the job checked they fit the page budget).
            for url in seeds {
                guard let parsed = URLParser.parse(url), parsed.isCrawlable, let key = parsed.deduplicationKey,
                    keys.insert(key).inserted, frontier.admit(depth: 0) == nil
                else { continue }
                entries.append(
                    FrontierEntry(
                        url: parsed.serialized(includingFragment: false), key: key,
                        host: PageProcessor.authority(of: parsed), depth: 0, discovery: .seed, foundOn: nil))
            }
            // Extra URLs in scope, once each, at depth 1 and within the page budget.
            for (url, foundOn) in extraURLs {
                guard let parsed = URLParser.parse(mapping?.fetchURL(url) ?? url),
                    scope.violation(of: parsed) == nil,
                    let key = parsed.deduplicationKey, keys.insert(key).inserted, frontier.admit(depth: 1) == nil
                else { continue }
                entries.append(
                    FrontierEntry(
                        url: parsed.serialized(includingFragment: false), key: key,
                        host: PageProcessor.authority(of: parsed), depth: 1, discovery: .link, foundOn: foundOn))
            }
            _ = try store.enqueue(entries)
        }
        frontier.learn(hostsWithWork: try store.hostsWithWork())
        return (run, frontier)
    }

    /// The frontier of a run: politeness, budgets and retries from the settings.
    private func makeFrontier(pagesAdmitted: Int) -> CrawlFrontier<FrontierEntry> {
        CrawlFrontier(
            policy: PolitenessPolicy(
                perHostConcurrency: settings.perHost, globalConcurrency: settings.concurrency, delay: settings.delay,
                throttleLoopback: settings.throttleLoopback ?? false),
            budget: CrawlBudget(
                maximumDepth: settings.maximumDepth, maximumPages: settings.maximumPages, pagesAdmitted: pagesAdmitted),
            retries: RetryPolicy(maximumAttempts: settings.maximumAttempts),
            claimBatch: max(store.isShared ? 64 : 16, settings.concurrency * 2))
    }

    /// The libcurl fetcher a run uses when none is injected: `settings`' User-Agent, limits and
    /// connection counts.
    public static func libcurlFetcher(for settings: CrawlSettings) throws(CrawlError) -> Fetcher {
        do {
            var configuration = FetcherConfiguration(
                userAgent: settings.userAgent,
                limits: FetchLimits(
                    maximumBodyBytes: settings.maximumBodyBytes, connectTimeout: min(10, settings.timeout),
                    timeout: settings.timeout),
                maximumConnectionsPerHost: max(settings.perHost, settings.concurrency),
                maximumConnections: max(settings.concurrency * 2, 8))
            configuration.certificateAuthorities = settings.certificateAuthorities
            return try Fetcher(configuration: configuration)
        } catch {
            throw CrawlError("cannot start the fetcher: \(error)")
        }
    }
}

extension Crawler {
    /// One run's I/O around the frontier state machine: it does what `CrawlFrontier` says (claim
    /// from the store, ask robots.txt, start page tasks, wait), feeds back what happened, and
    /// writes each page with the links the frontier admits.
    private struct RunLoop {
        let settings: CrawlSettings
        let store: StoreQueue
        let robots: RobotsBook
        let processor: PageProcessor
        let scope: CrawlScope
        let mapping: OriginMapping?
        let clock: @Sendable () -> Double
        let started: Double
        let progress: (@Sendable (CrawlProgress) -> Void)?
        let notices: (@Sendable (CrawlNotice) -> Void)?
        var frontier: CrawlFrontier<FrontierEntry>
        var fetched = 0
        var errors = 0
        var lastProgress = 0.0
        /// Skipped URLs written lately: the store keeps one row per (url, reason), and most pages
        /// repeat the same off-site links.
        var recentlySkipped: Set<SkipKey> = []
        /// Keys the crawl's seen set is known to hold (bounded: emptied at 100,000).
        var knownHere: Set<String> = []
        /// When each origin's unreachable robots.txt was announced to be asked again, and the
        /// origins announced as given up: each is said once.
        var robotsRetriesAnnounced: [String: Double] = [:]
        var robotsGivenUp: Set<String> = []
        /// A shared crawl: when this process last asked the store which hosts it may take (other
        /// processes free hosts and queue URLs on hosts this one does not know yet).
        var hostsLearnedAt = -Double.infinity

        /// A skipped URL as the store keys it.
        struct SkipKey: Hashable {
            let url: String
            let reason: String
        }

        /// Runs until the frontier says the crawl is over.
        mutating func crawl(_ group: inout ThrowingTaskGroup<TaskResult, any Error>) async throws {
            var tickPending = false
            while true {
                let now = clock()
                switch frontier.next(now: now) {
                case .claim(let host, let limit):
                    // Claimed in batches (one write per batch, not per page); a batch not started
                    // at a kill is simply queued again by --resume.
                    let (batch, slots) = try await claim(host, limit: limit, now: now)
                    if batch.isEmpty {
                        if store.store.isShared, slots != 0, frontier.scheduler.inFlight(on: host) == 0 {
                            // Nothing of the host left here: other processes may lease it. (With no
                            // slots, the request for a share stands while it is asked again.)
                            try await release(host)
                        }
                        let hosts = try await store.run { try $0.hostsWithWork() }
                        frontier.exhausted(host, hostsWithWork: hosts, now: now)
                    } else {
                        frontier.claimed(batch, for: host)
                    }
                case .askRobots(let host, let entry):
                    // The first request to a host waits for its robots.txt (and Crawl-delay), and
                    // so does the first one after the answer expires.
                    if let url = URLParser.parse(entry.url) {
                        let answer = await robots.answer(forOrigin: OriginMapping.origin(of: url))
                        frontier.robotsAnswered(host: host, crawlDelay: answer.crawlDelay, refreshAt: answer.refreshAt)
                    }
                case .start(let entries):
                    for entry in entries {
                        group.addTask { [processor, clock] in
                            let start = clock()
                            let outcome = await processor.process(entry)
                            return .page(entry, outcome, seconds: clock() - start)
                        }
                    }
                case .finished:
                    guard try await awaitOtherProcesses() else { return }
                case .wait(let wakeAt):
                    if store.store.isShared, frontier.inFlight < settings.concurrency, now - hostsLearnedAt >= 1 {
                        // Room for more: hosts other processes freed or found, once a second.
                        hostsLearnedAt = now
                        frontier.learn(hostsWithWork: try await store.run { try $0.hostsWithWork() })
                        continue
                    }
                    if let wakeAt, !tickPending {
                        tickPending = true
                        group.addTask { [clock] in
                            // At most a second at a time: the loop looks at the clock again at
                            // least every second (long waits, such as a Retry-After, stay
                            // responsive to the injected clock).
                            let seconds = min(1, max(0, wakeAt - clock()))
                            try? await Task.sleep(nanoseconds: clampedUInt64(seconds * 1_000_000_000))
                            return .tick
                        }
                    }
                    guard let result = try await group.next() else {
                        // Nothing runs here and nothing may start: the other processes hold the
                        // hosts or their slots.
                        guard try await awaitOtherProcesses() else { return }
                        continue
                    }
                    switch result {
                    case .tick:
                        tickPending = false
                    case .sitemaps(let harvest):
                        try await add(harvest)
                    case .page(let entry, let outcome, let seconds):
                        try await finish(entry, outcome, seconds: seconds, group: &group)
                        try await releaseIfDone(entry.host)
                        await report()
                    case .seenKeysAnswered(let page, let known, let admitted):
                        frontier.admittedElsewhere(admitted)
                        store(page, known: known, group: &group)
                    case .stored(let host, let addedHosts):
                        frontier.stored(host: host, addedHosts: addedHosts)
                        try await releaseIfDone(host)
                    }
                }
            }
        }

        /// Claims entries of `host`. In a shared crawl, a host whose requests need no spacing may
        /// be shared with the other processes, this one then starting only the slots it holds
        /// (`slots`, 0 for none now); any other host, and such a host while no other process
        /// asks for a share, is leased whole (`slots` nil), its spacing kept by one process.
        /// With nothing to do here: a shared crawl is over when no process has work left; until
        /// then this one waits for hosts to free up or URLs to come, and learns which hosts have
        /// work. False when the crawl is over (always for a crawl of one process).
        mutating func awaitOtherProcesses() async throws -> Bool {
            guard store.store.isShared, !(try await store.run { try $0.awaitWork(timeout: 1) }) else { return false }
            frontier.learn(hostsWithWork: try await store.run { try $0.hostsWithWork() })
            return true
        }

        mutating func claim(_ host: String, limit: Int, now: Double) async throws -> (
            entries: [FrontierEntry], slots: Int?
        ) {
            guard store.store.isShared, frontier.scheduler.delay(for: host) == 0 else {
                frontier.holdSlots(nil, on: host)
                return (try await store.run { try $0.claim(host: host, limit: limit, now: now) }, nil)
            }
            let scheduler = frontier.scheduler
            let (capacity, inFlight) = (scheduler.policyLimit(for: host), scheduler.inFlight(on: host))
            let notBefore = scheduler.nextStart(for: host)
            let share = try await store.run {
                try $0.claimShare(
                    host: host, limit: limit, capacity: capacity, inFlight: inFlight, notBefore: notBefore, now: now)
            }
            frontier.holdSlots(share.slots, on: host)
            return share
        }

        /// A shared crawl: a host this process has nothing more of (nothing in flight, claimed or
        /// known to be queued) goes back to the other processes at once.
        func releaseIfDone(_ host: String) async throws {
            guard store.store.isShared, !frontier.hasWork(on: host) else { return }
            try await release(host)
        }

        /// Gives `host` back to the other processes of a shared crawl: they start no sooner than
        /// this one's politeness (delay, Crawl-delay, back-off) allows.
        func release(_ host: String) async throws {
            let notBefore = frontier.scheduler.nextStart(for: host)
            try await store.run { try $0.releaseHost(host, notBefore: notBefore) }
        }

        /// A page task ended: the frontier decides (done, retried, skipped), the store records it.
        mutating func finish(
            _ entry: FrontierEntry, _ outcome: PageOutcome, seconds: Double,
            group: inout ThrowingTaskGroup<TaskResult, any Error>
        ) async throws {
            let now = clock()
            switch outcome {
            case .blocked(let skipped):
                let origin = URLParser.parse(entry.url).map(OriginMapping.origin(of:)) ?? ""
                var hold: CrawlFrontier<FrontierEntry>.RobotsHold?
                let held = await robots.heldAnswer(forOrigin: origin)
                // --robots-retry 0: an unreachable robots.txt is not waited for.
                if let held, !(held.isUnreachable && settings.robotsRetryWait == 0) {
                    hold = .init(
                        isUnreachable: held.isUnreachable,
                        allowsEntry: held.allows(entry.url, productToken: settings.productToken),
                        refreshAt: held.refreshAt)
                }
                switch frontier.blocked(entry, robots: hold, now: now) {
                case .requeue(let notBefore):
                    if let held, held.isUnreachable { announceRobotsRetry(origin, held.policy, at: notBefore) }
                    try await store.run { try $0.requeue(id: entry.id ?? 0, notBefore: notBefore) }
                case .skip:
                    if let held, held.isUnreachable { announceRobotsGaveUp(origin, held.policy) }
                    try await store.run { try $0.skip(id: entry.id ?? 0, skipped) }
                }
            case .retry(let retryAfter, var record):
                let decision = frontier.retryRequested(
                    entry, status: record.status, seconds: seconds, retryAfter: retryAfter, now: now)
                switch decision {
                case .requeue(let notBefore):
                    try await store.run { try $0.requeue(id: entry.id ?? 0, notBefore: notBefore) }
                case .giveUp(.retryAfterTooLong(let asked, let longest)):
                    record.errorKind = "http-\(record.status ?? 0)"
                    record.errorMessage =
                        "Retry-After too long: \(clampedInt(asked.rounded())) s (at most \(clampedInt(longest)) s are waited); not retried"
                    try await complete(entry, record, links: [], skipped: [], group: &group)
                case .giveUp(.attemptsSpent(let attempts)):
                    record.errorMessage = [record.errorMessage, "gave up after \(attempts) attempts"]
                        .compactMap { $0 }.joined(separator: "; ")
                    record.errorKind = record.errorKind ?? "http-\(record.status ?? 0)"
                    fetched += 1
                    errors += 1
                    // No alias for the end of a redirect chain that never answered.
                    let given = record
                    _ = try await store.complete(PageCompletion(page: given, discovered: [], skipped: [], aliases: []))
                }
            case .page(let record, let links, let skipped, let linksNotExamined):
                frontier.fetched(entry, status: record.status, seconds: seconds, now: now)
                // --urls-from: the listed URLs only; what a page links to is neither followed nor recorded.
                let listMode = settings.listMode == true
                try await complete(
                    entry, record, links: listMode ? [] : links, skipped: listMode ? [] : skipped,
                    notExamined: listMode ? 0 : linksNotExamined, group: &group)
            }
        }

        /// Says once per wait that `origin`'s robots.txt is unreachable and when it is asked again.
        mutating func announceRobotsRetry(_ origin: String, _ policy: RobotsPolicy, at retryAt: Double) {
            guard robotsRetriesAnnounced[origin] != retryAt else { return }
            robotsRetriesAnnounced[origin] = retryAt
            notices?(.robotsUnreachable(origin: origin, reason: policy.unreachableReason, retryAt: retryAt))
        }

        /// Says once that `origin`'s robots.txt stayed unreachable and its pages are not fetched.
        mutating func announceRobotsGaveUp(_ origin: String, _ policy: RobotsPolicy) {
            guard robotsGivenUp.insert(origin).inserted else { return }
            notices?(
                .robotsGaveUp(
                    origin: origin, reason: policy.unreachableReason,
                    attempts: settings.robotsRetryWait == 0 ? 1 : settings.maximumAttempts))
        }

        /// Stores a finished page with the links the budget admits, and the URLs it skips.
        /// `notExamined`: links of the page past `PageProcessor.linksExamined`, which the budget
        /// would refuse: counted with its refusals.
        mutating func complete(
            _ entry: FrontierEntry, _ record: PageRecord, links: [FrontierEntry], skipped: [SkippedURL],
            notExamined: Int = 0, group: inout ThrowingTaskGroup<TaskResult, any Error>
        ) async throws {
            fetched += 1
            if record.status.map({ $0 >= 400 }) ?? true || record.errorKind != nil { errors += 1 }
            // Pending from now: the crawl does not end before the page is stored.
            frontier.storing(host: entry.host)
            let page = FinishedPage(
                entry: entry, record: record, links: links, skipped: skipped, notExamined: notExamined)
            let keys = unknownKeys(of: links)
            if !keys.isEmpty, store.store.asksSeenKeysOnItsOwnConnection {
                // Asked while the crawl goes on: on a shared store the answer is a round trip the
                // crawl loop would otherwise wait for, and so would every page finished meanwhile.
                group.addTask { [store] in
                    let answer = try await store.knownKeysAndAdmittedCount(keys)
                    return .seenKeysAnswered(page, known: answer.known, admitted: answer.admitted)
                }
                return
            }
            let known = try await seenKeys(keys)
            store(page, known: known, group: &group)
        }

        /// The page's links admitted within the budget (`known`: keys the store has seen, with those
        /// known here added now), then the page stored while the crawl goes on: the next pages start
        /// without waiting for the store's answer.
        mutating func store(
            _ page: FinishedPage, known: Set<String>, group: inout ThrowingTaskGroup<TaskResult, any Error>
        ) {
            let (entry, record) = (page.entry, page.record)
            var skipped = page.skipped
            let admitted = settle(page.links, known: known, skipped: &skipped)
            if recentlySkipped.count > 50_000 { recentlySkipped.removeAll(keepingCapacity: true) }
            skipped.removeAll { !recentlySkipped.insert(SkipKey(url: $0.url, reason: $0.reason)).inserted }
            let mapping = mapping
            skipped = SkipRecording.bounded(skipped, alsoRefused: [record.finalURL: page.notExamined]) {
                mapping?.publicURL($0) ?? $0
            }
            var aliases: [FrontierEntry] = []
            if let finalKey = record.finalKey, finalKey != entry.key,
                record.verdict != nil || record.status.map({ !(300..<400).contains($0) }) ?? false
            {
                aliases.append(
                    FrontierEntry(
                        url: record.finalURL, key: finalKey, host: entry.host, depth: entry.depth,
                        discovery: .redirect, foundOn: entry.url))
            }
            let toSkip = skipped
            let toAlias = aliases
            group.addTask { [store] in
                let added = try await store.complete(
                    PageCompletion(page: record, discovered: admitted, skipped: toSkip, aliases: toAlias))
                return .stored(host: entry.host, addedHosts: added.map(\.host))
            }
        }

        /// The sitemaps' entries: those in scope join the frontier within the budget. They are
        /// admitted `sitemapChunk` at a time: what the budget refuses is counted, not held.
        mutating func add(_ harvest: SitemapHarvest) async throws {
            frontier.harvest(pending: false)
            var recorder = SkipRecorder()
            recorder.record(harvest.problems)
            var admitted: [FrontierEntry] = []
            // Keys of earlier chunks (sharing the entries' storage): a location listed twice is
            // admitted or refused once, as in one call.
            var seen: Set<String> = []
            for start in stride(from: 0, to: harvest.entries.count, by: Self.sitemapChunk) {
                var skipped: [SkippedURL] = []
                var candidates: [FrontierEntry] = []
                for entry in harvest.entries[start..<min(start + Self.sitemapChunk, harvest.entries.count)] {
                    let fetchForm = mapping?.fetchURL(entry.location) ?? entry.location
                    guard let url = URLParser.parse(fetchForm) else { continue }
                    if let (reason, detail) = scope.violation(of: url) {
                        skipped.append(
                            SkippedURL(
                                url: entry.location, key: entry.key, reason: reason.rawValue, detail: detail,
                                foundOn: entry.sitemapURL))
                        continue
                    }
                    guard seen.insert(entry.key).inserted else { continue }
                    let text = url.serialized(includingFragment: false)
                    candidates.append(
                        FrontierEntry(
                            url: text, key: entry.key, host: PageProcessor.authority(of: url), depth: 1,
                            discovery: .sitemap, foundOn: entry.sitemapURL))
                }
                admitted += try await admit(candidates, skipped: &skipped)
                recorder.record(skipped)
            }
            let toSkip = recorder.recorded()
            let toEnqueue = admitted
            let added = try await store.run {
                try $0.addSitemapHarvest(harvest.entries, enqueue: toEnqueue, skipped: toSkip)
            }
            frontier.enqueued(hosts: added.map(\.host))
        }

        static let sitemapChunk = 4_096

        /// New frontier candidates: the ones not seen yet, within the budget; the rest recorded.
        mutating func admit(_ candidates: [FrontierEntry], skipped: inout [SkippedURL]) async throws
            -> [FrontierEntry]
        {
            let known = try await seenKeys(unknownKeys(of: candidates))
            return settle(candidates, known: known, skipped: &skipped)
        }

        /// The candidates' keys this process does not know to be seen: what the store is asked.
        /// The seen set only grows, so a key known once is known for good: most of a page's links
        /// (the site's navigation) are answered here, without asking the store.
        mutating func unknownKeys(of candidates: [FrontierEntry]) -> [String] {
            if knownHere.count > 100_000 { knownHere.removeAll(keepingCapacity: true) }
            let knownHere = knownHere
            return Array(Set(candidates.lazy.map(\.key).filter { !knownHere.contains($0) }))
        }

        /// Which of `keys` the store has seen.
        mutating func seenKeys(_ keys: [String]) async throws -> Set<String> {
            guard !keys.isEmpty else { return [] }
            guard store.store.isShared else { return try await store.run { try $0.knownKeys(keys) } }
            let answer = try await store.knownKeysAndAdmittedCount(keys)
            frontier.admittedElsewhere(answer.admitted)
            return answer.known
        }

        /// The candidates admitted within the budget: those neither in `known` (seen by the store)
        /// nor known here (admitted by this process since the store was asked, too); the refused
        /// ones recorded as skipped.
        mutating func settle(_ candidates: [FrontierEntry], known: Set<String>, skipped: inout [SkippedURL])
            -> [FrontierEntry]
        {
            let known = known.union(candidates.lazy.map(\.key).filter(knownHere.contains))
            let (admitted, refused) = frontier.admit(candidates, known: known)
            knownHere.formUnion(known)
            knownHere.formUnion(admitted.lazy.map(\.key))
            for (candidate, reason) in refused {
                skipped.append(
                    SkippedURL(
                        url: candidate.url, key: candidate.key, reason: SkipReason.budget.rawValue, detail: reason,
                        foundOn: candidate.foundOn))
            }
            return admitted
        }

        /// The progress line, at most four times a second, once for a shared crawl (`force`: now).
        mutating func report(force: Bool = false) async {
            guard let progress else { return }
            let now = clock()
            // A shared crawl's tally counts the whole crawl on the server: once a second.
            guard force || now - lastProgress >= (store.store.isShared ? 1 : 0.25) else { return }
            lastProgress = now
            let tally = try? await store.run { (try $0.counts(), try $0.skippedURLCount()) }
            let counts = tally?.0
            progress(
                CrawlProgress(
                    fetched: fetched, queued: counts?.queued ?? 0, inFlight: counts?.inFlight ?? 0, errors: errors,
                    skipped: tally?.1 ?? 0, elapsed: now - started, done: (counts?.done ?? 0) + (counts?.skipped ?? 0),
                    maximumPages: settings.maximumPages))
        }
    }
}

/// The store's rows are what the frontier schedules.
extension FrontierEntry: FrontierItem {}
