import CrawlScheduling
public import CrawlStore
import Foundation
import LenientJSON
public import PageFetching
import URLNormalization
public import Verification

/// A running tally, for the progress line.
public struct CrawlProgress: Sendable, Hashable {
    public var fetched: Int
    public var queued: Int
    public var inFlight: Int
    public var errors: Int
    public var skipped: Int
    public var elapsed: Double

    public var pagesPerSecond: Double { elapsed > 0 ? Double(fetched) / elapsed : 0 }
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

/// The crawl loop: the frontier and the seen set in the crawl store, politeness from the host
/// scheduler, fetching on libcurl's thread, extraction on the task pool, every page committed to
/// the store with the links it adds in one transaction (so `--resume` after a kill loses nothing
/// and fetches again only what was in flight).
public struct Crawler: Sendable {
    public let settings: CrawlSettings
    public let store: CrawlStore
    /// The rule checks run on every HTML page.
    public let verifier: PageVerifier
    /// `--app`: the app IDs (TEAMID.bundle.id) the universal-link rules are about; empty: every app
    /// a host's apple-app-site-association names.
    public let appIDs: [String]
    /// Public URLs to fetch besides what the seed leads to (the app's local items' URLs, so that an
    /// item whose page is gone is reported with its 404), with what named each.
    public let extraURLs: [(url: String, foundOn: String)]
    /// The HTTP client; nil: each run builds a libcurl `Fetcher` from `settings` (and shuts it down
    /// when the run ends). An injected fetcher belongs to the caller.
    private let fetcher: (any PageFetcher)?
    private let clock: @Sendable () -> Double

    /// Seconds since 1970, from the system clock.
    public static let wallClock: @Sendable () -> Double = { Date().timeIntervalSince1970 }

    public init(
        settings: CrawlSettings, store: CrawlStore, verifier: PageVerifier = PageVerifier(), appIDs: [String] = [],
        extraURLs: [(url: String, foundOn: String)] = [], fetcher: (any PageFetcher)? = nil,
        clock: @escaping @Sendable () -> Double = Crawler.wallClock
    ) {
        self.settings = settings
        self.store = store
        self.verifier = verifier
        self.appIDs = appIDs
        self.extraURLs = extraURLs
        self.fetcher = fetcher
        self.clock = clock
    }

    private enum TaskResult: Sendable {
        case page(FrontierEntry, PageOutcome, seconds: Double)
        case sitemaps(SitemapHarvest)
        case tick
    }

    /// Crawls until the frontier is empty (or the budget is spent). `resume` continues the
    /// store's unfinished run instead of starting a new one.
    public func run(resume: Bool, progress: (@Sendable (CrawlProgress) -> Void)? = nil) async throws(CrawlError)
        -> CrawlSummary
    {
        guard let seed = URLParser.parse(settings.seed), seed.isCrawlable, let seedHost = seed.host else {
            throw CrawlError("\(settings.seed): not an http(s) URL")
        }
        let started = clock()
        let fetcher: any PageFetcher
        var ownFetcher: Fetcher?
        if let injected = self.fetcher {
            fetcher = injected
        } else {
            let curl = try Self.libcurlFetcher(for: settings)
            ownFetcher = curl
            fetcher = curl
        }
        defer { ownFetcher?.shutdown() }
        let seedOrigin = OriginMapping.origin(of: seed)
        let mapping = settings.publicOrigin.flatMap { OriginMapping(fetchOrigin: seedOrigin, publicOrigin: $0) }
        let scope = CrawlScope(
            hosts: Set([seedHost] + settings.allowedHosts), include: settings.include, exclude: settings.exclude,
            mapping: mapping)
        let robots = RobotsBook(fetcher: fetcher, store: store, productToken: settings.productToken, clock: clock)

        var budget: CrawlBudget
        var hosts: [String: Double] = [:]
        let run: CrawlRun
        do {
            if resume {
                run = try store.resumeRun()
                // Counted as the uninterrupted crawl counts: every admitted entry (robots-skipped
                // ones too), not the redirect targets it adds outside the budget.
                budget = CrawlBudget(
                    maximumDepth: settings.maximumDepth, maximumPages: settings.maximumPages,
                    pagesAdmitted: try store.admittedCount())
            } else {
                let settingsJSON = (try? String(decoding: JSONEncoder().encode(settings), as: UTF8.self)) ?? "{}"
                run = try store.beginRun(seed: settings.seed, settingsJSON: settingsJSON, at: started)
                budget = CrawlBudget(maximumDepth: settings.maximumDepth, maximumPages: settings.maximumPages)
                _ = budget.admit(depth: 0)
                let seedURL = seed.serialized(includingFragment: false)
                var entries = [
                    FrontierEntry(
                        url: seedURL, key: seed.deduplicationKey ?? seedURL, host: PageProcessor.authority(of: seed),
                        depth: 0, discovery: .seed, foundOn: nil)
                ]
                // Extra URLs in scope, once each, at depth 1 and within the page budget.
                var keys: Set<String> = [entries[0].key]
                for (url, foundOn) in extraURLs {
                    guard let parsed = URLParser.parse(mapping?.fetchURL(url) ?? url),
                        scope.violation(of: parsed) == nil,
                        let key = parsed.deduplicationKey, keys.insert(key).inserted, budget.admit(depth: 1) == nil
                    else { continue }
                    entries.append(
                        FrontierEntry(
                            url: parsed.serialized(includingFragment: false), key: key,
                            host: PageProcessor.authority(of: parsed), depth: 1, discovery: .link, foundOn: foundOn))
                }
                _ = try store.enqueue(entries)
            }
            for (host, earliest) in try store.hostsWithWork() { hosts[host] = earliest }
        } catch {
            throw CrawlError(error.description)
        }

        let processor = PageProcessor(
            settings: settings, fetcher: fetcher, robots: robots, store: store, scope: scope, mapping: mapping,
            clock: clock, verifier: verifier, isRecrawl: run.generation > 1,
            images: ImageBook(
                fetcher: fetcher, robots: robots, scope: scope, mapping: mapping, productToken: settings.productToken,
                maximumBodyBytes: settings.maximumBodyBytes),
            associations: AssociationBook(
                fetcher: fetcher, store: store, scope: scope, mapping: mapping, appIDs: appIDs, verifier: verifier,
                clock: clock))
        /// When each host's robots.txt answer is due for a refresh (its Crawl-delay with it).
        var robotsRefreshAt: [String: Double] = [:]
        var recentlySkipped: Set<String> = []
        /// Entries claimed from the store and not started yet, per host (popped from the end).
        var claimed: [String: [FrontierEntry]] = [:]
        let claimBatch = max(16, settings.concurrency * 2)
        var scheduler = HostScheduler(
            policy: PolitenessPolicy(
                perHostConcurrency: settings.perHost, globalConcurrency: settings.concurrency, delay: settings.delay))
        var fetched = 0
        var errors = 0
        var lastProgress = 0.0
        let clock = self.clock
        let settings = self.settings
        let store = self.store

        func report(force: Bool = false) {
            guard let progress else { return }
            let now = clock()
            guard force || now - lastProgress >= 0.25 else { return }
            lastProgress = now
            let counts = try? store.counts()
            progress(
                CrawlProgress(
                    fetched: fetched, queued: counts?.queued ?? 0, inFlight: counts?.inFlight ?? 0, errors: errors,
                    skipped: counts?.skipped ?? 0, elapsed: now - started))
        }

        /// New frontier candidates: the ones not seen yet, within the budget; the rest recorded.
        func admit(_ candidates: [FrontierEntry], skipped: inout [SkippedURL]) throws(CrawlStoreError)
            -> [FrontierEntry]
        {
            var admitted: [FrontierEntry] = []
            var known = try store.knownKeys(candidates.map(\.key))
            // A key twice in one batch (two sitemaps listing a URL) is admitted, and counted, once.
            for candidate in candidates where known.insert(candidate.key).inserted {
                if let reason = budget.admit(depth: candidate.depth) {
                    skipped.append(
                        SkippedURL(
                            url: candidate.url, key: candidate.key, reason: SkipReason.budget.rawValue, detail: reason,
                            foundOn: candidate.foundOn))
                } else {
                    admitted.append(candidate)
                }
            }
            return admitted
        }

        do {
            try await withThrowingTaskGroup(of: TaskResult.self) { group in
                var inFlight = 0
                var sitemapsPending = false
                var tickPending = false
                // A resumed run harvests again unless the interrupted one committed its harvest
                // (entries, frontier rows and skipped URLs go in one transaction).
                if settings.useSitemaps, try !resume || !store.hasSitemapEntries() {
                    sitemapsPending = true
                    let answer = await robots.answer(forOrigin: seedOrigin)
                    let collector = SitemapCollector(fetcher: fetcher, mapping: mapping)
                    group.addTask {
                        .sitemaps(await collector.collect(origin: seedOrigin, robotsSitemaps: answer.sitemaps))
                    }
                }
                while true {
                    // Start what politeness allows.
                    var now = clock()
                    var wakeAt: Double?
                    dispatching: while inFlight < settings.concurrency {
                        let ready = hosts.filter { $0.value <= now }.map(\.key)
                        switch scheduler.next(hostsWithWork: ready, now: now) {
                        case .dispatch(let host):
                            if claimed[host, default: []].isEmpty {
                                // Claimed in batches (one write per batch, not per page); a batch
                                // not started at a kill is simply queued again by --resume.
                                let batch = try store.claim(host: host, limit: claimBatch, now: now)
                                if batch.isEmpty {
                                    hosts[host] = nil
                                    for (other, earliest) in try store.hostsWithWork() where hosts[other] == nil {
                                        hosts[other] = earliest
                                    }
                                    if let earliest = hosts[host], earliest <= now { hosts[host] = now + 0.05 }
                                    continue dispatching
                                }
                                claimed[host] = batch.reversed()
                            }
                            if now >= robotsRefreshAt[host] ?? -Double.infinity, let first = claimed[host]?.last,
                                let url = URLParser.parse(first.url)
                            {
                                // The first request to a host waits for its robots.txt (and
                                // Crawl-delay), and so does the first one after the answer expires.
                                let answer = await robots.answer(forOrigin: OriginMapping.origin(of: url))
                                scheduler.setCrawlDelay(answer.crawlDelay, for: host)
                                robotsRefreshAt[host] = answer.refreshAt
                            }
                            // As many as politeness allows at once: the global limit on loopback
                            // hosts, the per-host limit (and one per delay) on every other host.
                            while inFlight < settings.concurrency, scheduler.mayStart(host, now: now) {
                                guard let entry = claimed[host]?.popLast() else { break }
                                scheduler.started(host, at: now)
                                inFlight += 1
                                group.addTask {
                                    let start = clock()
                                    let outcome = await processor.process(entry)
                                    return .page(entry, outcome, seconds: clock() - start)
                                }
                            }
                        case .wait(let until):
                            wakeAt = until
                            break dispatching
                        case .idle:
                            break dispatching
                        }
                        now = clock()
                    }
                    if let future = hosts.values.filter({ $0 > now }).min() { wakeAt = min(wakeAt ?? future, future) }
                    if inFlight == 0, !sitemapsPending, hosts.isEmpty { break }
                    if let wakeAt, !tickPending {
                        tickPending = true
                        group.addTask {
                            // At most a second at a time: the loop looks at the clock again at
                            // least every second (long waits, such as a Retry-After, stay
                            // responsive to the injected clock).
                            let seconds = min(1, max(0, wakeAt - clock()))
                            try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
                            return .tick
                        }
                    }
                    guard let result = try await group.next() else { break }
                    switch result {
                    case .tick:
                        tickPending = false
                    case .sitemaps(let harvest):
                        sitemapsPending = false
                        var skipped = harvest.problems
                        var candidates: [FrontierEntry] = []
                        for entry in harvest.entries {
                            let fetchForm = mapping?.fetchURL(entry.location) ?? entry.location
                            guard let url = URLParser.parse(fetchForm) else { continue }
                            if let (reason, detail) = scope.violation(of: url) {
                                skipped.append(
                                    SkippedURL(
                                        url: entry.location, key: entry.key, reason: reason.rawValue, detail: detail,
                                        foundOn: entry.sitemapURL))
                                continue
                            }
                            let text = url.serialized(includingFragment: false)
                            candidates.append(
                                FrontierEntry(
                                    url: text, key: entry.key, host: PageProcessor.authority(of: url), depth: 1,
                                    discovery: .sitemap, foundOn: entry.sitemapURL))
                        }
                        let admitted = try admit(candidates, skipped: &skipped)
                        for entry in try store.addSitemapHarvest(harvest.entries, enqueue: admitted, skipped: skipped) {
                            hosts[entry.host] = min(hosts[entry.host] ?? 0, 0)
                        }
                    case .page(let entry, let outcome, let seconds):
                        inFlight -= 1
                        let now = clock()
                        switch outcome {
                        case .blocked(let skipped):
                            scheduler.finished(
                                entry.host, at: now, outcome: .answered(status: 200, seconds: 0, retryAfter: nil))
                            // An unreachable robots.txt disallows all for now and is asked for
                            // again later (RFC 9309 §2.3.1.3): the entry waits for that, up to the
                            // attempt limit. An answer refreshed since the block may allow it now.
                            var held: RobotsBook.Answer?
                            if let url = URLParser.parse(entry.url) {
                                held = await robots.heldAnswer(forOrigin: OriginMapping.origin(of: url))
                            }
                            if let held, entry.attempts + 1 < settings.maximumAttempts,
                                held.isUnreachable || held.allows(entry.url, productToken: settings.productToken)
                            {
                                let notBefore = held.isUnreachable ? max(now, held.refreshAt) : now
                                try store.requeue(id: entry.id ?? 0, notBefore: notBefore)
                                hosts[entry.host] = min(hosts[entry.host] ?? notBefore, notBefore)
                            } else {
                                try store.skip(id: entry.id ?? 0, skipped)
                            }
                        case .retry(let notBefore, var record):
                            let retryAfter = max(0, notBefore - now)
                            scheduler.finished(
                                entry.host, at: now,
                                outcome: record.status.map {
                                    .answered(status: $0, seconds: seconds, retryAfter: retryAfter)
                                } ?? .failed)
                            if entry.attempts + 1 < settings.maximumAttempts {
                                try store.requeue(id: entry.id ?? 0, notBefore: notBefore)
                                hosts[entry.host] = min(hosts[entry.host] ?? notBefore, notBefore)
                            } else {
                                record.errorMessage = [
                                    record.errorMessage, "gave up after \(settings.maximumAttempts) attempts",
                                ]
                                .compactMap { $0 }.joined(separator: "; ")
                                record.errorKind = record.errorKind ?? "http-\(record.status ?? 0)"
                                fetched += 1
                                errors += 1
                                _ = try store.complete(record, discovered: [], skipped: [])
                            }
                        case .page(let record, let links, var skipped):
                            scheduler.finished(
                                entry.host, at: now,
                                outcome: record.status.map { .answered(status: $0, seconds: seconds, retryAfter: nil) }
                                    ?? .failed)
                            fetched += 1
                            if record.status.map({ $0 >= 400 }) ?? true || record.errorKind != nil { errors += 1 }
                            let admitted = try admit(links, skipped: &skipped)
                            // The store keeps one row per (url, reason); most pages repeat the same
                            // off-site links, so skip the writes for the ones recorded lately.
                            if recentlySkipped.count > 50_000 { recentlySkipped.removeAll(keepingCapacity: true) }
                            skipped.removeAll { !recentlySkipped.insert($0.url + "\u{0}" + $0.reason).inserted }
                            var aliases: [FrontierEntry] = []
                            if let finalKey = record.finalKey, finalKey != entry.key,
                                record.markupJSON != nil
                                    || record.status.map({ !(300..<400).contains($0) }) ?? false
                            {
                                aliases.append(
                                    FrontierEntry(
                                        url: record.finalURL, key: finalKey, host: entry.host, depth: entry.depth,
                                        discovery: .redirect, foundOn: entry.url))
                            }
                            let added = try store.complete(
                                record, discovered: admitted, skipped: skipped, aliases: aliases)
                            for added in added {
                                hosts[added.host] = min(hosts[added.host] ?? 0, 0)
                            }
                        }
                        report()
                    }
                }
                group.cancelAll()
            }
            try store.finishRun(at: clock())
        } catch let error as CrawlStoreError {
            throw CrawlError(error.description)
        } catch {
            throw CrawlError("\(error)")
        }
        report(force: true)
        return CrawlSummary(fetched: fetched, errors: errors, elapsed: clock() - started, generation: run.generation)
    }

    /// The libcurl fetcher a run uses when none is injected: `settings`' User-Agent, limits and
    /// connection counts.
    public static func libcurlFetcher(for settings: CrawlSettings) throws(CrawlError) -> Fetcher {
        do {
            return try Fetcher(
                configuration: FetcherConfiguration(
                    userAgent: settings.userAgent,
                    limits: FetchLimits(
                        maximumBodyBytes: settings.maximumBodyBytes, connectTimeout: min(10, settings.timeout),
                        timeout: settings.timeout),
                    maximumConnectionsPerHost: max(settings.perHost, settings.concurrency),
                    maximumConnections: max(settings.concurrency * 2, 8)
                ))
        } catch {
            throw CrawlError("cannot start the fetcher: \(error)")
        }
    }
}
