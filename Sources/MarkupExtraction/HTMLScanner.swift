internal import CHTMLScanner

/// The element names the extractors distinguish; everything else is `.other`.
enum TagKind: UInt8 {
    case other = 0
    case html, head, body, meta, link, title, base, script, style, a, area, img, audio, video
    case embed, iframe, source, track, object, data, meter, time, svg, template, noscript
}

/// The attributes the extractors read.
enum AttributeName: Int {
    case id = 0
    case itemscope, itemprop, itemtype, itemid, itemref, property, name, content, typeof, vocab
    case resource, prefix, about, rel, href, src, lang, type, datetime, value, data, charset
    case httpEquiv, datatype, xmlLang, rev, role
    case appID, appArgument
    case dataSrc
    /// Every `xmlns:NAME="IRI"` of the element as an RDFa `prefix` value (`NAME: IRI …`).
    case xmlns
}

/// A start tag as the scanner reports it. Only valid inside `HTMLEventSink.startElement`.
struct ElementView {
    fileprivate let element: UnsafePointer<sc_element>

    var tag: TagKind { TagKind(rawValue: UInt8(truncatingIfNeeded: element.pointee.tag.rawValue)) ?? .other }
    var line: Int { Int(element.pointee.line) }
    var column: Int { Int(element.pointee.column) }
    /// Where a browser puts the element: in `<body>` or in `<head>` (HTML's tree construction, as
    /// far as head and body go; `sc_element.inBody`).
    var section: DocumentSection { element.pointee.inBody != 0 ? .body : .head }
    var hasInterestingAttributes: Bool { element.pointee.attributeMask != 0 }

    func has(_ attribute: AttributeName) -> Bool {
        element.pointee.attributeMask & (1 << UInt32(attribute.rawValue)) != 0
    }

    func hasAny(_ attributes: AttributeSetMask) -> Bool {
        element.pointee.attributeMask & attributes.rawValue != 0
    }

    /// The attribute's value ("" for a bare boolean attribute), or nil when absent.
    func value(_ attribute: AttributeName) -> String? {
        guard has(attribute) else { return nil }
        return withUnsafeBytes(of: element.pointee.values) { raw in
            let pointers = raw.bindMemory(to: UnsafePointer<CChar>?.self)
            guard let pointer = pointers[attribute.rawValue] else { return "" }
            return String(cString: pointer)
        }
    }
}

/// A set of `AttributeName`s as a bit mask, to test several attributes at once.
struct AttributeSetMask: OptionSet {
    let rawValue: UInt32
    init(rawValue: UInt32) { self.rawValue = rawValue }
    init(_ names: AttributeName...) {
        rawValue = names.reduce(0) { $0 | (1 << UInt32($1.rawValue)) }
    }
}

/// What libxml2 reported about parsing one document.
struct ScanReport: Sendable {
    var parseErrors: Int
    /// Sequences libxml2 found invalid in the UTF-8 it was given (none: the extractor hands it
    /// decoded UTF-8; informative only).
    var encodingErrors: Int
    /// Start tags with more than `maximumAttributes` attributes, whose rest libxml2 was not given.
    var cappedAttributes: CappedAttributes?
    /// Script and style bodies libxml2 was moved past unread, the bytes of text, and the quoted
    /// values of attributes nobody reads that libxml2 was given as `""`.
    var skippedRawTexts = 0
    var skippedTextBytes = 0
    var skippedAttributeValues = 0

    struct CappedAttributes: Sendable {
        var elements: Int
        var firstLine: Int
        var dropped: Int
        var largestCount: Int
    }
}

/// Streams HTML through libxml2's HTML parser (SAX, no tree is built). The only Swift code that
/// talks to the C scanner; nothing from C outlives `scan`.
enum HTMLScanner {
    /// The attributes of one start tag that are parsed; the rest are left out before libxml2,
    /// whose duplicate check compares every pair (issue 17 §2.2).
    static let maximumAttributes = Int(SC_MAXIMUM_ATTRIBUTES)

    /// Scans `utf8` (already decoded: libxml2 is told the encoding and ignores `<meta charset>`),
    /// calling `sink`'s `startElement`, `endElement` and `characters` (the latter only while the
    /// last start/end returned true). With `skippingUnreadText`, libxml2 is moved past what follows
    /// a start or end that returned false (a script or style body, text up to the next tag) without
    /// reading it (`sc_measure_run`). Returns nil when libxml2 could not start.
    static func scan(
        utf8 bytes: UnsafeRawBufferPointer, into sink: MarkupCollector, skippingUnreadText: Bool = true
    ) -> ScanReport? {
        var report = sc_scan_report()
        let context = Unmanaged.passUnretained(sink).toOpaque()
        var callbacks = sc_callbacks(
            context: context,
            start: { context, element in
                let sink = Unmanaged<MarkupCollector>.fromOpaque(context!).takeUnretainedValue()
                return sink.startElement(ElementView(element: element)) ? 1 : 0
            },
            end: { context, tag in
                let sink = Unmanaged<MarkupCollector>.fromOpaque(context!).takeUnretainedValue()
                return sink.endElement(TagKind(rawValue: UInt8(truncatingIfNeeded: tag.rawValue)) ?? .other) ? 1 : 0
            },
            characters: { context, bytes, length in
                let sink = Unmanaged<MarkupCollector>.fromOpaque(context!).takeUnretainedValue()
                sink.characters(UnsafeBufferPointer(start: bytes, count: Int(length)))
            },
            mergeAttributes: { context, element in
                let sink = Unmanaged<MarkupCollector>.fromOpaque(context!).takeUnretainedValue()
                sink.mergeAttributes(ElementView(element: element))
            }
        )
        let base = bytes.baseAddress?.assumingMemoryBound(to: CChar.self)
        withExtendedLifetime(sink) {
            let empty: [CChar] = [0]
            empty.withUnsafeBufferPointer { fallback in
                let start = base ?? fallback.baseAddress!
                sc_scan(start, bytes.count, "UTF-8", skippingUnreadText ? 1 : 0, &callbacks, &report)
            }
        }
        guard report.status == 0 else { return nil }
        var scanned = ScanReport(parseErrors: Int(report.parseErrors), encodingErrors: Int(report.encodingErrors))
        scanned.skippedRawTexts = report.skippedRawTexts
        scanned.skippedTextBytes = report.skippedTextBytes
        scanned.skippedAttributeValues = report.skippedAttributeValues
        if report.cappedElements > 0 {
            scanned.cappedAttributes = ScanReport.CappedAttributes(
                elements: report.cappedElements, firstLine: report.cappedFirstLine,
                dropped: report.droppedAttributes, largestCount: report.largestAttributeCount)
        }
        return scanned
    }
}
