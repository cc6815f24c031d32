public import LenientJSON

/// Everything SpotCheck reads from one HTML page: a value, free of any parser state.
///
/// Every value keeps the line it came from. `section` says whether a browser's tree puts the tag
/// in the head or the body (HTML's insertion modes, followed by the C scanner: a `<div>` or text in
/// the head closes it, a stray `</body>` before the body opens it), checked against html5lib-tests'
/// tree-construction data (HTML5LibTreeConstructionTests).
public struct PageMarkup: Sendable, Hashable, Codable {
    /// The URL the page was read as (the document URL).
    public var url: String
    /// The base URL relative references were resolved against (`<base href>` applied).
    public var baseURL: String
    public var baseHref: SourceText?
    public var lang: SourceText?
    public var title: SourceText?
    /// `<meta name="description">` tags in document order (the first is the description).
    public var descriptions: [MetaTag]
    /// Every `rel=canonical` link in document order, `content` resolved against the base URL.
    public var canonicals: [MetaTag]
    /// `rel=canonical` links without an `href` attribute (`content` ""): they name no URL, so they
    /// are not among `canonicals`, which every consumer reads as URLs; IX007 reports them.
    public var canonicalsWithoutHref: [MetaTag] = []
    /// `robots`, `applebot`, `googlebot` … meta tags; `key` is the agent name, lower-cased.
    public var robots: [MetaTag]
    /// `<meta http-equiv="refresh">` tags, content as written (`5; url=/next`).
    public var refreshes: [MetaTag]
    public var keywords: [MetaTag]
    /// `apple-touch-icon` links, resolved.
    public var touchIcons: [MetaTag]
    public var openGraph: [MetaTag]
    /// Namespaces declared by `prefix` attributes (prefix → IRI), in document order.
    public var prefixes: [PrefixDeclaration]
    public var twitter: [MetaTag]
    public var appLinks: [MetaTag]
    public var smartAppBanners: [SmartAppBanner]
    public var jsonLD: [JSONLDScript]
    public var microdata: [MarkupItem]
    public var rdfa: [MarkupItem]
    /// `<a href>` / `<area href>` as written (resolve with `resolve(_:)`), for the crawler.
    public var links: [OutgoingLink]
    /// The encoding the page was decoded with, by its WHATWG name (`UTF-8`, `windows-1252`, `GBK`).
    public var encoding: String
    /// Where that encoding came from (a BOM, the HTTP charset, `<meta>`, sniffing, the default).
    public var encodingSource: EncodingSource
    /// The declared encoding does not fit the bytes (CT016), when that is so.
    public var encodingMismatch: EncodingMismatch?
    /// Problems met while reading the page (encoding, unparsable JSON-LD …).
    public var diagnostics: [ExtractionDiagnostic]

    /// The page's Smart App Banner: the first `apple-itunes-app` tag.
    public var smartAppBanner: SmartAppBanner? { smartAppBanners.first }

    public init(url: String) {
        self.url = url
        self.baseURL = url
        descriptions = []
        canonicals = []
        robots = []
        refreshes = []
        keywords = []
        touchIcons = []
        openGraph = []
        prefixes = []
        twitter = []
        appLinks = []
        smartAppBanners = []
        jsonLD = []
        microdata = []
        rdfa = []
        links = []
        encoding = "UTF-8"
        encodingSource = .byteOrderMark
        diagnostics = []
    }
}

/// A declared character encoding that does not fit the page's bytes: the page says gb2312 but its
/// bytes are UTF-8, or bytes are not valid in the encoding it declares. The page is decoded as
/// declared (as browsers do), so its text may be garbled.
public struct EncodingMismatch: Sendable, Hashable, Codable {
    /// The label as written (`gb2312`).
    public var declaredLabel: String
    /// `.transport` (HTTP charset or `--encoding`) or `.meta`.
    public var declaredBy: EncodingSource
    /// The `<meta>`'s line; 0 for a charset from outside the page.
    public var line: Int
    /// The encoding the label names, which decoded the page (`GBK`).
    public var decodedAs: String
    /// The encoding the bytes fit instead, when one is known (`UTF-8`).
    public var bytesFit: String?
    /// Byte sequences not valid in the declared encoding (each decoded as U+FFFD), and the first one's line.
    public var invalidSequences: Int
    public var firstInvalidLine: Int

    public init(
        declaredLabel: String, declaredBy: EncodingSource, line: Int, decodedAs: String, bytesFit: String?,
        invalidSequences: Int, firstInvalidLine: Int
    ) {
        self.declaredLabel = declaredLabel
        self.declaredBy = declaredBy
        self.line = line
        self.decodedAs = decodedAs
        self.bytesFit = bytesFit
        self.invalidSequences = invalidSequences
        self.firstInvalidLine = firstInvalidLine
    }
}

/// Where a browser's tree puts a tag: in the head or in the body.
public enum DocumentSection: String, Sendable, Hashable, Codable {
    case head
    case body
}

/// Where a finding points in the page: a line (1-based) and, when known, a column (1-based, in
/// characters). For a tag both are where libxml2 reports it: the start tag's closing `>` (a tag
/// written over several lines is located on its last); for a JSON-LD syntax error, the error.
/// Line 0 is the page as a whole, which has no column.
public struct SourcePosition: Sendable, Hashable, Codable {
    public var line: Int
    public var column: Int?

    public init(line: Int, column: Int? = nil) {
        self.line = line
        self.column = line > 0 ? column : nil
    }

    /// The page as a whole (line 0, no column).
    public static let page = SourcePosition(line: 0)
}

/// A string and where it came from.
public struct SourceText: Sendable, Hashable, Codable {
    public var text: String
    public var line: Int
    /// The column (1-based) of the start tag's closing `>` on `line`; nil when not known.
    public var column: Int?
    public var section: DocumentSection

    public init(text: String, line: Int, column: Int? = nil, section: DocumentSection) {
        self.text = text
        self.line = line
        self.column = column
        self.section = section
    }

    public var position: SourcePosition { SourcePosition(line: line, column: column) }
}

/// A `<meta>` or `<link>` tag reduced to a key and a value.
public struct MetaTag: Sendable, Hashable, Codable {
    /// Which attribute carried the key.
    public enum KeyAttribute: String, Sendable, Hashable, Codable {
        case property
        case name
        case rel
        case httpEquiv = "http-equiv"
    }

    /// The key as written (`og:title`, `twitter:card`, `canonical` …), trimmed.
    public var key: String
    public var content: String
    public var attribute: KeyAttribute
    public var line: Int
    /// The column (1-based) of the tag's closing `>` on `line`; nil when not known.
    public var column: Int?
    public var section: DocumentSection
    /// For links, the `href` as written, before resolution (`content` holds it resolved).
    public var asWritten: String?
    /// For a `<meta>` without a `content` attribute, its `value` attribute, if any: an early form
    /// of X's card markup (`<meta name="twitter:card" value="summary">`). Not read as the content.
    public var valueAttribute: String?

    public init(
        key: String, content: String, attribute: KeyAttribute, line: Int, column: Int? = nil,
        section: DocumentSection
    ) {
        self.key = key
        self.content = content
        self.attribute = attribute
        self.line = line
        self.column = column
        self.section = section
    }

    public var position: SourcePosition { SourcePosition(line: line, column: column) }
}

public struct PrefixDeclaration: Sendable, Hashable, Codable {
    public var prefix: String
    public var iri: String
    public var line: Int
    /// The column (1-based) of the closing `>` of the tag that declares it; nil when not known.
    public var column: Int? = nil

    public var position: SourcePosition { SourcePosition(line: line, column: column) }
}

/// One `<script type="application/ld+json">` element.
public struct JSONLDScript: Sendable, Hashable, Codable {
    public var line: Int
    /// The column (1-based) of the `<script>` start tag's `>` on `line` (the text starts after it).
    public var column: Int?
    public var section: DocumentSection
    /// The parsed value (recovered leniently when strict JSON failed), or nil when unrecoverable.
    public var value: JSONValue?
    /// Every place strict JSON failed, with line and column in the page (and `byteOffset` in
    /// `text`).
    public var diagnostics: [JSONDiagnostic]
    /// The script's text as written, so a check can quote the line a diagnostic points into. Not
    /// encoded (`CodingKeys`): only the checks read it, and a stored page keeps `value` instead.
    public var text: String = ""
    public var isStrictlyValid: Bool { !diagnostics.contains { $0.severity == .error } }

    private enum CodingKeys: String, CodingKey {
        case line, column, section, value, diagnostics
    }

    public var position: SourcePosition { SourcePosition(line: line, column: column) }
}

/// A schema.org item from Microdata or RDFa, in the WHATWG Microdata JSON shape.
public struct MarkupItem: Sendable, Hashable, Codable {
    /// Absolute type IRIs.
    public var types: [String]
    /// `itemid`, or the RDFa subject (`_:label` for a blank node).
    public var id: String?
    public var properties: [ItemProperty]
    public var line: Int
    /// The column (1-based) of the closing `>` of the start tag that starts the item; nil when not known.
    public var column: Int?
    /// A Microdata item with an `itemprop` that no item claims: not top-level by WHATWG, a
    /// top-level item for extruct and Google (extracted unless `--microdata-whatwg`).
    public var orphan = false

    public init(types: [String], id: String?, properties: [ItemProperty], line: Int, column: Int? = nil) {
        self.types = types
        self.id = id
        self.properties = properties
        self.line = line
        self.column = column
    }

    public var position: SourcePosition { SourcePosition(line: line, column: column) }

    /// The values of the first property with this name.
    public func values(_ name: String) -> [ItemValue] {
        properties.first { $0.name == name }?.values ?? []
    }
}

public struct ItemProperty: Sendable, Hashable, Codable {
    public var name: String
    public var values: [ItemValue]

    public init(name: String, values: [ItemValue]) {
        self.name = name
        self.values = values
    }
}

public struct ItemValue: Sendable, Hashable, Codable {
    public indirect enum Kind: Sendable, Hashable, Codable {
        /// Text content or an attribute value.
        case text(String)
        /// A URL-valued property (`href`, `src` …), resolved against the base URL.
        case url(String)
        /// A literal with an RDF datatype or a language.
        case typedLiteral(String, datatype: String?, language: String?)
        case item(MarkupItem)
        /// A reference to another item by its id (RDFa objects that are not nested).
        case reference(String)
        /// A Microdata item that contains itself through `itemref` (WHATWG: "ERROR"), or one past
        /// the per-page item budget (`microdata-truncated`).
        case cycle
    }

    public var kind: Kind
    public var line: Int
    /// The column (1-based) of the closing `>` of the element's start tag; nil when not known.
    public var column: Int?
    /// For an empty URL-valued property (`<img itemprop="image" data-src="…">` without `src`): the
    /// `data-src` a lazy-loading script would have moved into `src`. Not part of the value.
    public var lazySource: String?

    public init(_ kind: Kind, line: Int, column: Int? = nil) {
        self.kind = kind
        self.line = line
        self.column = column
    }

    public var position: SourcePosition { SourcePosition(line: line, column: column) }

    /// The string form: text, URL, literal or reference; nil for items.
    public var string: String? {
        switch kind {
        case .text(let text), .url(let text), .reference(let text): text
        case .typedLiteral(let text, _, _): text
        case .item, .cycle: nil
        }
    }

    public var item: MarkupItem? {
        if case .item(let item) = kind { item } else { nil }
    }
}

/// A link found in the page, as written.
public struct OutgoingLink: Sendable, Hashable, Codable {
    public var href: String
    public var rel: String?
    public var line: Int
    /// The column (1-based) of the start tag's closing `>` on `line`; nil when not known.
    public var column: Int? = nil
}

/// A problem met while reading the page. `code` is stable; `message` names the actual values.
public struct ExtractionDiagnostic: Sendable, Hashable, Codable {
    public enum Code: String, Sendable, Hashable, Codable {
        case undecodableBytes = "undecodable-bytes"
        case unsupportedEncoding = "unsupported-encoding"
        case jsonLDSyntax = "jsonld-syntax"
        case jsonLDUnrecoverable = "jsonld-unrecoverable"
        case openGraphOrphan = "opengraph-orphan"
        case nulBytes = "nul-bytes"
        /// The HTTP `Content-Type` charset and the page's `<meta>` charset disagree (the header wins).
        case charsetConflict = "charset-conflict"
        /// An `itemprop` element outside every `itemscope` (and not reached through `itemref`).
        case microdataOrphanProperty = "microdata-orphan-property"
        /// More Microdata items than `MicrodataBuilder.maximumItems`: the rest are "ERROR".
        case microdataTruncated = "microdata-truncated"
        /// Start tags with more attributes than the extractor reads (`HTMLScanner.maximumAttributes`).
        case attributesCapped = "attributes-capped"
        /// More `<a href>`/`<area href>` links than `MarkupCollector.maximumLinks`: the rest are
        /// counted, not read.
        case linksCapped = "links-capped"
    }

    public var code: Code
    public var line: Int
    public var column: Int?
    public var message: String

    public init(code: Code, line: Int, column: Int? = nil, message: String) {
        self.code = code
        self.line = line
        self.column = column
        self.message = message
    }

    public var position: SourcePosition { SourcePosition(line: line, column: column) }
}
