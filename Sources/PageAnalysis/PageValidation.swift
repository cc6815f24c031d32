public import ProjectConfiguration
import Synchronization
public import UniversalLinks
import Verification

/// `validate` as a library call: files and folders in, a `ValidationRun` out (pages in
/// argument order, input problems, the site rules over the pages), each page handed to `onPage`
/// as soon as it and every earlier one are done.
public struct PageValidation: Sendable {
    public var analyzer: PageAnalyzer
    public var baseURL: String?
    /// Pages analysed in parallel.
    public var jobs: Int
    /// Files neither read nor checked (`"ignore"` in `.spotcheck.json`, `--ignore`); the report counts them.
    public var ignore = IgnoreList()

    public init(analyzer: PageAnalyzer, baseURL: String? = nil, jobs: Int = 1) {
        self.analyzer = analyzer
        self.baseURL = baseURL
        self.jobs = jobs
    }

    /// Why an `--aasa` file cannot judge the pages: the file and the reason.
    public struct AssociationFileError: Error, Sendable, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "\(path): \(reason)" }
    }

    /// Reads a local apple-app-site-association file for the universal-link rules; its problems
    /// are returned to show. Throws when it cannot be read or is not a usable file.
    public mutating func useAssociationFile(_ path: String, bytes: [UInt8]?, appIDs: [String])
        throws(AssociationFileError) -> [AASAProblem]
    {
        guard let bytes else { throw AssociationFileError(path: path, reason: "cannot be read") }
        let result = AASAValidator.validate(bytes, configuredAppID: appIDs.first)
        guard let document = result.document else {
            throw AssociationFileError(path: path, reason: "not a usable AASA file")
        }
        analyzer.universalLinks = UniversalLinkJudge(document: document, appIDs: appIDs)
        return result.problems
    }

    /// Validates `paths`: each input problem and each page, in argument order, is passed to
    /// `onProblem` / `onPage`; returns the report (with the site findings when there is a verifier
    /// and more than one page).
    public func run(
        _ paths: [String], onProblem: @Sendable (InputProblem) -> Void = { _ in },
        onPage: @Sendable (AnalyzedPage) -> Void = { _ in }
    ) -> ValidationRun {
        let (inputs, problems, ignored) = InputCollector(baseURL: baseURL).collect(paths, ignoring: ignore)
        for problem in problems { onProblem(problem) }
        let collected = Mutex<[Result<AnalyzedPage, InputProblem>]>([])
        let analyzer = self.analyzer
        OrderedParallel.run(count: inputs.count, jobs: jobs) { index in
            analyzer.analyze(inputs[index])
        } emit: { _, result in
            collected.withLock { $0.append(result) }
            switch result {
            case .success(let page): onPage(page)
            case .failure(let problem): onProblem(problem)
            }
        }
        var report = ValidationRun(arguments: paths)
        report.inputCount = inputs.count
        report.ignored = ignored
        report.problems = problems
        for result in collected.withLock({ $0 }) {
            switch result {
            case .success(let page): report.pages.append(page)
            case .failure(let problem): report.problems.append(problem)
            }
        }
        if let configuration = analyzer.verifier?.configuration, report.pages.count > 1 {
            report.siteFindings = SiteVerifier(configuration: configuration).verify(report.pages.map(\.sitePage))
        }
        return report
    }
}
