import ImageSniffing
import Testing

/// One crafted input and what sniffing it must give (nil: not recognised as an image).
struct SniffCase: Sendable, CustomTestStringConvertible {
    let name: String
    let bytes: [UInt8]
    let expected: ImageHeader?

    init(_ name: String, _ bytes: [UInt8], _ expected: ImageHeader?) {
        self.name = name
        self.bytes = bytes
        self.expected = expected
    }

    var testDescription: String { name }
}

/// A header with known dimensions.
func sized(_ format: ImageFormat, _ width: Int, _ height: Int) -> ImageHeader {
    ImageHeader(format: format, width: width, height: height)
}

/// A header without dimensions; `truncated` is the expected ``ImageHeader/dimensionsNeedMoreBytes``.
func unsized(_ format: ImageFormat, truncated: Bool = false) -> ImageHeader {
    ImageHeader(format: format, width: nil, height: nil, dimensionsNeedMoreBytes: truncated)
}

// MARK: Byte builders

func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }

func be16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
func le24(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF)] }
func be32(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
}
func le32(_ value: UInt32) -> [UInt8] { be32(value).reversed() }

enum Build {
    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// A PNG chunk (the CRC is not checked by the sniffer, so zeros).
    static func pngChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        be32(UInt32(data.count)) + ascii(type) + data + [0, 0, 0, 0]
    }

    static func ihdr(width: UInt32, height: UInt32) -> [UInt8] {
        pngChunk("IHDR", be32(width) + be32(height) + [8, 2, 0, 0, 0])
    }

    static func png(width: UInt32, height: UInt32) -> [UInt8] {
        pngSignature + ihdr(width: width, height: height) + pngChunk("IEND", [])
    }

    /// A JPEG segment: `FF marker`, big-endian length (payload + 2), payload.
    static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        [0xFF, marker] + be16(payload.count + 2) + payload
    }

    static let soi: [UInt8] = [0xFF, 0xD8]
    static let app0 = segment(0xE0, ascii("JFIF\0") + [1, 1, 0, 0, 1, 0, 1, 0, 0])
    static let dqt = segment(0xDB, [0] + Array(repeating: 1, count: 64))
    static let dht = segment(0xC4, [0] + Array(repeating: 0, count: 16))

    /// A start-of-frame segment with the given marker (`C0` baseline, `C2` progressive, …).
    static func sof(_ marker: UInt8 = 0xC0, width: Int, height: Int) -> [UInt8] {
        segment(marker, [8] + be16(height) + be16(width) + [3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1])
    }

    static let sos = segment(0xDA, [3, 1, 0, 2, 0x11, 3, 0x11, 0, 0x3F, 0]) + [0x12, 0x34, 0xFF, 0x00, 0x56]
    static let eoi: [UInt8] = [0xFF, 0xD9]

    static func jpeg(width: Int, height: Int) -> [UInt8] {
        soi + app0 + dqt + sof(width: width, height: height) + dht + sos + eoi
    }

    static func gif(_ version: String = "89a", width: Int, height: Int) -> [UInt8] {
        ascii("GIF" + version) + le16(width) + le16(height) + [0xF0, 0, 0] + [0, 0, 0, 0xFF, 0xFF, 0xFF]
            + [0x3B]
    }

    /// A RIFF/WEBP file with one chunk.
    static func webp(_ fourCC: String, _ payload: [UInt8]) -> [UInt8] {
        let chunk = ascii(fourCC) + le32(UInt32(payload.count)) + payload
        return ascii("RIFF") + le32(UInt32(4 + chunk.count)) + ascii("WEBP") + chunk
    }

    /// Lossy: a key-frame tag (3 bytes), start code, 14-bit sizes (upper 2 bits: scale).
    static func vp8(width: Int, height: Int, scaleBits: Int = 0) -> [UInt8] {
        webp("VP8 ", [0x50, 0x01, 0x00, 0x9D, 0x01, 0x2A] + le16(width | scaleBits << 14) + le16(height) + [0, 0])
    }

    /// Lossless: signature 0x2F, then width − 1 (14 bits), height − 1 (14 bits), alpha, version.
    static func vp8l(width: Int, height: Int) -> [UInt8] {
        let bits = UInt32(width - 1) | UInt32(height - 1) << 14 | 1 << 28
        return webp("VP8L", [0x2F] + le32(bits) + [0, 0, 0])
    }

    /// Extended: flags, 3 reserved bytes, canvas width − 1 and height − 1 (24 bits each).
    static func vp8x(width: Int, height: Int) -> [UInt8] {
        webp("VP8X", [0x10, 0, 0, 0] + le24(width - 1) + le24(height - 1))
    }

    /// A bitmap with a 40-byte (or larger) info header and signed 32-bit sizes.
    static func bmp(width: Int32, height: Int32, headerSize: UInt32 = 40) -> [UInt8] {
        let info =
            le32(headerSize) + le32(UInt32(bitPattern: width)) + le32(UInt32(bitPattern: height)) + le16(1) + le16(24)
            + Array(repeating: 0, count: Int(headerSize) - 16)
        return ascii("BM") + le32(UInt32(14 + info.count)) + [0, 0, 0, 0] + le32(UInt32(14 + info.count)) + info
    }

    /// An OS/2 1.x bitmap: a 12-byte core header with unsigned 16-bit sizes.
    static func bmpCore(width: Int, height: Int) -> [UInt8] {
        ascii("BM") + le32(26) + [0, 0, 0, 0] + le32(26) + le32(12) + le16(width) + le16(height) + le16(1) + le16(24)
    }

    /// An icon directory with the given entry sizes (0 meaning 256), without image data.
    static func ico(_ entries: [(UInt8, UInt8)]) -> [UInt8] {
        var bytes: [UInt8] = [0, 0, 1, 0] + le16(entries.count)
        for (index, (width, height)) in entries.enumerated() {
            bytes +=
                [width, height, 0, 0] + le16(1) + le16(32) + le32(100) + le32(UInt32(6 + 16 * entries.count + index))
        }
        return bytes
    }

    /// An ISO base media `ftyp` box followed by an empty `meta` box header.
    static func ftyp(_ major: String, _ compatible: [String]) -> [UInt8] {
        let payload = ascii(major) + be32(0) + compatible.flatMap(ascii)
        return be32(UInt32(8 + payload.count)) + ascii("ftyp") + payload + be32(8) + ascii("meta")
    }
}

/// A small deterministic generator (SplitMix64) so random-input tests are reproducible.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
