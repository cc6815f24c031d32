extension String {
    /// The string, or when it has more than `limit` Unicode scalars, its first `limit` scalars
    /// followed by how long it was: `"https://a.example/aaaa… (41943040 bytes in all)"`. A string
    /// this made already is returned as it is, so a value shortened where it is stored is not
    /// shortened again (with a wrong length) where it is shown.
    ///
    /// What a crawl keeps of untrusted values only to show them (a rejected sitemap location, a
    /// value's provenance) is bounded this way (issue 17 §2.10: twenty 40 MB `<loc>`s kept 1 GB,
    /// and a 9 MB description was stored once more in its provenance).
    public func abbreviated(toScalars limit: Int) -> String {
        // Fewer bytes than the limit: fewer scalars too, without counting them.
        guard utf8.count > limit else { return self }
        let scalars = unicodeScalars
        guard let cut = scalars.index(scalars.startIndex, offsetBy: limit, limitedBy: scalars.endIndex),
            cut != scalars.endIndex
        else { return self }
        // What follows the cut is this function's own ending (at most some 40 bytes)?
        if utf8.distance(from: cut, to: utf8.endIndex) <= 40 {
            let tail = String(scalars[cut...])
            if tail.hasPrefix("… ("), tail.hasSuffix(" bytes in all)"), Int(tail.dropFirst(3).dropLast(14)) != nil {
                return self
            }
        }
        return String(String.UnicodeScalarView(scalars[..<cut])) + "… (\(utf8.count) bytes in all)"
    }
}
