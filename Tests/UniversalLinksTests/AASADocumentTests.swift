import Testing
import UniversalLinks

@Suite("AASA document")
struct AASADocumentTests {
    @Test func documentsAreValues() {
        #expect(AASADocument() == AASADocument())
    }
}
