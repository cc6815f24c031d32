/// Where the encoding a page is decoded with came from.
public enum EncodingSource: String, Sendable, Hashable {
    /// A byte order mark at the start of the bytes.
    case byteOrderMark = "byte-order-mark"
    /// A charset given from outside the page: the HTTP `Content-Type` charset, or `--encoding`.
    case transport
    /// A `<meta charset>` (or `http-equiv` content type) in the first 1,024 bytes.
    case meta
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
            // A page that says UTF-16 in its own ASCII bytes is not UTF-16 (HTML's prescan).
            if encoding == .utf16LE || encoding == .utf16BE { encoding = .utf8 }
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

/// The charset labels `<meta>` tags declare in the first 1,024 bytes, in order, found on the
/// bytes (ASCII case-folded) without decoding them: `<meta charset=…>` or a content type's
/// `charset=`; comments are skipped.
enum MetaCharsetPrescan {
    /// The number of bytes HTML's prescan looks at.
    static let prescanLength = 1024

    struct Declaration {
        var label: String
        var line: Int
    }

    static func declarations(_ bytes: UnsafeRawBufferPointer) -> [Declaration] {
        let prefix = bytes.prefix(prescanLength).map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
        let meta = Array("<meta".utf8)
        let charset = Array("charset".utf8)
        func find(_ needle: [UInt8], from start: Int, to end: Int) -> Int? {
            guard end - start >= needle.count else { return nil }
            var index = start
            while index <= end - needle.count {
                if prefix[index] == needle[0], prefix[index..<index + needle.count].elementsEqual(needle) {
                    return index
                }
                index += 1
            }
            return nil
        }
        var found: [Declaration] = []
        var index = 0
        while index < prefix.count {
            guard prefix[index] == UInt8(ascii: "<") else {
                index += 1
                continue
            }
            if prefix[index...].starts(with: "<!--".utf8) {
                // A comment ends at the first "-->" whose "--" may be the opening's own ("<!-->").
                index = (find(Array("-->".utf8), from: index + 2, to: prefix.count)).map { $0 + 3 } ?? prefix.count
                continue
            }
            let afterName = index + meta.count
            guard prefix[index...].starts(with: meta), afterName < prefix.count,
                [0x09, 0x0A, 0x0C, 0x0D, 0x20, 0x2F].contains(prefix[afterName])
            else {
                index += 1
                continue
            }
            // HTML's prescan: the tag's attributes, then `charset=…`, or `content=…; charset=…`
            // with `http-equiv="content-type"`. A "charset" inside another attribute's value
            // (`content="Convert charset latin1"` on a description) declares nothing.
            let (attributes, tagEnd) = Self.attributes(prefix, from: afterName)
            var pragma = false
            var label: String?
            var fromCharsetAttribute = false
            for (name, value) in attributes {
                switch name {
                case "http-equiv": pragma = pragma || value == Array("content-type".utf8)
                case "charset" where !fromCharsetAttribute:
                    label = String(decoding: value, as: UTF8.self).trimmingASCIIWhitespace()
                    fromCharsetAttribute = true
                case "content" where label == nil:
                    label = Self.charset(inContent: value, charset: charset)
                default: break
                }
            }
            if let label, !label.isEmpty, fromCharsetAttribute || pragma {
                let line = prefix[..<index].reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
                found.append(Declaration(label: label, line: line))
            }
            index = tagEnd
        }
        return found
    }

    /// The attributes of a tag from `start` (just after its name) to its `>` outside quotes, as
    /// HTML's prescan reads them: names lower-cased (the bytes already are), values unquoted;
    /// and where the tag ends.
    static func attributes(_ bytes: [UInt8], from start: Int) -> (attributes: [(String, [UInt8])], end: Int) {
        let space: Set<UInt8> = [0x09, 0x0A, 0x0C, 0x0D, 0x20]
        var attributes: [(String, [UInt8])] = []
        var index = start
        while index < bytes.count {
            while index < bytes.count, space.contains(bytes[index]) || bytes[index] == UInt8(ascii: "/") { index += 1 }
            guard index < bytes.count, bytes[index] != UInt8(ascii: ">") else { break }
            let nameStart = index
            while index < bytes.count, !space.contains(bytes[index]),
                ![UInt8(ascii: "="), UInt8(ascii: ">"), UInt8(ascii: "/")].contains(bytes[index]) || index == nameStart
            {
                index += 1
            }
            let name = String(decoding: bytes[nameStart..<index], as: UTF8.self)
            while index < bytes.count, space.contains(bytes[index]) { index += 1 }
            guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else {
                attributes.append((name, []))
                continue
            }
            index += 1
            while index < bytes.count, space.contains(bytes[index]) { index += 1 }
            guard index < bytes.count else { break }
            let value: ArraySlice<UInt8>
            if bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") {
                let quote = bytes[index]
                let valueEnd = bytes[(index + 1)...].firstIndex(of: quote) ?? bytes.count
                value = bytes[(index + 1)..<valueEnd]
                index = min(valueEnd + 1, bytes.count)
            } else {
                let valueStart = index
                while index < bytes.count, !space.contains(bytes[index]), bytes[index] != UInt8(ascii: ">") {
                    index += 1
                }
                value = bytes[valueStart..<index]
            }
            attributes.append((name, Array(value)))
        }
        return (attributes, min(index + 1, bytes.count))
    }

    /// HTML's "extracting a character encoding from a meta element": the value after `charset`,
    /// optional white space and `=` in a `content` attribute, unquoted or quoted.
    static func charset(inContent value: [UInt8], charset: [UInt8]) -> String? {
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
