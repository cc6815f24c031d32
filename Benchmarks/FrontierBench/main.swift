// The frontier benchmark (issue 32 §3, for Scripts/bench_frontier.py; not shipped in spotcheck):
// WORKERS simulated workers crawl one made-up site through one PostgreSQL database with the real
// crawl loop and store (`Crawler`, `PostgresCrawlStore`), each on its own connection, in this one
// process. Pages come from memory (`CannedSite`): a few hundred bytes of HTML each, so the figure
// is what the frontier and the database sustain, not fetching or analysis. One JSON line: pages,
// seconds, pages/s and this process's CPU seconds.
//
//     FrontierBench DATABASE-URL WORKERS [PAGES] [HOSTS]
import CrawlStore
import Crawling
import Foundation
import LenientJSON
import PageFetching
import PostgresStorage

let arguments = CommandLine.arguments
guard arguments.count >= 3, let workers = Int(arguments[2]), workers > 0 else {
    FileHandle.standardError.write(Data("usage: FrontierBench DATABASE-URL WORKERS [PAGES] [HOSTS]\n".utf8))
    exit(64)
}
let pages = arguments.count > 3 ? Int(arguments[3]) ?? 20_000 : 20_000
let hosts = arguments.count > 4 ? Int(arguments[4]) ?? 64 : 64

/// `hosts` hosts of `pages / hosts` pages each. Page i of a host links to pages 2i+1 and 2i+2 of
/// its host (so every page is reached), to page i of the next host and to its host's home; the
/// seed links to every host's home. robots.txt is a 404 everywhere.
struct CannedSite: PageFetcher {
    let hosts: Int
    let pagesPerHost: Int

    static func host(_ index: Int) -> String { "h\(index).bench.test" }

    func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResponse {
        var links: [String] = []
        if let (host, page) = Self.page(of: request.url), page < pagesPerHost {
            for child in [2 * page + 1, 2 * page + 2] where child < pagesPerHost { links.append("/p\(child).html") }
            links.append("http://\(Self.host((host + 1) % hosts))/p\(page).html")
            links.append("/")
        } else if request.url == "http://\(Self.host(0))/" {
            links = (0..<hosts).map { "http://\(Self.host($0))/p0.html" }
        } else {
            return Self.response(request.url, status: 404, type: "text/plain", body: "not found")
        }
        let anchors = links.map { "<a href=\"\($0)\">\($0)</a>" }.joined(separator: "\n")
        let body =
            "<!doctype html><html lang=en><head><title>\(request.url)</title></head><body>\(anchors)</body></html>"
        return Self.response(request.url, status: 200, type: "text/html; charset=utf-8", body: body)
    }

    /// (host index, page index) of `http://hH.bench.test/pP.html`.
    static func page(of url: String) -> (Int, Int)? {
        guard url.hasPrefix("http://h"), let dot = url.firstIndex(of: "."),
            let host = Int(url[url.index(url.startIndex, offsetBy: 8)..<dot]),
            let p = url.range(of: "/p"), url.hasSuffix(".html"),
            let page = Int(url[p.upperBound..<url.index(url.endIndex, offsetBy: -5)])
        else { return nil }
        return (host, page)
    }

    static func response(_ url: String, status: Int, type: String, body: String) -> FetchResponse {
        let bytes = Array(body.utf8)
        return FetchResponse(
            url: url, status: status, httpVersion: "1.1", headers: [HTTPHeader("Content-Type", type)], body: bytes,
            wireBytes: bytes.count, timings: FetchTimings(), remoteAddress: nil)
    }
}

func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

do {
    let location = try PostgresLocation(url: arguments[1])
    let site = CannedSite(hosts: hosts, pagesPerHost: pages / hosts)
    let settings = CrawlSettings(
        seed: "http://\(CannedSite.host(0))/", allowedHosts: (0..<hosts).map(CannedSite.host), concurrency: 8,
        perHost: 4, delay: 0, maximumDepth: 100_000, maximumPages: pages + 1, useSitemaps: false)
    let registered = AsyncStream<Int64>.makeStream()
    let starter = try PostgresCrawlStore(location: location, onRegistered: { registered.continuation.yield($0) })
    let clock = ContinuousClock()
    let cpuBefore = cpuSeconds()
    let started = clock.now
    let fetched = try await withThrowingTaskGroup(of: Int.self) { group in
        group.addTask {
            try await Crawler(settings: settings, store: starter, fetcher: site).run(resume: false).fetched
        }
        var iterator = registered.stream.makeAsyncIterator()
        guard let crawl = await iterator.next() else { return 0 }
        for _ in 1..<workers {
            let worker = try PostgresCrawlStore(location: location)
            _ = try worker.open(crawl: crawl)
            group.addTask {
                try await Crawler(settings: settings, store: worker, fetcher: site).run(resume: true).fetched
            }
        }
        var total = 0
        for try await fetched in group { total += fetched }
        return total
    }
    let elapsed = clock.now - started
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    let object: JSONObject = [
        "workers": JSONValue(workers), "pages": JSONValue(fetched), "seconds": JSONValue(seconds),
        "pagesPerSecond": JSONValue(Double(fetched) / seconds), "cpuSeconds": JSONValue(cpuSeconds() - cpuBefore),
    ]
    print(JSONValue.object(object).serialized())
} catch {
    FileHandle.standardError.write(Data("FrontierBench: \(error)\n".utf8))
    exit(1)
}
