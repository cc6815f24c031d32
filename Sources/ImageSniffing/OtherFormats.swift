// Formats recognised without a pixel size: TIFF, AVIF and HEIC (ISO base media files), and SVG (text).

extension ImageHeader {
    // MARK: TIFF

    /// TIFF: byte order `II` (little-endian) or `MM` (big-endian), then 42 (classic) or 43 (BigTIFF).
    static func sniffTIFF(_ bytes: ByteView) -> ImageHeader? {
        let signatures: [[UInt8]] = [
            [0x49, 0x49, 0x2A, 0x00], [0x4D, 0x4D, 0x00, 0x2A], [0x49, 0x49, 0x2B, 0x00], [0x4D, 0x4D, 0x00, 0x2B],
        ]
        guard signatures.contains(where: { bytes.matches($0, at: 0) }) else { return nil }
        return unsized(.tiff, truncated: false)
    }

    // MARK: AVIF and HEIC

    static let avifBrands: Set<String> = ["avif", "avis"]
    static let heicBrands: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs", "heif"]
    /// Brands of any HEIF image (`mif1`, `mif2`) or image sequence (`msf1`), whatever its codec.
    static let heifBrands: Set<String> = ["mif1", "mif2", "msf1"]

    /// AVIF and HEIC: an ISO base media file whose first box is `ftyp`. The major brand decides when it is
    /// specific (`avif`, `heic`, …); otherwise the compatible brands inside the box do, AVIF first, and a file
    /// that is only a generic HEIF image (`mif1`) counts as HEIC. Other brands (video `isom`, `mp42`, …) are no
    /// image.
    static func sniffISOBMFF(_ bytes: ByteView) -> ImageHeader? {
        guard bytes.matches(ascii: "ftyp", at: 4), let major = brand(bytes, at: 8) else { return nil }
        if avifBrands.contains(major) { return unsized(.avif, truncated: false) }
        if heicBrands.contains(major) { return unsized(.heic, truncated: false) }
        // Compatible brands run from offset 16 to the end of the box (capped by the buffer).
        let boxSize = bytes.be32(0).map { Int(clamping: $0) } ?? 0
        var compatible: [String] = []
        var offset = 16
        while offset < min(boxSize, bytes.count, 4096), let next = brand(bytes, at: offset) {
            compatible.append(next)
            offset += 4
        }
        if compatible.contains(where: avifBrands.contains) { return unsized(.avif, truncated: false) }
        if compatible.contains(where: heicBrands.contains) { return unsized(.heic, truncated: false) }
        if heifBrands.contains(major) || compatible.contains(where: heifBrands.contains) {
            return unsized(.heic, truncated: false)
        }
        return nil
    }

    /// A four-character code at `offset`, when its bytes are printable ASCII.
    static func brand(_ bytes: ByteView, at offset: Int) -> String? {
        guard bytes.contains(4, at: offset) else { return nil }
        var code = ""
        for index in offset..<offset + 4 {
            guard let byte = bytes.u8(index), (0x20...0x7E).contains(byte) else { return nil }
            code.unicodeScalars.append(Unicode.Scalar(byte))
        }
        return code
    }

    // MARK: SVG

    /// How far into a file the SVG sniffer looks for the root element.
    static let svgScanLimit = 16 * 1024

    /// SVG: after an optional UTF-8 byte order mark, whitespace, an XML declaration or other processing
    /// instructions, comments and a doctype (with an internal subset), the first element is `<svg` (ASCII
    /// case-insensitively, or `<svg:svg`), all within the first ``svgScanLimit`` bytes.
    static func sniffSVG(_ bytes: ByteView) -> ImageHeader? {
        let limit = min(bytes.count, svgScanLimit)
        var offset = bytes.matches([0xEF, 0xBB, 0xBF], at: 0) ? 3 : 0
        func at(_ text: String) -> Bool { matchesCaseInsensitive(bytes, text, at: offset, limit: limit) }
        // Every pass moves `offset` forward, so the loop ends within `limit` passes.
        while offset < limit {
            guard let byte = bytes.u8(offset) else { return nil }
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                offset += 1
            } else if at("<?") {
                guard let end = find(bytes, "?>", from: offset + 2, limit: limit) else { return nil }
                offset = end
            } else if at("<!--") {
                guard let end = find(bytes, "-->", from: offset + 4, limit: limit) else { return nil }
                offset = end
            } else if at("<!doctype") {
                guard let end = endOfDoctype(bytes, from: offset + 9, limit: limit) else { return nil }
                offset = end
            } else if at("<svg") {
                // The name must end here: `<svgfoo>` is another element.
                guard let next = bytes.u8(offset + 4), offset + 4 < limit else {
                    return unsized(.svg, truncated: false)
                }
                let endsName = [0x20, 0x09, 0x0A, 0x0D, 0x3E, 0x2F, 0x3A].contains(next)  // space … > / :
                return endsName ? unsized(.svg, truncated: false) : nil
            } else {
                return nil
            }
        }
        return nil
    }

    /// The offset just after the first `needle` at or after `start` that ends before `limit`.
    static func find(_ bytes: ByteView, _ needle: String, from start: Int, limit: Int) -> Int? {
        let pattern = Array(needle.utf8)
        var offset = start
        while offset < limit, pattern.count <= limit - offset {
            if bytes.matches(pattern, at: offset) { return offset + pattern.count }
            offset += 1
        }
        return nil
    }

    /// The offset just after the `>` closing a doctype, skipping an internal subset in `[` … `]`.
    static func endOfDoctype(_ bytes: ByteView, from start: Int, limit: Int) -> Int? {
        var inSubset = false
        var offset = start
        while offset < limit, let byte = bytes.u8(offset) {
            switch byte {
            case UInt8(ascii: "["): inSubset = true
            case UInt8(ascii: "]"): inSubset = false
            case UInt8(ascii: ">") where !inSubset: return offset + 1
            default: break
            }
            offset += 1
        }
        return nil
    }

    /// Whether the ASCII `text` (lowercase) is at `offset`, ignoring ASCII case, before `limit`.
    static func matchesCaseInsensitive(_ bytes: ByteView, _ text: String, at offset: Int, limit: Int) -> Bool {
        var index = offset
        for expected in text.utf8 {
            guard index < limit, let byte = bytes.u8(index) else { return false }
            let lowered = (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
            guard lowered == expected else { return false }
            index += 1
        }
        return true
    }
}
