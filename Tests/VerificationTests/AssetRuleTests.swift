import ImageSniffing
import MarkupExtraction
import Testing
import Verification

@Suite("Image rules (CT009–CT011, TW003's size)")
struct AssetRuleTests {
    static func png(_ width: Int, _ height: Int) -> ImageHeader {
        ImageHeader(format: .png, width: width, height: height)
    }

    static func rules(_ property: String, _ probe: ImageProbe) -> [String] {
        let reference = ImageReference(url: "https://www.example.com/i.png", property: property, line: 7)
        return PageVerifier().verifyImages([(reference, probe)], pageURL: "https://www.example.com/a").map(\.ruleID)
    }

    @Test(
        arguments: [
            (
                "og:image", ImageProbe(status: 200, mediaType: "image/png", byteCount: 90_000, header: png(1200, 630)),
                []
            ),
            (
                "og:image", ImageProbe(status: 200, mediaType: "image/png", byteCount: 9_000, header: png(170, 170)),
                ["CT009"]
            ),
            (
                "og:image", ImageProbe(status: 200, mediaType: "image/png", byteCount: 9_000, header: png(200, 260)),
                ["CT009"]
            ),
            ("og:image", ImageProbe(status: 200, mediaType: "image/png", byteCount: 9_000, header: png(180, 270)), []),
            ("og:image", ImageProbe(status: 404, mediaType: "text/html", byteCount: 100), ["CT010"]),
            ("og:image", ImageProbe(status: nil, failure: "dns: could not resolve host"), ["CT010"]),
            ("og:image", ImageProbe(status: 200, mediaType: "text/html", byteCount: 100), ["CT010"]),
            ("og:image", ImageProbe(status: 200, mediaType: "image/png", byteCount: 100, header: nil), ["CT010"]),
            (
                "og:image",
                ImageProbe(
                    status: 200, mediaType: "image/svg+xml", byteCount: 100,
                    header: ImageHeader(format: .svg, width: nil, height: nil)), ["CT010"]
            ),
            (
                "og:image", ImageProbe(status: 200, mediaType: "image/png", byteCount: 3 << 20, header: png(1200, 630)),
                ["CT011"]
            ),
            (
                "twitter:image",
                ImageProbe(status: 200, mediaType: "image/png", byteCount: 6 << 20, header: png(1200, 630)),
                ["TW003"]
            ),
            (
                "og:image",
                ImageProbe(status: 200, mediaType: "image/png", byteCount: 10 << 20, isTruncated: true, header: nil),
                ["CT011"]
            ),
        ] as [(String, ImageProbe, [String])])
    func eachRuleFires(property: String, probe: ImageProbe, expected: [String]) {
        #expect(Self.rules(property, probe).sorted() == expected.sorted())
    }

    @Test func referencesAreTheImagesConsumersFetchOnceEach() {
        let html = """
            <html><head>
            <meta property="og:image" content="/a.png"><meta property="og:image" content="https://cdn.example.com/b.png">
            <meta name="twitter:image" content="/a.png">
            </head></html>
            """
        let page = MarkupExtractor().extract(html: Array(html.utf8), url: "https://www.example.com/x/page.html")
        let references = ImageReference.references(in: page, thumbnailURL: "https://www.example.com/a.png")
        #expect(references.map(\.url) == ["https://www.example.com/a.png", "https://cdn.example.com/b.png"])
        #expect(references.map(\.property) == ["og:image", "og:image"])
    }
}
