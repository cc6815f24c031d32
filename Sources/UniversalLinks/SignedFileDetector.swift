/// Recognises a CMS (PKCS #7) `SignedData` file, the iOS 8/9-era signed AASA form (§3.1, UL008), and extracts
/// the JSON it carries. Reads DER and the BER forms `openssl smime` writes (indefinite lengths, chunked
/// `OCTET STRING`s); anything else is "signed, content not extracted". Never traps, never recurses deeply.
enum SignedFileDetector {
    /// The DER encoding of OID 1.2.840.113549.1.7.2 (`id-signedData`) with its tag and length.
    private static let signedDataOID: [UInt8] = [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]
    private static let maximumDepth = 16

    /// Whether `bytes` start with an ASN.1 `SEQUENCE` whose first bytes hold the `signedData` OID.
    static func looksSigned(_ bytes: [UInt8]) -> Bool {
        guard bytes.first == 0x30 else { return false }
        let head = bytes.prefix(32)
        guard head.count >= signedDataOID.count else { return false }
        for start in head.indices where head[start...].starts(with: signedDataOID) {
            return true
        }
        return false
    }

    /// The `encapContentInfo.eContent` octets of a `SignedData` file, or `nil`.
    static func embeddedContent(_ bytes: [UInt8]) -> [UInt8]? {
        let reader = BERReader(bytes: bytes)
        // ContentInfo ::= SEQUENCE { contentType OID, content [0] EXPLICIT SignedData }
        guard let contentInfo = reader.element(at: 0), contentInfo.tag == 0x30,
            let children = reader.children(of: contentInfo, depth: 0), children.count >= 2, children[1].tag == 0xA0,
            let explicit = reader.children(of: children[1], depth: 1), let signedData = explicit.first,
            signedData.tag == 0x30,
            // SignedData ::= SEQUENCE { version, digestAlgorithms SET, encapContentInfo SEQUENCE, … }
            let signedChildren = reader.children(of: signedData, depth: 2), signedChildren.count >= 3,
            signedChildren[2].tag == 0x30,
            let encapsulated = reader.children(of: signedChildren[2], depth: 3), encapsulated.count >= 2,
            encapsulated[1].tag == 0xA0,
            let wrapped = reader.children(of: encapsulated[1], depth: 4), let octets = wrapped.first
        else { return nil }
        return reader.octets(of: octets, depth: 5)
    }

    /// One BER element: tag byte, where its content starts, and where it ends (after any end-of-contents).
    struct Element {
        var tag: UInt8
        var contentStart: Int
        /// End of the content (exclusive), before the end-of-contents octets for indefinite lengths.
        var contentEnd: Int
        /// End of the whole element (exclusive).
        var end: Int
        var isConstructed: Bool { tag & 0x20 != 0 }
    }

    struct BERReader {
        let bytes: [UInt8]

        /// The element starting at `offset` (low-tag-number form only).
        func element(at offset: Int, depth: Int = 0) -> Element? {
            guard depth <= SignedFileDetector.maximumDepth, offset + 1 < bytes.count else { return nil }
            let tag = bytes[offset]
            guard tag & 0x1F != 0x1F else { return nil }
            let first = bytes[offset + 1]
            var cursor = offset + 2
            if first == 0x80 {
                guard tag & 0x20 != 0 else { return nil }
                // Indefinite length: children until 00 00.
                var child = cursor
                while true {
                    guard child + 1 < bytes.count else { return nil }
                    if bytes[child] == 0, bytes[child + 1] == 0 {
                        return Element(tag: tag, contentStart: cursor, contentEnd: child, end: child + 2)
                    }
                    guard let inner = element(at: child, depth: depth + 1) else { return nil }
                    child = inner.end
                }
            }
            var length = 0
            if first & 0x80 == 0 {
                length = Int(first)
            } else {
                let count = Int(first & 0x7F)
                guard count <= 4, cursor + count <= bytes.count else { return nil }
                for byte in bytes[cursor..<(cursor + count)] {
                    length = length << 8 | Int(byte)
                }
                cursor += count
            }
            guard length <= bytes.count - cursor else { return nil }
            return Element(tag: tag, contentStart: cursor, contentEnd: cursor + length, end: cursor + length)
        }

        func children(of parent: Element, depth: Int) -> [Element]? {
            guard parent.isConstructed else { return nil }
            var result: [Element] = []
            var cursor = parent.contentStart
            while cursor < parent.contentEnd {
                guard let child = element(at: cursor, depth: depth + 1), child.end <= parent.contentEnd else {
                    return nil
                }
                result.append(child)
                cursor = child.end
            }
            return result
        }

        /// The bytes of an `OCTET STRING`, primitive or constructed from chunks.
        func octets(of element: Element, depth: Int) -> [UInt8]? {
            if element.tag == 0x04 {
                return Array(bytes[element.contentStart..<element.contentEnd])
            }
            guard element.tag == 0x24, depth <= SignedFileDetector.maximumDepth,
                let chunks = children(of: element, depth: depth)
            else { return nil }
            var output: [UInt8] = []
            for chunk in chunks {
                guard let part = octets(of: chunk, depth: depth + 1) else { return nil }
                output += part
            }
            return output
        }
    }
}
