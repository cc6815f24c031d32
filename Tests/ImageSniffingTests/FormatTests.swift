import ImageSniffing
import Testing

@Suite("Formats from crafted headers")
struct FormatTests {
    static let pngCases: [SniffCase] = [
        SniffCase("1200×630", Build.png(width: 1200, height: 630), sized(.png, 1200, 630)),
        SniffCase("1×1", Build.png(width: 1, height: 1), sized(.png, 1, 1)),
        SniffCase("largest legal", Build.png(width: 0x7FFF_FFFF, height: 3), sized(.png, 0x7FFF_FFFF, 3)),
        SniffCase("width above 2³¹ − 1", Build.png(width: 0x8000_0000, height: 3), unsized(.png)),
        SniffCase("zero width", Build.png(width: 0, height: 10), unsized(.png)),
        SniffCase("zero height", Build.png(width: 10, height: 0), unsized(.png)),
        SniffCase(
            "Apple CgBI chunk first",
            Build.pngSignature + Build.pngChunk("CgBI", [0x50, 0, 0x20, 0x06]) + Build.ihdr(width: 57, height: 114),
            sized(.png, 57, 114)
        ),
        SniffCase("signature only", Build.pngSignature, unsized(.png, truncated: true)),
        SniffCase(
            "IHDR cut in the height", Array(Build.png(width: 9, height: 9).prefix(22)), unsized(.png, truncated: true)),
        SniffCase(
            "first chunk not IHDR",
            Build.pngSignature + Build.pngChunk("IDAT", Array(repeating: 0, count: 13)),
            unsized(.png)
        ),
        SniffCase(
            "IHDR with a wrong length",
            Build.pngSignature + be32(12) + ascii("IHDR") + be32(9) + be32(9),
            unsized(.png)
        ),
        SniffCase(
            "signature with LF→CRLF damage",
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0D, 0x0A, 0x1A, 0x0A] + Build.ihdr(width: 1, height: 1), nil),
        SniffCase("signature cut short", Array(Build.pngSignature.prefix(7)), nil),
        SniffCase("no high byte", [0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Build.ihdr(width: 1, height: 1), nil),
    ]

    @Test(arguments: pngCases) func png(_ test: SniffCase) {
        #expect(ImageHeader.sniff(test.bytes) == test.expected)
    }

    static let gifCases: [SniffCase] = [
        SniffCase("89a", Build.gif(width: 320, height: 240), sized(.gif, 320, 240)),
        SniffCase("87a", Build.gif("87a", width: 1, height: 65535), sized(.gif, 1, 65535)),
        SniffCase("little-endian", Build.gif(width: 0x0102, height: 0x0304), sized(.gif, 258, 772)),
        SniffCase("zero width", Build.gif(width: 0, height: 5), unsized(.gif)),
        SniffCase("cut after the version", ascii("GIF89a") + [0x10], unsized(.gif, truncated: true)),
        SniffCase("unknown version", Build.gif("88a", width: 5, height: 5), nil),
        SniffCase("lowercase", ascii("gif89a") + le16(5) + le16(5), nil),
    ]

    @Test(arguments: gifCases) func gif(_ test: SniffCase) {
        #expect(ImageHeader.sniff(test.bytes) == test.expected)
    }

    static let webpCases: [SniffCase] = [
        SniffCase("VP8 lossy", Build.vp8(width: 550, height: 368), sized(.webp, 550, 368)),
        SniffCase("VP8 scale bits ignored", Build.vp8(width: 100, height: 50, scaleBits: 3), sized(.webp, 100, 50)),
        SniffCase("VP8 largest", Build.vp8(width: 16383, height: 16383), sized(.webp, 16383, 16383)),
        SniffCase("VP8 zero width", Build.vp8(width: 0, height: 9), unsized(.webp)),
        SniffCase(
            "VP8 interframe tag",
            Build.webp("VP8 ", [0x51, 0x01, 0x00, 0x9D, 0x01, 0x2A] + le16(10) + le16(10)),
            unsized(.webp)
        ),
        SniffCase(
            "VP8 bad start code",
            Build.webp("VP8 ", [0x50, 0x01, 0x00, 0x9D, 0x01, 0x2B] + le16(10) + le16(10)),
            unsized(.webp)
        ),
        SniffCase("VP8 cut", Array(Build.vp8(width: 9, height: 9).prefix(27)), unsized(.webp, truncated: true)),
        SniffCase("VP8L lossless", Build.vp8l(width: 1920, height: 1080), sized(.webp, 1920, 1080)),
        SniffCase("VP8L 1×1", Build.vp8l(width: 1, height: 1), sized(.webp, 1, 1)),
        SniffCase("VP8L 16384×16384", Build.vp8l(width: 16384, height: 16384), sized(.webp, 16384, 16384)),
        SniffCase(
            "VP8L bad signature",
            Build.webp("VP8L", [0x2E] + le32(0x1234_5678)),
            unsized(.webp)
        ),
        SniffCase("VP8L cut", Array(Build.vp8l(width: 9, height: 9).prefix(23)), unsized(.webp, truncated: true)),
        SniffCase("VP8X extended", Build.vp8x(width: 4000, height: 3000), sized(.webp, 4000, 3000)),
        SniffCase("VP8X 2²⁴", Build.vp8x(width: 1 << 24, height: 1), sized(.webp, 1 << 24, 1)),
        SniffCase("VP8X cut", Array(Build.vp8x(width: 9, height: 9).prefix(29)), unsized(.webp, truncated: true)),
        SniffCase("unknown chunk", Build.webp("ALPH", [0, 0, 0, 0]), unsized(.webp)),
        SniffCase("header only", ascii("RIFF") + le32(4) + ascii("WEBP"), unsized(.webp, truncated: true)),
        SniffCase("RIFF WAVE is no image", ascii("RIFF") + le32(36) + ascii("WAVEfmt ") + le32(16), nil),
    ]

    @Test(arguments: webpCases) func webp(_ test: SniffCase) {
        #expect(ImageHeader.sniff(test.bytes) == test.expected)
    }

    static let bmpCases: [SniffCase] = [
        SniffCase("bottom-up", Build.bmp(width: 640, height: 480), sized(.bmp, 640, 480)),
        SniffCase("top-down (negative height)", Build.bmp(width: 640, height: -480), sized(.bmp, 640, 480)),
        SniffCase("V5 header", Build.bmp(width: 16, height: 8, headerSize: 124), sized(.bmp, 16, 8)),
        SniffCase("V4 header", Build.bmp(width: 3, height: -2, headerSize: 108), sized(.bmp, 3, 2)),
        SniffCase("OS/2 core header", Build.bmpCore(width: 300, height: 200), sized(.bmp, 300, 200)),
        SniffCase("height Int32.min", Build.bmp(width: 5, height: Int32.min), sized(.bmp, 5, 2_147_483_648)),
        SniffCase("negative width", Build.bmp(width: -5, height: 5), unsized(.bmp)),
        SniffCase("zero height", Build.bmp(width: 5, height: 0), unsized(.bmp)),
        SniffCase("cut in the sizes", Array(Build.bmp(width: 5, height: 5).prefix(24)), unsized(.bmp, truncated: true)),
        SniffCase("unknown header size", Build.bmp(width: 5, height: 5, headerSize: 41), nil),
        SniffCase("text that starts with BM", ascii("BMW owners club: the ultimate driving newsletter"), nil),
        SniffCase("too short to check", ascii("BM") + le32(100), nil),
    ]

    @Test(arguments: bmpCases) func bmp(_ test: SniffCase) {
        #expect(ImageHeader.sniff(test.bytes) == test.expected)
    }

    static let icoCases: [SniffCase] = [
        SniffCase("one 16×16", Build.ico([(16, 16)]), sized(.ico, 16, 16)),
        SniffCase("largest of several", Build.ico([(16, 16), (48, 48), (32, 32)]), sized(.ico, 48, 48)),
        SniffCase("0 means 256", Build.ico([(16, 16), (0, 0), (64, 64)]), sized(.ico, 256, 256)),
        SniffCase("largest by area", Build.ico([(0, 8), (64, 64)]), sized(.ico, 64, 64)),
        SniffCase("first of equal areas", Build.ico([(32, 8), (16, 16)]), sized(.ico, 32, 8)),
        SniffCase("directory cut", Array(Build.ico([(16, 16), (32, 32)]).prefix(30)), unsized(.ico, truncated: true)),
        SniffCase("no entries", [0, 0, 1, 0, 0, 0], nil),
        SniffCase("cursor (type 2) is no icon", [0, 0, 2, 0] + Array(Build.ico([(16, 16)]).dropFirst(4)), nil),
        SniffCase("reserved byte set", [0, 0, 1, 0, 1, 0, 16, 16, 0, 7] + Array(repeating: 0, count: 12), nil),
        SniffCase(
            "65535 entries declared, few present", [0, 0, 1, 0, 0xFF, 0xFF] + Build.ico([(16, 16)]).dropFirst(6),
            unsized(.ico, truncated: true)),
    ]

    @Test(arguments: icoCases) func ico(_ test: SniffCase) {
        #expect(ImageHeader.sniff(test.bytes) == test.expected)
    }

    static let isobmffCases: [SniffCase] = [
        SniffCase("avif major", Build.ftyp("avif", ["mif1", "miaf", "MA1B"]), unsized(.avif)),
        SniffCase("avis (sequence)", Build.ftyp("avis", ["msf1", "avif"]), unsized(.avif)),
        SniffCase("mif1 with compatible avif", Build.ftyp("mif1", ["mif1", "avif", "miaf"]), unsized(.avif)),
        SniffCase("heic major", Build.ftyp("heic", ["mif1", "heic"]), unsized(.heic)),
        SniffCase("heix", Build.ftyp("heix", ["mif1"]), unsized(.heic)),
        SniffCase("mif1 with compatible heic", Build.ftyp("mif1", ["mif1", "heic"]), unsized(.heic)),
        SniffCase("generic HEIF", Build.ftyp("mif1", ["mif1"]), unsized(.heic)),
        SniffCase("MP4 video", Build.ftyp("isom", ["isom", "iso2", "avc1", "mp41"]), nil),
        SniffCase("QuickTime", Build.ftyp("qt  ", ["qt  "]), nil),
        SniffCase(
            "compatible brand past the box size",
            be32(16) + ascii("ftyp") + ascii("isom") + be32(0) + ascii("avif"),
            nil
        ),
        SniffCase("binary brand", be32(16) + ascii("ftyp") + [0, 1, 2, 3] + be32(0), nil),
        SniffCase("cut in the major brand", be32(24) + ascii("ftypav"), nil),
    ]

    @Test(arguments: isobmffCases) func avifAndHEIC(_ test: SniffCase) {
        #expect(ImageHeader.sniff(test.bytes) == test.expected)
    }

    static let tiffCases: [SniffCase] = [
        SniffCase("little-endian", [0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0], unsized(.tiff)),
        SniffCase("big-endian", [0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8], unsized(.tiff)),
        SniffCase("BigTIFF", [0x49, 0x49, 0x2B, 0x00, 8, 0, 0, 0], unsized(.tiff)),
        SniffCase("mixed byte order", [0x49, 0x49, 0x00, 0x2A, 0, 0, 0, 8], nil),
        SniffCase("signature cut", [0x49, 0x49, 0x2A], nil),
    ]

    @Test(arguments: tiffCases) func tiff(_ test: SniffCase) {
        #expect(ImageHeader.sniff(test.bytes) == test.expected)
    }

    static let svgCases: [SniffCase] = [
        SniffCase("bare", ascii("<svg xmlns=\"http://www.w3.org/2000/svg\"/>"), unsized(.svg)),
        SniffCase("with XML declaration", ascii("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg>"), unsized(.svg)),
        SniffCase("BOM", [0xEF, 0xBB, 0xBF] + ascii("<svg width=\"10\">"), unsized(.svg)),
        SniffCase("leading whitespace", ascii(" \r\n\t <svg\n>"), unsized(.svg)),
        SniffCase(
            "comments and doctype",
            ascii(
                "<?xml version=\"1.0\"?>\n<!-- Generator: Adobe Illustrator -->\n"
                    + "<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" "
                    + "\"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\" [\n<!ENTITY ns \"x>y\">\n]>\n"
                    + "<svg version=\"1.1\">"
            ),
            unsized(.svg)
        ),
        SniffCase("uppercase", ascii("<SVG>"), unsized(.svg)),
        SniffCase("namespace prefix", ascii("<svg:svg xmlns:svg=\"http://www.w3.org/2000/svg\">"), unsized(.svg)),
        SniffCase(
            "long licence comment", ascii("<!--" + String(repeating: "MIT licence. ", count: 500) + "--><svg>"),
            unsized(.svg)),
        SniffCase("root element cut at the buffer end", ascii("<?xml version=\"1.0\"?><svg"), unsized(.svg)),
        SniffCase("HTML", ascii("<!DOCTYPE html><html><body><svg></svg></body></html>"), nil),
        SniffCase("another element named svg…", ascii("<svgx>"), nil),
        SniffCase("text before", ascii("hello <svg>"), nil),
        SniffCase("unclosed comment", ascii("<!-- <svg>"), nil),
        SniffCase("unclosed declaration", ascii("<?xml version=\"1.0\" <svg>"), nil),
        SniffCase("beyond the scan limit", ascii(String(repeating: " ", count: 20_000) + "<svg>"), nil),
        SniffCase("empty", [], nil),
    ]

    @Test(arguments: svgCases) func svg(_ test: SniffCase) {
        #expect(ImageHeader.sniff(test.bytes) == test.expected)
    }
}
