import ImageSniffing
import Testing

@Suite("JPEG marker walk")
struct JPEGTests {
    static let exif = Build.segment(0xE1, ascii("Exif\0\0") + Array(repeating: 0x4D, count: 60_000))
    static let icc = Build.segment(0xE2, ascii("ICC_PROFILE\0") + Array(repeating: 7, count: 3_000))
    static let frameTail = Build.dht + Build.sos + Build.eoi

    static let cases: [SniffCase] = [
        SniffCase("baseline JFIF", Build.jpeg(width: 600, height: 900), sized(.jpeg, 600, 900)),
        SniffCase(
            "progressive (SOF2)",
            Build.soi + Build.app0 + Build.sof(0xC2, width: 1024, height: 768) + frameTail,
            sized(.jpeg, 1024, 768)
        ),
        SniffCase("SOF1", Build.soi + Build.sof(0xC1, width: 7, height: 9) + frameTail, sized(.jpeg, 7, 9)),
        SniffCase("lossless SOF3", Build.soi + Build.sof(0xC3, width: 7, height: 9), sized(.jpeg, 7, 9)),
        SniffCase("arithmetic SOF9", Build.soi + Build.sof(0xC9, width: 11, height: 13), sized(.jpeg, 11, 13)),
        SniffCase("SOF15", Build.soi + Build.sof(0xCF, width: 2, height: 3), sized(.jpeg, 2, 3)),
        SniffCase("largest", Build.soi + Build.sof(width: 65535, height: 65535), sized(.jpeg, 65535, 65535)),
        SniffCase(
            "DHT (C4) is no frame",
            Build.soi + Build.segment(0xC4, [0, 0x02, 0x58, 0x03, 0x84] + Array(repeating: 0, count: 12))
                + Build.sof(width: 40, height: 30),
            sized(.jpeg, 40, 30)
        ),
        SniffCase(
            "JPG (C8) is no frame",
            Build.soi + Build.segment(0xC8, [8, 0x11, 0x11, 0x22, 0x22]) + Build.sof(width: 40, height: 30),
            sized(.jpeg, 40, 30)
        ),
        SniffCase(
            "DAC (CC) is no frame",
            Build.soi + Build.segment(0xCC, [8, 0x11, 0x11, 0x22, 0x22]) + Build.sof(width: 40, height: 30),
            sized(.jpeg, 40, 30)
        ),
        SniffCase(
            "EXIF and ICC before the frame",
            Build.soi + exif + icc + Build.dqt + Build.sof(width: 4032, height: 3024) + frameTail,
            sized(.jpeg, 4032, 3024)
        ),
        SniffCase(
            "fill bytes before markers",
            Build.soi + [0xFF, 0xFF, 0xFF] + Build.app0 + [0xFF, 0xFF] + Build.sof(width: 5, height: 6),
            sized(.jpeg, 5, 6)
        ),
        SniffCase(
            "standalone markers (TEM, RST0, RST7, repeated SOI)",
            Build.soi + [0xFF, 0x01, 0xFF, 0xD0, 0xFF, 0xD7, 0xFF, 0xD8] + Build.sof(width: 5, height: 6),
            sized(.jpeg, 5, 6)
        ),
        SniffCase(
            "COM and APP15 segments",
            Build.soi + Build.segment(0xFE, ascii("made by hand")) + Build.segment(0xEF, [1, 2, 3])
                + Build.sof(width: 5, height: 6),
            sized(.jpeg, 5, 6)
        ),
        SniffCase(
            "a frame inside an APP payload is skipped",
            Build.soi + Build.segment(0xE1, Build.sof(width: 1, height: 1)) + Build.sof(width: 5, height: 6),
            sized(.jpeg, 5, 6)
        ),
        SniffCase(
            "empty APP segment (length 2)", Build.soi + [0xFF, 0xE0, 0, 2] + Build.sof(width: 5, height: 6),
            sized(.jpeg, 5, 6)),
        SniffCase("height 0 (set later by DNL)", Build.soi + Build.sof(width: 5, height: 0), unsized(.jpeg)),
        SniffCase("width 0", Build.soi + Build.sof(width: 0, height: 5), unsized(.jpeg)),
        SniffCase("SOF segment too short for sizes", Build.soi + Build.segment(0xC0, [8, 0, 5]), unsized(.jpeg)),

        // Truncated: the frame lies past the buffer.
        SniffCase("SOI and FF only", [0xFF, 0xD8, 0xFF], unsized(.jpeg, truncated: true)),
        SniffCase("only APP segments", Build.soi + Build.app0 + icc, unsized(.jpeg, truncated: true)),
        SniffCase(
            "EXIF longer than the prefix",
            Array((Build.soi + exif + Build.sof(width: 5, height: 6)).prefix(4096)),
            unsized(.jpeg, truncated: true)
        ),
        SniffCase("cut in a segment length", Build.soi + [0xFF, 0xE0, 0x00], unsized(.jpeg, truncated: true)),
        SniffCase(
            "cut in the frame's sizes",
            Array((Build.soi + Build.sof(width: 5, height: 6)).prefix(9)),
            unsized(.jpeg, truncated: true)
        ),
        SniffCase(
            "huge declared length", Build.soi + [0xFF, 0xE1, 0xFF, 0xFF] + Array(repeating: 0, count: 100),
            unsized(.jpeg, truncated: true)),
        SniffCase("cut in fill bytes", Build.soi + [0xFF, 0xFF, 0xFF], unsized(.jpeg, truncated: true)),

        // Malformed: no dimensions, and more bytes would not help.
        SniffCase(
            "zero-length segment", Build.soi + [0xFF, 0xE0, 0x00, 0x00] + Build.sof(width: 5, height: 6), unsized(.jpeg)
        ),
        SniffCase("length 1", Build.soi + [0xFF, 0xE0, 0x00, 0x01] + Build.sof(width: 5, height: 6), unsized(.jpeg)),
        SniffCase("SOS before any frame", Build.soi + Build.sos + Build.sof(width: 5, height: 6), unsized(.jpeg)),
        SniffCase("EOI before any frame", Build.soi + Build.eoi + Build.sof(width: 5, height: 6), unsized(.jpeg)),
        SniffCase("stuffed zero as marker", Build.soi + [0xFF, 0x00] + Build.sof(width: 5, height: 6), unsized(.jpeg)),
        SniffCase(
            "garbage between segments",
            Build.soi + Build.app0 + [0x12] + Build.sof(width: 5, height: 6),
            unsized(.jpeg)
        ),

        // Not JPEG.
        SniffCase("SOI without a marker after it", [0xFF, 0xD8, 0x00, 0xE0], nil),
        SniffCase("SOI only", [0xFF, 0xD8], nil),
    ]

    @Test(arguments: cases) func walk(_ test: SniffCase) {
        #expect(ImageHeader.sniff(test.bytes) == test.expected)
    }

    /// A frame past ``ImageHeader/bytesNeeded`` is not found in the prefix, but is in the whole file.
    @Test func aFramePastTheRecommendedPrefix() {
        let bigExif = Build.segment(0xE1, Array(repeating: 0, count: 65_000))
        let file = Build.soi + bigExif + bigExif + Build.sof(width: 3000, height: 2000) + Self.frameTail
        #expect(ImageHeader.sniff(file.prefix(ImageHeader.bytesNeeded)) == unsized(.jpeg, truncated: true))
        #expect(ImageHeader.sniff(file) == sized(.jpeg, 3000, 2000))
        #expect(ImageHeader.bytesNeeded >= 64 * 1024)
    }

    /// Every prefix up to the frame's sizes asks for more bytes; from there on the size is known.
    @Test func everyPrefixOfACraftedFile() {
        let file = Build.soi + Build.app0 + [0xFF, 0xFF, 0xFF, 0x01] + Self.icc + Build.sof(width: 77, height: 88)
        // The 19-byte frame segment: FF C0, length, precision, height, width (ending at byte 9), components.
        let sizeEnd = file.count - 19 + 9
        for length in 3..<file.count {
            let header = ImageHeader.sniff(file.prefix(length))
            if length >= sizeEnd {
                #expect(header == sized(.jpeg, 77, 88), "prefix \(length)")
            } else {
                #expect(header == unsized(.jpeg, truncated: true), "prefix \(length)")
            }
        }
    }
}
