import CrawlStore
import URLNormalization

extension PageVerdict {
    /// UTF-8 bytes of a title or description kept whole in the typed columns.
    static let comparableTextLength = 1_024

    /// A title or description as the typed columns keep it for comparing pages (CT014's duplicate
    /// titles and descriptions): whole up to `comparableTextLength` bytes; longer, its first
    /// characters, its length and the SHA-256 of the whole, so equal values still compare equal
    /// while the store holds the big value once, in the attribute set (issue 17 §2.10). Two long
    /// values that differ only in case or spacing after the first characters are not grouped.
    static func comparable(_ text: String) -> String {
        guard text.utf8.count > comparableTextLength else { return text }
        return text.abbreviated(toScalars: comparableTextLength) + " sha256:" + BodyDigest.sha256(Array(text.utf8))
    }
}
