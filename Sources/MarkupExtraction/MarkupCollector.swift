/// Receives the scanner's events for one document and keeps only what the extractors need: meta
/// and link tags, the title, `<base>`, JSON-LD script bodies, outgoing links, and a pruned tree of
/// the elements that carry Microdata or RDFa attributes, with their text content captured once
/// into a shared buffer (nested captures share bytes). Single-use, confined to one `extract` call.
final class MarkupCollector {
    struct MetaRecord {
        var name: String?
        var property: String?
        var httpEquiv: String?
        var content: String?
        /// The `value` attribute, an early form of X's card markup (`<meta name="twitter:card"
        /// value="summary">`), kept so a check can say what was written instead of `content`.
        var value: String?
        /// Smart App Banner parameters written as attributes beside `content` (`app-argument="…"`),
        /// which Safari ignores: name and value, in the scanner's order.
        var bannerParameterAttributes: [SmartAppBanner.Parameter] = []
        var line: Int
        /// The column (1-based) of the start tag's closing `>`, where libxml2 reports the element,
        /// on the line `line` names (the same for every record here).
        var column: Int
        var section: DocumentSection
    }

    struct LinkRecord {
        var rel: String
        /// Nil when the tag has no `href` attribute.
        var href: String?
        var line: Int
        var column: Int
        var section: DocumentSection
    }

    struct ScriptRecord {
        var line: Int
        /// Column where the script's text starts (just after the start tag's `>`).
        var column: Int
        /// The start tag's column, as for every record here (its `>`).
        var tagColumn: Int
        var section: DocumentSection
        var bytes: [UInt8]
    }

    /// An element with a Microdata attribute (or an `id`, which `itemref` may point at).
    struct MicrodataNode {
        var parent: Int32
        var tag: TagKind
        var line: Int
        var column: Int
        var itemscope: Bool
        var itemprop: String?
        var itemtype: String?
        var itemid: String?
        var itemref: String?
        var id: String?
        /// The attribute that holds the value for this element kind (WHATWG rules), if present.
        var valueAttribute: String?
        /// A lazy-loading script's `data-src` on an element whose `src` is absent: Microdata's
        /// value stays "", but a finding can say where the URL went.
        var lazySource: String?
        var contentAttribute: String?
        var textRange: Range<Int>
    }

    /// An element with an RDFa attribute, or the root, `head` or `body`.
    struct RDFaNode {
        var parent: Int32
        var tag: TagKind
        var line: Int
        var column: Int
        var vocab: String?
        var typeOf: String?
        var property: String?
        var resource: String?
        var prefix: String?
        var about: String?
        var href: String?
        var src: String?
        var content: String?
        var datetime: String?
        var datatype: String?
        var lang: String?
        var rel: String?
        var rev: String?
        var role: String?
        var id: String?
        var textRange: Range<Int>
    }

    private struct Frame {
        var tag: TagKind
        var microdataNode: Int32 = -1
        var rdfaNode: Int32 = -1
        var capturesText = false
        var rawText = false
        var script = false
        var title = false
    }

    private static let microdataAttributes = AttributeSetMask(.itemscope, .itemprop, .itemtype, .itemid, .itemref, .id)
    private static let rdfaAttributes = AttributeSetMask(
        .vocab, .typeof, .property, .resource, .prefix, .about, .rel, .rev, .role)

    private var frames: [Frame] = []
    private(set) var text: [UInt8] = []
    private var captureDepth = 0
    private var rawTextDepth = 0
    private var svgDepth = 0
    private var templateDepth = 0
    private var microdataParent: Int32 = -1
    private var rdfaParent: Int32 = -1
    private var currentScript: ScriptRecord?
    /// The index in `frames` of the open body element, once one started, and of the root element.
    private var bodyFrameIndex: Int?
    private var htmlFrameIndex: Int?
    private var titleStart = (bytes: 0, line: 0, column: 0, section: DocumentSection.head)

    private(set) var metas: [MetaRecord] = []
    private(set) var linkRecords: [LinkRecord] = []
    private(set) var title: (text: String, line: Int, column: Int, section: DocumentSection)?
    private(set) var baseHref: (href: String, line: Int, column: Int, section: DocumentSection)?
    private(set) var htmlLang: (lang: String, line: Int, column: Int)?
    /// The first `<meta>` element whose `charset` names an encoding (or, without one that does,
    /// whose `http-equiv="content-type"` content does): what HTML's "in head" rules for `meta`
    /// hand to "change the encoding" (§13.2.6.4.4). Tags inside a template count too.
    private(set) var charsetDeclaration: (label: String, line: Int)?
    private(set) var prefixDeclarations: [PrefixDeclaration] = []
    private(set) var scripts: [ScriptRecord] = []
    private(set) var microdataNodes: [MicrodataNode] = []
    private(set) var rdfaNodes: [RDFaNode] = []
    private(set) var links: [OutgoingLink] = []
    /// Links past `maximumLinks`, counted only: a 10 MB page of 620,000 links held 60 MB of them
    /// (issue 35 §2). Real pages have at most 3,859 (the 130 of `realpages`, by a regex count).
    private(set) var linksNotRead = 0
    static let maximumLinks = 100_000
    private(set) var usesMicrodata = false
    private(set) var usesRDFa = false
    let collectsRDFa: Bool

    init(collectsRDFa: Bool) {
        self.collectsRDFa = collectsRDFa
        frames.reserveCapacity(64)
    }

    private var wantsCharacters: Bool {
        currentScript != nil || (captureDepth > 0 && rawTextDepth == 0)
    }

    // MARK: Events

    func startElement(_ element: ElementView) -> Bool {
        let tag = element.tag
        // 1-based, of the start tag's `>` (where the parser stands when it reports the tag).
        let column = element.column
        var frame = Frame(tag: tag)
        if tag == .template { templateDepth += 1 }
        if tag == .svg { svgDepth += 1 }
        if tag == .meta, charsetDeclaration == nil { noteCharsetDeclaration(element) }
        switch tag {
        case .other, .template, .svg:
            break
        case _ where templateDepth > 0:
            // `<template>` content is inert: nothing in it counts.
            break
        case .meta:
            if element.has(.name) || element.has(.property) || element.has(.httpEquiv) {
                let strayParameters = [(AttributeName.appID, "app-id"), (.appArgument, "app-argument")].compactMap {
                    attribute, key in element.value(attribute).map { SmartAppBanner.Parameter(key: key, value: $0) }
                }
                metas.append(
                    MetaRecord(
                        name: element.value(.name), property: element.value(.property),
                        httpEquiv: element.value(.httpEquiv), content: element.value(.content),
                        value: element.value(.value), bannerParameterAttributes: strayParameters,
                        line: element.line, column: column, section: element.section))
            }
        case .link:
            if let rel = element.value(.rel) {
                linkRecords.append(
                    LinkRecord(
                        rel: rel, href: element.value(.href), line: element.line, column: column,
                        section: element.section))
            }
        case .title:
            if title == nil, svgDepth == 0 {
                frame.title = true
                frame.capturesText = true
                titleStart = (text.count, element.line, column, element.section)
            }
        case .base:
            if baseHref == nil, let href = element.value(.href) {
                baseHref = (href, element.line, column, element.section)
            }
        case .html:
            if htmlLang == nil, let lang = element.value(.lang) ?? element.value(.xmlLang) {
                htmlLang = (lang, element.line, column)
            }
        case .script:
            if let type = element.value(.type), Self.isJSONLD(type) {
                frame.script = true
                currentScript = ScriptRecord(
                    line: element.line, column: element.column + 1, tagColumn: column, section: element.section,
                    bytes: [])
            } else {
                frame.rawText = true
            }
        case .style:
            frame.rawText = true
        case .a, .area:
            if let href = element.value(.href) {
                if links.count < Self.maximumLinks {
                    links.append(OutgoingLink(href: href, rel: element.value(.rel), line: element.line, column: column))
                } else {
                    linksNotRead += 1
                }
            }
        default:
            break
        }

        if element.hasInterestingAttributes {
            if let prefix = element.value(.prefix) {
                prefixDeclarations += Self.parsePrefixes(prefix, line: element.line, column: column)
            }
            // `xmlns:og="http://ogp.me/ns#"` (RDFa 1.0, still honoured by RDFa 1.1 and OGP's own
            // examples) declares a prefix as well.
            if let namespaces = element.value(.xmlns) {
                prefixDeclarations += Self.parsePrefixes(namespaces, line: element.line, column: column)
            }
            if templateDepth == 0, element.hasAny(Self.microdataAttributes) {
                addMicrodataNode(element, frame: &frame)
            }
        }
        // The body always has a node (with no attribute it stands for nothing), so that the
        // attributes of a `<body>` tag met after content can be added to it (`mergeAttributes`).
        if tag == .body, frame.microdataNode < 0, templateDepth == 0, bodyFrameIndex == nil {
            addMicrodataNode(element, frame: &frame)
        }
        if tag == .body, bodyFrameIndex == nil { bodyFrameIndex = frames.count }
        if tag == .html, frames.isEmpty { htmlFrameIndex = 0 }
        if collectsRDFa, templateDepth == 0,
            element.hasAny(Self.rdfaAttributes) || tag == .html || tag == .head || tag == .body
        {
            addRDFaNode(element, frame: &frame)
        }
        if frame.capturesText { captureDepth += 1 }
        if frame.rawText { rawTextDepth += 1 }
        frames.append(frame)
        return wantsCharacters
    }

    func endElement(_ tag: TagKind) -> Bool {
        guard let frame = frames.popLast() else { return wantsCharacters }
        if frames.count == bodyFrameIndex { bodyFrameIndex = nil }
        if frames.count == htmlFrameIndex { htmlFrameIndex = nil }
        if frame.capturesText { captureDepth -= 1 }
        if frame.rawText { rawTextDepth -= 1 }
        if frame.title {
            title = (
                String(decoding: text[titleStart.bytes...], as: UTF8.self), titleStart.line, titleStart.column,
                titleStart.section
            )
        }
        if frame.script, let script = currentScript {
            scripts.append(script)
            currentScript = nil
        }
        if frame.microdataNode >= 0 {
            microdataNodes[Int(frame.microdataNode)].textRange =
                microdataNodes[Int(frame.microdataNode)].textRange.lowerBound..<text.count
            microdataParent = microdataNodes[Int(frame.microdataNode)].parent
        }
        if frame.rdfaNode >= 0 {
            rdfaNodes[Int(frame.rdfaNode)].textRange = rdfaNodes[Int(frame.rdfaNode)].textRange.lowerBound..<text.count
            rdfaParent = rdfaNodes[Int(frame.rdfaNode)].parent
        }
        switch frame.tag {
        case .svg: svgDepth -= 1
        case .template: templateDepth -= 1
        default: break
        }
        return wantsCharacters
    }

    func characters(_ bytes: UnsafeBufferPointer<UInt8>) {
        if currentScript != nil {
            currentScript?.bytes.append(contentsOf: bytes)
        } else if captureDepth > 0, rawTextDepth == 0 {
            text.append(contentsOf: bytes)
        }
    }

    private func noteCharsetDeclaration(_ element: ElementView) {
        if let charset = element.value(.charset), MetaCharsetPrescan.usableEncoding(charset) != nil {
            charsetDeclaration = (charset.trimmingASCIIWhitespace(), element.line)
        } else if let httpEquiv = element.value(.httpEquiv),
            httpEquiv.utf8.elementsEqual(
                "content-type".utf8, by: { ($0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0) == $1 }),
            let content = element.value(.content),
            let label = MetaCharsetPrescan.charset(inContent: Array(content.lowercased().utf8)),
            MetaCharsetPrescan.usableEncoding(label) != nil
        {
            charsetDeclaration = (label.trimmingASCIIWhitespace(), element.line)
        }
    }

    /// A second `<html>` tag, or a `<body>` tag met once the body is open: a browser adds each
    /// attribute the element does not have yet (HTML §13.2.6.4.7, "in body", a start tag "html" or
    /// "body"). libxml2 drops the tag, so the element's nodes take what they lack; every element
    /// read since it opened is already under them.
    func mergeAttributes(_ element: ElementView) {
        let opened = element.tag == .html ? htmlFrameIndex : bodyFrameIndex
        guard let index = opened, index < frames.count else { return }
        if element.tag == .html, htmlLang == nil, let lang = element.value(.lang) ?? element.value(.xmlLang) {
            htmlLang = (lang, element.line, element.column)
        }
        let frame = frames[index]
        if let prefix = element.value(.prefix) {
            prefixDeclarations += Self.parsePrefixes(prefix, line: element.line)
        }
        if let namespaces = element.value(.xmlns) {
            prefixDeclarations += Self.parsePrefixes(namespaces, line: element.line)
        }
        if frame.microdataNode >= 0 {
            let slot = Int(frame.microdataNode)
            var node = microdataNodes[slot]
            node.itemscope = node.itemscope || element.has(.itemscope)
            node.itemprop = node.itemprop ?? element.value(.itemprop)
            node.itemtype = node.itemtype ?? element.value(.itemtype)
            node.itemid = node.itemid ?? element.value(.itemid)
            node.itemref = node.itemref ?? element.value(.itemref)
            node.id = node.id ?? element.value(.id)
            if node.itemprop != nil || node.itemscope { usesMicrodata = true }
            microdataNodes[slot] = node
        }
        if frame.rdfaNode >= 0 {
            let slot = Int(frame.rdfaNode)
            var node = rdfaNodes[slot]
            node.vocab = node.vocab ?? element.value(.vocab)
            node.typeOf = node.typeOf ?? element.value(.typeof)
            node.property = node.property ?? element.value(.property)
            node.resource = node.resource ?? element.value(.resource)
            node.prefix = node.prefix ?? element.value(.prefix)
            node.about = node.about ?? element.value(.about)
            node.href = node.href ?? element.value(.href)
            node.src = node.src ?? element.value(.src)
            node.content = node.content ?? element.value(.content)
            node.datetime = node.datetime ?? element.value(.datetime)
            node.datatype = node.datatype ?? element.value(.datatype)
            node.lang = node.lang ?? element.value(.lang) ?? element.value(.xmlLang)
            node.rel = node.rel ?? element.value(.rel)
            node.rev = node.rev ?? element.value(.rev)
            node.role = node.role ?? element.value(.role)
            if node.role != nil { node.id = node.id ?? element.value(.id) }
            if element.hasAny(Self.rdfaAttributes) { usesRDFa = true }
            rdfaNodes[slot] = node
        }
    }

    // MARK: Microdata and RDFa nodes

    private func addMicrodataNode(_ element: ElementView, frame: inout Frame) {
        let itemprop = element.value(.itemprop)
        let itemscope = element.has(.itemscope)
        if itemprop != nil || itemscope { usesMicrodata = true }
        let tag = element.tag
        let valueAttribute: String? =
            switch tag {
            case .meta: element.value(.content)
            case .audio, .embed, .iframe, .img, .source, .track, .video: element.value(.src)
            case .a, .area, .link: element.value(.href)
            case .object: element.value(.data)
            case .data, .meter: element.value(.value)
            case .time: element.value(.datetime)
            default: nil
            }
        let needsText = itemprop != nil && !itemscope && valueAttribute == nil && tag != .meta
        let node = MicrodataNode(
            parent: microdataParent, tag: tag, line: element.line, column: element.column, itemscope: itemscope,
            itemprop: itemprop,
            itemtype: element.value(.itemtype), itemid: element.value(.itemid), itemref: element.value(.itemref),
            id: element.value(.id), valueAttribute: valueAttribute,
            lazySource: valueAttribute == nil && element.has(.itemprop) ? element.value(.dataSrc) : nil,
            contentAttribute: tag == .meta ? nil : element.value(.content), textRange: text.count..<text.count)
        frame.microdataNode = Int32(microdataNodes.count)
        microdataParent = frame.microdataNode
        microdataNodes.append(node)
        if needsText { frame.capturesText = true }
    }

    private func addRDFaNode(_ element: ElementView, frame: inout Frame) {
        let property = element.value(.property)
        if element.hasAny(Self.rdfaAttributes) { usesRDFa = true }
        let content = element.value(.content)
        let node = RDFaNode(
            parent: rdfaParent, tag: element.tag, line: element.line, column: element.column,
            vocab: element.value(.vocab),
            typeOf: element.value(.typeof), property: property, resource: element.value(.resource),
            prefix: element.value(.prefix), about: element.value(.about), href: element.value(.href),
            src: element.value(.src), content: content, datetime: element.value(.datetime),
            datatype: element.value(.datatype), lang: element.value(.lang) ?? element.value(.xmlLang),
            rel: element.value(.rel), rev: element.value(.rev), role: element.value(.role),
            id: element.has(.role) ? element.value(.id) : nil, textRange: text.count..<text.count)
        frame.rdfaNode = Int32(rdfaNodes.count)
        rdfaParent = frame.rdfaNode
        rdfaNodes.append(node)
        if property != nil, content == nil { frame.capturesText = true }
    }

    // MARK: Helpers

    static func isJSONLD(_ type: String) -> Bool {
        // As `split(separator: ";")` gives it: the first part between `;`s that is not empty.
        let utf8 = type.utf8
        let semicolon = UInt8(ascii: ";")
        guard let start = utf8.firstIndex(where: { $0 != semicolon }) else { return false }
        let part = utf8[start...].prefix { $0 != semicolon }
        func isASCIIWhitespace(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
        }
        guard let first = part.firstIndex(where: { !isASCIIWhitespace($0) }),
            let last = part.lastIndex(where: { !isASCIIWhitespace($0) })
        else { return false }
        // Compared without case, byte by byte: no character but an ASCII letter lower-cases to one
        // of this essence's letters.
        return utf8[first...last].elementsEqual("application/ld+json".utf8) { byte, expected in
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 == expected : byte == expected
        }
    }

    /// Parses an RDFa `prefix` attribute: `og: https://ogp.me/ns# fb: http://ogp.me/ns/fb#`.
    static func parsePrefixes(_ value: String, line: Int, column: Int? = nil) -> [PrefixDeclaration] {
        var result: [PrefixDeclaration] = []
        let tokens = value.split(whereSeparator: \.isASCIIWhitespace)
        var index = 0
        while index + 1 < tokens.count {
            let name = tokens[index]
            if name.count > 1, name.last == ":" {
                result.append(
                    PrefixDeclaration(
                        prefix: String(name.dropLast()).lowercased(), iri: String(tokens[index + 1]), line: line,
                        column: column))
                index += 2
            } else {
                index += 1
            }
        }
        return result
    }

    /// Text captured for a node.
    func text(_ range: Range<Int>) -> String {
        let upper = min(range.upperBound, text.count)
        let lower = min(range.lowerBound, upper)
        return String(decoding: text[lower..<upper], as: UTF8.self)
    }
}
