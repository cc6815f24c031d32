import ArgumentParser
import CrawlStore
import Crawling
import Foundation
import LenientJSON
import LoopbackServer
import Reports
import SpotlightIndex
import URLNormalization
import Verification

struct Crawl: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Crawl a site (or a folder served on 127.0.0.1) and extract every page's app-search markup.",
        discussion: """
            A folder is served by SpotCheck's embedded HTTP server on 127.0.0.1, so the real HTTP path \
            runs; a `spotcheck-site.json` in the folder ({"publicOrigin": "https://www.example.com"}) \
            or --as says which public site it stands for. The crawl store (crawl.sqlite) and \
            report.json go to --output (default reports/<host>-<UTC time>/). Exit codes: 0 crawled; \
            5 the report could not be written; 6 the crawl could not run (bad seed, store error, \
            nothing to resume) or not even the seed could be fetched; 7 the rule configuration \
            (.spotcheck.json, --rule) is invalid; 64 bad command line.
            """
    )

    @Argument(
        help: "The seed: an http(s) URL, or a folder to serve and crawl (with --resume: optional, the stored one).")
    var seed: String?

    @Option(
        name: .customLong("as"), help: "The public origin a served folder stands for, e.g. https://www.example.com.")
    var publicOrigin: String?

    @Option(help: "Requests in flight in all.")
    var concurrency = 16

    @Option(help: "Requests in flight per host (loopback hosts: --concurrency).")
    var perHost = 2

    @Option(help: "Seconds between requests to one host (raised by Crawl-delay; loopback hosts are not throttled).")
    var delay = 1.0

    @Option(help: "Links followed from the seed (the seed is depth 0).")
    var depth = 10

    @Option(help: "Pages fetched at most.")
    var maxPages = 10_000

    @Option(help: "The User-Agent header.")
    var userAgent = CrawlSettings.defaultUserAgent

    @Option(parsing: .singleValue, help: "Also crawl this host (repeatable).")
    var allowHost: [String] = []

    @Option(parsing: .singleValue, help: "Only crawl URLs matching this glob (`*` = any characters; repeatable).")
    var include: [String] = []

    @Option(parsing: .singleValue, help: "Do not crawl URLs matching this glob (repeatable).")
    var exclude: [String] = []

    @Option(help: "Body bytes kept per response, after decoding; larger bodies fail as too-large.")
    var maxBody = 10 << 20

    @Option(help: "Seconds per request.")
    var timeout = 30.0

    @Flag(help: "Do not read robots.txt Sitemap: lines and /sitemap.xml.")
    var noSitemaps = false

    @Option(help: "Folder for crawl.sqlite and report.json (default: reports/<host>-<UTC time>/).")
    var output: String?

    @Flag(help: "Continue the unfinished crawl in --output (or the latest one of this seed under reports/).")
    var resume = false

    @Flag(help: "No progress line and no summary.")
    var quiet = false

    @OptionGroup var verification: VerificationOptions

    @OptionGroup var reportFormats: ReportFormats

    @Option(
        help:
            "An earlier crawl's report.json (or its folder): what changed goes to baseline-diff.json and the HTML report."
    )
    var baseline: String?

    @Option(help: "The app's local items (JSON array or JSON Lines), joined to the pages by URL (AS rules).")
    var items: String?

    @Option(
        name: .customLong("index"),
        help: "A local index (spotcheck index): its items are joined to the pages, and the candidates are fed into it.")
    var indexPath: String?

    mutating func validate() throws {
        allowHost = try allowHost.map(Self.allowedHost)
        if seed == nil, !(resume && output != nil) {
            throw ValidationError("name the seed: an http(s) URL or a folder (or --resume --output DIR)")
        }
        if concurrency < 1 { throw ValidationError("--concurrency must be at least 1") }
        if perHost < 1 { throw ValidationError("--per-host must be at least 1") }
        if delay < 0 { throw ValidationError("--delay must not be negative") }
        if depth < 0 { throw ValidationError("--depth must not be negative") }
        if maxPages < 1 { throw ValidationError("--max-pages must be at least 1") }
        if maxBody < 1024 { throw ValidationError("--max-body must be at least 1024") }
        if timeout <= 0 { throw ValidationError("--timeout must be positive") }
        if let publicOrigin, URLParser.parse(publicOrigin)?.isCrawlable != true {
            throw ValidationError("--as must be an http(s) origin, e.g. https://www.example.com")
        }
    }

    /// An `--allow-host` value as the crawl scope compares hosts: lower-case, IDN as punycode
    /// (`Bücher.example` → `xn--bcher-kva.example`), IPv6 in brackets. A URL, a port, a path or
    /// user info is refused with a message saying what to write instead.
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
        var standardError = StandardError()
        var seed = self.seed ?? ""
        if self.seed == nil, let output {
            // --resume --output DIR: the seed is the one the store names.
            let storePath = (output as NSString).appendingPathComponent(Self.storeName)
            guard let stored = try? Self.settings(inStoreAt: storePath) else {
                print("spotcheck: error: \(storePath): no crawl to resume", to: &standardError)
                throw SpotCheckExit.crawlFailed
            }
            seed = stored.source.isEmpty ? stored.seed : stored.source
        }
        var isDirectory: ObjCBool = false
        let servesFolder =
            FileManager.default.fileExists(atPath: seed, isDirectory: &isDirectory) && isDirectory.boolValue
        let source = servesFolder ? URL(fileURLWithPath: seed).standardizedFileURL.path : seed

        // Where the store lives, and what it says about an earlier run.
        let folder: String
        if let output {
            folder = output
        } else if resume {
            guard let found = Self.latestUnfinishedCrawl(source: source) else {
                print(
                    "spotcheck: error: no unfinished crawl of \(source) under reports/; name it with --output",
                    to: &standardError)
                throw SpotCheckExit.crawlFailed
            }
            folder = found
        } else {
            folder = ""
        }

        var previousSettings: CrawlSettings?
        if resume {
            let storePath = (folder as NSString).appendingPathComponent(Self.storeName)
            guard FileManager.default.fileExists(atPath: storePath) else {
                print("spotcheck: error: \(storePath): no crawl store to resume", to: &standardError)
                throw SpotCheckExit.crawlFailed
            }
            previousSettings = try? Self.settings(inStoreAt: storePath)
        }

        // A folder is served on loopback (on the same port when resuming, so stored URLs stay valid).
        var server: RunningServer?
        var seedURL = seed
        var publicOrigin = self.publicOrigin
        if servesFolder {
            let port = previousSettings.flatMap { URLParser.parse($0.seed)?.port } ?? 0
            do {
                server = try await FolderServer(root: source, port: port).start()
            } catch {
                print("spotcheck: error: cannot serve \(source) on 127.0.0.1: \(error)", to: &standardError)
                throw SpotCheckExit.crawlFailed
            }
            seedURL = server?.baseURL ?? seed
            publicOrigin = publicOrigin ?? Self.siteConfiguration(in: source)
        }
        defer {
            if let server { Task { await server.stop() } }
        }

        guard let parsedSeed = URLParser.parse(seedURL), parsedSeed.isCrawlable else {
            print("spotcheck: error: \(seed): neither a folder nor an http(s) URL", to: &standardError)
            throw SpotCheckExit.crawlFailed
        }
        var settings =
            previousSettings
            ?? CrawlSettings(
                seed: parsedSeed.serialized(includingFragment: false), publicOrigin: publicOrigin,
                allowedHosts: allowHost,
                include: include, exclude: exclude, concurrency: concurrency, perHost: perHost, delay: delay,
                maximumDepth: depth, maximumPages: maxPages, userAgent: userAgent, maximumBodyBytes: maxBody,
                timeout: timeout, useSitemaps: !noSitemaps)
        settings.source = source
        let reportFolder =
            folder.isEmpty
            ? Self.defaultFolder(host: URLParser.parse(publicOrigin ?? seedURL)?.host ?? "site") : folder
        do {
            try FileManager.default.createDirectory(atPath: reportFolder, withIntermediateDirectories: true)
        } catch {
            print("spotcheck: error: \(reportFolder): cannot create the output folder: \(error)", to: &standardError)
            throw SpotCheckExit.reportNotWritable
        }

        let store: CrawlStore
        do {
            store = try CrawlStore(path: (reportFolder as NSString).appendingPathComponent(Self.storeName))
        } catch {
            print("spotcheck: error: \(error)", to: &standardError)
            throw SpotCheckExit.crawlFailed
        }
        let verifier: PageVerifier
        do {
            verifier = try verification.makeVerifier()
        } catch {
            print("spotcheck: error: \(error)", to: &standardError)
            throw SpotCheckExit.badConfiguration
        }
        let candidateDomain =
            "web-" + String((URLParser.parse(publicOrigin ?? seedURL)?.host ?? "site").map { $0 == "." ? "-" : $0 })
        var localEntries: [LocalEntry]?
        var localIndex: LocalIndex?
        do {
            if let items { localEntries = try LocalEntries.load(file: items) }
            if let indexPath {
                let index = try LocalIndex(path: indexPath)
                localIndex = index
                localEntries =
                    (localEntries ?? []) + (try LocalEntries.load(index: index, excludingDomain: candidateDomain))
            }
        } catch {
            print("spotcheck: error: \(error)", to: &standardError)
            throw SpotCheckExit.badLocalItems
        }
        let progress = ProgressLine(enabled: !quiet && isatty(STDERR_FILENO) == 1)
        let summary: CrawlSummary
        do {
            let itemURLs = (localEntries ?? []).flatMap { entry in
                entry.webURLs.map { (url: $0, foundOn: "local item \(entry.name)") }
            }
            summary = try await Crawler(
                settings: settings, store: store, verifier: verifier, appIDs: verification.appIDs, extraURLs: itemURLs
            ).run(resume: resume) {
                progress.show($0)
            }
        } catch {
            progress.finish()
            print("spotcheck: error: \(error)", to: &standardError)
            throw SpotCheckExit.crawlFailed
        }
        progress.finish()

        let mapping = settings.publicOrigin.flatMap {
            OriginMapping(fetchOrigin: OriginMapping.origin(of: parsedSeed), publicOrigin: $0)
        }
        let writer = CrawlReportWriter(
            store: store, mapping: mapping, siteVerifier: SiteVerifier(configuration: verifier.configuration),
            localEntries: localEntries)
        let written: CrawlReportWriter.Written
        do {
            written = try writer.write(into: reportFolder)
        } catch {
            print("spotcheck: error: \(reportFolder): report.json not written: \(error)", to: &standardError)
            throw SpotCheckExit.reportNotWritable
        }
        let reportPath = written.path
        let totals: CrawlReportWriter.Totals? = written.totals
        var baselineDiff: ReportDiff?
        if let baseline {
            let diff = ReportDiff(old: try Diff.load(baseline), new: try Diff.load(reportPath))
            baselineDiff = diff
            let path = (reportFolder as NSString).appendingPathComponent("baseline-diff.json")
            do {
                try Data((diff.json.serialized(pretty: true) + "\n").utf8).write(to: URL(fileURLWithPath: path))
            } catch {
                print("spotcheck: error: \(path): \(error)", to: &standardError)
                throw SpotCheckExit.reportNotWritable
            }
            if !quiet {
                print(
                    "since the baseline: \(diff.findingsFixed.count) findings fixed, \(diff.findingsNew.count) new, \(diff.candidatesGained.count) candidates gained, \(diff.candidatesLost.count) lost (\(path))"
                )
            }
        }
        if let localIndex {
            do {
                let (indexed, removed) = try LocalEntries.feed(
                    candidatesFile: (reportFolder as NSString).appendingPathComponent("candidates.jsonl"),
                    into: localIndex, domain: candidateDomain)
                if !quiet {
                    print(
                        "index \(localIndex.path): \(indexed) candidates indexed (domain \(candidateDomain)), \(removed) removed"
                    )
                }
            } catch {
                print("spotcheck: error: \(error)", to: &standardError)
                throw SpotCheckExit.badLocalItems
            }
        }
        if reportFormats.wantsMore {
            let pages = (try? writer.pageFindings()) ?? []
            do {
                for path in try reportFormats.write(
                    pages: pages, siteFindings: written.siteFindings, suite: settings.publicOrigin ?? settings.seed,
                    into: reportFolder, baseline: baselineDiff)
                {
                    if !quiet { print("wrote \(path)") }
                }
            } catch {
                print("spotcheck: error: \(reportFolder): \(error)", to: &standardError)
                throw SpotCheckExit.reportNotWritable
            }
        }
        if !quiet {
            // Printed page by page: a large crawl's findings are never held as one text.
            let output = StandardOutput()
            try? store.forEachPage { pages in
                for page in pages {
                    let findings = page.findingsJSON.flatMap { JSONParser.parse($0, lenient: false).value }
                    output.write(
                        FindingsListing.text(
                            page: mapping?.publicURL(page.finalURL) ?? page.finalURL,
                            findings: findings?.arrayValue ?? []))
                }
            }
            output.write(FindingsListing.text(siteFindings: written.siteFindings))
            output.flush()
        }
        if !quiet {
            let statuses = (totals?.byStatus ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
            print(
                """
                crawled \(summary.fetched) pages in \(String(format: "%.2f", summary.elapsed)) s \
                (\(String(format: "%.1f", summary.elapsed > 0 ? Double(summary.fetched) / summary.elapsed : 0)) pages/s), \
                \(summary.errors) with errors; by status: \(statuses.joined(separator: ", "))
                findings: \(["error", "warning", "info"].map { "\(totals?.findingsBySeverity[$0] ?? 0) \($0)" }.joined(separator: ", "))
                report: \(reportPath)
                store:  \((reportFolder as NSString).appendingPathComponent(Self.storeName))
                """)
        }
        if let server { await server.stop() }
        let findingSeverities = totals?.findingsBySeverity ?? [:]
        let failing = findingSeverities.filter { $0.value > 0 }.compactMap { Severity(rawValue: $0.key) }
        if summary.fetched == 0, !resume {
            // Nothing could be fetched, not even the seed: say why (the report has it too).
            let seedSkip = (try? store.skippedURLs())?.first { $0.url == settings.seed }
            print(
                "spotcheck: error: \(settings.seed): not crawled: \(seedSkip?.detail ?? "no page was fetched")",
                to: &standardError)
            throw SpotCheckExit.crawlFailed
        }
        if verification.failOn.fails(failing) { throw SpotCheckExit.findingsFailed }
    }

    static let storeName = "crawl.sqlite"

    static func defaultFolder(host: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        let safe = String(host.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" ? $0 : "-" })
        return "reports/\(safe)-\(formatter.string(from: Date()))"
    }

    /// `spotcheck-site.json` in a served folder: `{"publicOrigin": "https://www.example.com"}`.
    static func siteConfiguration(in folder: String) -> String? {
        let path = (folder as NSString).appendingPathComponent("spotcheck-site.json")
        guard let data = FileManager.default.contents(atPath: path),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return nil }
        return object["publicOrigin"] as? String
    }

    static func settings(inStoreAt path: String) throws -> CrawlSettings? {
        let store = try CrawlStore(path: path)
        guard let run = try store.currentRun() else { return nil }
        return try JSONDecoder().decode(CrawlSettings.self, from: Data(run.settingsJSON.utf8))
    }

    /// The newest folder under reports/ whose store holds an unfinished crawl of `source`.
    static func latestUnfinishedCrawl(source: String) -> String? {
        let root = "reports"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: root) else { return nil }
        for name in names.sorted(by: >) {
            let folder = (root as NSString).appendingPathComponent(name)
            let path = (folder as NSString).appendingPathComponent(storeName)
            guard FileManager.default.fileExists(atPath: path), let store = try? CrawlStore(path: path),
                let run = try? store.currentRun(), run.finishedAt == nil,
                let settings = try? JSONDecoder().decode(CrawlSettings.self, from: Data(run.settingsJSON.utf8)),
                settings.source == source
            else { continue }
            return folder
        }
        return nil
    }
}

/// The live progress line on a terminal: done / queued / errors / pages per second / elapsed.
final class ProgressLine: Sendable {
    let enabled: Bool

    init(enabled: Bool) { self.enabled = enabled }

    func show(_ progress: CrawlProgress) {
        guard enabled else { return }
        let line = String(
            format: "\r%d done, %d queued, %d in flight, %d errors, %d skipped, %.1f pages/s, %.1f s   ",
            progress.fetched, progress.queued, progress.inFlight, progress.errors, progress.skipped,
            progress.pagesPerSecond, progress.elapsed)
        FileHandle.standardError.write(Data(line.utf8))
    }

    func finish() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\n".utf8))
    }
}
