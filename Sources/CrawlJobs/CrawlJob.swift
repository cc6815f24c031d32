import CrawlStore
import Crawling
import Foundation
import LenientJSON
import LoopbackServer
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
        let server = try await serve(place)
        do {
            let outcome = try await crawl(place, server: server, events: events)
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
    }

    private func locate() throws(CrawlJobError) -> Place {
        var seed = request.seed ?? ""
        // --resume --output DIR: the seed is the one the store names (its settings are read once).
        var stored: CrawlSettings?
        if request.seed == nil, let output = request.output {
            let storePath = (output as NSString).appendingPathComponent(Self.storeName)
            guard let settings = try? StoredCrawl.settings(inStoreAt: storePath) else {
                throw CrawlJobError(.cannotCrawl, "\(storePath): no crawl to resume")
            }
            stored = settings
            seed = settings.source.isEmpty ? settings.seed : settings.source
        }
        var isDirectory: ObjCBool = false
        let servesFolder =
            FileManager.default.fileExists(atPath: seed, isDirectory: &isDirectory) && isDirectory.boolValue
        let source = servesFolder ? URL(fileURLWithPath: seed).standardizedFileURL.path : seed
        var place = Place(source: source, servesFolder: servesFolder, folder: request.output)
        guard request.resume else { return place }
        if place.folder == nil {
            guard let found = StoredCrawl.latestUnfinished(source: source) else {
                throw CrawlJobError(
                    .cannotCrawl, "no unfinished crawl of \(source) under reports/; name it with --output")
            }
            place.folder = found
        }
        let storePath = ((place.folder ?? "") as NSString).appendingPathComponent(Self.storeName)
        guard FileManager.default.fileExists(atPath: storePath) else {
            throw CrawlJobError(.cannotCrawl, "\(storePath): no crawl store to resume")
        }
        place.previousSettings = stored ?? (try? StoredCrawl.settings(inStoreAt: storePath))
        return place
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

    private func crawl(_ place: Place, server: RunningServer?, events: @escaping @Sendable (CrawlEvent) -> Void)
        async throws(CrawlJobError) -> CrawlOutcome
    {
        let seedURL = server?.baseURL ?? place.source
        let publicOrigin =
            request.publicOrigin ?? (place.servesFolder ? StoredCrawl.siteConfiguration(in: place.source) : nil)
        guard let parsedSeed = URLParser.parse(seedURL), parsedSeed.isCrawlable else {
            throw CrawlJobError(.cannotCrawl, "\(place.source): neither a folder nor an http(s) URL")
        }
        var settings = place.previousSettings ?? request.settings
        if place.previousSettings == nil {
            settings.seed = parsedSeed.serialized(includingFragment: false)
            settings.publicOrigin = publicOrigin
        }
        settings.source = place.source
        // A host that cannot be reached at all fails now, before any folder or store exists.
        do {
            try await Crawler.checkSeedReachable(settings)
        } catch {
            throw CrawlJobError(.cannotCrawl, error.message)
        }
        let host = URLParser.parse(publicOrigin ?? seedURL)?.host ?? "site"
        let folder = place.folder ?? StoredCrawl.defaultFolder(host: host)
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw CrawlJobError(.outputNotWritable, "\(folder): cannot create the output folder: \(error)")
        }
        let storePath = (folder as NSString).appendingPathComponent(Self.storeName)
        let store: CrawlStore
        do {
            store = try CrawlStore(path: storePath)
        } catch {
            throw CrawlJobError(.storeUnusable, "\(error)")
        }
        let candidateDomain = "web-" + String(host.map { $0 == "." ? "-" : $0 })
        let local = try loadLocalEntries(excludingDomain: candidateDomain, events: events)
        let summary = try await fetchPages(settings: settings, store: store, local: local.entries, events: events)
        events(.crawlFinished)
        let mapping = settings.publicOrigin.flatMap {
            OriginMapping(fetchOrigin: OriginMapping.origin(of: parsedSeed), publicOrigin: $0)
        }
        var reports = CrawlReports(
            store: store, mapping: mapping, siteVerifier: SiteVerifier(configuration: request.verifier.configuration),
            localEntries: local.entries, reportFiles: request.reportFiles, suite: settings.publicOrigin ?? settings.seed
        )
        reports.includesMarkup = request.includesMarkup
        let result = try reports.write(
            into: folder, baseline: request.baseline, collectingCandidates: local.index != nil, events: events)
        let written = result.written
        if let index = local.index {
            try feed(result.candidates, into: index, domain: candidateDomain, events: events)
        }
        var outcome = CrawlOutcome(
            summary: summary, totals: written.totals, reportFolder: folder, reportPath: written.path,
            storePath: storePath)
        if summary.fetched == 0, !request.resume {
            // Nothing could be fetched, not even the seed: say why (the report has it too).
            let seedSkip = (try? store.skippedURLs())?.first { $0.url == settings.seed }
            outcome.seedNotFetched = "\(settings.seed): not crawled: \(seedSkip?.detail ?? "no page was fetched")"
        }
        return outcome
    }

    private func loadLocalEntries(excludingDomain domain: String, events: (CrawlEvent) -> Void)
        throws(CrawlJobError) -> (entries: [LocalEntry]?, index: LocalIndex?)
    {
        var entries: [LocalEntry]?
        var index: LocalIndex?
        do {
            if let itemsFile = request.itemsFile {
                entries = try LocalEntrySources.load(file: itemsFile) { events(.warning($0)) }
            }
            if let indexPath = request.indexPath {
                let opened = try LocalIndex(path: indexPath)
                index = opened
                entries = (entries ?? []) + (try LocalEntrySources.load(index: opened, excludingDomain: domain))
            }
        } catch {
            throw CrawlJobError(.localItemsUnreadable, "\(error)")
        }
        return (entries, index)
    }

    private func fetchPages(
        settings: CrawlSettings, store: CrawlStore, local: [LocalEntry]?,
        events: @escaping @Sendable (CrawlEvent) -> Void
    ) async throws(CrawlJobError) -> CrawlSummary {
        let itemURLs = (local ?? []).flatMap { entry in
            entry.webURLs.map { (url: $0, foundOn: "local item \(entry.name)") }
        }
        do {
            return try await Crawler(
                settings: settings, store: store, verifier: request.verifier, appIDs: request.verifier.appIDs,
                extraURLs: itemURLs
            ).run(resume: request.resume, progress: { events(.progress($0)) }, notices: { events(.notice($0)) })
        } catch {
            throw CrawlJobError(.cannotCrawl, "\(error)")
        }
    }

    private func feed(
        _ candidates: [SearchableItem], into index: LocalIndex, domain: String, events: (CrawlEvent) -> Void
    ) throws(CrawlJobError) {
        do {
            let (indexed, removed) = try LocalEntrySources.feed(candidates, into: index, domain: domain)
            events(.indexFed(index: index.path, domain: domain, indexed: indexed, removed: removed))
        } catch {
            throw CrawlJobError(.localItemsUnreadable, "\(error)")
        }
    }
}
