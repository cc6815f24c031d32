import MarkupExtraction
import Testing
import Verification

extension FixtureSiteRuleTests {
    /// The Open Graph rules each fixture page must trigger (Fixtures/html/MANIFEST.md).
    static let expectedOpenGraph: [String: [String]] = [:]
}
