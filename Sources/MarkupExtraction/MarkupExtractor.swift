import LenientJSON

#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

/// HTML bytes + the page's URL → `PageMarkup`. Stateless and `Sendable`: call it from any number
/// of threads at once (each call uses its own parser context).
public struct MarkupExtractor: Sendable {
    public struct Options: Sendable, Hashable {
        /// Read a `content` attribute on any Microdata element in place of its text, as schema.org's
        /// examples, Google and extruct do (`--microdata-content-anywhere`). Off by default: only
        /// `<meta>` uses `content`, as WHATWG HTML says.
        public var microdataContentOnAnyElement: Bool
        /// Extract an `itemscope` element with an `itemprop` that no item claims as a top-level
        /// item marked `orphan` (default), as extruct and Google do; when false, drop it, as WHATWG
        /// HTML says (`--microdata-whatwg`).
        public var microdataOrphanItems: Bool
        /// Process RDFa (default on).
        public var rdfa: Bool
        /// Character encoding from outside the document (an HTTP `Content-Type` charset), which
        /// takes precedence over `<meta charset>`.
        public var encoding: String?

        public init(
            microdataContentOnAnyElement: Bool = false, microdataOrphanItems: Bool = true, rdfa: Bool = true,
            encoding: String? = nil
        ) {
            self.microdataContentOnAnyElement = microdataContentOnAnyElement
            self.microdataOrphanItems = microdataOrphanItems
            self.rdfa = rdfa
            self.encoding = encoding
        }
    }

    /// The attributes of one start tag that are read; the rest of a longer tag is left out before
    /// parsing, with an `attributes-capped` diagnostic (issue 17 §2.2).
    public static let maximumAttributesPerTag = HTMLScanner.maximumAttributes

    /// Prefixes whose `<meta property>` tags are Open Graph (ogp.me and its type namespaces).

    public static let openGraphPrefixes: Set<String> = [
        "og", "article", "book", "profile", "music", "video", "product", "website", "fb",
    ]
    static let notOpenGraphPrefixes: Set<String> = [
        "twitter", "al", "schema", "dc", "dcterms", "foaf", "xsd", "rdf", "rdfs",
    ]

    /// Orphaned `itemprop` elements reported one by one; the rest are counted in one diagnostic.
    static let maximumOrphanDiagnostics = 5

    public var options: Options

    /// Move libxml2 past what nobody reads (the bodies of scripts and styles, text outside the
    /// elements whose text is collected) instead of letting it read every character
    /// (`sc_measure_run` in CHTMLScanner.c: the same result in a fraction of the time). Off only in
    /// the tests that compare both ways.
    package var skipsUnreadText = true

    public init(options: Options = Options()) {
        self.options = options
    }

    /// Extracts the markup of one page. Never fails: what cannot be read is reported in
    /// `diagnostics`.
    public func extract(html: some Collection<UInt8>, url: String) -> PageMarkup {
        if let page = html.withContiguousStorageIfAvailable({ extract(UnsafeRawBufferPointer($0), url: url) }) {
            return page
        }
        return Array(html).withUnsafeBytes { extract($0, url: url) }
    }

    /// Decides the encoding, decodes the page to UTF-8 once (the same text for every syntax:
    /// meta tags, the title, JSON-LD, Microdata, RDFa) and scans that UTF-8 with libxml2, which is
    /// told not to look for an encoding of its own.
    private func extract(_ raw: UnsafeRawBufferPointer, url: String, decided: EncodingDecision? = nil) -> PageMarkup {
        var page = PageMarkup(url: url)
        let decision = decided ?? EncodingDecision.decide(raw, transportLabel: options.encoding)
        page.encoding = decision.encoding.name
        page.encodingSource = decision.source
        for ignored in decision.ignoredLabels {
            let written =
                ignored.source == .transport
                ? "the charset \(ignored.label) given for the page"
                : "<meta> charset \(ignored.label) at line \(ignored.line)"
            page.diagnostics.append(
                ExtractionDiagnostic(
                    code: .unsupportedEncoding, line: ignored.line,
                    message:
                        "\(written) names no encoding browsers decode (WHATWG Encoding Standard); ignored, decoded as \(decision.encoding.name)"
                ))
        }
        let body = UnsafeRawBufferPointer(rebasing: raw[decision.byteOrderMarkLength...])
        let decoded = TextDecoder.decode(body, as: decision.encoding)
        if decoded.invalidSequences > 0 {
            page.diagnostics.append(
                ExtractionDiagnostic(
                    code: .undecodableBytes, line: decoded.firstInvalidLine,
                    message:
                        "\(decoded.invalidSequences) byte sequence(s) not valid \(decision.encoding.name) from line \(decoded.firstInvalidLine), each decoded as U+FFFD"
                ))
        }
        page.encodingMismatch = Self.mismatch(decision, decoded: decoded, bytes: body)
        let collector = MarkupCollector(collectsRDFa: options.rdfa)
        let scanned: ScanReport? =
            if let utf8 = decoded.utf8 {
                utf8.withUnsafeBytes { scanUTF8($0, into: collector, page: &page) }
            } else {
                scanUTF8(body, into: collector, page: &page)
            }
        guard let scanned else {
            page.diagnostics.append(
                ExtractionDiagnostic(code: .undecodableBytes, line: 0, message: "libxml2 could not start a parser"))
            return page
        }
        // HTML's "change the encoding": the parser met a `<meta>` naming another encoding while
        // the decision was tentative; a browser decodes the page again with it (once: the
        // confidence is then certain).
        if decided == nil, let declaration = collector.charsetDeclaration,
            let changed = decision.changed(by: declaration)
        {
            return extract(raw, url: url, decided: changed)
        }
        if let capped = scanned.cappedAttributes {
            let others = capped.elements > 1 ? " and \(capped.elements - 1) more start tag(s)" : ""
            page.diagnostics.append(
                ExtractionDiagnostic(
                    code: .attributesCapped, line: capped.firstLine,
                    message:
                        "the start tag at line \(capped.firstLine)\(others) had more than \(HTMLScanner.maximumAttributes) "
                        + "attributes (at most \(capped.largestCount)); only the first \(HTMLScanner.maximumAttributes) "
                        + "of each were read, \(capped.dropped) left out"))
        }

        if collector.linksNotRead > 0, let last = collector.links.last {
            page.diagnostics.append(
                ExtractionDiagnostic(
                    code: .linksCapped, line: last.line,
                    message:
                        "more than \(MarkupCollector.maximumLinks) links (<a href>, <area href>): the "
                        + "\(collector.linksNotRead) after line \(last.line) were not read"))
        }

        var resolver = URLResolver(base: url)
        if let base = collector.baseHref {
            page.baseHref = SourceText(text: base.href, line: base.line, column: base.column, section: base.section)
            resolver = resolver.rebased(onto: base.href)
        }
        page.baseURL = resolver.base
        if let lang = collector.htmlLang {
            page.lang = SourceText(
                text: lang.lang.trimmingASCIIWhitespace(), line: lang.line, column: lang.column, section: .head)
        }
        if let title = collector.title {
            page.title = SourceText(
                text: title.text.collapsingASCIIWhitespace(), line: title.line, column: title.column,
                section: title.section)
        }
        page.prefixes = collector.prefixDeclarations
        classifyMetaTags(collector, resolver: resolver, into: &page)
        classifyLinks(collector, resolver: resolver, into: &page)
        for orphan in page.openGraphMedia.orphans {
            page.diagnostics.append(
                ExtractionDiagnostic(
                    code: .openGraphOrphan, line: orphan.line, column: orphan.column,
                    message:
                        "\(orphan.key) at line \(orphan.line) comes before any root tag it could belong to (orphaned)"))
        }
        page.jsonLD = collector.scripts.map { script in
            parseJSONLD(script, section: script.section, diagnostics: &page.diagnostics)
        }
        if collector.usesMicrodata {
            let builder = MicrodataBuilder(
                collector: collector, resolver: resolver,
                contentAttributeOnAnyElement: options.microdataContentOnAnyElement)
            let (items, truncated) = builder.topLevelItems(orphans: options.microdataOrphanItems)
            page.microdata = items
            if truncated {
                page.diagnostics.append(
                    ExtractionDiagnostic(
                        code: .microdataTruncated, line: 0,
                        message:
                            "Microdata: more than \(MicrodataBuilder.maximumItems) items (itemref makes items expand "
                            + "each time they are referenced); the items past that are given as \"ERROR\""))
            }
            let orphans = builder.orphanProperties()
            for index in orphans.prefix(Self.maximumOrphanDiagnostics) {
                let node = collector.microdataNodes[Int(index)]
                page.diagnostics.append(
                    ExtractionDiagnostic(
                        code: .microdataOrphanProperty, line: node.line, column: node.column,
                        message: "itemprop=\"\(node.itemprop ?? "")\" at line \(node.line) is not inside any itemscope")
                )
            }
            if orphans.count > Self.maximumOrphanDiagnostics {
                page.diagnostics.append(
                    ExtractionDiagnostic(
                        code: .microdataOrphanProperty,
                        line: collector.microdataNodes[Int(orphans[Self.maximumOrphanDiagnostics])].line,
                        message:
                            "\(orphans.count - Self.maximumOrphanDiagnostics) more itemprop elements are not inside any itemscope"
                    ))
            }
        }
        if options.rdfa, collector.usesRDFa {
            var rdfa = RDFaBuilder(collector: collector, resolver: resolver)
            rdfa.process()
            page.rdfa = rdfa.items()
        }
        page.links = collector.links
        return page
    }

    private func classifyMetaTags(_ collector: MarkupCollector, resolver: URLResolver, into page: inout PageMarkup) {
        let declared = Set(collector.prefixDeclarations.map(\.prefix)).subtracting(Self.notOpenGraphPrefixes)
        for meta in collector.metas {
            let section = meta.section
            let content = (meta.content ?? "").trimmingASCIIWhitespace()
            if let httpEquiv = meta.httpEquiv, httpEquiv.trimmingASCIIWhitespace().lowercased() == "refresh" {
                page.refreshes.append(
                    MetaTag(
                        key: "refresh", content: content, attribute: .httpEquiv, line: meta.line, column: meta.column,
                        section: section))
            }
            // `property` first (Open Graph, App Links), then `name` (Twitter, description …).
            // `property` is an RDFa attribute, a whitespace-separated list of terms:
            // `property="dc:description og:description"` states og:description too, so each token
            // is classified. `name` (one key) is read too unless a property token already said the
            // same key: `<meta property="og:description" name="description">` is both. A banner
            // with `name="apple-itunes-app"` is a `name=` banner, whatever `property` says.
            func classify(_ rawKey: String, _ attribute: MetaTag.KeyAttribute) -> Bool {
                let key = rawKey.trimmingASCIIWhitespace()
                let lowered = key.lowercased()
                var tag = MetaTag(
                    key: key, content: content, attribute: attribute, line: meta.line, column: meta.column,
                    section: section)
                if meta.content == nil { tag.valueAttribute = meta.value }
                if lowered == "apple-itunes-app" {
                    var oddities: [SmartAppBanner.Oddity] = []
                    if attribute == .property { oddities.append(.writtenWithProperty) }
                    if key != lowered { oddities.append(.nameNotLowercase(key)) }
                    oddities += meta.bannerParameterAttributes.map { .parameterAsAttribute($0) }
                    page.smartAppBanners.append(
                        SmartAppBanner(
                            content: meta.content ?? "", line: meta.line, column: meta.column, section: section,
                            oddities: oddities))
                    return true
                }
                if lowered.hasPrefix("twitter:") {
                    page.twitter.append(tag)
                    return true
                }
                if lowered.hasPrefix("al:") {
                    page.appLinks.append(tag)
                    return true
                }
                if let colon = lowered.firstIndex(of: ":") {
                    let prefix = String(lowered[..<colon])
                    guard meta.content != nil, Self.openGraphPrefixes.contains(prefix) || declared.contains(prefix)
                    else { return false }
                    page.openGraph.append(tag)
                    return true
                }
                guard attribute == .name else { return false }
                switch lowered {
                case "description": page.descriptions.append(tag)
                case "keywords": page.keywords.append(tag)
                case "robots", "applebot", "googlebot", "spotcheck", "bingbot":
                    page.robots.append(
                        MetaTag(
                            key: lowered, content: content, attribute: .name, line: meta.line, column: meta.column,
                            section: section))
                default: return false
                }
                return true
            }
            let name = meta.name?.trimmingASCIIWhitespace()
            var usedKeys: Set<String> = []
            if let property = meta.property {
                let tokens = property.split(whereSeparator: \.isASCIIWhitespace).map(String.init)
                for token in tokens.isEmpty ? [property] : tokens {
                    let lowered = token.lowercased()
                    if lowered == "apple-itunes-app", name?.lowercased() == lowered { continue }
                    if classify(token, .property) { usedKeys.insert(lowered) }
                }
            }
            if let name, !usedKeys.contains(name.lowercased()) { _ = classify(name, .name) }
        }
    }

    private func classifyLinks(_ collector: MarkupCollector, resolver: URLResolver, into page: inout PageMarkup) {
        for link in collector.linkRecords {
            let rels = Set(link.rel.lowercased().split(whereSeparator: \.isASCIIWhitespace).map(String.init))
            let section = link.section
            guard let href = link.href else {
                if rels.contains("canonical") {
                    page.canonicalsWithoutHref.append(
                        MetaTag(
                            key: link.rel, content: "", attribute: .rel, line: link.line, column: link.column,
                            section: section))
                }
                continue
            }
            var tag = MetaTag(
                key: link.rel, content: resolver.resolve(href), attribute: .rel, line: link.line,
                column: link.column,
                section: section)
            tag.asWritten = href
            if rels.contains("canonical") { page.canonicals.append(tag) }
            if rels.contains("apple-touch-icon") || rels.contains("apple-touch-icon-precomposed") {
                page.touchIcons.append(tag)
            }
        }
    }

    /// Scans UTF-8 with libxml2, after HTML's input stream preprocessing (§13.2.3.5): every CR LF
    /// pair and every lone CR becomes one LF (so an attribute value written over CR LF lines holds
    /// LF, as a browser's DOM does), and U+0000, which libxml2 would take for the end of the
    /// document, becomes U+FFFD (as the tokenizer replaces it in text and attribute values). A copy
    /// is made only when there is a CR or a NUL.
    private func scanUTF8(
        _ utf8: UnsafeRawBufferPointer, into collector: MarkupCollector, page: inout PageMarkup
    ) -> ScanReport? {
        let hasNUL = Self.containsNUL(utf8)
        guard hasNUL || Self.containsCarriageReturn(utf8) else {
            return HTMLScanner.scan(utf8: utf8, into: collector, skippingUnreadText: skipsUnreadText)
        }
        let (bytes, replaced) = Self.preprocessed(utf8)
        if replaced > 0 {
            page.diagnostics.insert(
                ExtractionDiagnostic(code: .nulBytes, line: 0, message: "\(replaced) NUL byte(s) replaced with U+FFFD"),
                at: 0)
        }
        return bytes.withUnsafeBytes {
            HTMLScanner.scan(utf8: $0, into: collector, skippingUnreadText: skipsUnreadText)
        }
    }

    /// HTML's input stream preprocessing of decoded UTF-8: CR LF and lone CR become LF, NUL becomes
    /// U+FFFD (counted).
    static func preprocessed(_ utf8: UnsafeRawBufferPointer) -> (bytes: [UInt8], replacedNULs: Int) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count + 64)
        var replaced = 0
        var index = 0
        let count = utf8.count
        while index < count {
            let byte = utf8[index]
            switch byte {
            case 0:
                bytes += [0xEF, 0xBF, 0xBD]
                replaced += 1
            case 0x0D:
                bytes.append(0x0A)
                if index + 1 < count, utf8[index + 1] == 0x0A { index += 1 }
            default:
                bytes.append(byte)
            }
            index += 1
        }
        return (bytes, replaced)
    }

    static func containsCarriageReturn(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        return memchr(base, 0x0D, bytes.count) != nil
    }

    /// CT016's facts: a declared encoding other than UTF-8 on bytes that are UTF-8 (with
    /// non-ASCII characters: valid UTF-8 is very unlikely to be text in a legacy encoding), or a
    /// declared encoding the bytes are not valid in.
    static func mismatch(
        _ decision: EncodingDecision, decoded: DecodedText, bytes: UnsafeRawBufferPointer
    ) -> EncodingMismatch? {
        guard decision.source == .transport || decision.source == .meta || decision.source == .metaChange,
            let label = decision.label
        else {
            return nil
        }
        let declaredUnicode = [.utf8, .utf16LE, .utf16BE].contains(decision.encoding)
        let bytesFit: String? = !declaredUnicode && isNonASCIIUTF8(bytes) ? TextEncoding.utf8.name : nil
        guard bytesFit != nil || decoded.invalidSequences > 0 else { return nil }
        return EncodingMismatch(
            declaredLabel: label, declaredBy: decision.source == .metaChange ? .meta : decision.source,
            line: decision.line, decodedAs: decision.encoding.name,
            bytesFit: bytesFit, invalidSequences: decoded.invalidSequences,
            firstInvalidLine: decoded.firstInvalidLine)
    }

    private func parseJSONLD(
        _ script: MarkupCollector.ScriptRecord, section: DocumentSection, diagnostics: inout [ExtractionDiagnostic]
    ) -> JSONLDScript {
        // Positions come out as page positions: the body starts just after the start tag.
        let result = JSONParser.parse(
            script.bytes, lenient: true, origin: JSONTextOrigin(line: script.line, column: script.column))
        let shifted = result.diagnostics
        if result.value == nil {
            let failure = result.failure
            let reason = failure?.reason ?? "no JSON value"
            diagnostics.append(
                ExtractionDiagnostic(
                    code: .jsonLDUnrecoverable, line: failure?.line ?? script.line, column: failure?.column,
                    message: "JSON-LD script at line \(script.line) cannot be parsed: \(reason)"))
        } else {
            for diagnostic in shifted where diagnostic.severity == .error {
                diagnostics.append(
                    ExtractionDiagnostic(
                        code: .jsonLDSyntax, line: diagnostic.line, column: diagnostic.column,
                        message:
                            "JSON-LD script at line \(script.line) is not valid JSON: \(diagnostic.reason) (recovered)")
                )
            }
        }
        return JSONLDScript(
            line: script.line, column: script.tagColumn, section: section, value: result.value, diagnostics: shifted,
            text: String(decoding: script.bytes, as: UTF8.self))
    }

    /// The first charset label a page's `<meta>` declares in its first 1,024 bytes (HTML's
    /// prescan), lower-cased, if any.
    public static func declaredCharset(in html: [UInt8]) -> String? {
        html.withUnsafeBytes { MetaCharsetPrescan.declarations($0).first?.label }
    }

    static func containsNUL(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        return memchr(base, 0, bytes.count) != nil
    }

    /// True when `bytes` contain at least one non-ASCII byte and are entirely valid UTF-8.
    static func isNonASCIIUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
        utf8Validity(bytes) == .nonASCII
    }

    /// True when `bytes` are entirely valid UTF-8 (plain ASCII included).
    static func isValidUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
        utf8Validity(bytes) != .invalid
    }

    enum UTF8Validity { case ascii, nonASCII, invalid }

    static func utf8Validity(_ bytes: UnsafeRawBufferPointer) -> UTF8Validity {
        var index = 0
        let count = bytes.count
        var sawNonASCII = false
        let highBits: UInt64 = 0x8080_8080_8080_8080
        func word(_ offset: Int) -> UInt64 { bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self) }
        while index < count {
            // ASCII fast path, 32 bytes at a time, then eight.
            if index + 32 <= count,
                (word(index) | word(index + 8) | word(index + 16) | word(index + 24)) & highBits == 0
            {
                index += 32
                continue
            }
            if index + 8 <= count, word(index) & highBits == 0 {
                index += 8
                continue
            }
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            sawNonASCII = true
            let length: Int
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0...0xEF: length = 3
            case 0xF0...0xF4: length = 4
            default: return .invalid
            }
            guard index + length <= count else { return .invalid }
            for offset in 1..<length where bytes[index + offset] & 0xC0 != 0x80 { return .invalid }
            let second = bytes[index + 1]
            if lead == 0xE0 && second < 0xA0 || lead == 0xED && second > 0x9F || lead == 0xF0 && second < 0x90
                || lead == 0xF4 && second > 0x8F
            {
                return .invalid
            }
            index += length
        }
        return sawNonASCII ? .nonASCII : .ascii
    }
}
