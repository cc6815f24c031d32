import FuzzSupport
import LenientJSON
import MarkupExtraction
import SpotlightModel
import Verification

/// A page through the whole pipeline: bytes → `PageMarkup` (libxml2 and the C scanner included)
/// → attribute set → findings. Invariant: extraction never loses a JSON-LD script that strict JSON
/// parses.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let page = MarkupExtractor().extract(html: bytes, url: "https://www.example.com/movies/up.html")
    let attributes = AttributeSetBuilder().build(page)
    _ = PageVerifier().verify(page, attributes: attributes)
    for script in page.jsonLD where JSONParser.parse(script.text, lenient: false).value != nil {
        precondition(script.value != nil, "a strictly valid JSON-LD script at line \(script.line) was lost")
    }
    return 0
}

@main
enum FuzzHTML {
    static func main() {
        runLibFuzzer(testOneInput)
    }
}
