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
    private var prefixPaths: [PathKey: [Int]] = [:]

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
            let key = PathKey(
                percentEncoded: settings.percentEncoded, folds: folds, pattern: String(pattern.dropLast()))
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
                add(prefixPaths[key(pattern + "/")])
                let literal = Shadowing.literalPrefix(pattern)
                var prefix = ""
                add(prefixPaths[key(prefix)])
                for character in literal {
                    prefix.append(character)
                    add(prefixPaths[key(prefix)])
                }
            }
        }
        for candidate in Set(candidates).sorted().prefix(Self.candidateLimit) where covers(candidate) {
            return candidate
        }
        return nil
    }
}
