/// Where the encoding a page is decoded with came from.
public enum EncodingSource: String, Sendable, Hashable, Codable {
    /// A byte order mark at the start of the bytes.
    case byteOrderMark = "byte-order-mark"
    /// A charset given from outside the page: the HTTP `Content-Type` charset, or `--encoding`.
    case transport
    /// A `<meta charset>` (or `http-equiv` content type) in the first 1,024 bytes.
    case meta
    /// A `<meta charset>` (or `http-equiv` content type) the parser met that names another
    /// encoding than the one decided before parsing, which was only tentative (no BOM, no
    /// transport charset): HTML's "change the encoding" (§13.2.3.4); the page is decoded again
    /// with it. Typically a declaration past the first 1,024 bytes.
    case metaChange = "meta-change"
    /// No declaration, and the bytes are valid UTF-8 with non-ASCII characters.
    case utf8Sniffing = "utf8-sniffing"
    /// No declaration: windows-1252, the standard's default for an unknown locale.
    case defaultEncoding = "default"
}

/// How a page's encoding was decided, as HTML §13.2.3.2 ("determining the character encoding")
/// orders it: a BOM, then the transport layer's charset, then the `<meta>` prescan of the first
/// 1,024 bytes, then a guess.
struct EncodingDecision {
    var encoding: TextEncoding
    var source: EncodingSource
    /// The label as the page or the header wrote it (`gb2312`), for a transport or meta source.
    var label: String?
    /// The line of the `<meta>` that declared it; 0 otherwise.
    var line = 0
    /// Bytes of the BOM, which are not decoded.
    var byteOrderMarkLength = 0
    /// Labels that name no encoding the standard knows (`utf-7`, `x-no-such-charset`) or only its
    /// replacement decoder, and were passed over, with where they were written.
    var ignoredLabels: [(label: String, source: EncodingSource, line: Int)] = []

    /// HTML's confidence: "tentative" unless a BOM or the transport layer decided (or the parser
    /// already changed it once); a `<meta>` the parser meets may then change the encoding.
    var isTentative: Bool {
        switch source {
        case .byteOrderMark, .transport, .metaChange: false
        case .meta, .utf8Sniffing, .defaultEncoding: true
        }
    }

    /// HTML's "change the encoding" (§13.2.3.4) for the first `<meta>` the parser met whose
    /// `charset` (or content type) names an encoding: the decision to decode with instead, or nil
    /// when the confidence is certain or it names the encoding already used (the confidence then
    /// becomes certain). UTF-16 becomes UTF-8 and x-user-defined windows-1252, as there.
    func changed(by declaration: (label: String, line: Int)) -> EncodingDecision? {
        guard isTentative, encoding != .utf16LE, encoding != .utf16BE,
            var declared = MetaCharsetPrescan.usableEncoding(declaration.label)
        else { return nil }
        if declared == .utf16LE || declared == .utf16BE { declared = .utf8 }
        if declared == .xUserDefined { declared = .windows1252 }
        guard declared != encoding else { return nil }
        return EncodingDecision(
            encoding: declared, source: .metaChange, label: declaration.label, line: declaration.line,
            ignoredLabels: ignoredLabels)
    }

    /// `transportLabel` is the HTTP `Content-Type` charset (or `--encoding`), if any.
    static func decide(_ bytes: UnsafeRawBufferPointer, transportLabel: String?) -> EncodingDecision {
        if let (encoding, length) = byteOrderMark(bytes) {
            return EncodingDecision(encoding: encoding, source: .byteOrderMark, byteOrderMarkLength: length)
        }
        var ignored: [(label: String, source: EncodingSource, line: Int)] = []
        if let transportLabel {
            if let encoding = usable(TextEncoding(label: transportLabel)) {
                return EncodingDecision(encoding: encoding, source: .transport, label: transportLabel)
            }
            ignored.append((transportLabel, .transport, 0))
        }
        for declaration in MetaCharsetPrescan.declarations(bytes) {
            guard var encoding = usable(TextEncoding(label: declaration.label)) else {
                ignored.append((declaration.label, .meta, declaration.line))
                continue
            }
            // A page that says UTF-16 in its own ASCII bytes is not UTF-16 (HTML's prescan), but
            // for the UTF-16 patterns of an XML declaration.
            if encoding == .utf16LE || encoding == .utf16BE, !declaration.isUTF16Pattern { encoding = .utf8 }
            if encoding == .xUserDefined { encoding = .windows1252 }
            return EncodingDecision(
                encoding: encoding, source: .meta, label: declaration.label, line: declaration.line,
                ignoredLabels: ignored)
        }
        // Without a declaration, bytes that are valid UTF-8 and not plain ASCII are UTF-8, as the
        // UTF-8 detection browsers apply (HTML allows the user agent's own sniffing at this step)
        // and extruct decide; libxml2 alone would take them for ISO-8859-1.
        if MarkupExtractor.isNonASCIIUTF8(bytes) {
            return EncodingDecision(encoding: .utf8, source: .utf8Sniffing, ignoredLabels: ignored)
        }
        return EncodingDecision(encoding: .windows1252, source: .defaultEncoding, ignoredLabels: ignored)
    }

    /// The replacement encoding would turn the whole page into one U+FFFD: SpotCheck passes over
    /// such a label (and says so) instead.
    private static func usable(_ encoding: TextEncoding?) -> TextEncoding? {
        encoding == .replacement ? nil : encoding
    }

    private static func byteOrderMark(_ bytes: UnsafeRawBufferPointer) -> (TextEncoding, Int)? {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { return (.utf8, 3) }
        if bytes.count >= 2, bytes[0] == 0xFE, bytes[1] == 0xFF { return (.utf16BE, 2) }
        if bytes.count >= 2, bytes[0] == 0xFF, bytes[1] == 0xFE { return (.utf16LE, 2) }
        return nil
    }
}

/// HTML's "prescan a byte stream to determine its encoding" (§13.2.3.2) over the first 1,024
/// bytes, step for step: comments (`<!--` to the first `-->`, whose dashes may be the opening's),
/// `<meta>` tags read with "get an attribute" (each name once, values ASCII-lower-cased, quoted or
/// not), other tags' attributes read the same way so that a `<meta` inside a quoted value is
/// passed over, `<!`, `</`, `<?` to the next `>`; a `<meta>` declares with `charset`, or with
/// `content` ("extracting a character encoding from a meta element") beside
/// `http-equiv="content-type"`. Running out of bytes anywhere (a tag cut off at the end) ends the
/// prescan with "get an XML encoding". A label that names no encoding (or, SpotCheck's choice,
/// only the replacement decoder) is passed over, as the prescan passes over failure, and kept to
/// be reported.
enum MetaCharsetPrescan {
    /// The number of bytes HTML's prescan looks at.
    static let prescanLength = 1024

    struct Declaration {
        var label: String
        var line: Int
        /// From the UTF-16 patterns of an XML declaration (`<\0?\0x\0`): UTF-16 stays UTF-16 (a
        /// `<meta>` that says UTF-16 means UTF-8).
        var isUTF16Pattern = false
    }

    /// The declarations the prescan met, in order: each one whose label names no usable encoding,
    /// then the one that does (where the prescan stops), if any.
    static func declarations(_ bytes: UnsafeRawBufferPointer) -> [Declaration] {
        var prescan = Prescan(bytes: Array(bytes.prefix(prescanLength)))
        if prescan.run() { return prescan.found }
        // Out of bytes (the end of the 1,024, or of the page): "get an XML encoding".
        if let xml = xmlEncoding(prescan.bytes) { prescan.found.append(xml) }
        return prescan.found
    }

    /// An encoding SpotCheck decodes with, for a label.
    static func usableEncoding(_ label: String) -> TextEncoding? {
        guard let encoding = TextEncoding(label: label), encoding != .replacement else { return nil }
        return encoding
    }

    private struct Prescan {
        let bytes: [UInt8]
        var position = 0
        var found: [Declaration] = []

        init(bytes: [UInt8]) { self.bytes = bytes }

        private enum Attribute {
            case attribute(name: [UInt8], value: [UInt8])
            case none
            case outOfBytes
        }

        private static func isSpace(_ byte: UInt8) -> Bool {
            byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D || byte == 0x20
        }

        private static func isLetter(_ byte: UInt8) -> Bool {
            (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
        }

        private static func lowered(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte }

        private func starts(with literal: String, at index: Int) -> Bool {
            let utf8 = Array(literal.utf8)
            guard index + utf8.count <= bytes.count else { return false }
            return zip(bytes[index..<index + utf8.count], utf8).allSatisfy { Self.lowered($0) == $1 }
        }

        /// The loop. True when a usable declaration was found (the last of `found`); false when the
        /// bytes ran out.
        mutating func run() -> Bool {
            if bytes.starts(with: [0x3C, 0x00, 0x3F, 0x00, 0x78, 0x00]) {
                found.append(Declaration(label: "UTF-16LE", line: 1, isUTF16Pattern: true))
                return true
            }
            if bytes.starts(with: [0x00, 0x3C, 0x00, 0x3F, 0x00, 0x78]) {
                found.append(Declaration(label: "UTF-16BE", line: 1, isUTF16Pattern: true))
                return true
            }
            let lessThan = UInt8(ascii: "<"), greaterThan = UInt8(ascii: ">"), slash = UInt8(ascii: "/")
            while position < bytes.count {
                if bytes[position] == lessThan {
                    let next = position + 1 < bytes.count ? bytes[position + 1] : 0
                    if starts(with: "<!--", at: position) {
                        // The first '>' preceded by two '-', after the '<' ("<!-->" ends here).
                        var index = position + 4
                        while index < bytes.count,
                            !(bytes[index] == greaterThan && bytes[index - 1] == UInt8(ascii: "-")
                                && bytes[index - 2] == UInt8(ascii: "-"))
                        {
                            index += 1
                        }
                        guard index < bytes.count else { return false }
                        position = index
                    } else if starts(with: "<meta", at: position), position + 5 < bytes.count,
                        Self.isSpace(bytes[position + 5]) || bytes[position + 5] == slash
                    {
                        let tagStart = position
                        position += 6
                        switch meta(startingAt: tagStart) {
                        case .some(true): return true
                        case .some(false): break
                        case nil: return false
                        }
                    } else if Self.isLetter(next)
                        || (next == slash && position + 2 < bytes.count && Self.isLetter(bytes[position + 2]))
                    {
                        // Another tag: to the first white space or '>', then its attributes.
                        while position < bytes.count, !Self.isSpace(bytes[position]), bytes[position] != greaterThan {
                            position += 1
                        }
                        guard position < bytes.count else { return false }
                        attributes: while true {
                            switch attribute() {
                            case .outOfBytes: return false
                            case .none: break attributes
                            case .attribute: continue
                            }
                        }
                    } else if next == UInt8(ascii: "!") || next == slash || next == UInt8(ascii: "?") {
                        guard let end = bytes[(position + 1)...].firstIndex(of: greaterThan) else { return false }
                        position = end
                    }
                }
                position += 1
            }
            return false
        }

        /// A `<meta>` tag's attributes and the "processing" step: true when it declared a usable
        /// encoding, false when the scan goes on, nil when the bytes ran out.
        private mutating func meta(startingAt tagStart: Int) -> Bool? {
            var names: Set<[UInt8]> = []
            var gotPragma = false
            var needPragma: Bool?
            var charset: String?
            var charsetIsUsable = false
            var unusableContentLabel: String?
            attributes: while true {
                switch attribute() {
                case .outOfBytes: return nil
                case .none: break attributes
                case .attribute(let name, let value):
                    guard names.insert(name).inserted else { continue }
                    switch name {
                    case Array("http-equiv".utf8):
                        if value == Array("content-type".utf8) { gotPragma = true }
                    case Array("content".utf8):
                        guard charset == nil, let label = MetaCharsetPrescan.charset(inContent: value) else { break }
                        if MetaCharsetPrescan.usableEncoding(label) != nil {
                            charset = label
                            charsetIsUsable = true
                            needPragma = true
                        } else {
                            unusableContentLabel = label
                        }
                    case Array("charset".utf8):
                        let label = String(decoding: value, as: UTF8.self)
                        charset = label
                        charsetIsUsable = MetaCharsetPrescan.usableEncoding(label) != nil
                        needPragma = false
                    default:
                        break
                    }
                }
            }
            let line = bytes[..<tagStart].reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
            guard let needPragma else {
                if gotPragma, let label = unusableContentLabel?.trimmingASCIIWhitespace(), !label.isEmpty {
                    found.append(Declaration(label: label, line: line))
                }
                return false
            }
            if needPragma, !gotPragma { return false }
            guard let label = charset?.trimmingASCIIWhitespace() else { return false }
            guard charsetIsUsable else {
                if !label.isEmpty { found.append(Declaration(label: label, line: line)) }
                return false
            }
            found.append(Declaration(label: label, line: line))
            return true
        }

        /// HTML's "get an attribute" (§13.2.3.2), from `position`.
        private mutating func attribute() -> Attribute {
            let equals = UInt8(ascii: "="), greaterThan = UInt8(ascii: ">"), slash = UInt8(ascii: "/")
            while position < bytes.count, Self.isSpace(bytes[position]) || bytes[position] == slash { position += 1 }
            guard position < bytes.count else { return .outOfBytes }
            if bytes[position] == greaterThan { return .none }
            var name: [UInt8] = []
            var value: [UInt8] = []
            var sawEquals = false
            nameLoop: while true {
                guard position < bytes.count else { return .outOfBytes }
                let byte = bytes[position]
                if byte == equals, !name.isEmpty {
                    position += 1
                    sawEquals = true
                    break nameLoop
                }
                if Self.isSpace(byte) { break nameLoop }
                if byte == slash || byte == greaterThan { return .attribute(name: name, value: []) }
                name.append(Self.lowered(byte))
                position += 1
            }
            if !sawEquals {
                // Spaces, then '=' or the attribute ends without a value.
                while position < bytes.count, Self.isSpace(bytes[position]) { position += 1 }
                guard position < bytes.count else { return .outOfBytes }
                guard bytes[position] == equals else { return .attribute(name: name, value: []) }
                position += 1
            }
            // Value.
            while position < bytes.count, Self.isSpace(bytes[position]) { position += 1 }
            guard position < bytes.count else { return .outOfBytes }
            let first = bytes[position]
            if first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") {
                while true {
                    position += 1
                    guard position < bytes.count else { return .outOfBytes }
                    if bytes[position] == first {
                        position += 1
                        return .attribute(name: name, value: value)
                    }
                    value.append(Self.lowered(bytes[position]))
                }
            }
            if first == greaterThan { return .attribute(name: name, value: []) }
            value.append(Self.lowered(first))
            position += 1
            while true {
                guard position < bytes.count else { return .outOfBytes }
                let byte = bytes[position]
                if Self.isSpace(byte) || byte == greaterThan { return .attribute(name: name, value: value) }
                value.append(Self.lowered(byte))
                position += 1
            }
        }
    }

    /// HTML's "get an XML encoding": the `encoding` of an XML declaration that opens the bytes,
    /// when the prescan found no `<meta>`.
    static func xmlEncoding(_ bytes: [UInt8]) -> Declaration? {
        guard bytes.starts(with: Array("<?xml".utf8)), let end = bytes.firstIndex(of: UInt8(ascii: ">")) else {
            return nil
        }
        let word = Array("encoding".utf8)
        var index = 0
        while index + word.count <= end {
            if zip(bytes[index..<index + word.count], word).allSatisfy({ ($0 | 0x20) == $1 }) { break }
            index += 1
        }
        guard index + word.count <= end else { return nil }
        index += word.count
        while index < bytes.count, bytes[index] <= 0x20 { index += 1 }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else { return nil }
        index += 1
        while index < bytes.count, bytes[index] <= 0x20 { index += 1 }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else {
            return nil
        }
        let quote = bytes[index]
        index += 1
        guard let close = bytes[index...].firstIndex(of: quote) else { return nil }
        let label = bytes[index..<close]
        guard !label.contains(where: { $0 <= 0x20 }) else { return nil }
        return Declaration(label: String(decoding: label, as: UTF8.self), line: 1)
    }

    /// HTML's "extracting a character encoding from a meta element": the value after `charset`,
    /// optional white space and `=` in a `content` attribute, unquoted or quoted (the value's bytes
    /// are lower-cased already).
    static func charset(inContent value: [UInt8]) -> String? {
        let charset = Array("charset".utf8)
        var index = 0
        while index + charset.count <= value.count {
            guard value[index..<index + charset.count].elementsEqual(charset) else {
                index += 1
                continue
            }
            var position = index + charset.count
            while position < value.count, [0x09, 0x0A, 0x0C, 0x0D, 0x20].contains(value[position]) { position += 1 }
            guard position < value.count, value[position] == UInt8(ascii: "=") else {
                index = position
                continue
            }
            position += 1
            while position < value.count, [0x09, 0x0A, 0x0C, 0x0D, 0x20].contains(value[position]) { position += 1 }
            guard position < value.count else { return nil }
            if value[position] == UInt8(ascii: "\"") || value[position] == UInt8(ascii: "'") {
                let quote = value[position]
                guard let close = value[(position + 1)...].firstIndex(of: quote) else { return nil }
                return String(decoding: value[(position + 1)..<close], as: UTF8.self)
            }
            let end =
                value[position...].firstIndex { [0x09, 0x0A, 0x0C, 0x0D, 0x20, 0x3B].contains($0) } ?? value.count
            return String(decoding: value[position..<end], as: UTF8.self)
        }
        return nil
    }
}
