import ArgumentParser
import Crawling
import Verification

// `crawl`'s own options by what they are about: each struct is a titled section of `crawl --help`
// (issue 31: 164 lines that opened with the exit table). `Crawl` holds them as option groups.

/// `crawl --help`'s "What to crawl": The seeds' scope and what is fetched besides the pages.
struct CrawlTargetOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            """
            List mode: check exactly the URLs in this file (one a line; # comments; paths resolve against the seed), \
            following no link and reading no sitemap. A folder seed is then only served.
            """, valueName: "file"))
    var urlsFrom: String?

    @Option(
        name: .customLong("as"), help: "The public origin a served folder stands for, e.g. https://www.example.com.")
    var publicOrigin: String?

    @Option(parsing: .singleValue, help: "Also crawl this host (repeatable).")
    var allowHost: [String] = []

    @Option(parsing: .singleValue, help: "Only crawl URLs matching this glob (`*` = any characters; repeatable).")
    var include: [String] = []

    @Option(parsing: .singleValue, help: "Do not crawl URLs matching this glob (repeatable).")
    var exclude: [String] = []

    @Option(parsing: .unconditional, help: "Links followed from the seed (the seed is depth 0).")
    var depth = 10

    @Flag(help: "Do not read robots.txt Sitemap: lines and /sitemap.xml.")
    var noSitemaps = false

    @Flag(help: "Continue the unfinished crawl in --output (or the latest one of this seed under reports/).")
    var resume = false

    @Option(
        parsing: .singleValue,
        help: ArgumentHelp(
            "Fetch every HTML page again as these consumers (comma-separated or repeated) and report what differs (IX010).",
            discussion: "Known: \(Consumer.all.map(\.name).joined(separator: ", ")); docs/crawl.md lists their sources."
        ))
    var consumers: [String] = []

    @Flag(
        help: """
            Also load every HTML page in headless Chromium (Debian's chromium) and compare the rendered page \
            with the served one (DL005, IX015, IX016).
            """)
    var render = false

    @Option(parsing: .unconditional, help: "With --render: pages rendered at once (Chromium tabs).")
    var renderConcurrency = RenderSettings.defaultConcurrency

    @Option(parsing: .unconditional, help: "With --render: seconds per page, from loading to reading its DOM.")
    var renderTimeout = RenderSettings.defaultTimeout

    @Flag(help: ArgumentHelp(MicrodataReading.whatwgHelp))
    var microdataWhatwg = false

    @Flag(help: ArgumentHelp(MicrodataReading.contentAnywhereHelp))
    var microdataContentAnywhere = false

    func validate() throws {
        try MicrodataReading.validate(whatwg: microdataWhatwg, contentAnywhere: microdataContentAnywhere)
    }
}

/// `crawl --help`'s "Limits and politeness": How much, how fast and how politely.
struct CrawlLimitOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "Requests in flight in all.")
    var concurrency = 16

    @Option(parsing: .unconditional, help: "Requests in flight per host (loopback hosts: --concurrency).")
    var perHost = 2

    @Option(
        parsing: .unconditional,
        help: "Seconds between requests to one host (raised by Crawl-delay; loopback hosts are not throttled).")
    var delay = 1.0

    @Option(parsing: .unconditional, help: "Pages fetched at most.")
    var maxPages = 10_000

    @Option(
        parsing: .unconditional, help: "Body bytes kept per response, after decoding; larger bodies fail as too-large.")
    var maxBody = 10 << 20

    @Option(
        parsing: .unconditional,
        help: """
            Distinct images (og:image, twitter:image, the thumbnail) fetched for the image rules in one run; \
            the first \(CrawlSettings.imagesCheckedPerPage) of each page are checked.
            """)
    var maxImages = CrawlSettings.defaultMaximumImages

    @Option(parsing: .unconditional, help: "Seconds per request.")
    var timeout = 30.0

    @Option(
        help: """
            Seconds before an unreachable robots.txt (5xx, timeout) is asked for again while its host's pages wait; \
            0: ask once and report the host's pages as not fetched.
            """)
    var robotsRetry = 600.0

    @Option(
        help: """
            The User-Agent header; add how the site's owners can reach you, e.g. "Mozilla/5.0 (compatible; \
            spotcheck/\(CrawlSettings.toolVersion); +mailto:web@example.com)". robots.txt is read for the \
            spotcheck token whatever it says.
            """)
    var userAgent = CrawlSettings.defaultUserAgent

    @Option(
        parsing: .unconditional,
        help: "A PEM file of certificate authorities to trust instead of the system's (a staging site's own CA).")
    var caFile: String?
}

/// `crawl --help`'s "App identity and rules": The app's side of the checks: its local items, index and App Store URLs.
struct CrawlAppOptions: ParsableArguments {
    @Option(
        parsing: .singleValue,
        help: """
            The app's marketing or support URL as App Store Connect lists it (repeatable): it must answer 200 and \
            be, or link to, a page of the crawled site (IX011).
            """)
    var marketingURL: [String] = []

    @Option(help: "The app's local items (JSON array or JSON Lines), joined to the pages by URL (AS rules).")
    var items: String?

    @Option(
        name: .customLong("index"),
        help: ArgumentHelp(
            "A local index (spotcheck index; a file or postgres:// URL): its items are joined to the pages, and the candidates are fed into it.",
            valueName: "file|url"))
    var indexPath: String?
}

/// `crawl --help`'s "Outputs": Where the crawl and its reports go.
struct CrawlOutputOptions: ParsableArguments {
    @Option(
        name: .shortAndLong,
        help: "Folder for crawl.sqlite and report.json (default: reports/<host>-<UTC time>/, never reused).")
    var output: String?

    @Flag(help: "Keep every page's full markup dump (JSON-LD, Microdata, RDFa, Open Graph, links …) in report.json.")
    var includeMarkup = false

    @Option(
        help: ArgumentHelp(
            "Where the crawl is stored: an SQLite file, or a PostgreSQL database (postgres://user@host:port/db) "
                + "to register the crawl in, where `spotcheck worker` processes on any machine join it; the "
                + "password comes from the URL, PGPASSWORD or ~/.pgpass (default: the output folder's crawl.sqlite).",
            valueName: "file|url"))
    var store: String?

    @Option(parsing: .unconditional, help: "Seconds a host lease lasts unless renewed (--store; renewed every third).")
    var lease: Double = 30
}
