/// The earlier rules of one list (an entry's `components`, or its legacy `paths`) indexed by what
/// they can cover, so that UL016 asks `Shadowing.covers` of a few candidates instead of every
/// earlier rule (a 6,000-rule file took 36 s pairwise; issue 17 §2.3).
///
/// A rule `a` can cover `b` only when (see `Shadowing.coversPath`) `a`'s path matches everything,
/// or `a`'s normalised path equals `b`'s, or is a literal prefix plus one final `*` that `b`'s
/// literal prefix starts with (or `b` is its parent, `/x` for `/x/*`). The index answers those
/// candidates in file order and the caller's `covers` decides; at most `candidateLimit` are tried
/// per rule, which bounds a hostile file of thousands of rules on one path (each with another
/// query) without changing the answer for any file a person writes.
struct ShadowIndex {
    static let candidateLimit = 256

    private struct PathKey: Hashable {
        var percentEncoded: Bool
        var folds: Bool
        var pattern: String
    }

    /// A literal prefix by its length and FNV-1a hash over its UTF-8 bytes, so every prefix of a
    /// rule's path is looked up in one pass (O(length), not O(length²) with a string per prefix); a
    /// collision only adds a candidate, which `covers` then refuses.
    private struct PrefixKey: Hashable {
        var percentEncoded: Bool
        var folds: Bool
        var length: Int
        var hash: UInt64

        static func hashes(of text: String) -> [UInt64] {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            var result: [UInt64] = [hash]
            result.reserveCapacity(text.utf8.count + 1)
            for byte in text.utf8 {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
                result.append(hash)
            }
            return result
        }
    }

    private struct ConstraintKey: Hashable {
        var settings: MatchSettings
        var query: AASAQueryPattern?
        var fragment: String?
    }

    /// The first rule whose path, query and fragment all match everything: it covers every later rule.
    private var matchingEverything: Int?
    /// Path matches everything, query or fragment constrained: they cover a rule with the same
    /// settings and the same query (or, with the query unconstrained, the same fragment).
    private var everyPathByConstraint: [ConstraintKey: [Int]] = [:]
    private var literalPaths: [PathKey: [Int]] = [:]
    /// Keyed by the literal prefix before the final `*`.
    private var prefixPaths: [PrefixKey: [Int]] = [:]

    mutating func insert(
        _ index: Int, path: String?, query: AASAQueryPattern?, fragment: String?, settings: MatchSettings
    ) {
        if Shadowing.isMatchAll(path) {
            let queryFree = Shadowing.isUnconstrained(query)
            if queryFree, Shadowing.isMatchAll(fragment) {
                if matchingEverything == nil { matchingEverything = index }
            } else {
                let key = ConstraintKey(
                    settings: settings, query: queryFree ? nil : query, fragment: queryFree ? fragment : nil)
                everyPathByConstraint[key, default: []].append(index)
            }
            return
        }
        guard let path else { return }
        let folds = !settings.caseSensitive
        let pattern = Shadowing.normalized(path, fold: folds)
        if !Shadowing.hasWildcard(pattern) {
            literalPaths[PathKey(percentEncoded: settings.percentEncoded, folds: folds, pattern: pattern), default: []]
                .append(index)
        } else if pattern.hasSuffix("*"), !Shadowing.hasWildcard(String(pattern.dropLast())) {
            let prefix = String(pattern.dropLast())
            let key = PrefixKey(
                percentEncoded: settings.percentEncoded, folds: folds, length: prefix.utf8.count,
                hash: PrefixKey.hashes(of: prefix).last ?? 0)
            prefixPaths[key, default: []].append(index)
        }
        // Any other wildcard pattern covers nothing (`Shadowing.coversPath`).
    }

    /// The first earlier rule (in file order) for which `covers` holds, among the candidates.
    func firstCovering(
        path: String?, query: AASAQueryPattern?, fragment: String?, settings: MatchSettings,
        where covers: (Int) -> Bool
    ) -> Int? {
        var candidates: [Int] = []
        func add(_ list: [Int]?) { candidates += (list ?? []).prefix(Self.candidateLimit) }
        if let matchingEverything { candidates.append(matchingEverything) }
        add(everyPathByConstraint[ConstraintKey(settings: settings, query: query, fragment: nil)])
        add(everyPathByConstraint[ConstraintKey(settings: settings, query: nil, fragment: fragment)])
        if let path {
            // A case-sensitive rule covers only case-sensitive ones; a folding one covers both.
            for folds in settings.caseSensitive ? [false, true] : [true] {
                let pattern = Shadowing.normalized(path, fold: folds)
                func key(_ text: String) -> PathKey {
                    PathKey(percentEncoded: settings.percentEncoded, folds: folds, pattern: text)
                }
                add(literalPaths[key(pattern)])
                func prefixKey(_ length: Int, _ hash: UInt64) -> PrefixKey {
                    PrefixKey(percentEncoded: settings.percentEncoded, folds: folds, length: length, hash: hash)
                }
                let withSlash = pattern + "/"
                add(prefixPaths[prefixKey(withSlash.utf8.count, PrefixKey.hashes(of: withSlash).last ?? 0)])
                for (length, hash) in PrefixKey.hashes(of: Shadowing.literalPrefix(pattern)).enumerated() {
                    add(prefixPaths[prefixKey(length, hash)])
                }
            }
        }
        for candidate in Set(candidates).sorted().prefix(Self.candidateLimit) where covers(candidate) {
            return candidate
        }
        return nil
    }
}
