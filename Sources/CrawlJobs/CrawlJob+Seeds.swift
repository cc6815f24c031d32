import Crawling
import Foundation
import Reports
import URLNormalization

extension CrawlJob {
    /// `--baseline` read and `--write-baseline`'s folder checked before anything is fetched or
    /// written, so a crawl is never wasted on them (and a folder crawled into again is compared
    /// with its previous report, not with the one this run writes).
    func readBaseline() throws(CrawlJobError) -> FindingBaseline? {
        if let path = request.writeBaseline {
            do {
                try FindingBaseline.checkWritable(path)
            } catch {
                throw CrawlJobError(.outputNotWritable, "--write-baseline \(error)")
            }
        }
        guard let path = request.baseline else { return nil }
        do {
            return try FindingBaseline.load(path)
        } catch {
            throw CrawlJobError(.baselineUnreadable, "--baseline \(error)")
        }
    }

    /// The URLs the crawl starts from, as fetched, the first one first: the seed (unless it is a
    /// folder served for `--urls-from`), the more seeds, the listed URLs; each once (by
    /// de-duplication key), and no more of them than `--max-pages` admits.
    func startURLs(_ place: Place, seed: ParsedURL, mapping: OriginMapping?) throws(CrawlJobError) -> [String] {
        let first = seed.serialized(includingFragment: false)
        let base = mapping?.publicURL(first) ?? first
        let more = request.moreSeeds.enumerated().map { SeedList.Line(text: $1, place: "seed \($0 + 2)") }
        var urls = try SeedList.resolve(more + place.listed, base: base, mapping: mapping)
        if request.urlList == nil || !place.servesFolder { urls.insert(first, at: 0) }
        var keys: Set<String> = []
        urls = urls.filter { keys.insert(URLParser.parse($0)?.deduplicationKey ?? $0).inserted }
        let budget = request.settings.maximumPages
        guard urls.count <= budget else {
            throw CrawlJobError(
                .badRequest,
                "\(urls.count) URLs to check (seeds and --urls-from), more than --max-pages \(budget) admits; "
                    + "raise it with --max-pages \(urls.count) or more")
        }
        return urls
    }

    /// What the stored settings say about the start: the hosts of the further seeds (the scope,
    /// on --resume too), list mode (no links followed, no sitemaps), and the credentials' header
    /// names and origins (the seeds'), never their values.
    func plan(_ seeds: [String], in settings: inout CrawlSettings) {
        let hosts = seeds.compactMap { URLParser.parse($0)?.host }
        let more = Set(hosts.dropFirst()).subtracting(hosts.prefix(1))
        settings.seedHosts = more.isEmpty ? nil : more.sorted()
        if request.urlList != nil {
            settings.listMode = true
            settings.useSitemaps = false
        }
        if var credentials = request.credentials, !credentials.headers.isEmpty {
            credentials.origins = Set(seeds.compactMap(SiteCredentials.origin(of:)))
            settings.credentials = credentials.record
        }
    }

    /// The credentials to send, for the origins the settings name. A resumed crawl needs the
    /// same header names it was started with (values are never stored), and none if it had none.
    func credentials(for settings: CrawlSettings, resuming: Bool, folder: String?) throws(CrawlJobError)
        -> SiteCredentials?
    {
        let given = request.credentials.flatMap { $0.headers.isEmpty ? nil : $0 }
        if resuming {
            let stored = settings.credentials?.headers ?? []
            let names = given?.headers.map(\.name) ?? []
            if Set(stored.map { $0.lowercased() }) != Set(names.map { $0.lowercased() }) {
                let place = folder ?? settings.source
                throw CrawlJobError(
                    .badRequest,
                    stored.isEmpty
                        ? "\(place): the crawl there was started without --header or --basic-auth; resume it "
                            + "without them (a new crawl into the folder may use them)"
                        : "\(place): the crawl there was started with the request headers "
                            + "\(stored.joined(separator: ", ")) (--header, --basic-auth); their values are never "
                            + "stored, so pass the same options again with --resume")
            }
        }
        guard var credentials = given, let record = settings.credentials else { return nil }
        credentials.origins = Set(record.origins)
        return credentials
    }
}
