internal import CHTMLScanner

/// Streams XML through libxml2 with safe options (no entity substitution or loading, no DTD
/// loading, no XInclude, no network): the only code in this module that talks to the C scanner.
final class XMLEventCollector {
    struct Report {
        var wellFormed: Bool
        var hasDoctype: Bool
        var errorLine: Int
        var errorMessage: String
        /// Start tags with more than `maximumAttributes` attributes (the rest were not parsed).
        var cappedElements = 0
        var cappedFirstLine = 0
    }

    /// The attributes of one start tag libxml2 is given (its duplicate check is quadratic).
    static let maximumAttributes = Int(SC_MAXIMUM_ATTRIBUTES)

    var onStart: (_ localName: String, _ namespace: String?, _ line: Int) -> Void = { _, _, _ in }
    var onEnd: (_ localName: String) -> Void = { _ in }
    var onCharacters: (_ bytes: UnsafeBufferPointer<UInt8>) -> Void = { _ in }

    func scan(_ bytes: [UInt8]) -> Report? {
        var report = sc_xml_report()
        var callbacks = sc_xml_callbacks(
            context: Unmanaged.passUnretained(self).toOpaque(),
            start: { context, name, namespace, line in
                let collector = Unmanaged<XMLEventCollector>.fromOpaque(context!).takeUnretainedValue()
                collector.onStart(String(cString: name), namespace.map { String(cString: $0) }, Int(line))
            },
            end: { context, name in
                let collector = Unmanaged<XMLEventCollector>.fromOpaque(context!).takeUnretainedValue()
                collector.onEnd(String(cString: name))
            },
            characters: { context, bytes, length in
                let collector = Unmanaged<XMLEventCollector>.fromOpaque(context!).takeUnretainedValue()
                collector.onCharacters(UnsafeBufferPointer(start: bytes, count: Int(length)))
            }
        )
        withExtendedLifetime(self) {
            bytes.withUnsafeBytes { raw in
                let empty: [CChar] = [0]
                empty.withUnsafeBufferPointer { fallback in
                    let start = raw.baseAddress?.assumingMemoryBound(to: CChar.self) ?? fallback.baseAddress!
                    sc_scan_xml(start, raw.count, &callbacks, &report)
                }
            }
        }
        guard report.status == 0 else { return nil }
        let message = withUnsafeBytes(of: report.errorMessage) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        return Report(
            wellFormed: report.wellFormed != 0, hasDoctype: report.hasDoctype != 0, errorLine: Int(report.errorLine),
            errorMessage: message, cappedElements: report.cappedElements, cappedFirstLine: report.cappedFirstLine)
    }
}
