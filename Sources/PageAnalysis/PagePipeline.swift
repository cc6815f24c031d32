import Foundation
public import MarkupExtraction
public import Rulebook
public import SpotlightModel
import URLNormalization
public import Verification

/// What is known of how a page was served: nothing for a file; the final response for a crawl.
public struct ServedFacts: Sendable {
    /// The final response's status; nil for a file.
    public var status: Int?
    /// The media type (`text/html`, lower-cased, no parameters); nil for a file.
    public var mediaType: String?
    /// The response headers, in order.
    public var headers: [(name: String, value: String)]
    /// The `Content-Type` header's charset, which decodes the page when it names a plausible label.
    public var charset: String?
    /// Whether robots.txt lets Applebot fetch the page; nil when unknown (a file).
    public var applebotAllowed: Bool?

    public init(
        status: Int? = nil, mediaType: String? = nil, headers: [(name: String, value: String)] = [],
        charset: String? = nil, applebotAllowed: Bool? = nil
    ) {
        self.status = status
        self.mediaType = mediaType
        self.headers = headers
        self.charset = charset
        self.applebotAllowed = applebotAllowed
    }

    func headerValues(_ name: String) -> [String] {
        headers.filter { $0.name.lowercased() == name }.map(\.value)
    }
}

/// What the pipeline needs from outside the page, asked for by `PendingPage`: how the app's
/// universal links treat its URLs, and what fetching its images found.
public struct PageLookups: Sendable {
    public var canonicalLink: UniversalLinkVerdict?
    public var appArgumentLink: UniversalLinkVerdict?
    public var imageProbes: [(ImageReference, ImageProbe)]
    /// Images the page names that were not fetched: past the per-page or per-run limit.
    public var imagesNotChecked = 0
    /// What each consumer got when the crawl fetched the page as it (`crawl --consumers`).
    public var consumerViews: [ConsumerView] = []
    /// The page rendered in headless Chromium (`crawl --render`).
    public var rendered: RenderedView?

    public init(
        canonicalLink: UniversalLinkVerdict? = nil, appArgumentLink: UniversalLinkVerdict? = nil,
        imageProbes: [(ImageReference, ImageProbe)] = []
    ) {
        self.canonicalLink = canonicalLink
        self.appArgumentLink = appArgumentLink
        self.imageProbes = imageProbes
    }

    /// The verdicts of a local AASA file (`validate --aasa`); no image is fetched.
    public static func judged(_ pending: PendingPage, by judge: UniversalLinkJudge?) -> PageLookups {
        guard let judge else { return PageLookups() }
        return PageLookups(
            canonicalLink: judge.verdict(for: pending.canonicalLinkURL),
            appArgumentLink: pending.appArgumentLinkURL.flatMap(judge.verdict(for:)))
    }
}

/// A page extracted and built, waiting for its lookups.
public struct PendingPage: Sendable {
    public var markup: PageMarkup
    public var attributes: PageAttributes
    var context: PageContext
    /// The URL whose universal-link verdict decides the canonical rules: the canonical, else the page's URL.
    public var canonicalLinkURL: String
    /// The Smart App Banner's http(s) `app-argument`, when it has one.
    public var appArgumentLinkURL: String?
    /// The images the page names, to fetch for the image rules (a crawl does; a file check does not).
    public var imageReferences: [ImageReference]
}

/// One page judged: its markup, attribute set, what was known of how it was served, its findings
/// and whether it can reach the public index. `validate`, `crawl` and any worker produce it with
/// the same code, so a verdict never depends on the command.
public struct CheckedPage: Sendable {
    public var markup: PageMarkup
    public var attributes: PageAttributes
    public var context: PageContext
    /// The page rules' findings (and the image rules' for the probes given), ordered by line, rule,
    /// message; empty without a verifier.
    public var findings: [Finding]
    public var candidacy: Candidacy
    /// Images the page names that the image rules did not see (per-page and per-run limits).
    public var imagesNotChecked = 0

    /// What the site-level rules compare of this page (noindex from candidacy, as in every command).
    public func sitePage(url: String) -> SitePage {
        SitePage(
            url: url, markup: markup, attributes: attributes, candidacy: candidacy, status: context.status,
            applebotAllowed: context.applebotAllowed)
    }
}

extension SitePage {
    /// An analysed HTML page as the site-level rules compare it; noindex comes from its candidacy.
    init(
        url: String, markup: PageMarkup, attributes: PageAttributes, candidacy: Candidacy, status: Int?,
        applebotAllowed: Bool?
    ) {
        self.init(
            url: url, status: status, isHTML: true, applebotAllowed: applebotAllowed,
            isNoindex: candidacy.failing.contains(.noindex), canonical: markup.canonicals.first?.content,
            title: attributes.attributeSet.title, contentDescription: attributes.attributeSet.contentDescription,
            thumbnailURL: attributes.attributeSet.thumbnailURL, appArgument: markup.smartAppBanner?.appArgument)
    }
}

/// The one page pipeline: bytes + URL + how they were served → `CheckedPage`. Extraction, the
/// attribute set, the served facts as a page context, the universal-link verdicts and image
/// probes (asked of the caller: a crawl fetches them, a file check reads a local AASA), the rule
/// findings and the candidacy. Pure: it does no I/O.
public struct PagePipeline: Sendable {
    public var extractorOptions: MarkupExtractor.Options
    /// The rule checks; nil extracts only (`extract`).
    public var verifier: PageVerifier?

    public init(extractorOptions: MarkupExtractor.Options = MarkupExtractor.Options(), verifier: PageVerifier? = nil) {
        self.extractorOptions = extractorOptions
        self.verifier = verifier
    }

    /// Extracts the page and builds its attribute set; the result says what to look up.
    public func begin(html: [UInt8], url: String, facts: ServedFacts = ServedFacts()) -> PendingPage {
        var options = extractorOptions
        let headerCharset = facts.charset.flatMap(Self.plausibleCharset)
        if let headerCharset { options.encoding = headerCharset }
        var markup = MarkupExtractor(options: options).extract(html: html, url: url)
        if let headerCharset, let declared = MarkupExtractor.declaredCharset(in: html),
            // Two labels that name no encoding are compared as written (nil == nil is no match).
            TextEncoding(label: declared).map { "\($0)" } ?? "label \(declared.lowercased())"
                != TextEncoding(label: headerCharset).map { "\($0)" } ?? "label \(headerCharset.lowercased())"
        {
            markup.diagnostics.append(
                ExtractionDiagnostic(
                    code: .charsetConflict, line: 0,
                    message:
                        "Content-Type says charset=\(headerCharset) but the page's <meta> says \(declared); decoded as \(markup.encoding), as browsers do"
                ))
        }
        let attributes = AttributeSetBuilder().build(markup)
        let base = URLParser.parse(url)
        let context = PageContext(
            status: facts.status, mediaType: facts.mediaType, robotsHeaders: facts.headerValues("x-robots-tag"),
            headerCanonicals: Self.headerCanonicals(facts.headerValues("link")).map { target in
                URLParser.parse(target, base: base)?.description ?? target
            },
            bodyBytes: html.count, applebotAllowed: facts.applebotAllowed)
        let appArgument = markup.smartAppBanner?.appArgument.flatMap { argument in
            URLParser.parse(argument)?.isCrawlable == true ? argument : nil
        }
        return PendingPage(
            markup: markup, attributes: attributes, context: context,
            canonicalLinkURL: markup.canonicals.first?.content ?? url, appArgumentLinkURL: appArgument,
            imageReferences: ImageReference.references(in: markup, thumbnailURL: attributes.attributeSet.thumbnailURL))
    }

    /// Judges the page with the answers to its lookups.
    public func finish(_ pending: PendingPage, lookups: PageLookups) -> CheckedPage {
        var context = pending.context
        context.canonicalLink = lookups.canonicalLink
        context.appArgumentLink = lookups.appArgumentLink
        context.consumerViews = lookups.consumerViews
        context.rendered = lookups.rendered
        var findings: [Finding] = []
        if let verifier {
            findings = verifier.verify(pending.markup, attributes: pending.attributes, context: context)
            if !lookups.imageProbes.isEmpty {
                findings = PageVerifier.ordered(
                    findings + verifier.verifyImages(lookups.imageProbes, pageURL: pending.markup.url))
            }
        }
        var checked = CheckedPage(
            markup: pending.markup, attributes: pending.attributes, context: context, findings: findings,
            candidacy: Candidacy(page: pending.markup, attributes: pending.attributes, context: context))
        checked.imagesNotChecked = lookups.imagesNotChecked
        return checked
    }

    /// The whole pipeline with lookups answered on the spot (a local AASA file, no images).
    public func check(
        html: [UInt8], url: String, facts: ServedFacts = ServedFacts(), lookups: (PendingPage) -> PageLookups
    ) -> CheckedPage {
        let pending = begin(html: html, url: url, facts: facts)
        return finish(pending, lookups: lookups(pending))
    }

    /// The whole pipeline with lookups that fetch (a crawl's AASA files and images).
    public func check(
        html: [UInt8], url: String, facts: ServedFacts, lookups: (PendingPage) async -> PageLookups
    ) async -> CheckedPage {
        let pending = begin(html: html, url: url, facts: facts)
        return finish(pending, lookups: await lookups(pending))
    }

    // MARK: - Served facts

    /// The targets of `rel="canonical"` links in `Link` header values (RFC 8288), as written.
    static func headerCanonicals(_ values: [String]) -> [String] {
        var targets: [String] = []
        for value in values {
            for link in splitLinks(value) {
                guard let open = link.firstIndex(of: "<"), let close = link.firstIndex(of: ">"), open < close else {
                    continue
                }
                let parameters = link[link.index(after: close)...].lowercased()
                    .split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
                let isCanonical = parameters.contains { parameter in
                    guard parameter.hasPrefix("rel=") else { return false }
                    let rels = parameter.dropFirst(4).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                    return rels.split(separator: " ").contains("canonical")
                }
                if isCanonical { targets.append(String(link[link.index(after: open)..<close])) }
            }
        }
        return targets
    }

    /// `<url>; rel="canonical", <url2>; rel=alternate`: split on commas outside `<…>`.
    private static func splitLinks(_ value: String) -> [String] {
        var inside = false
        var current = ""
        var links: [String] = []
        for character in value {
            if character == "<" { inside = true } else if character == ">" { inside = false }
            if character == ",", !inside {
                links.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        links.append(current)
        return links
    }

    /// A header charset worth passing to the parser (a plausible label), else nil.
    public static func plausibleCharset(_ name: String) -> String? {
        let label = name.trimmingCharacters(in: .whitespaces)
        guard !label.isEmpty, label.count < 40,
            label.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.:".contains($0)) })
        else { return nil }
        return label
    }
}
