import CrawlStore
import PageFetching
import Sitemaps
import URLNormalization

/// What the sitemaps of a site list: their entries (public URLs, as written), the entries a
/// sitemap may not list, and the sitemaps that could not be read.
struct SitemapHarvest: Sendable {
    var entries: [CrawlStore.SitemapEntryRecord] = []
    /// Entries dropped by the location rule, and unreadable sitemaps (reason `sitemap`).
    var problems: [SkippedURL] = []
}

/// Reads the sitemaps named by robots.txt `Sitemap:` lines, or `/sitemap.xml` when there are none,
/// following sitemap indexes (at most `maximumSitemaps` files). Only sitemaps on the crawl's
/// hosts are fetched: a robots.txt (or an index) naming another host's sitemap is recorded, not
/// followed, unless the user allows that host (`--allow-host`): a crawled site cannot send the
/// crawler to fetch from anywhere it names. The sitemaps of one level (those robots.txt names,
/// then the children of those indexes, …) are fetched concurrently, at most `--per-host` in flight
/// to a host (`gate`, shared with the image probes), and read in order, so the harvest is the
/// same whatever answers first (issue 17 §2.7: an index of 49 hanging children was read one at a
/// time, 147 s at `--timeout 3`). The harvest runs beside the crawl's pages.
struct SitemapCollector: Sendable {
    let fetcher: any PageFetcher
    let mapping: OriginMapping?
    /// The hosts sitemaps may be fetched from (the crawl's scope).
    let hosts: Set<String>
    /// Requests in flight per host, shared with the crawl's other side requests.
    let gate: HostGate
    var maximumSitemaps = 50

    /// One sitemap file, fetched and read, or why not.
    private enum Reading: Sendable {
        case sitemap(Sitemap)
        case missing
        case problem(String)
    }

    func collect(origin: String, robotsSitemaps: [String]) async -> SitemapHarvest {
        var harvest = SitemapHarvest()
        var level = robotsSitemaps.isEmpty ? [(mapping?.publicURL(origin) ?? origin) + "/sitemap.xml"] : robotsSitemaps
        var seen = Set<String>()
        var read = 0
        while !level.isEmpty {
            var batch: [String] = []
            var rest: [String] = []
            for sitemapURL in level where seen.insert(sitemapURL).inserted {
                if read < maximumSitemaps {
                    batch.append(sitemapURL)
                    read += 1
                } else {
                    rest.append(sitemapURL)
                }
            }
            var readings = await batch.concurrentlyMapped { await self.read($0, named: !robotsSitemaps.isEmpty) }
            var next: [String] = []
            for (index, sitemapURL) in batch.enumerated() {
                // Each sitemap read is let go once its entries are in the harvest: ten of 50,000
                // URLs are not held twice.
                let reading = readings[index]
                readings[index] = .missing
                switch reading {
                case .missing:
                    continue
                case .problem(let detail):
                    harvest.problems.append(problem(sitemapURL, detail))
                case .sitemap(let sitemap):
                    add(sitemap, from: sitemapURL, to: &harvest, children: &next)
                }
            }
            if let first = rest.first {
                harvest.problems.append(problem(first, "not read: more than \(maximumSitemaps) sitemaps"))
                break
            }
            level = next
        }
        return harvest
    }

    private func add(
        _ sitemap: Sitemap, from sitemapURL: String, to harvest: inout SitemapHarvest, children: inout [String]
    ) {
        switch sitemap.kind {
        case .sitemapIndex:
            children.append(contentsOf: sitemap.entries.map(\.location))
        default:
            for entry in sitemap.entries {
                let fetchForm = mapping?.fetchURL(entry.location) ?? entry.location
                let key = URLParser.parse(fetchForm)?.deduplicationKey ?? fetchForm
                harvest.entries.append(
                    CrawlStore.SitemapEntryRecord(
                        sitemapURL: sitemapURL, location: entry.location, key: key, line: entry.line))
            }
        }
        for dropped in sitemap.dropped {
            harvest.problems.append(
                SkippedURL(
                    url: dropped.location, key: nil, reason: SkipReason.sitemapLocation.rawValue,
                    detail: "\(sitemapURL) line \(dropped.line): \(dropped.reason)", foundOn: sitemapURL))
        }
    }

    /// Fetches and reads one sitemap. `named`: robots.txt named the sitemaps (a missing default
    /// `/sitemap.xml` is not a problem; a named one is).
    private func read(_ sitemapURL: String, named: Bool) async -> Reading {
        let fetchURL = mapping?.fetchURL(sitemapURL) ?? sitemapURL
        guard let parsed = URLParser.parse(fetchURL), let host = parsed.host, hosts.contains(host) else {
            return .problem(
                "not fetched: \(URLParser.parse(sitemapURL)?.host ?? "its host") is outside the crawl "
                    + "(--allow-host to read sitemaps there)")
        }
        let fetcher = self.fetcher
        let response: FetchResponse
        do {
            // The sitemaps.org limit (50 MiB), not --max-body; the reader caps decompression.
            response = try await gate.run(host: OriginMapping.origin(of: parsed)) { () async throws(FetchError) in
                try await fetcher.fetch(FetchRequest(url: fetchURL, bodyCap: .sitemap))
            }
        } catch {
            return .problem("\(error.kind.rawValue): \(error.message)")
        }
        guard response.status == 200 else {
            return named || response.status != 404 ? .problem("HTTP \(response.status)") : .missing
        }
        do {
            return .sitemap(try SitemapReader.read(response.body, sitemapURL: sitemapURL))
        } catch {
            return .problem(error.description)
        }
    }

    private func problem(_ sitemapURL: String, _ detail: String) -> SkippedURL {
        SkippedURL(url: sitemapURL, key: nil, reason: "sitemap", detail: detail, foundOn: nil)
    }
}
