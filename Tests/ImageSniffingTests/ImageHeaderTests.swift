import ImageSniffing
import Testing

@Suite("Image headers")
struct ImageHeaderTests {
    @Test func headersAreValues() {
        #expect(ImageHeader() == ImageHeader())
    }
}
