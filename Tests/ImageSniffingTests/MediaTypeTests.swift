import ImageSniffing
import Testing

@Suite("Declared media types")
struct MediaTypeTests {
    struct Declared: Sendable, CustomTestStringConvertible {
        let format: ImageFormat
        let mediaType: String
        let matches: Bool
        var testDescription: String { "\(format.rawValue) vs \"\(mediaType)\": \(matches)" }
    }

    static let cases: [Declared] = [
        Declared(format: .jpeg, mediaType: "image/jpeg", matches: true),
        Declared(format: .jpeg, mediaType: "image/jpg", matches: true),
        Declared(format: .jpeg, mediaType: "IMAGE/JPEG", matches: true),
        Declared(format: .jpeg, mediaType: "image/jpeg; charset=binary", matches: true),
        Declared(format: .jpeg, mediaType: "  image/jpeg ;q=1", matches: true),
        Declared(format: .jpeg, mediaType: "\timage/pjpeg\t", matches: true),
        Declared(format: .jpeg, mediaType: "image/png", matches: false),
        Declared(format: .jpeg, mediaType: "image/jpeg2000", matches: false),
        Declared(format: .jpeg, mediaType: "image/jpegx; a=b", matches: false),
        Declared(format: .jpeg, mediaType: "", matches: false),
        Declared(format: .jpeg, mediaType: "; image/jpeg", matches: false),
        Declared(format: .png, mediaType: "image/png", matches: true),
        Declared(format: .png, mediaType: "Image/PNG", matches: true),
        Declared(format: .png, mediaType: "application/octet-stream", matches: false),
        Declared(format: .png, mediaType: "text/html; charset=utf-8", matches: false),
        Declared(format: .ico, mediaType: "image/x-icon", matches: true),
        Declared(format: .ico, mediaType: "image/vnd.microsoft.icon", matches: true),
        Declared(format: .ico, mediaType: "image/png", matches: false),
        Declared(format: .svg, mediaType: "image/svg+xml; charset=utf-8", matches: true),
        Declared(format: .svg, mediaType: "text/xml", matches: false),
        Declared(format: .webp, mediaType: "image/webp", matches: true),
        Declared(format: .gif, mediaType: "image/gif", matches: true),
        Declared(format: .bmp, mediaType: "image/x-ms-bmp", matches: true),
        Declared(format: .avif, mediaType: "image/avif", matches: true),
        Declared(format: .avif, mediaType: "image/heic", matches: false),
        Declared(format: .heic, mediaType: "image/heif", matches: true),
        Declared(format: .tiff, mediaType: "image/tiff", matches: true),
    ]

    @Test(arguments: cases) func matching(_ test: Declared) {
        #expect(test.format.matches(mediaType: test.mediaType) == test.matches)
        let header = ImageHeader(format: test.format, width: 1, height: 1)
        #expect(header.matches(mediaType: test.mediaType) == test.matches)
    }

    @Test(arguments: ImageFormat.allCases) func canonicalTypeRoundTrips(_ format: ImageFormat) {
        #expect(format.matches(mediaType: format.mediaType))
        #expect(format.acceptedMediaTypes.first == format.mediaType)
        #expect(ImageFormat(mediaType: format.mediaType) == format)
        #expect(ImageFormat(mediaType: format.mediaType.uppercased() + "; x=y") == format)
        // No other format claims this format's types.
        for other in ImageFormat.allCases where other != format {
            for type in format.acceptedMediaTypes { #expect(!other.matches(mediaType: type)) }
        }
    }

    @Test func canonicalTypes() {
        #expect(ImageFormat.jpeg.mediaType == "image/jpeg")
        #expect(ImageFormat.ico.mediaType == "image/vnd.microsoft.icon")
        #expect(ImageFormat.svg.mediaType == "image/svg+xml")
        #expect(ImageFormat(mediaType: "image/jpg") == .jpeg)
        #expect(ImageFormat(mediaType: "image/x-icon") == .ico)
        #expect(ImageFormat(mediaType: "text/html") == nil)
        #expect(ImageFormat(mediaType: "") == nil)
    }

    @Test func headersNormaliseImpossibleSizes() {
        #expect(ImageHeader(format: .png, width: 0, height: 5).width == nil)
        #expect(ImageHeader(format: .png, width: 0, height: 5).height == nil)
        #expect(ImageHeader(format: .png, width: 5, height: -1).dimensions == nil)
        #expect(ImageHeader(format: .png, width: 5, height: nil).width == nil)
        #expect(
            ImageHeader(format: .png, width: 5, height: 6, dimensionsNeedMoreBytes: true).dimensionsNeedMoreBytes
                == false)
        #expect(
            ImageHeader(format: .png, width: nil, height: nil, dimensionsNeedMoreBytes: true).dimensionsNeedMoreBytes)
        let dimensions = ImageHeader(format: .gif, width: 5, height: 6).dimensions
        #expect(dimensions?.width == 5 && dimensions?.height == 6)
    }
}
