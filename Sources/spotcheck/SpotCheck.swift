import ArgumentParser
import Foundation

@main
struct SpotCheck: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "spotcheck",
        abstract: "Checks the web markup Apple's app search reads: Smart App Banner, Open Graph, schema.org.",
        discussion: """
            Exit codes: 0 success; 3 some input could not be read (named on stderr, every other \
            input still processed); 4 no HTML input at all; 64 bad command line.
            """,
        version: "0.1.0",
        subcommands: [Crawl.self, Extract.self, Validate.self, Robots.self, Serve.self]
    )
}

/// Exit codes shared by the subcommands (docs/cli.md).
enum SpotCheckExit {
    static let someInputsFailed = ExitCode(3)
    static let noInput = ExitCode(4)
    static let reportNotWritable = ExitCode(5)
    static let crawlFailed = ExitCode(6)
}

/// Options shared by `extract` and `validate`.
struct ExtractionOptions: ParsableArguments {
    @Option(help: "Number of pages processed in parallel (default: all cores).")
    var jobs: Int?

    @Option(help: "Largest page read, in bytes; larger files are refused.")
    var maxPageBytes: Int = 16 << 20

    @Flag(help: "Value Microdata elements by WHATWG rules only (a `content` attribute counts on <meta> alone).")
    var microdataWhatwg = false

    @Flag(help: "Skip RDFa processing.")
    var noRdfa = false

    @Option(help: "Character encoding to decode pages with, overriding <meta charset>.")
    var encoding: String?

    var resolvedJobs: Int { max(1, jobs ?? ProcessInfo.processInfo.activeProcessorCount) }

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        if maxPageBytes < 1 { throw ValidationError("--max-page-bytes must be positive") }
    }
}
