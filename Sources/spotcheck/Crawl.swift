import ArgumentParser
import CrawlJobs
import Crawling
import Foundation
import URLNormalization
import Verification

struct Crawl: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crawl",
        abstract: "Crawl a site (or a folder served on 127.0.0.1) and extract every page's app-search markup.",
        discussion: """
            A folder is served by SpotCheck's embedded HTTP server on 127.0.0.1, so the real HTTP path \
            runs; a `spotcheck-site.json` in the folder ({"publicOrigin": "https://www.example.com"}) \
            or --as says which public site it stands for. The crawl store (crawl.sqlite) and \
            report.json go to --output (default reports/<host>-<UTC time>/); the seeds, --urls-from, \
            --baseline, the rule configuration, --items and --index are checked before that folder is \
            made. --header and --basic-auth go to the seeds' origins only and are never stored (give \
            them again with --resume). Ctrl-C prints the command that continues the crawl (crawl \
            --resume --output DIR). With --baseline, --fail-on counts the new findings only.

            \(ExitStatus.help([
                .success, .verdictNegative, .inputUnreadable, .noInput, .outputNotWritable, .crawlFailed,
                .badConfiguration, .databaseUnusable, .usage, .interrupted,
            ]))
            """
    )

    @Argument(
        help: """
            The seeds: an http(s) URL or a folder to serve and crawl, then more URLs or paths on it (each crawled \
            from depth 0). With --resume: optional, the stored ones.
            """)
    var seeds: [String] = []

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

    @Option(parsing: .unconditional, help: "Requests in flight in all.")
    var concurrency = 16

    @Option(parsing: .unconditional, help: "Requests in flight per host (loopback hosts: --concurrency).")
    var perHost = 2

    @Option(
        parsing: .unconditional,
        help: "Seconds between requests to one host (raised by Crawl-delay; loopback hosts are not throttled).")
    var delay = 1.0

    @Option(parsing: .unconditional, help: "Links followed from the seed (the seed is depth 0).")
    var depth = 10

    @Option(parsing: .unconditional, help: "Pages fetched at most.")
    var maxPages = 10_000

    @Option(
        help: """
            The User-Agent header; add how the site's owners can reach you, e.g. "Mozilla/5.0 (compatible; \
            spotcheck/\(CrawlSettings.toolVersion); +mailto:web@example.com)". robots.txt is read for the \
            spotcheck token whatever it says.
            """)
    var userAgent = CrawlSettings.defaultUserAgent

    @Option(parsing: .singleValue, help: "Also crawl this host (repeatable).")
    var allowHost: [String] = []

    @Option(parsing: .singleValue, help: "Only crawl URLs matching this glob (`*` = any characters; repeatable).")
    var include: [String] = []

    @Option(parsing: .singleValue, help: "Do not crawl URLs matching this glob (repeatable).")
    var exclude: [String] = []

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

    @Option(
        parsing: .unconditional,
        help: "A PEM file of certificate authorities to trust instead of the system's (a staging site's own CA).")
    var caFile: String?

    @Option(
        parsing: .singleValue,
        help: ArgumentHelp(
            "Fetch every HTML page again as these consumers (comma-separated or repeated) and report what differs (IX010).",
            discussion: "Known: \(Consumer.all.map(\.name).joined(separator: ", ")); docs/crawl.md lists their sources."
        ))
    var consumers: [String] = []

    @Option(parsing: .unconditional, help: "Seconds per request.")
    var timeout = 30.0

    @Option(
        help: """
            Seconds before an unreachable robots.txt (5xx, timeout) is asked for again while its host's pages wait; \
            0: ask once and report the host's pages as not fetched.
            """)
    var robotsRetry = 600.0

    @Flag(help: "Do not read robots.txt Sitemap: lines and /sitemap.xml.")
    var noSitemaps = false

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

    @Flag(help: ArgumentHelp(MicrodataWHATWG.help))
    var microdataWhatwg = false

    @Option(
        name: .shortAndLong,
        help: "Folder for crawl.sqlite and report.json (default: reports/<host>-<UTC time>/, never reused).")
    var output: String?

    @Flag(help: "Continue the unfinished crawl in --output (or the latest one of this seed under reports/).")
    var resume = false

    @OptionGroup var verbosity: Verbosity

    @OptionGroup var verification: VerificationOptions

    @OptionGroup var reportFormats: ReportFormats

    @OptionGroup var gating: BaselineOptions

    @OptionGroup var access: SiteAccessOptions

    @Option(
        parsing: .singleValue,
        help: """
            The app's marketing or support URL as App Store Connect lists it (repeatable): it must answer 200 and \
            be, or link to, a page of the crawled site (IX011).
            """)
    var marketingURL: [String] = []

    @Flag(help: "Keep every page's full markup dump (JSON-LD, Microdata, RDFa, Open Graph, links …) in report.json.")
    var includeMarkup = false

    @Option(help: "The app's local items (JSON array or JSON Lines), joined to the pages by URL (AS rules).")
    var items: String?

    @Option(
        name: .customLong("index"),
        help: ArgumentHelp(
            "A local index (spotcheck index; a file or postgres:// URL): its items are joined to the pages, and the candidates are fed into it.",
            valueName: "file|url"))
    var indexPath: String?

    @Option(
        help: ArgumentHelp(
            "Where the crawl is stored: an SQLite file, or a PostgreSQL database (postgres://user@host:port/db) "
                + "to register the crawl in, where `spotcheck worker` processes on any machine join it; the "
                + "password comes from the URL, PGPASSWORD or ~/.pgpass (default: the output folder's crawl.sqlite).",
            valueName: "file|url"))
    var store: String?

    @Option(parsing: .unconditional, help: "Seconds a host lease lasts unless renewed (--store; renewed every third).")
    var lease: Double = 30

    @Flag(help: .hidden)
    var throttleLoopback = false

    mutating func validate() throws {
        allowHost = try allowHost.map(Self.allowedHost)
        try OutputOption.check(output)
        if let store, !SharedCrawls.isDatabaseURL(store), store.isEmpty || store.hasSuffix("/") || store.contains("://")
        {
            throw ValidationError("--store \(store): name a crawl store file (e.g. site.sqlite) or a postgres:// URL")
        }
        if let store, SharedCrawls.isDatabaseURL(store), resume {
            throw ValidationError(
                "--resume continues a crawl of the output folder's store; a crawl in --store goes on "
                    + "with `spotcheck worker --store URL --crawl ID`")
        }
        if lease < 3 { throw ValidationError("--lease \(lease): must be at least 3 seconds") }
        if let store, SharedCrawls.isDatabaseURL(store), !access.header.isEmpty || access.basicAuth != nil {
            throw ValidationError(
                "--header and --basic-auth cannot go with --store: credentials are never stored, so the workers "
                    + "could not send them")
        }
        if seeds.isEmpty, urlsFrom == nil, !(resume && (output != nil || store != nil)) {
            throw ValidationError(
                "name the seed: an http(s) URL or a folder (or --urls-from FILE, or --resume --output DIR, "
                    + "or --resume --store FILE)")
        }
        if concurrency < 1 { throw ValidationError("--concurrency \(concurrency): must be at least 1 request") }
        if perHost < 1 { throw ValidationError("--per-host \(perHost): must be at least 1 request") }
        // `!(…)`: NaN fails every comparison, and `inf` or `1e300` would trap where seconds become
        // milliseconds or whole seconds (issue 35).
        if !(delay >= 0 && delay <= Double(CrawlSettings.Limit.longestDelay)) {
            throw ValidationError(
                "--delay \(delay): must be 0 seconds or more, at most \(CrawlSettings.Limit.longestDelay) (e.g. --delay 0.5)"
            )
        }
        if depth < 0 { throw ValidationError("--depth \(depth): must be 0 (the seed only) or more") }
        if maxPages < 1 { throw ValidationError("--max-pages \(maxPages): must be at least 1 page") }
        if maxImages < 0 { throw ValidationError("--max-images \(maxImages): must be 0 (none) or more images") }
        if let unknown = consumerNames.first(where: { Consumer.named($0) == nil }) {
            throw ValidationError(
                "--consumers \(unknown): not a consumer SpotCheck knows (\(Consumer.all.map(\.name).joined(separator: ", ")))"
            )
        }
        if renderConcurrency < 1 {
            throw ValidationError("--render-concurrency \(renderConcurrency): must be at least 1 page")
        }
        if !(renderTimeout > 0 && renderTimeout <= 3600) {
            throw ValidationError("--render-timeout \(renderTimeout): must be more than 0 and at most 3600 seconds")
        }
        if maxBody < 1024 { throw ValidationError("--max-body \(maxBody): must be at least 1024 bytes") }
        if !(timeout > 0 && timeout <= Double(CrawlSettings.Limit.longestTimeout)) {
            throw ValidationError(
                "--timeout \(timeout): must be more than 0 and at most \(CrawlSettings.Limit.longestTimeout) seconds")
        }
        if !(robotsRetry >= 0 && robotsRetry <= Double(CrawlSettings.Limit.longestRobotsRetry)) {
            throw ValidationError(
                "--robots-retry \(robotsRetry): must be 0 seconds (ask once) or more, at most "
                    + "\(CrawlSettings.Limit.longestRobotsRetry)")
        }
        if let publicOrigin, URLParser.parse(publicOrigin)?.isCrawlable != true {
            throw ValidationError("--as must be an http(s) origin, e.g. https://www.example.com")
        }
    }

    /// An `--allow-host` value as the crawl scope compares hosts: lower-case, IDN as punycode
    /// (`Bücher.example` → `xn--bcher-kva.example`), IPv6 in brackets. A URL, a port, a path or
    /// user info is refused with a message saying what to write instead.
    /// `--consumers`' names, split at commas, lower-cased, each once, in order.
    var consumerNames: [String] {
        var seen: Set<String> = []
        return consumers.flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            .filter { !$0.isEmpty && seen.insert($0).inserted }
    }

    static func allowedHost(_ value: String) throws(ValidationError) -> String {
        let text = value.trimmingCharacters(in: .whitespaces)
        func refuse(_ why: String) -> ValidationError {
            ValidationError("--allow-host \(value): \(why); write a host name, e.g. --allow-host cdn.example.com")
        }
        guard !text.isEmpty else { throw refuse("empty") }
        if text.contains("://") { throw refuse("a URL, not a host (no scheme)") }
        if text.contains("@") { throw refuse("user info is not part of a host") }
        if text.contains(where: { "/?#\\".contains($0) }) { throw refuse("a host has no path, query or fragment") }
        // Colons are allowed only inside an IPv6 literal's brackets.
        let outsideBrackets = text.hasPrefix("[") ? text.drop { $0 != "]" }.dropFirst() : Substring(text)
        if outsideBrackets.contains(":") { throw refuse("no port (every port of an allowed host is crawled)") }
        guard let url = URLParser.parse("http://" + text + "/"), let host = url.host, !host.isEmpty,
            url.port == nil, url.path == "/"
        else { throw refuse("not a valid host name") }
        return host
    }

    func run() async throws {
        let request = try makeRequest()
        Console.configure(verbose: verbosity.verbose)
        let console = CrawlConsole(verbosity: verbosity)
        let interruption = CrawlInterruption(
            console: console, formats: reportFormats.formats, resumeHint: access.resumeHint,
            storeFile: store.flatMap { SharedCrawls.isDatabaseURL($0) ? nil : $0 })
        let outcome: CrawlOutcome
        do {
            outcome = try await CrawlJob(request).run { event in
                interruption.follow(event)
                console.show(event)
            }
        } catch {
            console.progress.finish()
            Console.log.error("\(error)")
            throw ExitStatus(error.kind)
        }
        console.summarise(outcome)
        if let reason = outcome.seedNotFetched {
            Console.log.error("\(reason)")
            throw ExitStatus.crawlFailed
        }
        // Invalid --items records were named as they were read; the reports are written.
        if outcome.invalidLocalRecords > 0 {
            Console.log.error(
                "\(outcome.invalidLocalRecords) invalid record(s) in --items \(items ?? "") were left out (named above)"
            )
            throw ExitStatus.inputUnreadable
        }
        try verification.failOn.check(
            outcome.countedFindings, report: outcome.reportPath, baseline: outcome.baselineMatch)
    }

    /// The options as a crawl request.
    private func makeRequest() throws -> CrawlRequest {
        let verifier: PageVerifier
        do {
            verifier = try verification.makeVerifier()
        } catch {
            Console.log.error("\(error)")
            throw ExitStatus.badConfiguration
        }
        var settings = CrawlSettings(
            seed: "", allowedHosts: allowHost, include: include, exclude: exclude, concurrency: concurrency,
            perHost: perHost, delay: delay, maximumDepth: depth, maximumPages: maxPages, userAgent: userAgent,
            maximumBodyBytes: maxBody, timeout: timeout, useSitemaps: !noSitemaps)
        settings.robotsRetryWait = robotsRetry
        if let caFile {
            let path = URL(fileURLWithPath: caFile).standardizedFileURL.path
            guard FileManager.default.isReadableFile(atPath: path) else {
                Console.log.error("--ca-file \(caFile): no readable file there")
                throw ExitStatus.inputUnreadable
            }
            settings.certificateAuthorities = path
        }
        settings.maximumImages = maxImages == CrawlSettings.defaultMaximumImages ? nil : maxImages
        settings.consumers = consumerNames.isEmpty ? nil : consumerNames
        if render {
            let chromium = ProcessInfo.processInfo.environment["SPOTCHECK_CHROMIUM"].flatMap { $0.isEmpty ? nil : $0 }
            settings.render = RenderSettings(
                concurrency: renderConcurrency, timeout: renderTimeout, executable: chromium)
            if let missing = settings.render?.missingBrowser {
                Console.log.error("--render: \(missing)")
                throw ExitStatus.crawlFailed
            }
        }
        settings.marketingURLs = marketingURL.isEmpty ? nil : marketingURL
        settings.microdataContentOnAnyElement = !microdataWhatwg
        settings.ignore = verification.ignore.isEmpty ? nil : verification.ignore
        settings.throttleLoopback = throttleLoopback ? true : nil
        var request = CrawlRequest(
            seed: seeds.first, publicOrigin: publicOrigin, settings: settings, output: output, resume: resume,
            verifier: verifier, itemsFile: items, indexPath: indexPath, reportFiles: reportFormats.files,
            baseline: gating.baseline)
        request.moreSeeds = Array(seeds.dropFirst())
        request.urlList = urlsFrom
        request.credentials = try access.credentials()
        request.writeBaseline = gating.writeBaseline
        request.includesMarkup = includeMarkup
        if let store, SharedCrawls.isDatabaseURL(store) {
            request.sharedStore = store
        } else {
            request.storeFile = store
        }
        request.leaseSeconds = lease
        return request
    }
}
