import Testing

@testable import UniversalLinks

/// UL016's index (issue 17 §2.3): the same first covering rule as comparing every earlier rule,
/// without comparing every pair.
@Suite("UL016 shadowing index")
struct ShadowIndexTests {
    /// Paths, queries and fragments that cover each other in every way `Shadowing` knows.
    static let paths: [String?] = [
        nil, "*", "/*", "/a", "/a/", "/A", "/a/*", "/a/b", "/a/b/*", "/a/b/c.html", "/a*", "/b", "/b/*", "a/b",
        "/a/*b", "/x/$(v)", "/a?", "NOT /a/*", "/a//*",
    ]
    static let queries: [AASAQueryPattern?] = [
        nil, .whole("*"), .whole("q=1"), .items([AASAQueryItemPattern(name: "q", pattern: "1")]),
    ]
    static let fragments: [String?] = [nil, "*", "top"]
    static let settings = [
        MatchSettings(caseSensitive: true, percentEncoded: true),
        MatchSettings(caseSensitive: false, percentEncoded: true),
        MatchSettings(caseSensitive: true, percentEncoded: false),
    ]

    /// A deterministic pseudo-random list of rules (a linear congruential generator).
    static func rules(count: Int, seed: UInt64) -> [(AASAComponent, MatchSettings)] {
        var state = seed
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        return (0..<count).map { _ in
            var component = AASAComponent()
            component.path = paths[next(paths.count)]
            component.query = next(3) == 0 ? queries[next(queries.count)] : nil
            component.fragment = next(4) == 0 ? fragments[next(fragments.count)] : nil
            return (component, settings[next(settings.count)])
        }
    }

    @Test("the index finds the rule the pairwise search finds", arguments: 0..<40)
    func sameAnswerAsEveryPair(seed: Int) {
        let rules = Self.rules(count: 60, seed: UInt64(seed))
        var index = ShadowIndex()
        for (position, (rule, settings)) in rules.enumerated() {
            let pairwise = (0..<position).first { Shadowing.covers(rules[$0].0, rules[$0].1, rule, settings) }
            let indexed = index.firstCovering(
                path: rule.path, query: rule.query, fragment: rule.fragment, settings: settings
            ) { Shadowing.covers(rules[$0].0, rules[$0].1, rule, settings) }
            #expect(indexed == pairwise, "rule \(position) of seed \(seed)")
            index.insert(position, path: rule.path, query: rule.query, fragment: rule.fragment, settings: settings)
        }
    }

    /// 6,000 distinct literal rules (115 KB, under Apple's 128 KB): a handful of comparisons each,
    /// where the pairwise search made 18 million (36 s).
    @Test func manyDistinctRulesNeedFewComparisons() {
        var index = ShadowIndex()
        var comparisons = 0
        for position in 0..<6000 {
            let path = "/section-\(position % 50)/item-\(position).html"
            _ = index.firstCovering(path: path, query: nil, fragment: nil, settings: .builtin) { _ in
                comparisons += 1
                return false
            }
            index.insert(position, path: path, query: nil, fragment: nil, settings: .builtin)
        }
        #expect(comparisons == 0)
    }

    /// A hostile list (thousands of rules on one path, each with another query) is bounded too.
    @Test func hostileRulesOnOnePathAreBounded() {
        var index = ShadowIndex()
        var comparisons = 0
        for position in 0..<5000 {
            let query = AASAQueryPattern.whole("q=\(position)")
            _ = index.firstCovering(path: "/a", query: query, fragment: nil, settings: .builtin) { _ in
                comparisons += 1
                return false
            }
            index.insert(position, path: "/a", query: query, fragment: nil, settings: .builtin)
        }
        #expect(comparisons <= 5000 * ShadowIndex.candidateLimit)
        #expect(comparisons > 0)
    }

    /// Every prefix of a rule's path is looked up by a running hash (one pass), so a 115 KB path,
    /// which fits in a 128 KB file, costs one pass, not one string per prefix; the answer is the
    /// same as the pairwise search's.
    @Test func aLongPathIsLookedUpInOnePass() {
        let long = "/a/" + String(repeating: "b", count: 115_000)
        let rules = [AASAComponent(path: "/a/*"), AASAComponent(path: long), AASAComponent(path: long + "/*")]
        var index = ShadowIndex()
        var found: [Int?] = []
        for (position, rule) in rules.enumerated() {
            found.append(
                index.firstCovering(path: rule.path, query: nil, fragment: nil, settings: .builtin) {
                    Shadowing.covers(rules[$0], .builtin, rule, .builtin)
                })
            index.insert(position, path: rule.path, query: nil, fragment: nil, settings: .builtin)
        }
        #expect(found == [nil, 0, 0])
    }
}
