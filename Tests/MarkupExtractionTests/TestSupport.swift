import Foundation
import LenientJSON
import MarkupExtraction
import Testing

/// The URL most hand-written pages are read as.
let pageURL = "https://www.example.com/dir/page.html"

/// Extracts a hand-written page given as text (UTF-8).
func extract(_ html: String, url: String = pageURL, options: MarkupExtractor.Options = .init()) -> PageMarkup {
    MarkupExtractor(options: options).extract(html: Array(html.utf8), url: url)
}

/// Extracts a page given as raw bytes (for encoding tests).
func extract(bytes: [UInt8], url: String = pageURL, options: MarkupExtractor.Options = .init()) -> PageMarkup {
    MarkupExtractor(options: options).extract(html: bytes, url: url)
}

/// The bytes of a fixture page in `Tests/MarkupExtractionTests/Pages/`.
func pageBytes(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [UInt8] {
    let url = try #require(
        Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Pages"),
        "fixture page Pages/\(name) is missing from the test bundle", sourceLocation: sourceLocation)
    return [UInt8](try Data(contentsOf: url))
}

/// Extracts a fixture page from `Pages/`.
func extractPage(_ name: String, url: String = pageURL, options: MarkupExtractor.Options = .init()) throws -> PageMarkup
{
    MarkupExtractor(options: options).extract(html: try pageBytes(name), url: url)
}

extension PageMarkup {
    /// The diagnostics with a code.
    func diagnostics(_ code: ExtractionDiagnostic.Code) -> [ExtractionDiagnostic] {
        diagnostics.filter { $0.code == code }
    }

    /// `key=content` of every Open Graph tag, in order.
    var openGraphPairs: [String] { openGraph.map { "\($0.key)=\($0.content)" } }
}

extension MarkupItem {
    /// The string forms of a property's values.
    func strings(_ name: String) -> [String?] { values(name).map(\.string) }

    /// The first nested item of a property.
    func item(_ name: String) -> MarkupItem? { values(name).first?.item }

    var propertyNames: [String] { properties.map(\.name) }
}
