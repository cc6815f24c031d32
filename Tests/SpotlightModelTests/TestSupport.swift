import MarkupExtraction
import SpotlightModel
import Testing

let pageURL = "https://www.example.com/movies/up.html"

/// Extracts a hand-written page and builds its attribute set.
func build(_ html: String, url: String = pageURL) -> PageAttributes {
    AttributeSetBuilder().build(MarkupExtractor().extract(html: Array(html.utf8), url: url))
}

/// A page whose head holds `head` (one tag per line, starting on line 2).
func page(head: String, body: String = "") -> String {
    "<html><head>\n\(head)\n</head><body>\(body)</body></html>"
}

/// A JSON-LD script tag for `json`.
func jsonLD(_ json: String) -> String {
    #"<script type="application/ld+json">\#(json)</script>"#
}
