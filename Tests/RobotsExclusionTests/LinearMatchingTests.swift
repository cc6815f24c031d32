import RobotsExclusion
import Testing

/// Issue 35 §3: robots.txt rules match in time linear in the path, and the work per URL is
/// capped. The results are compared with a reference matcher (dynamic programming over the whole
/// pattern and path, obviously right and quadratic); no test measures time.
@Suite("robots.txt matching, linear in the path")
struct LinearMatchingTests {
    /// Whether `pattern` (`*` any run, a final `$` the end) matches `path` from its start: the
    /// textbook table, `reach[j]`: the first i octets of the path can be matched by the first j
    /// tokens.
    static func referenceMatch(_ pattern: String, _ path: String) -> Bool {
        var tokens = Array(pattern.utf8)
        let anchored = tokens.last == UInt8(ascii: "$")
        if anchored { tokens.removeLast() }
        let text = Array(path.utf8)
        var reach = [Bool](repeating: false, count: tokens.count + 1)
        reach[0] = true
        for j in tokens.indices where tokens[j] == UInt8(ascii: "*") && reach[j] { reach[j + 1] = true }
        var matchedSomePrefix = reach[tokens.count]
        for byte in text {
            var next = [Bool](repeating: false, count: tokens.count + 1)
            for j in tokens.indices {
                if tokens[j] == UInt8(ascii: "*") {
                    next[j + 1] = next[j + 1] || reach[j + 1] || next[j]
                } else if reach[j], tokens[j] == byte {
                    next[j + 1] = true
                }
                if tokens[j] == UInt8(ascii: "*"), next[j] { next[j + 1] = true }
            }
            reach = next
            matchedSomePrefix = matchedSomePrefix || reach[tokens.count]
        }
        return anchored ? reach[tokens.count] : matchedSomePrefix
    }

    /// A deterministic generator (SplitMix64), so a failure names a case that comes back.
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
        mutating func text(_ alphabet: [Character], maximum: Int) -> String {
            String((0..<next(maximum + 1)).map { _ in alphabet[next(alphabet.count)] })
        }
    }

    @Test("the matcher agrees with the reference on 20,000 random patterns and paths")
    func agreesWithTheReference() {
        var generator = Generator(state: 35)
        for _ in 0..<20_000 {
            var pattern = "/" + generator.text(["a", "b", "*"], maximum: 7)
            if generator.next(3) == 0 { pattern += "$" }
            let path = "/" + generator.text(["a", "b"], maximum: 12)
            let robots = RobotsTxt("user-agent: *\ndisallow: \(pattern)\n")
            let matched = !robots.isAllowed(productToken: "bot", url: path)
            #expect(matched == Self.referenceMatch(pattern, path), "\(pattern) against \(path)")
        }
    }

    @Test(
        "hand-picked patterns",
        arguments: [
            ("/*aab", "/aaab", true), ("/*ab*ab$", "/abab", true), ("/*ab*ab$", "/ababa", false),
            ("/a*$", "/a", true), ("/*$", "/", true), ("/a$", "/ab", false), ("/*b*", "/aaa", false),
            ("/*aba*abb", "/abababb", true), ("/*aabaab", "/aabaaabaab", true), ("/x*", "/", false),
        ])
    func handPicked(pattern: String, path: String, matches: Bool) {
        #expect(Self.referenceMatch(pattern, path) == matches)
        let robots = RobotsTxt("user-agent: *\ndisallow: \(pattern)\n")
        #expect(robots.isAllowed(productToken: "bot", url: path) == !matches)
    }

    /// The probe's case: 480 rules `/*aaa…b` (1,000 octets each) and a 10 KB URL of `a`s took
    /// 6.4 s per decision; now about 10 M octets are compared, within the budget.
    static let hostileRules = (0..<480).map { "disallow: /*" + String(repeating: "a", count: 999 - $0) + "b\n" }
        .joined()

    @Test("480 rules /*aaa…b against a 10 KB URL: decided within the budget, with the right answer")
    func hostileRulesAreDecided() throws {
        let robots = RobotsTxt("user-agent: *\nallow: /ok\n" + Self.hostileRules)
        let long = "/" + String(repeating: "a", count: 10_000)
        let miss = robots.decide(productToken: "bot", url: "https://example.com" + long)
        #expect(miss.allowed)
        #expect(miss.rule == nil)
        #expect(!miss.exceededMatchingBudget)
        let hit = robots.decide(productToken: "bot", url: "https://example.com" + long + "b")
        #expect(!hit.allowed)
        let rule = try #require(hit.rule)
        #expect(rule.pattern == "/*" + String(repeating: "a", count: 999) + "b", "the longest rule decides")
        #expect(!hit.exceededMatchingBudget)
    }

    @Test("past the budget the URL is taken as disallowed, and says so")
    func budgetExceeded() {
        // 8,000 rules that each read a 10 KB path (twice, as KMP may): past 64 Mi octets.
        let rules = String(repeating: "disallow: /*ab\n", count: 8_000)
        let robots = RobotsTxt("user-agent: *\n" + rules)
        let decision = robots.decide(productToken: "bot", url: "/" + String(repeating: "a", count: 10_000))
        #expect(decision.exceededMatchingBudget)
        #expect(!decision.allowed)
        #expect(decision.rule == nil)
        // A short path stays well within it.
        #expect(!robots.decide(productToken: "bot", url: "/ab").exceededMatchingBudget)
        #expect(!robots.isAllowed(productToken: "bot", url: "/ab"))
    }
}
