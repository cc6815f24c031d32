import ImageSniffing
import Testing

@Suite("Hostile input")
struct HostileInputTests {
    /// Valid crafted files of every format, the seeds for truncation and mutation.
    static let seeds: [SniffCase] = [
        SniffCase("PNG", Build.png(width: 300, height: 200), sized(.png, 300, 200)),
        SniffCase("JPEG", Build.jpeg(width: 300, height: 200), sized(.jpeg, 300, 200)),
        SniffCase("GIF", Build.gif(width: 300, height: 200), sized(.gif, 300, 200)),
        SniffCase("WebP VP8", Build.vp8(width: 300, height: 200), sized(.webp, 300, 200)),
        SniffCase("WebP VP8L", Build.vp8l(width: 300, height: 200), sized(.webp, 300, 200)),
        SniffCase("WebP VP8X", Build.vp8x(width: 300, height: 200), sized(.webp, 300, 200)),
        SniffCase("BMP", Build.bmp(width: 300, height: -200), sized(.bmp, 300, 200)),
        SniffCase("ICO", Build.ico([(16, 16), (0, 0)]), sized(.ico, 256, 256)),
        SniffCase("AVIF", Build.ftyp("avif", ["mif1", "miaf"]), unsized(.avif)),
        SniffCase("SVG", ascii("<?xml version=\"1.0\"?><svg/>"), unsized(.svg)),
    ]

    /// Any prefix gives the same format with the same size, or no size, or (short of the signature) nothing;
    /// never a different size.
    @Test(arguments: seeds) func everyPrefix(_ seed: SniffCase) throws {
        let expected = try #require(seed.expected)
        var recognisedFrom: Int?
        for length in 0...seed.bytes.count {
            let header = ImageHeader.sniff(seed.bytes.prefix(length))
            if let header {
                if recognisedFrom == nil { recognisedFrom = length }
                #expect(header.format == expected.format, "prefix \(length)")
                if header.width != nil { #expect(header == expected, "prefix \(length)") }
            } else {
                #expect(recognisedFrom == nil, "prefix \(length) lost the format again")
            }
        }
        #expect(ImageHeader.sniff(seed.bytes) == expected)
    }

    /// Random single-byte changes and random tails never crash, and a reported size is at least 1×1.
    @Test(arguments: seeds) func mutations(_ seed: SniffCase) {
        var generator = SeededGenerator(state: UInt64(seed.bytes.count) &* 31 &+ 7)
        for _ in 0..<2_000 {
            var bytes = seed.bytes
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let index = Int.random(in: 0..<bytes.count, using: &generator)
                bytes[index] = [0x00, 0xFF, 0x7F, 0x80, UInt8.random(in: 0...255, using: &generator)]
                    .randomElement(using: &generator)!
            }
            if Bool.random(using: &generator) {
                bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &generator)))
            }
            if let header = ImageHeader.sniff(bytes), let width = header.width, let height = header.height {
                #expect(width >= 1 && height >= 1)
                #expect(!header.dimensionsNeedMoreBytes)
            }
        }
    }

    @Test func randomBytesAreNoImage() {
        var generator = SeededGenerator(state: 20_261_124)
        var recognised = 0
        for _ in 0..<5_000 {
            let count = Int.random(in: 0...512, using: &generator)
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if let header = ImageHeader.sniff(bytes) {
                recognised += 1
                #expect((header.width ?? 1) >= 1 && (header.height ?? 1) >= 1)
            }
        }
        // Signatures are 3 bytes or longer, so chance matches are rare (roughly 1 in 16 million each).
        #expect(recognised == 0)
    }

    static let hostileCases: [SniffCase] = [
        SniffCase("empty", [], nil),
        SniffCase("one byte", [0xFF], nil),
        SniffCase("all zeros", Array(repeating: 0, count: 4096), nil),
        SniffCase("all FF", Array(repeating: 0xFF, count: 4096), nil),
        SniffCase(
            "JPEG then FF to the end", [0xFF, 0xD8] + Array(repeating: 0xFF, count: 100_000),
            unsized(.jpeg, truncated: true)),
        SniffCase(
            "JPEG: a million standalone markers",
            Build.soi + Array(repeating: [UInt8]([0xFF, 0xD0]), count: 500_000).flatMap { $0 }
                + Build.sof(width: 9, height: 9),
            sized(.jpeg, 9, 9)
        ),
        SniffCase(
            "JPEG: thousands of minimal segments",
            Build.soi + Array(repeating: [UInt8]([0xFF, 0xFE, 0x00, 0x02]), count: 100_000).flatMap { $0 }
                + Build.sof(width: 9, height: 9),
            sized(.jpeg, 9, 9)
        ),
        SniffCase(
            "ICO with 65535 entries of 0 (256)", [0, 0, 1, 0, 0xFF, 0xFF] + Array(repeating: 0, count: 65535 * 16),
            sized(.ico, 256, 256)),
        SniffCase(
            "ftyp box claiming 4 GiB",
            be32(0xFFFF_FFFF) + ascii("ftypisom") + be32(0) + Array(repeating: 0x41, count: 10_000), nil),
        SniffCase("SVG: endless comment", ascii("<!--") + Array(repeating: 0x2D, count: 100_000), nil),
        SniffCase(
            "SVG: endless doctype subset", ascii("<!DOCTYPE svg [") + Array(repeating: 0x3E, count: 100_000), nil),
        SniffCase("PNG with IHDR of 0xFFFFFFFF", Build.png(width: 0xFFFF_FFFF, height: 0xFFFF_FFFF), unsized(.png)),
        SniffCase("BMP with every size bit set", Build.bmp(width: -1, height: -1), unsized(.bmp)),
        SniffCase(
            "WebP chunk size 0xFFFFFFFF",
            ascii("RIFF") + le32(0xFFFF_FFFF) + ascii("WEBPVP8X") + le32(0xFFFF_FFFF) + [0, 0, 0, 0] + le24(0xFF_FFFF)
                + le24(0xFF_FFFF), sized(.webp, 1 << 24, 1 << 24)),
    ]

    @Test(arguments: hostileCases) func hostile(_ test: SniffCase) {
        #expect(ImageHeader.sniff(test.bytes) == test.expected)
    }
}
