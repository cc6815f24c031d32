extension String {
    /// The string, or when it is longer than `limit` UTF-8 bytes, its first `limit` Unicode
    /// scalars followed by how long it was: `"https://a.example/aaaa… (41943040 bytes in all)"`.
    ///
    /// What a crawl keeps of untrusted values only to show them (a rejected sitemap location, a
    /// value's provenance) is bounded this way (issue 17 §2.10: twenty 40 MB `<loc>`s kept 1 GB,
    /// and a 9 MB description was stored once more in its provenance).
    public func abbreviated(toScalars limit: Int) -> String {
        guard utf8.count > limit else { return self }
        return String(String.UnicodeScalarView(unicodeScalars.prefix(limit))) + "… (\(utf8.count) bytes in all)"
    }
}
