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

    @OptionGroup(title: "What to crawl") var target: CrawlTargetOptions

    @OptionGroup(title: "Limits and politeness") var limits: CrawlLimitOptions

    @OptionGroup(title: "Limits and politeness") var access: SiteAccessOptions

    @OptionGroup(title: "App identity and rules") var verification: VerificationOptions

    @OptionGroup(title: "App identity and rules") var app: CrawlAppOptions

    @OptionGroup(title: "Outputs") var outputs: CrawlOutputOptions

    @OptionGroup(title: "Outputs") var reportFormats: ReportFormats

    @OptionGroup(title: "Outputs") var verbosity: Verbosity

    @OptionGroup(title: "CI") var gating: BaselineOptions

    @Flag(help: .hidden)
    var throttleLoopback = false

    // The groups' values under the names the checks and the request read.
    private var urlsFrom: String? { target.urlsFrom }
    private var publicOrigin: String? { target.publicOrigin }
    private var allowHost: [String] { target.allowHost }
    private var include: [String] { target.include }
    private var exclude: [String] { target.exclude }
    private var depth: Int { target.depth }
    private var noSitemaps: Bool { target.noSitemaps }
    private var resume: Bool { target.resume }
    private var consumers: [String] { target.consumers }
    private var render: Bool { target.render }
    private var renderConcurrency: Int { target.renderConcurrency }
    private var renderTimeout: Double { target.renderTimeout }
    private var microdataWhatwg: Bool { target.microdataWhatwg }
    private var concurrency: Int { limits.concurrency }
    private var perHost: Int { limits.perHost }
    private var delay: Double { limits.delay }
    private var maxPages: Int { limits.maxPages }
    private var maxBody: Int { limits.maxBody }
    private var maxImages: Int { limits.maxImages }
    private var timeout: Double { limits.timeout }
    private var robotsRetry: Double { limits.robotsRetry }
    private var userAgent: String { limits.userAgent }
    private var caFile: String? { limits.caFile }
    private var marketingURL: [String] { app.marketingURL }
    private var items: String? { app.items }
    private var indexPath: String? { app.indexPath }
    private var output: String? { outputs.output }
    private var includeMarkup: Bool { outputs.includeMarkup }
    private var store: String? { outputs.store }
    private var lease: Double { outputs.lease }

    mutating func validate() throws {
        target.allowHost = try target.allowHost.map(Self.allowedHost)
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
        settings.microdataContentOnAnyElement = target.microdataContentAnywhere
        settings.microdataDropsOrphanItems = microdataWhatwg ? true : nil
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
