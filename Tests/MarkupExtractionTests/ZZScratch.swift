import LenientJSON
import MarkupExtraction
import Testing

@Test func zzScratch() {
    let cases: [[UInt8]] = [
        Array("<html><head><title>A".utf8) + [0] + Array("B</title><meta property=\"og:title\" content=\"After\"></head></html>".utf8),
        Array("<html><head><meta name=\"description\" content=\"x".utf8) + [0] + Array("y\"><meta property=\"og:title\" content=\"After\"></head></html>".utf8),
        Array("<html><head>".utf8) + [0, 0] + Array("<meta property=\"og:title\" content=\"After\"></head></html>".utf8),
        Array("<html><head></head><body><p>a".utf8) + [0] + Array("b</p><meta property=\"og:title\" content=\"After\"></body></html>".utf8),
        Array("<html><head></head><body>".utf8) + [0] + Array("<div itemscope><span itemprop=\"n\">v</span></div></body></html>".utf8),
    ]
    for bytes in cases {
        let page = MarkupExtractor().extract(html: bytes, url: "https://x/")
        print("ZZ", page.title?.text.debugDescription ?? "nil", page.descriptions.map(\.content.debugDescription), page.openGraph.map(\.content), page.microdata.count, page.diagnostics.map(\.message))
    }
    for html in [#"<html><head><title>Never closed"#, #"<html><head><script type="application/ld+json">{"@type": "Thing""#] {
        let page = MarkupExtractor().extract(html: Array(html.utf8), url: "https://x/")
        print("ZZ", page.title as Any, page.jsonLD.map { $0.value as Any }, page.diagnostics)
    }
}
