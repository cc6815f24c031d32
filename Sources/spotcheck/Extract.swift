import ArgumentParser
import LenientJSON
import MarkupExtraction
import PageAnalysis
import Verification

struct Extract: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "extract",
        abstract:
            "Print each page's markup, attribute set and page-level findings as JSON (JSON Lines for several files).",
        discussion: ExitStatus.help([.success, .inputUnreadable, .noInput, .usage]))

    @Option(help: "Output format (only json).")
    var format: String = "json"

    @Option(help: "The URL the page is read as; relative URLs resolve against it (default: a file:// URL).")
    var baseURL: String?

    @Flag(help: "Pretty-print (one file only).")
    var pretty = false

    @Flag(help: "Leave out the page-level rule findings (extraction only, as extruct does).")
    var noFindings = false

    @OptionGroup var extraction: ExtractionOptions

    @Argument(help: "HTML files.")
    var files: [String]

    /// Unfolds a long list of files (`FoldedPaths`) once, before anything reads it.
    mutating func validate() throws {
        files = FoldedPaths.unfold(files)
        if format != "json" { throw ValidationError("--format must be json") }
        if files.isEmpty { throw ValidationError("name at least one HTML file") }
        try ExtractionOptions.checkBaseURL(baseURL)
    }

    func run() throws {
        let (inputs, problems) = InputCollector(baseURL: baseURL).collect(files, allowFolders: false)
        for problem in problems { Console.log.error("\(problem)") }
        var configured = PageAnalyzer(
            extractor: MarkupExtractor(options: extraction.extractorOptions), maximumPageBytes: extraction.maxPageBytes)
        // The page-level rules with the catalogue's severities (site rules need every page: validate).
        if !noFindings { configured.verifier = PageVerifier() }
        let analyzer = configured
        let output = StandardOutput()
        let pretty = self.pretty && inputs.count == 1
        let failures = FailureCounter()
        // Serialising runs on the workers; only the ordered write happens under the lock.
        OrderedParallel.run(count: inputs.count, jobs: extraction.resolvedJobs) { index in
            analyzer.analyze(inputs[index]).map { JSONValue.object($0.json).serialized(pretty: pretty) }
        } emit: { index, result in
            switch result {
            case .success(let text):
                output.write(text + "\n")
            case .failure(let problem):
                failures.add(problem)
                let error: JSONValue = [
                    "url": .string(inputs[index].url), "file": .string(problem.path),
                    "error": ["code": .string(problem.code.rawValue), "message": .string(problem.message)],
                ]
                output.write(error.serialized() + "\n")
            }
        }
        output.flush()
        for problem in failures.problems { Console.log.error("\(problem)") }
        if inputs.isEmpty { throw ExitStatus.noInput }
        if !problems.isEmpty || !failures.problems.isEmpty { throw ExitStatus.inputUnreadable }
    }
}

extension ExtractionOptions {
    var extractorOptions: MarkupExtractor.Options {
        MarkupExtractor.Options(
            microdataContentOnAnyElement: microdataContentAnywhere, microdataOrphanItems: !microdataWhatwg,
            rdfa: !noRdfa,
            encoding: encoding)
    }
}
