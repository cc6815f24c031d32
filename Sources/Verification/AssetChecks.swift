public import ImageSniffing
public import MarkupExtraction
public import Rulebook
import SpotlightModel

/// An image a page names, and where.
public struct ImageReference: Sendable, Hashable {
    /// The image URL, resolved against the page.
    public var url: String
    /// Which markup named it: `og:image`, `twitter:image`, `thumbnail` (the attribute set's) …
    public var property: String
    public var line: Int
    /// The column of the tag that names it (see ``SourcePosition``); nil when not known.
    public var column: Int?

    public init(url: String, property: String, line: Int, column: Int? = nil) {
        self.url = url
        self.property = property
        self.line = line
        self.column = column
    }

    public var position: SourcePosition { SourcePosition(line: line, column: column) }

    /// The images a page names that consumers fetch: each `og:image`, `twitter:image`, and the
    /// attribute set's thumbnail; one reference per URL (the first).
    public static func references(in page: PageMarkup, thumbnailURL: String?) -> [ImageReference] {
        let resolver = URLResolver(base: page.baseURL)
        var references: [ImageReference] = []
        for image in page.openGraphMedia.media where image.kind == .image && !image.url.isEmpty {
            references.append(
                ImageReference(
                    url: resolver.resolve(image.url), property: "og:image", line: image.line, column: image.column))
        }
        for tag in page.twitter where ["twitter:image", "twitter:image:src"].contains(tag.key.lowercased()) {
            references.append(
                ImageReference(
                    url: resolver.resolve(tag.content), property: "twitter:image", line: tag.line, column: tag.column))
        }
        if let thumbnailURL { references.append(ImageReference(url: thumbnailURL, property: "thumbnail", line: 0)) }
        var seen: Set<String> = []
        return references.filter { seen.insert($0.url).inserted }
    }
}

/// What fetching an image found: the final answer, or why there was none.
public struct ImageProbe: Sendable, Hashable {
    /// The final HTTP status (after redirects), nil when the fetch failed.
    public var status: Int?
    /// Redirects followed to reach it.
    public var redirects: Int
    /// The `Content-Type` media type.
    public var mediaType: String?
    /// The body's size in bytes (at least this many when `isTruncated`).
    public var byteCount: Int
    /// The body was larger than the fetch limit.
    public var isTruncated: Bool
    /// What the first bytes say (format, pixel size); nil when they are no known image format.
    public var header: ImageHeader?
    /// Why the fetch failed (DNS, refused, timeout …).
    public var failure: String?

    public init(
        status: Int?, redirects: Int = 0, mediaType: String? = nil, byteCount: Int = 0, isTruncated: Bool = false,
        header: ImageHeader? = nil, failure: String? = nil
    ) {
        self.status = status
        self.redirects = redirects
        self.mediaType = mediaType
        self.byteCount = byteCount
        self.isTruncated = isTruncated
        self.header = header
        self.failure = failure
    }
}

/// The image rules (apple-markup-rules.md §7.7 CT009–CT011, and TW003's size limit) for one image a
/// page names, once it has been fetched.
struct AssetChecks: PageRuleGroup {
    static let rules = RuleCatalogue.assetRules

    /// Apple's thumbnail guidance (SearchUserExperience.html): 180 px on the short side, tall
    /// images 270 px high; Messages ignores images under 150 px wide (TN3156).
    static let minimumShortSide = 180
    static let minimumTallHeight = 270
    static let minimumMessagesWidth = 150
    /// Size limits by consumer: Facebook 8 MB (og:image), X 5 MB (twitter:image), Apple's
    /// #images format 2 MB.
    static let facebookLimit = 8 << 20
    static let xLimit = 5 << 20
    static let imagesLimit = 2 << 20

    let reference: ImageReference
    let probe: ImageProbe

    func run(_ report: (RuleID, SourcePosition, String, String) -> Void) {
        let excerpt = "\(reference.property) \(reference.url)"
        func flag(_ id: RuleID, _ message: String) { report(id, reference.position, excerpt, message) }
        if let failure = probe.failure {
            flag(.ct010, "\(reference.property) \(reference.url) is unreachable: \(failure)")
            return
        }
        guard let status = probe.status, status == 200 else {
            flag(.ct010, "\(reference.property) \(reference.url) answers HTTP \(probe.status ?? 0), not 200")
            return
        }
        if let mediaType = probe.mediaType, !mediaType.hasPrefix("image/") {
            flag(.ct010, "\(reference.property) \(reference.url) is served as \(mediaType), not an image type")
            return
        }
        let size = probe.isTruncated ? "over \(probe.byteCount) bytes" : "\(probe.byteCount) bytes"
        if reference.property == "twitter:image", probe.byteCount > Self.xLimit {
            flag(.tw003, "twitter:image \(reference.url) is \(size); X takes at most 5 MB")
        } else if probe.byteCount > Self.imagesLimit {
            var limits = ["Apple's #images 2 MB"]
            if probe.byteCount > Self.xLimit { limits.append("X's 5 MB") }
            if probe.byteCount > Self.facebookLimit { limits.append("Facebook's 8 MB") }
            flag(.ct011, "\(reference.property) \(reference.url) is \(size), over \(limits.joined(separator: ", "))")
        }
        guard let header = probe.header else {
            // A body over the fetch limit was not kept: its size is known, its format is not.
            if !probe.isTruncated {
                flag(.ct010, "\(reference.property) \(reference.url): the bytes are no known image format")
            }
            return
        }
        if header.format == .svg {
            flag(.ct010, "\(reference.property) \(reference.url) is an SVG image, which link previews do not show")
            return
        }
        guard let (width, height) = header.dimensions else { return }
        var problems: [String] = []
        if min(width, height) < Self.minimumShortSide {
            problems.append("its short side is under Apple's \(Self.minimumShortSide) px")
        }
        if height > width, height < Self.minimumTallHeight {
            problems.append("a tall image under Apple's \(Self.minimumTallHeight) px high")
        }
        if width < Self.minimumMessagesWidth {
            problems.append("under the \(Self.minimumMessagesWidth) px width Messages needs")
        }
        if !problems.isEmpty {
            flag(
                .ct009,
                "\(reference.property) \(reference.url) is \(width)×\(height) px: \(problems.joined(separator: "; "))")
        }
    }
}

extension PageVerifier {
    /// The image findings of one page, given what fetching each of its images found.
    public func verifyImages(_ probes: [(ImageReference, ImageProbe)], pageURL: String) -> [Finding] {
        var findings: [Finding] = []
        for (reference, probe) in probes {
            AssetChecks(reference: reference, probe: probe).run { rule, position, excerpt, message in
                if let finding = finding(
                    rule, url: pageURL, line: position.line, column: position.column, excerpt: excerpt,
                    message: message)
                {
                    findings.append(finding)
                }
            }
        }
        return Self.ordered(findings)
    }
}
