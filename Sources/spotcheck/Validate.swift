import ArgumentParser
import Foundation
import LenientJSON
import MarkupExtraction
import NumericClamping
import PageAnalysis
import ProjectConfiguration
import Reports
import Rulebook
import SpotlightModel
import UniversalLinks
import Verification

struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Summarise each page's app-search markup and write a JSON report.",
        discussion: """
            Folders are searched recursively for .html/.htm/.xhtml files. The report goes to \
            reports/<name>-<UTC time>/report.json unless --output names a folder.

            \(ExitStatus.help([
                .success, .verdictNegative, .inputUnreadable, .noInput, .outputNotWritable, .badConfiguration, .usage,
            ]))
            """
    )

    @Option(
        help: "The URL the named folder (or file) stands for, e.g. https://www.example.com/ (default: file:// URLs).")
    var baseURL: String?

    @Option(
        name: .shortAndLong, help: "Folder for report.json (default: reports/<name>-<UTC timestamp>, never reused).")
    var output: String?

    @OptionGroup var verbosity: Verbosity

    @OptionGroup var extraction: ExtractionOptions

    @OptionGroup var verification: VerificationOptions

    @OptionGroup var reportFormats: ReportFormats

    @OptionGroup var gating: BaselineOptions

    @Option(
        name: .customLong("aasa"),
        help: "The site's apple-app-site-association file, for the universal-link rules (UL019–UL021, SAB021).")
    var associationFile: String?

    @Argument(help: "HTML files or folders.")
    var paths: [String]

    /// Unfolds a long list of paths (`FoldedPaths`) once, before anything reads it.
    mutating func validate() throws {
        paths = FoldedPaths.unfold(paths)
        if paths.isEmpty { throw ValidationError("name at least one HTML file or folder") }
        try ExtractionOptions.checkBaseURL(baseURL)
        try OutputOption.check(output)
    }

    func run() throws {
        var validation = try makeValidation()
        if let associationFile { try use(associationFile, in: &validation) }
        let baseline = try gating.read(sourceRoot: Self.sourceRoot)
        let interruption = ValidateInterruption()
        let (folder, created) = try createOutputFolder()
        interruption.madeFolder(folder, created: created)
        Console.configure(verbose: verbosity.verbose)
        let output = StandardOutput()
        let verbose = verbosity.verbose
        let files = SourceFiles.root()
        var report = validation.run(paths) { problem in
            Console.log.error("\(problem)")
        } onPage: { page in
            if verbose { output.write(PageSummary(page: page, place: files.path(ofFile: page.input.path)).text) }
        }
        // The baseline is applied once, in report order (pages, then the site's); every output
        // reads its marks.
        var matched = baseline.map(BaselineMatch.init)
        matched?.mark(&report)
        let sources = report.sourceFiles(in: files)
        if !verbosity.quiet { output.write(FindingsListing(verbose: verbose).text(report, files: sources)) }
        output.flush()
        report.baselineSummary = matched?.summary
        interruption.writingReports()
        let reportPath = try write(report, into: folder, baseline: baseline, sources: sources)
        let findings = report.pages.flatMap { $0.findings ?? [] } + report.siteFindings
        if let matched { print(BaselineOptions.line(matched)) }
        try gating.write(findings, sourceRoot: Self.sourceRoot)
        if report.inputCount == 0, report.ignored.isEmpty { throw ExitStatus.noInput }
        if !report.problems.isEmpty { throw ExitStatus.inputUnreadable }
        try verification.failOn.check(
            matched?.newBySeverity ?? Dictionary(grouping: findings, by: \.severity).mapValues(\.count),
            report: reportPath, baseline: matched)
    }

    /// The working directory as a `file://` URL: a page read from a file under it is named
    /// relative to it in baseline fingerprints.
    static var sourceRoot: String {
        URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true).standardizedFileURL
            .absoluteString
    }

    /// `--output` (or `reports/<name>-<UTC time>/`), made before any page is read: a folder that
    /// cannot be made stops the run at once, with the reason in words.
    /// Returns the folder and whether this run made it.
    private func createOutputFolder() throws -> (String, Bool) {
        let name = paths.count == 1 ? URL(fileURLWithPath: paths[0]).lastPathComponent : "pages"
        do {
            guard let output else {
                return (try OutputFolder.createUnique(ValidationRun.defaultFolder(name: name)), true)
            }
            return (output, try OutputFolder.claim(output))
        } catch {
            Console.log.error("\(error)")
            throw ExitStatus.outputNotWritable
        }
    }

    private func makeValidation() throws -> PageValidation {
        var analyzer = PageAnalyzer(
            extractor: MarkupExtractor(options: extraction.extractorOptions), maximumPageBytes: extraction.maxPageBytes)
        do {
            var verifier = try verification.makeVerifier()
            // `.spotcheck.json` overrides match a page's path under the folder named for it.
            verifier.configuration.fileRoots = paths.compactMap { path in
                var isFolder: ObjCBool = false
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
                    return nil
                }
                return URL(fileURLWithPath: path).standardizedFileURL.path
            }
            analyzer.verifier = verifier
        } catch {
            Console.log.error("\(error)")
            throw ExitStatus.badConfiguration
        }
        var validation = PageValidation(analyzer: analyzer, baseURL: baseURL, jobs: extraction.resolvedJobs)
        validation.ignore = IgnoreList(verification.ignore)
        return validation
    }

    /// `--aasa FILE`: its problems are printed; an unusable file is a configuration error.
    private func use(_ associationFile: String, in validation: inout PageValidation) throws {
        do {
            let problems = try validation.useAssociationFile(
                associationFile, bytes: FileManager.default.contents(atPath: associationFile).map { [UInt8]($0) },
                appIDs: verification.appIDs)
            for problem in problems {
                let place = problem.location.map { " at \($0)" } ?? ""
                print("\(associationFile): \(problem.severity.rawValue) \(problem.ruleID)\(place): \(problem.message)")
            }
        } catch {
            Console.log.error("\(error)")
            throw ExitStatus.badConfiguration
        }
    }

    /// report.json and the files of `--format`, then the totals line; returns report.json's path.
    private func write(
        _ report: ValidationRun, into folder: String, baseline: FindingBaseline?, sources: SourceFiles
    ) throws -> String {
        let reportPath: String
        // SARIF names the files under the working directory relative to it (%SRCROOT%).
        var files = reportFormats.files
        files.sourceFiles = sources
        files.sourceRoot =
            URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true).standardizedFileURL
            .absoluteString
        files.knownFindings = baseline
        do {
            // report.json and index.html read the same typed report, built once.
            let typed = report.report
            reportPath = try ValidationRun.write(typed, into: folder)
            _ = try files.write(
                pages: report.pages.map { ($0.markup.url, $0.findings ?? []) }, siteFindings: report.siteFindings,
                suite: paths.joined(separator: " "), into: folder, html: HTMLReport(validation: typed))
        } catch {
            Console.log.error("cannot write the reports into \(folder): \(error)")
            throw ExitStatus.outputNotWritable
        }
        let diagnostics = report.pages.reduce(0) { $0 + $1.markup.diagnostics.count }
        let findings = report.pages.flatMap { $0.findings ?? [] } + report.siteFindings
        let counts = Severity.allCases.reversed().map { severity in
            "\(findings.filter { $0.severity == severity }.count) \(severity.rawValue)"
        }
        print(
            "\(report.pages.count) page(s), \(report.problems.count) unreadable input(s), \(diagnostics) extraction diagnostic(s), findings: \(counts.joined(separator: ", "))\(report.ignored.isEmpty ? "" : ", \(report.ignored.count) ignored"); report: \(reportPath)"
        )
        if !verbosity.quiet {
            // With a baseline, the rules of the new findings.
            let listed = findings.filter { !$0.isSuppressed }
            for line in RuleCounts.lines(listed, all: verbosity.verbose) { print("  " + line) }
        }
        return reportPath
    }
}

extension BaselineMatch {
    /// Marks the findings of `report` the baseline accepts, pages first, then the site's.
    mutating func mark(_ report: inout ValidationRun) {
        for index in report.pages.indices {
            report.pages[index].findings = report.pages[index].findings.map { marked($0) }
        }
        report.siteFindings = marked(report.siteFindings)
    }
}

extension FindingsListing {
    /// Every page's listed findings (those the baseline accepted left out), then the site's.
    func text(_ report: ValidationRun, files: SourceFiles) -> String {
        let pages = report.pages.map { page in
            text(
                place: files[page.markup.url] ?? files.path(ofFile: page.input.path),
                findings: (page.findings ?? []).filter { !$0.isSuppressed })
        }
        return pages.joined()
            + text(siteFindings: report.siteFindings.filter { !$0.isSuppressed }, files: files.pathsByURL)
    }
}

/// The human-readable summary of one page (`validate -v`): its attribute set, where each value
/// came from, its deep links and markup; its findings follow it in the listing.
struct PageSummary {
    let page: AnalyzedPage
    /// The page's file as the outputs name it.
    let place: String

    var text: String {
        let markup = page.markup
        let set = page.attributes.attributeSet
        var lines = ["\(place)  <\(page.attributes.uniqueIdentifier)>"]
        func source(_ field: String) -> String {
            guard let provenance = page.attributes.provenance(of: field) else { return "" }
            let line = provenance.chosen.source.line
            var text = "  (\(provenance.chosen.source.source)\(line > 0 ? ", line \(line)" : ""))"
            if !provenance.conflicting.isEmpty { text += " [\(provenance.conflicting.count) other value(s)]" }
            return text
        }
        lines.append("  title:        \(set.title ?? "—")\(source("title"))")
        lines.append("  description:  \(Self.clip(set.contentDescription ?? "—"))\(source("contentDescription"))")
        if let thumbnail = set.thumbnailURL {
            let size = set.pixelWidth.flatMap { width in set.pixelHeight.map { " \(width)×\($0)" } } ?? ""
            lines.append("  thumbnail:    \(thumbnail)\(size)\(source("thumbnailURL"))")
        }
        var facts: [String] = []
        if let rating = set.rating { facts.append("rating \(rating)/5") }
        if !set.keywords.isEmpty { facts.append("keywords \(set.keywords.joined(separator: ", "))") }
        if !set.phoneNumbers.isEmpty { facts.append("phone \(set.phoneNumbers.joined(separator: ", "))") }
        if let duration = set.duration { facts.append("duration \(clampedInt(duration)) s") }
        if let type = set.contentType { facts.append(type) }
        if !facts.isEmpty { lines.append("  facts:        \(facts.joined(separator: "; "))") }
        if page.attributes.deepLinks.isEmpty {
            lines.append("  deep links:   none")
        } else {
            for link in page.attributes.deepLinks {
                lines.append("  deep link:    \(link.url)  (\(link.source.source), line \(link.source.line))")
            }
        }
        let ids = Set(page.attributes.appStoreIDs.map(\.url)).sorted()
        if !ids.isEmpty {
            lines.append("  App Store ID: \(ids.joined(separator: ", "))\(ids.count > 1 ? "  (they disagree)" : "")")
        }
        let jsonLDErrors = markup.jsonLD.filter { !$0.isStrictlyValid }.count
        lines.append(
            "  markup:       SAB \(markup.smartAppBanners.count), OG \(markup.openGraph.count), Twitter \(markup.twitter.count), App Links \(markup.appLinks.count), JSON-LD \(markup.jsonLD.count) (\(jsonLDErrors) invalid), Microdata \(markup.microdata.count), RDFa \(markup.rdfa.count)"
        )
        for diagnostic in markup.diagnostics {
            lines.append(
                "  ! line \(diagnostic.line)\(diagnostic.column.map { ":\($0)" } ?? ""): \(diagnostic.message)")
        }
        return Self.printable(lines.joined(separator: "\n")) + "\n"
    }

    /// Pages are untrusted: control characters (terminal escape sequences among them) are shown
    /// as U+FFFD, newlines inside values as spaces.
    static func printable(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { scalar in
                    if scalar == "\n" { return scalar }
                    if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) { return "\u{FFFD}" }
                    return scalar
                }))
    }

    static func clip(_ text: String, to length: Int = 100) -> String {
        text.count <= length ? text : String(text.prefix(length - 1)) + "…"
    }
}
