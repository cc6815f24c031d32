// Formats whose first bytes carry the pixel size: PNG, JPEG, GIF, WebP, BMP and ICO.

extension ImageHeader {
    /// A header with unknown dimensions; `truncated` says whether the buffer ended before them.
    static func unsized(_ format: ImageFormat, truncated: Bool) -> ImageHeader {
        ImageHeader(format: format, width: nil, height: nil, dimensionsNeedMoreBytes: truncated)
    }

    /// A 32-bit size field as an `Int`, nil when above `Int32.max` (no format here allows that).
    static func size(_ value: UInt32?) -> Int? {
        guard let value, value <= UInt32(Int32.max) else { return nil }
        return Int(value)
    }

    // MARK: PNG

    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// PNG: the 8-byte signature, then the IHDR chunk (length 13) holding big-endian width and height.
    /// Apple's "crushed" iOS PNGs put a 4-byte CgBI chunk before IHDR.
    static func sniffPNG(_ bytes: ByteView) -> ImageHeader? {
        guard bytes.matches(pngSignature, at: 0) else { return nil }
        var chunk = 8
        if bytes.matches(ascii: "CgBI", at: chunk + 4), bytes.be32(chunk) == 4 {
            chunk += 4 + 4 + 4 + 4  // length, type, data, CRC
        }
        guard bytes.contains(16, at: chunk) else { return unsized(.png, truncated: true) }
        guard bytes.matches(ascii: "IHDR", at: chunk + 4), bytes.be32(chunk) == 13 else {
            return unsized(.png, truncated: false)
        }
        return ImageHeader(format: .png, width: size(bytes.be32(chunk + 8)), height: size(bytes.be32(chunk + 12)))
    }

    // MARK: JPEG

    /// JPEG: walks the marker segments from SOI to the first start-of-frame marker (SOF0–SOF15 but DHT `C4`,
    /// JPG `C8` and DAC `CC`), whose segment holds precision, height and width. Fill bytes (`FF` runs) and
    /// standalone markers (TEM, RST0–7, a repeated SOI) are skipped. A start of scan or end of image before any
    /// frame, a segment length below 2 or a missing marker prefix ends the walk without dimensions; the buffer
    /// ending first says more bytes are needed.
    static func sniffJPEG(_ bytes: ByteView) -> ImageHeader? {
        guard bytes.matches([0xFF, 0xD8, 0xFF], at: 0) else { return nil }
        var offset = 2
        // Each pass moves `offset` forward by at least one byte, so the walk ends within `bytes.count` passes.
        while true {
            guard let prefix = bytes.u8(offset) else { return unsized(.jpeg, truncated: true) }
            guard prefix == 0xFF else { return unsized(.jpeg, truncated: false) }
            var markerOffset = offset + 1
            while bytes.u8(markerOffset) == 0xFF { markerOffset += 1 }  // fill bytes
            guard let marker = bytes.u8(markerOffset) else { return unsized(.jpeg, truncated: true) }
            switch marker {
            case 0x01, 0xD0...0xD8:  // TEM, RST0–7, SOI: no length, no payload
                offset = markerOffset + 1
                continue
            case 0x00, 0xD9, 0xDA:  // stuffed zero outside a scan, EOI, SOS before any frame
                return unsized(.jpeg, truncated: false)
            default:
                break
            }
            guard let length = bytes.be16(markerOffset + 1) else { return unsized(.jpeg, truncated: true) }
            guard length >= 2 else { return unsized(.jpeg, truncated: false) }
            let isFrame = (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
            if isFrame {
                // length (2), sample precision (1), number of lines (2), samples per line (2)
                guard length >= 7 else { return unsized(.jpeg, truncated: false) }
                guard let height = bytes.be16(markerOffset + 4), let width = bytes.be16(markerOffset + 6) else {
                    return unsized(.jpeg, truncated: true)
                }
                return ImageHeader(format: .jpeg, width: width, height: height)
            }
            // `markerOffset` ≤ count and `length` ≤ 65535, so this cannot overflow.
            offset = markerOffset + 1 + length
        }
    }

    // MARK: GIF

    /// GIF: `GIF87a` or `GIF89a`, then the logical screen width and height (little-endian 16-bit).
    static func sniffGIF(_ bytes: ByteView) -> ImageHeader? {
        guard bytes.matches(ascii: "GIF87a", at: 0) || bytes.matches(ascii: "GIF89a", at: 0) else { return nil }
        guard let width = bytes.le16(6), let height = bytes.le16(8) else { return unsized(.gif, truncated: true) }
        return ImageHeader(format: .gif, width: width, height: height)
    }

    // MARK: WebP

    /// WebP: a RIFF container of form `WEBP` whose first chunk is `VP8 ` (lossy: a key frame's start code
    /// `9D 01 2A`, then 14-bit width and height), `VP8L` (lossless: signature `2F`, then 14-bit width − 1 and
    /// height − 1) or `VP8X` (extended: 24-bit canvas width − 1 and height − 1).
    static func sniffWebP(_ bytes: ByteView) -> ImageHeader? {
        guard bytes.matches(ascii: "RIFF", at: 0), bytes.matches(ascii: "WEBP", at: 8) else { return nil }
        guard bytes.contains(4, at: 12) else { return unsized(.webp, truncated: true) }
        let data = 20  // after the chunk's FourCC and 32-bit size
        if bytes.matches(ascii: "VP8 ", at: 12) {
            guard bytes.contains(10, at: data) else { return unsized(.webp, truncated: true) }
            guard let tag = bytes.u8(data), tag & 1 == 0, bytes.matches([0x9D, 0x01, 0x2A], at: data + 3),
                let width = bytes.le16(data + 6), let height = bytes.le16(data + 8)
            else { return unsized(.webp, truncated: false) }
            return ImageHeader(format: .webp, width: width & 0x3FFF, height: height & 0x3FFF)
        }
        if bytes.matches(ascii: "VP8L", at: 12) {
            guard bytes.contains(5, at: data) else { return unsized(.webp, truncated: true) }
            guard bytes.u8(data) == 0x2F, let bits = bytes.le32(data + 1) else {
                return unsized(.webp, truncated: false)
            }
            return ImageHeader(format: .webp, width: Int(bits & 0x3FFF) + 1, height: Int(bits >> 14 & 0x3FFF) + 1)
        }
        if bytes.matches(ascii: "VP8X", at: 12) {
            guard let width = bytes.le24(data + 4), let height = bytes.le24(data + 7) else {
                return unsized(.webp, truncated: true)
            }
            return ImageHeader(format: .webp, width: width + 1, height: height + 1)
        }
        return unsized(.webp, truncated: false)
    }

    // MARK: BMP

    /// The DIB header sizes of real bitmaps: BITMAPCOREHEADER (12), OS/2 (16, 64), BITMAPINFOHEADER (40),
    /// its V2/V3 extensions (52, 56), BITMAPV4HEADER (108) and BITMAPV5HEADER (124).
    static let bmpHeaderSizes: Set<UInt32> = [12, 16, 40, 52, 56, 64, 108, 124]

    /// BMP: `BM`, the 14-byte file header, then a DIB header of a known size (checked, since `BM` alone is
    /// weak evidence). Core headers hold unsigned 16-bit sizes; the others signed 32-bit ones, where a negative
    /// height means a top-down bitmap.
    static func sniffBMP(_ bytes: ByteView) -> ImageHeader? {
        guard bytes.matches(ascii: "BM", at: 0), let headerSize = bytes.le32(14), bmpHeaderSizes.contains(headerSize)
        else { return nil }
        if headerSize == 12 {
            guard let width = bytes.le16(18), let height = bytes.le16(20) else {
                return unsized(.bmp, truncated: true)
            }
            return ImageHeader(format: .bmp, width: width, height: height)
        }
        guard let rawWidth = bytes.le32(18), let rawHeight = bytes.le32(22) else {
            return unsized(.bmp, truncated: true)
        }
        // Through Int: the magnitude of Int32.min does not fit in Int32.
        let height = Int(Int32(bitPattern: rawHeight))
        return ImageHeader(format: .bmp, width: Int(Int32(bitPattern: rawWidth)), height: abs(height))
    }

    // MARK: ICO

    /// ICO: reserved 0, type 1, an entry count ≥ 1, then 16-byte directory entries whose width and height
    /// bytes mean 256 when 0. The size reported is the entry with the most pixels (the first of equals);
    /// all entries must lie in the buffer.
    static func sniffICO(_ bytes: ByteView) -> ImageHeader? {
        guard bytes.matches([0, 0, 1, 0], at: 0), let count = bytes.le16(4), count >= 1 else { return nil }
        // The first entry's reserved byte is 0 in real icons; checked to tell icons from other zero-led data.
        if let reserved = bytes.u8(6 + 3), reserved != 0 { return nil }
        guard bytes.contains(count * 16, at: 6) else { return unsized(.ico, truncated: true) }
        var best: (width: Int, height: Int)?
        for index in 0..<count {
            let entry = 6 + index * 16
            guard let widthByte = bytes.u8(entry), let heightByte = bytes.u8(entry + 1) else { break }
            let width = widthByte == 0 ? 256 : Int(widthByte)
            let height = heightByte == 0 ? 256 : Int(heightByte)
            if best.map({ width * height > $0.width * $0.height }) ?? true { best = (width, height) }
        }
        return ImageHeader(format: .ico, width: best?.width, height: best?.height)
    }
}
