import Testing

@testable import Crawling

/// A 200 page whose title says "not found" is a soft 404; a title that merely contains the digits
/// is not (issue 17 §2.12: "page /l/1404" was one).
@Suite("soft-404 titles")
struct SoftNotFoundTests {
    @Test(
        arguments: [
            ("404 Not Found", true), ("Error 404", true), ("404 – Oops", true), ("Page missing | Shop", true),
            ("This product is no longer available", true), ("Seite nicht gefunden (404)", true),
            ("page /l/1404", false), ("Model 4040 review", false), ("Route 404a", false), ("The 1404 flood", false),
            ("Up (2009)", false), ("404", true), ("x404", false), ("é404", false), ("404é", false),
            ("٣404", false), ("404٣", false), ("—404—", true), ("40", false), ("4044 404", true),
        ])
    func title(_ title: String, isNotFound: Bool) {
        #expect(PageProcessor.looksLikeNotFound(title) == isNotFound)
    }
}
