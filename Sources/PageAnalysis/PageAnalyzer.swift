public import LenientJSON
public import MarkupExtraction
public import ReportModel
public import Rulebook
public import SpotlightModel
public import Verification

/// One analysed page: its markup and the attribute set built from it.
public struct AnalyzedPage: Sendable {
    public var input: PageInput
    public var markup: PageMarkup
    public var attributes: PageAttributes
    /// The page-level rule findings, when the analyzer has a verifier (`validate`, `crawl`, and
    /// `extract` unless `--no-findings`).
    public var findings: [Finding]?
    /// Whether the page can reach the public index, and which conditions fail.
    public var candidacy: Candidacy

    public init(
        input: PageInput, markup: PageMarkup, attributes: PageAttributes, findings: [Finding]?,
        candidacy: Candidacy
    ) {
        self.input = input
        self.markup = markup
        self.attributes = attributes
        self.findings = findings
        self.candidacy = candidacy
    }

    /// A checked page read from `input`.
    public init(input: PageInput, checked: CheckedPage) {
        self.init(
            input: input, markup: checked.markup, attributes: checked.attributes, findings: checked.findings,
            candidacy: checked.candidacy)
    }

    /// The page in the `extract` contract, with the attribute set, its provenance, deep links and,
    /// when checked, its findings (validate's report.json shows pages the same way).
    public var json: JSONObject {
        var object = markup.contractJSON
        object.append("file", .string(input.path))
        object.append("attributeSet", .object(attributes.attributeSet.json))
        object.append("uniqueIdentifier", .string(attributes.uniqueIdentifier))
        if let expiration = attributes.expirationDate { object.append("expirationDate", .string(expiration.text)) }
        object.append("provenance", attributes.provenanceJSON)
        object.append("deepLinks", attributes.deepLinksJSON)
        object.append("appStoreIDs", attributes.appStoreIDsJSON)
        if let findings { object.append("findings", .array(findings.map { .object($0.json) })) }
        return object
    }
}

/// The per-page work of `extract` and `validate` on files: loading, then the one page pipeline.
public struct PageAnalyzer: Sendable {
    public var extractor: MarkupExtractor
    public var maximumPageBytes: Int
    /// Checks each page against the rule catalogue when set.
    public var verifier: PageVerifier?
    /// `validate --aasa`: how the app's universal links treat each page (UL020, UL021, SAB021, DL001).
    public var universalLinks: UniversalLinkJudge?

    public init(extractor: MarkupExtractor = MarkupExtractor(), maximumPageBytes: Int = PageLoader.defaultMaximumBytes)
    {
        self.extractor = extractor
        self.maximumPageBytes = maximumPageBytes
    }

    /// The page through the one page pipeline (`PagePipeline`): extracted, built and, with a
    /// verifier, checked; universal-link verdicts from `universalLinks` (a local AASA file).
    public func analyze(html: [UInt8], input: PageInput) -> AnalyzedPage {
        let pipeline = PagePipeline(extractorOptions: extractor.options, verifier: verifier)
        let page = pipeline.check(html: html, url: input.url) { PageLookups.judged($0, by: universalLinks) }
        return AnalyzedPage(
            input: input, markup: page.markup, attributes: page.attributes,
            findings: verifier == nil ? nil : page.findings, candidacy: page.candidacy)
    }

    /// Loads and analyses one file.
    public func analyze(_ input: PageInput) -> Result<AnalyzedPage, InputProblem> {
        do {
            let bytes = try PageLoader.load(input, maximumBytes: maximumPageBytes)
            return .success(analyze(html: bytes, input: input))
        } catch {
            return .failure(error)
        }
    }
}

extension AnalyzedPage {
    /// The page as `validate`'s report.json shows it: a crawl page's shape, located at its file,
    /// with its full markup.
    public var report: PageReport {
        PageReport(
            url: markup.url, finalURL: markup.url, location: .file(input.path), findings: findings ?? [],
            analysis: MarkupAnalysis(
                attributes: attributes, summary: MarkupSummary(markup), failingConditions: candidacy.failing),
            markup: markup)
    }

    /// What the site-level rules compare of this page (noindex from candidacy, as in a crawl).
    public var sitePage: SitePage {
        SitePage(
            url: markup.url, markup: markup, attributes: attributes, candidacy: candidacy, status: nil,
            applebotAllowed: nil)
    }
}
