import MarkupExtraction
import Testing
import Verification

extension FixtureSiteRuleTests {
    /// The structured-data rules each fixture page must trigger (Fixtures/html/MANIFEST.md).
    static let expectedStructuredData: [String: [String]] = [:]
}
