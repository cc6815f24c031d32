public import Crawling
public import Reports
public import Rulebook
public import Verification

/// Everything a crawl is asked to do: where to start, how far to go, what to check, what to write.
/// The CLI maps its options onto this value; `CrawlJob.run` does the rest.
public struct CrawlRequest: Sendable {
    /// An http(s) URL, or a folder served on 127.0.0.1; nil with `resume` and `output` (the
    /// stored seed is used), or with `urlList` (its first URL is the seed).
    public var seed: String?
    /// The seeds after the first: http(s) URLs, or references (`/tv/`) resolved against the first
    /// seed's public URL. Each is crawled from depth 0; their hosts join the scope.
    public var moreSeeds: [String] = []
    /// `--urls-from`: a file of URLs, one a line (blank lines and `#` comments skipped; relative
    /// ones resolved as `moreSeeds` are). List mode: exactly these URLs (and the seeds given as
    /// URLs) are checked, no link is followed and no sitemap read; a folder seed is only served.
    public var urlList: String?
    /// `--header`/`--basic-auth`: sent to the seeds' origins only (the job fills in `origins`);
    /// never stored or reported, so `--resume` needs them again.
    public var credentials: SiteCredentials?
    /// `--as`: the public origin a served folder stands for (else its `spotcheck-site.json`).
    public var publicOrigin: String?
    /// The crawl's limits and politeness; `seed`, `source` and `publicOrigin` are filled in by the job.
    public var settings: CrawlSettings
    /// The output folder (default `reports/<host>-<UTC time>/`).
    public var output: String?
    /// Continue the unfinished crawl in `output` (or the latest one of this seed under `reports/`).
    public var resume: Bool
    /// The page rules, with the project's rule configuration and the app's identity.
    public var verifier: PageVerifier
    /// `--items`: the app's local items file.
    public var itemsFile: String?
    /// `--index`: a local index whose entries are joined and which the candidates are fed into.
    public var indexPath: String?
    /// The report files besides `report.json`.
    public var reportFiles: ReportFiles
    /// `--baseline`: a baseline file (`--write-baseline`) or an earlier crawl's report.json (or
    /// its folder), read before the crawl starts: the findings it knows are suppressed; a report
    /// is also compared with the new one (baseline-diff.json).
    public var baseline: String?
    /// `--write-baseline`: a baseline file written from every finding of this crawl.
    public var writeBaseline: String?
    /// `--include-markup`: every page's full markup dump (JSON-LD, Microdata, RDFa, Open Graph,
    /// links …) in report.json, not only its analysis.
    public var includesMarkup = false
    /// `--store postgres://…`: the crawl is registered in this PostgreSQL database, where
    /// `spotcheck worker` processes join it; nil: the output folder's SQLite store.
    public var sharedStore: String?
    /// The crawl store's file when it is not the output folder's crawl.sqlite (`--store FILE`):
    /// the reports still go to the output folder; `--resume` continues the crawl this file holds.
    public var storeFile: String?
    /// `--lease`: seconds a host lease lasts without renewal (a shared crawl).
    public var leaseSeconds: Double = 30

    public init(
        seed: String?, publicOrigin: String? = nil, settings: CrawlSettings, output: String? = nil,
        resume: Bool = false, verifier: PageVerifier = PageVerifier(), itemsFile: String? = nil,
        indexPath: String? = nil, reportFiles: ReportFiles, baseline: String? = nil
    ) {
        self.seed = seed
        self.publicOrigin = publicOrigin
        self.settings = settings
        self.output = output
        self.resume = resume
        self.verifier = verifier
        self.itemsFile = itemsFile
        self.indexPath = indexPath
        self.reportFiles = reportFiles
        self.baseline = baseline
    }
}

/// What happened during a crawl that a person may want to see, in order.
public enum CrawlEvent: Sendable {
    /// The output folder and its store are ready and pages are about to be fetched: from here on,
    /// an interrupted crawl continues with `spotcheck crawl --resume --output folder`.
    case crawlStarted(folder: String)
    /// A shared crawl was registered: its id in the database `store` (its URL without password).
    case sharedCrawlRegistered(id: Int64, store: String)
    /// The live tally (several times a second while pages come in).
    case progress(CrawlProgress)
    /// Something the user should know while the crawl runs (an unreachable robots.txt, when it
    /// is asked again, and when the crawl gives up on it).
    case notice(CrawlNotice)
    /// The crawl is done (the store's run is finished) and the reports are being written.
    case crawlFinished
    /// Something was left out and the crawl went on (an invalid local-items record).
    case warning(String)
    /// One page as the reports judged it, in report order, after the reports are written: only
    /// pages with new findings or that are not public-index candidates.
    case page(ReportedPage)
    /// The rules over the whole crawl.
    /// With the file each finding's URL was read from, when the crawl served a folder.
    case siteFindings([Finding], files: [String: String])
    /// The comparison with an earlier report given as `--baseline`, written to `path`.
    case baselineCompared(ReportDiff, path: String)
    /// The `--write-baseline` file was written, accepting `findings` findings.
    case baselineWritten(path: String, findings: Int)
    /// The candidates were fed into the `--index`.
    case indexFed(index: String, domain: String, indexed: Int, removed: Int)
    /// A report file was written (besides report.json).
    case wrote(path: String)
}

/// One page as the console lists it: where it is, the findings the baseline does not know, and
/// why it is not a public-index candidate.
public struct ReportedPage: Sendable, Hashable {
    /// The page's public URL.
    public var url: String
    /// The file a served folder answered it from, named as every output names it.
    public var file: String?
    /// The findings the baseline does not know (all of them without a baseline).
    public var findings: [Finding]
    /// The candidacy conditions that fail; empty for a candidate or a page that was not judged.
    public var failingConditions: [CandidacyCondition]

    public init(url: String, file: String?, findings: [Finding], failingConditions: [CandidacyCondition]) {
        self.url = url
        self.file = file
        self.findings = findings
        self.failingConditions = failingConditions
    }

    /// Where the page is for a reader: its file, else its URL.
    public var place: String { file ?? url }
}

/// How a crawl ended.
public struct CrawlOutcome: Sendable {
    public var summary: CrawlSummary
    public var totals: CrawlReportWriter.Totals
    public var reportFolder: String
    public var reportPath: String
    public var storePath: String
    /// Set when not even the seed could be fetched (the reports are written and say why).
    public var seedNotFetched: String?
    /// URLs recorded as not crawled, by reason (`scope`, `robots`, `budget` …), as report.json's
    /// `summary.skipped` has them.
    public var skippedByReason: [String: Int] = [:]
    /// `--max-pages`: with `skippedByReason["budget"]`, whether the page budget cut the crawl short.
    public var maximumPages = 0
    /// URLs skipped because they are on the ignore list (`CrawlSettings.ignore`).
    public var ignored: Int { skippedByReason[SkipReason.ignored.rawValue] ?? 0 }
    /// How the findings matched `--baseline` (nil without one).
    public var baselineMatch: BaselineMatch?
    /// The public origin `--as` would name when the pages were read under a stand-in or loopback
    /// origin (their canonical URLs then name another host): the console suggests it.
    public var publicOriginHint: String?
    /// The run continued an interrupted crawl (`--resume`): `summary.fetched` counts this run's
    /// pages, `totals` the whole crawl's.
    public var resumed = false
    /// `--items` records left out as invalid (each named by a `.warning`): the crawl and its
    /// reports went on, and the CLI exits 3 as `index import` of the same file does.
    public var invalidLocalRecords = 0

    /// The findings by severity that count for `--fail-on`: the new ones when a baseline was
    /// given, all of them otherwise.
    public var countedFindings: [Severity: Int] {
        if let match = baselineMatch { return match.newBySeverity }
        return totals.findingsBySeverity.reduce(into: [Severity: Int]()) { counts, entry in
            if let severity = Severity(rawValue: entry.key) { counts[severity] = entry.value }
        }
    }

    /// The severities that have at least one finding.
    public var severitiesFound: [Severity] {
        totals.findingsBySeverity.filter { $0.value > 0 }.compactMap { Severity(rawValue: $0.key) }
    }
}

/// Why a crawl job stopped before its outcome: what kind of failure (each has one exit code in
/// the CLI's table) and a message naming the file, folder or URL.
public struct CrawlJobError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// No crawl to resume, a seed that is neither a folder nor a URL, a folder that cannot be
        /// served, a fetcher that cannot start, no crawl stored to report.
        case cannotCrawl
        /// The crawl store cannot be opened or used.
        case storeUnusable
        /// `--items` or `--index` cannot be read, or the index cannot take the candidates.
        case localItemsUnreadable
        /// `--baseline` is neither a readable baseline file nor a report.json.
        case baselineUnreadable
        /// `--urls-from` cannot be read.
        case urlListUnreadable
        /// The request contradicts itself or the stored crawl: more seeds than `--max-pages`, or
        /// `--resume` without the `--header`/`--basic-auth` the crawl was started with.
        case badRequest
        /// The output folder, report.json or another report file cannot be written.
        case outputNotWritable
        /// The folder to serve holds no HTML file: no page to crawl.
        case noPages
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
