import CrawlStore
import Foundation
import LenientJSON
public import PageFetching
import RedirectFollowing
public import ReportModel
public import Rulebook
import URLNormalization
public import UniversalLinks
public import Verification

/// Each crawled host's `apple-app-site-association`, fetched and checked once per crawl
/// (`AssociationFile`), stored with its findings, and used to say how the app's universal links
/// treat each page's canonical URL and `app-argument`.
struct AssociationBook: Sendable {
    private let fetcher: any PageFetcher
    private let store: StoreQueue
    private let scope: CrawlScope
    private let mapping: OriginMapping?
    /// `--app`: the app IDs the rules are about; empty: every app the file names.
    private let appIDs: [String]
    private let verifier: PageVerifier
    private let clock: @Sendable () -> Double
    private let files = OnceEach<String, AssociationFile?>()

    init(
        fetcher: any PageFetcher, store: StoreQueue, scope: CrawlScope, mapping: OriginMapping?, appIDs: [String],
        verifier: PageVerifier, clock: @escaping @Sendable () -> Double
    ) {
        self.fetcher = fetcher
        self.store = store
        self.scope = scope
        self.mapping = mapping
        self.appIDs = appIDs
        self.verifier = verifier
        self.clock = clock
    }

    /// How the app's universal links treat `url` (a public URL); nil when its host is outside the
    /// crawl (its file is not fetched) or the URL is not http(s).
    func verdict(for url: String) async -> UniversalLinkVerdict? {
        guard let parsed = URLParser.parse(url), parsed.isCrawlable else { return nil }
        guard let file = await file(forOrigin: OriginMapping.origin(of: parsed)) else { return nil }
        return file.verdict(for: url, appIDs: appIDs)
    }

    /// The file of a public origin (`https://host[:port]`), fetched once; nil outside the crawl.
    func file(forOrigin origin: String) async -> AssociationFile? {
        await files.value(for: origin) { await self.load(origin) }
    }

    private func load(_ origin: String) async -> AssociationFile? {
        let fetchOrigin = mapping?.fetchURL(origin) ?? origin
        guard let parsed = URLParser.parse(fetchOrigin), scope.violation(of: parsed) == nil else { return nil }
        let file = await AssociationFile.fetch(
            origin: origin, fetcher: fetcher, mapping: mapping, appIDs: appIDs, verifier: verifier)
        let record = CrawlStore.SiteFileRecord(
            url: file.url, kind: "aasa", summaryJSON: JSONValue.object(file.summary.json).serialized(pretty: false),
            findingsJSON: JSONValue.array(file.findings.map { .object($0.json) }).serialized(pretty: false),
            fetchedAt: clock())
        _ = try? await store.run { try $0.saveSiteFile(record) }
        return file
    }
}

/// One host's `apple-app-site-association` as fetched and checked under Apple's serving rules
/// (no redirects followed; `/.well-known/` first, then the deprecated root path): the parsed file
/// when it is usable, the findings (UL001–UL019, UL022, UL025 through `UniversalLinks`), and a
/// summary for reports.
public struct AssociationFile: Sendable {
    /// The public URL of the file that was read (or of the `/.well-known/` one when none was).
    public var url: String
    public var document: AASADocument?
    /// Why there is no document (nil when there is one).
    public var unusableReason: String?
    public var findings: [Finding]
    public var summary: AssociationFileSummary

    /// Redirects followed when fetching the file: none, as Apple's fetch (a redirect is the answer,
    /// reported by UL003).
    public static let maximumRedirects = 0

    public static let wellKnownPath = "/.well-known/apple-app-site-association"
    public static let rootPath = "/apple-app-site-association"

    /// How the file treats `url` for the apps (`appIDs`, or every app it names when empty).
    public func verdict(for url: String, appIDs: [String]) -> UniversalLinkVerdict {
        guard let document else { return .noFile(reason: unusableReason ?? "no usable file") }
        return UniversalLinkJudge(document: document, appIDs: appIDs).verdict(for: url) ?? .notMatched
    }

    /// Fetches and checks the file of `origin` (`https://host[:port]`, public). With a `mapping`,
    /// the origin is a served folder's stand-in: it is fetched on loopback and UL004 (HTTPS and
    /// its certificate) is not applicable.
    public static func fetch(
        origin: String, fetcher: any PageFetcher, mapping: OriginMapping?, appIDs: [String], verifier: PageVerifier
    ) async -> AssociationFile {
        func get(_ publicURL: String, userAgent: String? = nil) async -> Result<FetchResponse, FetchError> {
            var headers = [HTTPHeader("Accept", "*/*")]
            if let userAgent { headers.append(HTTPHeader("User-Agent", userAgent)) }
            var url = mapping?.fetchURL(publicURL) ?? publicURL
            var chain = URLParser.parse(url).map { RedirectFollower(start: $0, maximumHops: maximumRedirects) }
            while true {
                let response: FetchResponse
                do {
                    response = try await fetcher.fetch(FetchRequest(url: url, headers: headers))
                } catch {
                    return .failure(error)
                }
                // With no hop allowed, a redirect stops the chain and is the answer judged (UL003).
                guard
                    case .follow(let target) = chain?.receive(
                        status: response.status, location: response.header("Location"))
                else { return .success(response) }
                url = target.url
            }
        }
        let wellKnownURL = origin + wellKnownPath
        var fileURL = wellKnownURL
        var attempt = await get(wellKnownURL)
        var onlyAtRoot = false
        if case .success(let response) = attempt, response.status != 200 {
            let root = await get(origin + rootPath)
            if case .success(let rootResponse) = root, rootResponse.status == 200 {
                attempt = root
                fileURL = origin + rootPath
                onlyAtRoot = true
            }
        }
        var file = check(
            attempt, url: fileURL, onlyAtRootPath: onlyAtRoot, isStandIn: mapping != nil, appIDs: appIDs,
            verifier: verifier)
        // UL023: the file must not depend on who asks (TN3155: "accept all user agent requests").
        if case .success(let response) = attempt {
            let other = await get(fileURL, userAgent: unknownUserAgent)
            let difference: String? =
                switch other {
                case .failure(let error): "failed (\(error.kind.rawValue))"
                case .success(let answer) where answer.status != response.status:
                    "answered HTTP \(answer.status) instead of \(response.status)"
                case .success(let answer) where answer.body != response.body: "answered with other content"
                case .success: nil
                }
            if let difference,
                let finding = verifier.finding(
                    .ul023, url: fileURL, line: 0, excerpt: "User-Agent: \(unknownUserAgent)",
                    message: "asked with an unknown User-Agent (\(unknownUserAgent)), \(fileURL) \(difference)")
            {
                file.findings.append(finding)
            }
        }
        return file
    }

    /// The User-Agent of UL023's second request: one no server has a rule for.
    public static let unknownUserAgent = "spotcheck-aasa-probe/1.0 (unknown client)"

    /// Checks what a fetch of the file at `url` gave.
    public static func check(
        _ attempt: Result<FetchResponse, FetchError>, url: String, onlyAtRootPath: Bool, isStandIn: Bool,
        appIDs: [String], verifier: PageVerifier
    ) -> AssociationFile {
        var findings: [Finding] = []
        func add(_ problems: [AASAProblem]) {
            for problem in problems {
                if let finding = verifier.finding(
                    problem.rule, url: url, line: problem.location?.line ?? 0,
                    excerpt: problem.location?.path ?? "", message: problem.message,
                    milderCase: Severity(rawValue: problem.severity.rawValue))
                {
                    findings.append(finding)
                }
            }
        }
        var summary = AssociationFileSummary(url: url, configuredAppIDs: appIDs)
        var document: AASADocument?
        var unusable: String?
        switch attempt {
        case .failure(let error):
            add([
                AASAProblem(
                    rule: error.kind == .tls ? .ul004 : .ul001, severity: .error,
                    message: "\(url) could not be fetched: \(error.kind.rawValue): \(error.message)")
            ])
            unusable = "\(url) could not be fetched (\(error.kind.rawValue))"
            summary.error = "\(error.kind.rawValue): \(error.message)"
        case .success(let response):
            let facts = AASAServingFacts(
                url: url, isHTTPS: url.hasPrefix("https://"),
                certificateIsValid: url.hasPrefix("https://") && !isStandIn ? true : nil,
                statusCode: response.status, redirected: (300..<400).contains(response.status),
                contentType: response.header("Content-Type"), bodyByteCount: response.body.count,
                bodyIsSigned: AASAServingFacts.bodyLooksSigned(response.body), foundOnlyAtRootPath: onlyAtRootPath,
                isStandIn: isStandIn)
            let serving = AASAValidator.checkServing(facts)
            add(serving.problems)
            summary.status = response.status
            summary.contentType = response.header("Content-Type")
            summary.bytes = response.body.count
            summary.onlyAtRootPath = onlyAtRootPath
            summary.notApplicable = serving.notApplicable.map {
                AssociationFileSummary.NotApplicable(rule: $0.ruleID, reason: $0.reason)
            }
            if response.status == 200 {
                let servingRules = Set(serving.problems.map(\.rule))
                let result = AASAValidator.validate(response.body, configuredAppID: appIDs.first)
                document = result.document
                // UL007 (size) is also a serving check: report it once.
                var problems = result.problems.filter { $0.rule != .ul007 || !servingRules.contains(.ul007) }
                if let document {
                    for app in appIDs.dropFirst() {
                        problems += AASAValidator.check(document, configuredAppID: app).filter { $0.rule == .ul019 }
                    }
                } else {
                    unusable = "\(url) is not a valid AASA file"
                }
                add(problems)
                summary.apps = document?.applinks?.details.flatMap(\.appIDs) ?? []
            } else {
                unusable = "\(url) answers HTTP \(response.status)"
            }
        }
        summary.usable = document != nil
        return AssociationFile(
            url: url, document: document, unusableReason: unusable, findings: findings, summary: summary)
    }
}
