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
/// crawler to fetch from anywhere it names.
struct SitemapCollector: Sendable {
    let fetcher: any PageFetcher
    let mapping: OriginMapping?
    /// The hosts sitemaps may be fetched from (the crawl's scope).
    let hosts: Set<String>
    var maximumSitemaps = 50

    func collect(origin: String, robotsSitemaps: [String]) async -> SitemapHarvest {
        var harvest = SitemapHarvest()
        var queue = robotsSitemaps.isEmpty ? [(mapping?.publicURL(origin) ?? origin) + "/sitemap.xml"] : robotsSitemaps
        var seen = Set<String>()
        var read = 0
        while !queue.isEmpty, read < maximumSitemaps {
            let sitemapURL = queue.removeFirst()
            guard seen.insert(sitemapURL).inserted else { continue }
            read += 1
            let fetchURL = mapping?.fetchURL(sitemapURL) ?? sitemapURL
            guard let host = URLParser.parse(fetchURL)?.host, hosts.contains(host) else {
                harvest.problems.append(
                    problem(
                        sitemapURL,
                        "not fetched: \(URLParser.parse(sitemapURL)?.host ?? "its host") is outside the crawl "
                            + "(--allow-host to read sitemaps there)"))
                continue
            }
            let body: [UInt8]
            do {
                // The sitemaps.org limit (50 MiB), not --max-body; the reader caps decompression.
                let response = try await fetcher.fetch(FetchRequest(url: fetchURL, bodyCap: .sitemap))
                guard response.status == 200 else {
                    // A missing default /sitemap.xml is not a problem; a named one is.
                    if !robotsSitemaps.isEmpty || response.status != 404 {
                        harvest.problems.append(problem(sitemapURL, "HTTP \(response.status)"))
                    }
                    continue
                }
                body = response.body
            } catch {
                harvest.problems.append(problem(sitemapURL, "\(error.kind.rawValue): \(error.message)"))
                continue
            }
            do {
                let sitemap = try SitemapReader.read(body, sitemapURL: sitemapURL)
                switch sitemap.kind {
                case .sitemapIndex:
                    queue.append(contentsOf: sitemap.entries.map(\.location))
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
            } catch {
                harvest.problems.append(problem(sitemapURL, error.description))
            }
        }
        if !queue.isEmpty {
            harvest.problems.append(problem(queue[0], "not read: more than \(maximumSitemaps) sitemaps"))
        }
        return harvest
    }

    private func problem(_ sitemapURL: String, _ detail: String) -> SkippedURL {
        SkippedURL(url: sitemapURL, key: nil, reason: "sitemap", detail: detail, foundOn: nil)
    }
}
