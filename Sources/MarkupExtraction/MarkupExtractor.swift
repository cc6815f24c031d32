public import LenientJSON

#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// HTML bytes + the page's URL → `PageMarkup`. Stateless and `Sendable`: call it from any number
/// of threads at once (each call uses its own parser context).
public struct MarkupExtractor: Sendable {
    public struct Options: Sendable, Hashable {
        /// Read a `content` attribute on any Microdata element, as schema.org, Google and extruct
        /// do (default). When false, only `<meta>` uses `content`, as WHATWG HTML says.
        public var microdataContentOnAnyElement: Bool
        /// Process RDFa (default on).
        public var rdfa: Bool
        /// Character encoding from outside the document (an HTTP `Content-Type` charset), which
        /// takes precedence over `<meta charset>`.
        public var encoding: String?

        public init(microdataContentOnAnyElement: Bool = true, rdfa: Bool = true, encoding: String? = nil) {
            self.microdataContentOnAnyElement = microdataContentOnAnyElement
            self.rdfa = rdfa
            self.encoding = encoding
        }
    }

    /// Prefixes whose `<meta property>` tags are Open Graph (ogp.me and its type namespaces).
    public static let openGraphPrefixes: Set<String> = ["og", "article", "book", "profile", "music", "video", "product", "website", "fb"]
    static let notOpenGraphPrefixes: Set<String> = ["twitter", "al", "schema", "dc", "dcterms", "foaf", "xsd", "rdf", "rdfs"]

    public var options: Options

    public init(options: Options = Options()) {
        self.options = options
    }

    /// Extracts the markup of one page. Never fails: what cannot be read is reported in
    /// `diagnostics`.
    public func extract(html: some Collection<UInt8>, url: String) -> PageMarkup {
        if let contiguous = html.withContiguousStorageIfAvailable({ extract(UnsafeRawBufferPointer($0), url: url) }) {
            return contiguous
        }
        let array = Array(html)
        return array.withUnsafeBytes { extract($0, url: url) }
    }

    private func extract(_ bytes: UnsafeRawBufferPointer, url: String) -> PageMarkup {
        let collector = MarkupCollector(bodyTagOffset: Self.bodyTagOffset(in: bytes), collectsRDFa: options.rdfa)
        var page = PageMarkup(url: url)
        // With no encoding given and no BOM, bytes that are valid UTF-8 (and not plain ASCII) are
        // decoded as UTF-8, as browsers' sniffing does; libxml2 would fall back to ISO-8859-1.
        var encoding = options.encoding
        if encoding == nil, !Self.hasByteOrderMark(bytes), Self.isNonASCIIUTF8(bytes) { encoding = "UTF-8" }
        guard let report = HTMLScanner.scan(bytes, encoding: encoding, into: collector) else {
            page.diagnostics.append(ExtractionDiagnostic(code: .undecodableBytes, line: 0, message: "libxml2 could not start a parser"))
            return page
        }
        page.encoding = report.encoding
        if report.encodingErrors > 0 {
            page.diagnostics.append(
                ExtractionDiagnostic(
                    code: .undecodableBytes, line: report.firstEncodingErrorLine,
                    message: "bytes that are not valid \(encoding ?? "in the declared encoding") from line \(report.firstEncodingErrorLine); the rest was decoded as ISO-8859-1"))
        }
        if report.unsupportedEncoding {
            page.diagnostics.append(
                ExtractionDiagnostic(code: .unsupportedEncoding, line: 0, message: "the declared character encoding is not supported; decoded as \(report.encoding)"))
        }

        var resolver = URLResolver(base: url)
        if let base = collector.baseHref {
            page.baseHref = SourceText(text: base.href, line: base.line, section: collector.section(ofOffset: base.offset))
            resolver = resolver.rebased(onto: base.href)
        }
        page.baseURL = resolver.base
        if let lang = collector.htmlLang {
            page.lang = SourceText(text: lang.lang.trimmingASCIIWhitespace(), line: lang.line, section: .head)
        }
        if let title = collector.title {
            page.title = SourceText(text: title.text.collapsingASCIIWhitespace(), line: title.line, section: collector.section(ofOffset: title.offset))
        }
        page.prefixes = collector.prefixDeclarations
        classifyMetaTags(collector, resolver: resolver, into: &page)
        classifyLinks(collector, resolver: resolver, into: &page)
        page.jsonLD = collector.scripts.map { script in
            parseJSONLD(script, section: collector.section(ofOffset: script.offset), diagnostics: &page.diagnostics)
        }
        if collector.usesMicrodata {
            page.microdata = MicrodataBuilder(
                collector: collector, resolver: resolver, contentAttributeOnAnyElement: options.microdataContentOnAnyElement
            ).topLevelItems()
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
            let section = collector.section(ofOffset: meta.offset)
            let content = (meta.content ?? "").trimmingASCIIWhitespace()
            // `property` first (Open Graph, App Links), then `name` (Twitter, description …).
            for (rawKey, attribute) in [(meta.property, MetaTag.KeyAttribute.property), (meta.name, .name)] {
                guard let rawKey else { continue }
                let key = rawKey.trimmingASCIIWhitespace()
                let lowered = key.lowercased()
                let tag = MetaTag(key: key, content: content, attribute: attribute, line: meta.line, section: section)
                if lowered == "apple-itunes-app" {
                    var oddities: [SmartAppBanner.Oddity] = []
                    if attribute == .property { oddities.append(.writtenWithProperty) }
                    if key != lowered { oddities.append(.nameNotLowercase(key)) }
                    page.smartAppBanners.append(
                        SmartAppBanner(content: meta.content ?? "", line: meta.line, section: section, oddities: oddities))
                    break
                }
                if lowered.hasPrefix("twitter:") {
                    page.twitter.append(tag)
                    break
                }
                if lowered.hasPrefix("al:") {
                    page.appLinks.append(tag)
                    break
                }
                if let colon = lowered.firstIndex(of: ":") {
                    let prefix = String(lowered[..<colon])
                    if meta.content != nil, Self.openGraphPrefixes.contains(prefix) || declared.contains(prefix) {
                        page.openGraph.append(tag)
                        break
                    }
                    continue
                }
                guard attribute == .name else { continue }
                switch lowered {
                case "description": page.descriptions.append(tag)
                case "keywords": page.keywords.append(tag)
                case "robots", "applebot", "googlebot", "spotcheck", "bingbot":
                    page.robots.append(MetaTag(key: lowered, content: content, attribute: .name, line: meta.line, section: section))
                default: continue
                }
                break
            }
        }
    }

    private func classifyLinks(_ collector: MarkupCollector, resolver: URLResolver, into page: inout PageMarkup) {
        for link in collector.linkRecords {
            let rels = Set(link.rel.lowercased().split(whereSeparator: \.isASCIIWhitespace).map(String.init))
            let section = collector.section(ofOffset: link.offset)
            let tag = MetaTag(key: link.rel, content: resolver.resolve(link.href), attribute: .rel, line: link.line, section: section)
            if rels.contains("canonical") { page.canonicals.append(tag) }
            if rels.contains("apple-touch-icon") || rels.contains("apple-touch-icon-precomposed") { page.touchIcons.append(tag) }
        }
    }

    private func parseJSONLD(
        _ script: MarkupCollector.ScriptRecord, section: DocumentSection, diagnostics: inout [ExtractionDiagnostic]
    ) -> JSONLDScript {
        let result = JSONParser.parse(script.bytes, lenient: true)
        // Diagnostics are relative to the script body, which starts on the script tag's line.
        let shifted = result.diagnostics.map { diagnostic in
            var diagnostic = diagnostic
            diagnostic.line += script.line - 1
            return diagnostic
        }
        if result.value == nil {
            let failure = result.failure.map { failure in
                var failure = failure
                failure.line += script.line - 1
                return failure
            }
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
                        message: "JSON-LD script at line \(script.line) is not valid JSON: \(diagnostic.reason) (recovered)"))
            }
        }
        return JSONLDScript(line: script.line, section: section, value: result.value, diagnostics: shifted)
    }

    static func hasByteOrderMark(_ bytes: UnsafeRawBufferPointer) -> Bool {
        (bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF)
            || (bytes.count >= 2 && ((bytes[0] == 0xFF && bytes[1] == 0xFE) || (bytes[0] == 0xFE && bytes[1] == 0xFF)))
    }

    /// True when `bytes` contain at least one non-ASCII byte and are entirely valid UTF-8.
    static func isNonASCIIUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        let count = bytes.count
        var sawNonASCII = false
        while index < count {
            // ASCII fast path, eight bytes at a time.
            if index + 8 <= count, bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
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
            default: return false
            }
            guard index + length <= count else { return false }
            for offset in 1..<length where bytes[index + offset] & 0xC0 != 0x80 { return false }
            let second = bytes[index + 1]
            if lead == 0xE0 && second < 0xA0 || lead == 0xED && second > 0x9F || lead == 0xF0 && second < 0x90 || lead == 0xF4 && second > 0x8F {
                return false
            }
            index += length
        }
        return sawNonASCII
    }

    /// The offset of the source's first `<body` start tag (ASCII case-insensitive), skipping
    /// comments; nil when the page has none.
    static func bodyTagOffset(in bytes: UnsafeRawBufferPointer) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        let count = bytes.count
        var index = 0
        while index + 5 <= count {
            guard let found = memchr(base + index, Int32(UInt8(ascii: "<")), count - index) else { return nil }
            index = base.distance(to: UnsafeRawPointer(found))
            guard index + 5 <= count else { return nil }
            if bytes[index + 1] == UInt8(ascii: "!"), bytes[index + 2] == UInt8(ascii: "-"), bytes[index + 3] == UInt8(ascii: "-") {
                // Skip the comment.
                var end = index + 4
                while end + 3 <= count,
                    !(bytes[end] == UInt8(ascii: "-") && bytes[end + 1] == UInt8(ascii: "-") && bytes[end + 2] == UInt8(ascii: ">"))
                {
                    end += 1
                }
                index = end + 3
                continue
            }
            if bytes[index + 1] | 0x20 == UInt8(ascii: "b"), bytes[index + 2] | 0x20 == UInt8(ascii: "o"),
                bytes[index + 3] | 0x20 == UInt8(ascii: "d"), bytes[index + 4] | 0x20 == UInt8(ascii: "y")
            {
                let next = index + 5 < count ? bytes[index + 5] : UInt8(ascii: ">")
                if next == UInt8(ascii: ">") || next == UInt8(ascii: "/") || next == 0x20 || next == 0x09 || next == 0x0A
                    || next == 0x0D || next == 0x0C
                {
                    return index
                }
            }
            index += 1
        }
        return nil
    }
}
