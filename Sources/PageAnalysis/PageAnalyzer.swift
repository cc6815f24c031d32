public import LenientJSON
public import MarkupExtraction
public import SpotlightModel
public import Verification

/// One analysed page: its markup and the attribute set built from it.
public struct AnalyzedPage: Sendable {
    public var input: PageInput
    public var markup: PageMarkup
    public var attributes: PageAttributes
    /// The rule findings, when the analyzer has a verifier (`validate`, `crawl`; not `extract`).
    public var findings: [Finding]?

    /// The page in the `extract` contract, with the attribute set, its provenance and deep links.
    public var json: JSONObject {
        var object = markup.contractJSON
        object.append("file", .string(input.path))
        object.append("attributeSet", .object(attributes.attributeSet.json))
        object.append("uniqueIdentifier", .string(attributes.uniqueIdentifier))
        if let expiration = attributes.expirationDate { object.append("expirationDate", .string(expiration.text)) }
        object.append("provenance", attributes.provenanceJSON)
        object.append("deepLinks", attributes.deepLinksJSON)
        object.append("appStoreIDs", attributes.appStoreIDsJSON)
        return object
    }
}

/// Extraction plus the attribute-set builder: the per-page work of `extract` and `validate`.
public struct PageAnalyzer: Sendable {
    public var extractor: MarkupExtractor
    public var builder: AttributeSetBuilder
    public var maximumPageBytes: Int
    /// Checks each page against the rule catalogue when set.
    public var verifier: PageVerifier?
    /// `validate --aasa`: how the app's universal links treat each page (UL020, UL021, SAB021, DL001).
    public var universalLinks: UniversalLinkJudge?

    public init(extractor: MarkupExtractor = MarkupExtractor(), maximumPageBytes: Int = PageLoader.defaultMaximumBytes)
    {
        self.extractor = extractor
        self.builder = AttributeSetBuilder()
        self.maximumPageBytes = maximumPageBytes
    }

    /// Extracts, builds the attribute set and, with a verifier, checks the page. `context` is what
    /// is known of how the page was served; the HTML's size is filled in when it is not.
    public func analyze(html: [UInt8], input: PageInput, context: PageContext = PageContext()) -> AnalyzedPage {
        let markup = extractor.extract(html: html, url: input.url)
        let attributes = builder.build(markup)
        var context = context
        if context.bodyBytes == nil { context.bodyBytes = html.count }
        if let universalLinks {
            universalLinks.judge(
                canonical: markup.canonicals.first?.content ?? markup.url,
                appArgument: markup.smartAppBanner?.appArgument,
                into: &context)
        }
        return AnalyzedPage(
            input: input, markup: markup, attributes: attributes,
            findings: verifier?.verify(markup, attributes: attributes, context: context))
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
    /// What the site-level rules compare of this page.
    public var sitePage: SitePage {
        SitePage(
            url: markup.url, status: nil, isHTML: true,
            isNoindex: findings?.contains { $0.ruleID == "IX002" } ?? false,
            canonical: markup.canonicals.first?.content, title: attributes.attributeSet.title,
            contentDescription: attributes.attributeSet.contentDescription,
            thumbnailURL: attributes.attributeSet.thumbnailURL, appArgument: markup.smartAppBanner?.appArgument)
    }
}
