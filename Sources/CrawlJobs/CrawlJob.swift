import CrawlScheduling
import CrawlStore
import Crawling
import Foundation
import ItemLinking
import LenientJSON
import LoopbackServer
import PageAnalysis
import PostgresStorage
import Reports
import SpotlightIndex
import SpotlightModel
import URLNormalization
import Verification

/// A whole crawl as a library call: finds or creates the output folder and its store, serves a
/// folder on 127.0.0.1, loads the app's local items, crawls, writes every report, compares with
/// the baseline and feeds the index. The CLI maps its options to a `CrawlRequest` and the
/// outcome (or `CrawlJobError`) to an exit code.
public struct CrawlJob: Sendable {
    public var request: CrawlRequest

    public static let storeName = "crawl.sqlite"

    public init(_ request: CrawlRequest) {
        self.request = request
    }

    /// Runs the crawl; `events` hears progress, warnings, findings and the files written.
    public func run(events: @escaping @Sendable (CrawlEvent) -> Void = { _ in }) async throws(CrawlJobError)
        -> CrawlOutcome
    {
        let place = try locate()
        let baseline = try readBaseline()
        let server = try await serve(place)
        do {
            let outcome = try await crawl(place, server: server, baseline: baseline, events: events)
            if let server { await server.stop() }
            return outcome
        } catch {
            if let server { await server.stop() }
            throw error
        }
    }

    /// Where the crawl reads from and writes to, and what an earlier run stored.
    struct Place {
        var source: String
        var servesFolder: Bool
        var folder: String?
        var previousSettings: CrawlSettings?
        /// The lines of `--urls-from`.
        var listed: [SeedList.Line] = []
        /// The seed is the list's first URL (no seed was named).
        var seedFromList = false
    }

    /// Checks the seed, and with `--resume` the store to continue, before anything is written.
    private func locate() throws(CrawlJobError) -> Place {
        var seed = request.seed ?? ""
        let listed = try request.urlList.map(SeedList.read) ?? []
        // --resume --output DIR (or --store FILE): the seed is the one the store names (its
        // settings are read once).
        var stored: CrawlSettings?
        if request.seed == nil, request.resume || listed.isEmpty,
            request.output != nil || (request.resume && request.storeFile != nil)
        {
            let settings = try Self.unfinishedCrawl(in: request.output, storeFile: request.storeFile)
            stored = settings
            seed = settings.source.isEmpty ? settings.seed : settings.source
        }
        // --urls-from without a seed: the list's first URL is the seed.
        let seedFromList = request.seed == nil && stored == nil && !listed.isEmpty
        if seedFromList { seed = listed[0].text }
        var isDirectory: ObjCBool = false
        let servesFolder =
            FileManager.default.fileExists(atPath: seed, isDirectory: &isDirectory) && isDirectory.boolValue
        if !servesFolder, let problem = SeedCheck.problem(seed) {
            guard seedFromList else { throw CrawlJobError(.cannotCrawl, problem) }
            let why =
                seed.hasPrefix("/")
                ? "\(seed): a path, and there is no seed to read it on; name the site (or folder) before "
                    + "--urls-from, or write the list's first URL in full"
                : problem
            throw CrawlJobError(.cannotCrawl, "\(listed[0].place): \(why)")
        }
        let source = servesFolder ? URL(fileURLWithPath: seed).standardizedFileURL.path : seed
        // A folder with no page would crawl one 404 and pass (issue 31); `validate` exits 4 on it too.
        if servesFolder, stored == nil, !request.resume, !Self.holdsHTML(source) {
            throw CrawlJobError(
                .noPages,
                "\(seed): no pages to crawl: the folder holds no HTML file (.html, .htm, .xhtml); name the folder "
                    + "that holds the site's pages")
        }
        var place = Place(
            source: source, servesFolder: servesFolder, folder: request.output, listed: listed,
            seedFromList: seedFromList)
        guard request.resume else { return place }
        if let storeFile = request.storeFile {
            // The store is named: its crawl goes on, reported into --output or a new folder.
            if stored == nil { stored = try Self.unfinishedCrawl(in: place.folder, storeFile: storeFile) }
            place.previousSettings = stored
            return place
        }
        guard let folder = place.folder ?? StoredCrawl.latestUnfinished(source: source) else {
            throw CrawlJobError(
                .cannotCrawl,
                "no unfinished crawl of \(source) under reports/ to resume; name its folder with --output DIR, "
                    + "or leave out --resume to start a new crawl")
        }
        place.folder = folder
        if stored == nil { stored = try Self.unfinishedCrawl(in: folder, storeFile: nil) }
        place.previousSettings = stored
        return place
    }

    /// Whether `folder` or a folder under it holds an `.html`, `.htm` or `.xhtml` file (stops at
    /// the first).
    static func holdsHTML(_ folder: String) -> Bool {
        guard let files = FileManager.default.enumerator(atPath: folder) else { return false }
        while let file = files.nextObject() as? String {
            if ["html", "htm", "xhtml"].contains((file as NSString).pathExtension.lowercased()) { return true }
        }
        return false
    }

    /// The store of a crawl reported into `folder`: `storeFile` (`--store FILE`), else the
    /// folder's crawl.sqlite.
    static func storePath(in folder: String?, storeFile: String?) -> String {
        storeFile ?? ((folder ?? ".") as NSString).appendingPathComponent(storeName)
    }

    /// The settings of the unfinished crawl in `folder`'s store (or `storeFile`); throws, saying
    /// so in words and what to run instead, when there is no store, no crawl in it, or its crawl
    /// has finished.
    static func unfinishedCrawl(in folder: String?, storeFile: String?) throws(CrawlJobError) -> CrawlSettings {
        let storePath = storePath(in: folder, storeFile: storeFile)
        let place = storeFile ?? folder ?? "."
        guard FileManager.default.fileExists(atPath: storePath) else {
            throw CrawlJobError(
                .cannotCrawl,
                storeFile == nil
                    ? "\(place): no crawl store (\(storeName)) here, so there is no crawl to resume; "
                        + "start one with `spotcheck crawl URL|FOLDER --output \(place)`"
                    : "\(storeFile ?? ""): no such crawl store, so there is no crawl to resume; start one with "
                        + "`spotcheck crawl URL|FOLDER --store \(storeFile ?? "")`")
        }
        let run: (settings: CrawlSettings, finishedAt: Double?)?
        do {
            run = try StoredCrawl.currentRun(inStoreAt: storePath)
        } catch {
            throw CrawlJobError(.storeUnusable, "\(error)")
        }
        guard let run else {
            throw CrawlJobError(.cannotCrawl, "\(storePath): the store holds no crawl, so there is nothing to resume")
        }
        if let finishedAt = run.finishedAt {
            let source = run.settings.source.isEmpty ? run.settings.seed : run.settings.source
            let again = storeFile.map { "--store \($0)" } ?? "--output \(place)"
            throw CrawlJobError(
                .cannotCrawl,
                "\(place): the crawl there finished (\(StoredCrawl.utcTime(finishedAt))), so there is nothing to "
                    + "resume; crawl the site again into the same store (unchanged pages are kept) with "
                    + "`spotcheck crawl \(source) \(again)`, or write its reports again with "
                    + "`spotcheck report \(storeFile ?? place)`")
        }
        return run.settings
    }

    /// A folder is served on loopback (on the same port when resuming, so stored URLs stay valid).
    private func serve(_ place: Place) async throws(CrawlJobError) -> RunningServer? {
        guard place.servesFolder else { return nil }
        let port = place.previousSettings.flatMap { URLParser.parse($0.seed)?.port } ?? 0
        do {
            return try await FolderServer(root: place.source, port: port).start()
        } catch {
            throw CrawlJobError(.cannotCrawl, "cannot serve \(place.source) on 127.0.0.1: \(error)")
        }
    }

    private func crawl(
        _ place: Place, server: RunningServer?, baseline: FindingBaseline?,
        events: @escaping @Sendable (CrawlEvent) -> Void
    ) async throws(CrawlJobError) -> CrawlOutcome {
        let seedURL = server?.baseURL ?? place.source
        var publicOrigin =
            request.publicOrigin ?? (place.servesFolder ? StoredCrawl.siteConfiguration(in: place.source) : nil)
        // The origin `--as` would name, when the pages are read under one that is not the site's.
        var publicOriginHint: String?
        if place.servesFolder, publicOrigin == nil, place.previousSettings == nil {
            // Stable URLs for a folder that does not say which site it is (so `diff` matches pages).
            let standIn = StoredCrawl.standInOrigin(for: place.source)
            publicOrigin = standIn
            let named = StoredCrawl.originNamedByHomePage(of: place.source)
            publicOriginHint = named ?? "https://www.example.com"
            events(.notice(.standInOrigin(folder: place.source, origin: standIn, named: named)))
        }
        guard let parsedSeed = URLParser.parse(seedURL), parsedSeed.isCrawlable else {
            throw CrawlJobError(.cannotCrawl, "\(place.source): neither a folder nor an http(s) URL")
        }
        let shownOrigin = place.previousSettings.map(\.publicOrigin) ?? publicOrigin
        let mapping = shownOrigin.flatMap {
            OriginMapping(fetchOrigin: OriginMapping.origin(of: parsedSeed), publicOrigin: $0)
        }
        var settings = place.previousSettings ?? request.settings
        var moreSeeds: [String] = []
        if place.previousSettings == nil {
            let seeds = try startURLs(place, seed: parsedSeed, mapping: mapping)
            settings.seed = seeds[0]
            moreSeeds = Array(seeds.dropFirst())
            settings.publicOrigin = publicOrigin
            plan(seeds, in: &settings)
        }
        let credentials = try credentials(
            for: settings, resuming: place.previousSettings != nil, folder: place.folder)
        settings.source = place.source
        // A host that cannot be reached at all fails now, before any folder or store exists.
        do {
            try await Crawler.checkSeedReachable(settings)
        } catch {
            throw CrawlJobError(.cannotCrawl, error.message)
        }
        let host = URLParser.parse(publicOrigin ?? seedURL)?.host ?? "site"
        let candidateDomain = "web-" + String(host.map { $0 == "." ? "-" : $0 })
        // The local items and the index are read before the output folder exists: a run that
        // cannot start leaves nothing behind.
        let local = try loadLocalEntries(excludingDomain: candidateDomain, events: events)
        if request.sharedStore != nil { settings.pageRules = SharedPageRules(request.verifier) }
        let (folder, store, lock) = try openStore(
            in: place.folder, default: StoredCrawl.defaultFolder(host: host), events: events)
        defer { withExtendedLifetime(lock) {} }
        // Checked again under the lock: another --resume may have finished the crawl meanwhile.
        if request.resume { _ = try Self.unfinishedCrawl(in: folder, storeFile: request.storeFile) }
        let storePath =
            (store as? PostgresCrawlStore)?.location.description
            ?? Self.storePath(in: folder, storeFile: request.storeFile)
        events(.crawlStarted(folder: folder))
        let summary = try await fetchPages(
            Crawler(
                settings: settings, store: store, verifier: request.verifier, appIDs: request.verifier.appIDs,
                extraURLs: Self.itemURLs(local.entries), seeds: moreSeeds, credentials: credentials),
            events: events)
        events(.crawlFinished)
        var reports = CrawlReports(
            store: store, mapping: mapping, siteVerifier: SiteVerifier(configuration: request.verifier.configuration),
            localEntries: local.entries, reportFiles: request.reportFiles, suite: settings.publicOrigin ?? settings.seed
        )
        reports.includesMarkup = request.includesMarkup
        if place.servesFolder {
            reports.servedFolder = place.source
            reports.localEntryPlaces = local.places
        }
        let result = try reports.write(
            into: folder, baseline: baseline, writeBaseline: request.writeBaseline,
            collectingCandidates: local.index != nil, events: events)
        let written = result.written
        if let index = local.index {
            try feed(result.candidates, into: index, domain: candidateDomain, events: events)
        }
        var outcome = CrawlOutcome(
            summary: summary, totals: written.totals, reportFolder: folder, reportPath: written.path,
            storePath: storePath)
        outcome.baselineMatch = written.baselineMatch
        if publicOriginHint == nil, mapping == nil, parsedSeed.host.map(HostScheduler.isLoopback) == true {
            publicOriginHint = "https://www.example.com"
        }
        outcome.publicOriginHint = publicOriginHint
        outcome.invalidLocalRecords = local.invalid
        outcome.resumed = request.resume
        outcome.skippedByReason = written.report.summary.skipped
        outcome.maximumPages = settings.maximumPages
        let answered = written.totals.byStatus.contains { $0.key != "none" && $0.value > 0 }
        if !answered, !request.resume {
            // Nothing could be fetched, not even the seed (skipped, or no HTTP answer: a timeout):
            // say why (the report has it too).
            let seedSkip = (try? store.skippedURL(settings.seed)) ?? nil
            let seedPage = seedSkip == nil ? (try? store.page(url: settings.seed)) ?? nil : nil
            let why = seedSkip?.detail ?? seedPage?.errorMessage.map { "\(seedPage?.errorKind ?? "error"): \($0)" }
            outcome.seedNotFetched = "\(settings.seed): not crawled: \(why ?? "no page was fetched")"
        }
        return outcome
    }

    /// Creates the output folder (with a reason in words when it cannot be) and opens the store:
    /// the `--store` database (the crawl is registered there when it begins), or the folder's own.
    private func openStore(
        in output: String?, default defaultFolder: String, events: @escaping @Sendable (CrawlEvent) -> Void
    ) throws(CrawlJobError) -> (folder: String, store: any CrawlStoring, lock: CrawlFolderLock) {
        guard let shared = request.sharedStore else {
            let (folder, store, lock) = try Self.openStore(
                in: output, default: defaultFolder, storeFile: request.storeFile)
            return (folder, store, lock)
        }
        // The database first: a server that cannot be reached leaves no folder behind.
        let store: PostgresCrawlStore
        do {
            let location = try PostgresLocation(url: shared)
            store = try PostgresCrawlStore(
                location: location, leaseSeconds: request.leaseSeconds,
                maximumLeases: Self.maximumLeases(request.settings),
                onRegistered: { events(.sharedCrawlRegistered(id: $0, store: location.description)) })
        } catch {
            throw CrawlJobError(.storeUnusable, "\(error)")
        }
        let folder: String
        do {
            if let output {
                _ = try OutputFolder.claim(output)
                folder = output
            } else {
                folder = try OutputFolder.createUnique(defaultFolder)
            }
        } catch {
            throw CrawlJobError(.outputNotWritable, "\(error)")
        }
        return (folder, store, try CrawlFolderLock(folder: folder))
    }

    /// The hosts one process of a shared crawl leases at once: as many as its requests in flight
    /// can keep busy at the per-host limit, so that the others' workers get hosts too.
    static func maximumLeases(_ settings: CrawlSettings) -> Int {
        max(1, (settings.concurrency + settings.perHost - 1) / max(1, settings.perHost))
    }

    /// Creates the output folder (with a reason in words when it cannot be) and opens its store:
    /// `--output`, or a folder of its own next to `defaultFolder` (never one an earlier run has).
    /// A folder made here is removed again when the store cannot be opened in it. The store is
    /// `storeFile` when given (locked too, `FILE.lock`, so two crawls never share it).
    private static func openStore(in output: String?, default defaultFolder: String, storeFile: String?)
        throws(CrawlJobError) -> (folder: String, store: CrawlStore, lock: CrawlFolderLock)
    {
        let folder: String
        let created: Bool
        do {
            if let output {
                folder = output
                created = try OutputFolder.claim(output)
            } else {
                folder = try OutputFolder.createUnique(defaultFolder)
                created = true
            }
        } catch {
            throw CrawlJobError(.outputNotWritable, "\(error)")
        }
        let storePath = Self.storePath(in: folder, storeFile: storeFile)
        let lock: CrawlFolderLock
        do {
            if let storeFile { try createFolder(of: storeFile) }
            lock = try CrawlFolderLock(folder: folder, keeping: try storeFile.map(CrawlFolderLock.init(storeFile:)))
        } catch {
            if created { try? FileManager.default.removeItem(atPath: folder) }
            throw error
        }
        do {
            return (folder, try CrawlStore(path: storePath), lock)
        } catch {
            if created { try? FileManager.default.removeItem(atPath: folder) }
            throw CrawlJobError(.storeUnusable, "\(error)")
        }
    }

    /// `--store stores/site.sqlite` makes `stores/`, as --output makes its folder (issue 31: it
    /// failed with `stores/site.sqlite.lock: cannot be created`).
    private static func createFolder(of storeFile: String) throws(CrawlJobError) {
        let parent = (storeFile as NSString).deletingLastPathComponent
        do {
            try OutputFolder.create(parent.isEmpty ? "." : parent)
        } catch {
            throw CrawlJobError(.outputNotWritable, "--store \(storeFile): \(error)")
        }
    }

    private func loadLocalEntries(excludingDomain domain: String, events: (CrawlEvent) -> Void)
        throws(CrawlJobError) -> (entries: [LocalEntry]?, places: LocalEntryPlaces?, index: LocalIndex?, invalid: Int)
    {
        var entries: [LocalEntry]?
        var places: LocalEntryPlaces?
        var index: LocalIndex?
        var invalid = 0
        do {
            if let itemsFile = request.itemsFile {
                let loaded = try LocalEntrySources.load(file: itemsFile) {
                    invalid += 1
                    events(.warning($0))
                }
                (entries, places) = (loaded.entries, loaded.places)
            }
            if let indexPath = request.indexPath {
                let opened = try LocalIndex.open(indexPath)
                index = opened
                entries = (entries ?? []) + (try LocalEntrySources.load(index: opened, excludingDomain: domain))
            }
        } catch {
            throw CrawlJobError(.localItemsUnreadable, "\(error)")
        }
        return (entries, places, index, invalid)
    }

    /// The local entries' web URLs, fetched too (an item whose page is gone is reported with its 404).
    private static func itemURLs(_ local: [LocalEntry]?) -> [(url: String, foundOn: String)] {
        (local ?? []).flatMap { entry in
            entry.webURLs.map { (url: $0, foundOn: entry.label) }
        }
    }

    private func fetchPages(_ crawler: Crawler, events: @escaping @Sendable (CrawlEvent) -> Void)
        async throws(CrawlJobError) -> CrawlSummary
    {
        do {
            return try await crawler.run(
                resume: request.resume, progress: { events(.progress($0)) }, notices: { events(.notice($0)) })
        } catch {
            throw CrawlJobError(.cannotCrawl, "\(error)")
        }
    }

    private func feed(
        _ candidates: [SearchableItem], into index: LocalIndex, domain: String, events: (CrawlEvent) -> Void
    ) throws(CrawlJobError) {
        do {
            let (indexed, removed) = try LocalEntrySources.feed(candidates, into: index, domain: domain)
            events(.indexFed(index: index.location, domain: domain, indexed: indexed, removed: removed))
        } catch {
            throw CrawlJobError(.localItemsUnreadable, "\(error)")
        }
    }
}
