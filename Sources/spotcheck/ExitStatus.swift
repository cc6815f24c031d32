import CrawlJobs

/// The one table of exit codes every subcommand uses (docs/cli.md lists it; `spotcheck --help`
/// prints it). The same failure exits with the same code whatever the command: an input file that
/// cannot be read is 3 for `validate`, `crawl --items`, `index import`, `robots check` and `diff`
/// alike. Commands throw an `ExitStatus`; `SpotCheck.main()` turns it into the process's exit
/// status.
enum ExitStatus: Int32, CaseIterable, Error {
    /// Everything asked for was done, and the answer is yes.
    case success = 0
    /// The run completed and its verdict is no: findings at or above `--fail-on`, `diff` found
    /// differences, `robots check` disallows, `aasa check` found errors, `index show` found no item.
    case verdictNegative = 1
    /// An input could not be read, or some of its records were invalid (each named on stderr);
    /// everything else was processed.
    case inputUnreadable = 3
    /// There was no input at all (no HTML file among the arguments, or in the folder `crawl` serves).
    case noInput = 4
    /// An output (report, export) could not be written.
    case outputNotWritable = 5
    /// The crawl could not run: the seed is neither a folder nor an http(s) URL, the seed could not
    /// be fetched, a folder could not be served, there is no crawl to resume or report, `--render`
    /// finds no Chromium.
    case crawlFailed = 6
    /// The configuration is invalid: the project file (`.spotcheck.json`, `--config`), `--rule`, or an
    /// `--aasa` file that is not usable.
    case badConfiguration = 7
    /// A database (crawl store or local index) cannot be opened: missing, unreadable, corrupt, not
    /// SpotCheck's, or lacking FTS5; a PostgreSQL server (`--store`) unreachable or refusing the login.
    case databaseUnusable = 9
    /// A database failed while reading or writing; nothing was changed.
    case databaseFailed = 10
    /// Bad command line (ArgumentParser's usage error).
    case usage = 64
    /// Interrupted (Ctrl-C, SIGINT): `crawl` first says how to continue (`--resume --output DIR`).
    case interrupted = 130

    /// One line per code, as docs/cli.md and `--help` show them.
    var meaning: String {
        switch self {
        case .success: "success"
        case .verdictNegative:
            "the verdict is no: findings at or above --fail-on, diff found differences, robots check disallows, "
                + "aasa check found errors, index show found no item"
        case .inputUnreadable:
            "an input could not be read, or some of its records were invalid (named on stderr); the rest was processed"
        case .noInput: "no input at all (no HTML file among the arguments, or in the folder crawl serves)"
        case .outputNotWritable: "an output (report, export) could not be written"
        case .crawlFailed:
            "the crawl could not run: bad seed, seed unreachable, folder not servable, nothing to resume or report, "
                + "no Chromium for --render"
        case .badConfiguration:
            "invalid configuration: the project file (.spotcheck.json, --config), --rule, or an unusable --aasa file"
        case .databaseUnusable:
            "a crawl store or index cannot be opened (missing, corrupt, not SpotCheck's, no FTS5; a PostgreSQL "
                + "server unreachable or refusing the login)"
        case .databaseFailed: "a crawl store or index failed while reading or writing (nothing changed)"
        case .usage: "bad command line"
        case .interrupted: "interrupted (Ctrl-C); crawl prints the command that resumes it"
        }
    }

    /// A subcommand's exit codes as its `--help` says them: the shared table's lines for `codes`
    /// (a test checks every subcommand's help against the table).
    static func help(_ codes: [ExitStatus]) -> String {
        "Exit codes (the shared table, docs/cli.md): "
            + codes.map { "\($0.rawValue) \($0.meaning)" }.joined(separator: "; ") + "."
    }

    /// The table as `--help` prints it.
    static var table: String {
        allCases.map { "\($0.rawValue) \($0.meaning)" }.joined(separator: "; ")
    }
}

extension ExitStatus {
    /// A crawl job's failure, by kind.
    init(_ kind: CrawlJobError.Kind) {
        switch kind {
        case .cannotCrawl: self = .crawlFailed
        case .storeUnusable: self = .databaseUnusable
        case .localItemsUnreadable, .baselineUnreadable, .urlListUnreadable: self = .inputUnreadable
        case .outputNotWritable: self = .outputNotWritable
        case .noPages: self = .noInput
        case .badRequest: self = .usage
        }
    }
}
