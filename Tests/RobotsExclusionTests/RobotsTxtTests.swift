import RobotsExclusion
import Testing

@Suite("robots.txt (RFC 9309)")
struct RobotsTxtTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var body: String
        var agent: String
        var url: String
        var allowed: Bool
        var testDescription: String { "\(agent) \(url) → \(allowed ? "allowed" : "disallowed")" }
    }

    static let cases: [Case] = [
        // Longest match wins; Allow wins a tie.
        Case(body: "user-agent: *\ndisallow: /a\nallow: /a/b", agent: "Bot", url: "https://x.com/a/b/c", allowed: true),
        Case(
            body: "user-agent: *\ndisallow: /a/b\nallow: /a", agent: "Bot", url: "https://x.com/a/b/c", allowed: false),
        Case(
            body: "user-agent: *\ndisallow: /page\nallow: /page", agent: "Bot", url: "https://x.com/page", allowed: true
        ),
        // A named group replaces `*`; every group naming the agent is merged.
        Case(
            body: "user-agent: *\ndisallow: /\n\nuser-agent: bot\nallow: /", agent: "Bot", url: "https://x.com/a",
            allowed: true),
        Case(
            body: "user-agent: bot\ndisallow: /a\n\nuser-agent: other\ndisallow: /\n\nuser-agent: BOT\ndisallow: /b",
            agent: "bot", url: "https://x.com/b", allowed: false),
        // Consecutive user-agent lines share a group; a rule before any user-agent is ignored.
        Case(
            body: "disallow: /\nuser-agent: a\nuser-agent: b\ndisallow: /x", agent: "b", url: "https://x.com/x",
            allowed: false),
        Case(body: "disallow: /\nuser-agent: a\ndisallow: /x", agent: "c", url: "https://x.com/y", allowed: true),
        // Wildcards and the end anchor.
        Case(body: "user-agent: *\ndisallow: /*.php$", agent: "Bot", url: "https://x.com/index.php", allowed: false),
        Case(body: "user-agent: *\ndisallow: /*.php$", agent: "Bot", url: "https://x.com/index.php?x=1", allowed: true),
        Case(body: "user-agent: *\ndisallow: /a*b*c", agent: "Bot", url: "https://x.com/a-b-b-c", allowed: false),
        // Percent-encoding: non-ASCII encoded, unreserved escapes decoded, %24 is a literal $.
        Case(
            body: "user-agent: *\ndisallow: /bücher/", agent: "Bot", url: "https://x.com/b%C3%BCcher/1", allowed: false),
        Case(body: "user-agent: *\ndisallow: /%62az", agent: "Bot", url: "https://x.com/baz", allowed: false),
        Case(body: "user-agent: *\ndisallow: /%24", agent: "Bot", url: "https://x.com/$100", allowed: false),
        // /robots.txt is implicitly allowed; an empty disallow allows everything; CR line ends.
        Case(body: "user-agent: *\ndisallow: /", agent: "Bot", url: "https://x.com/robots.txt", allowed: true),
        Case(body: "user-agent: *\ndisallow:", agent: "Bot", url: "https://x.com/a", allowed: true),
        Case(body: "user-agent: *\rdisallow: /a\r", agent: "Bot", url: "https://x.com/a", allowed: false),
        // Comments, case-insensitive keys, a byte order mark.
        Case(
            body: "\u{FEFF}User-Agent: * # all\nDISALLOW: /a # no", agent: "Bot", url: "https://x.com/a", allowed: false
        ),
    ]

    @Test("decisions", arguments: cases)
    func decision(_ testCase: Case) {
        let robots = RobotsTxt(testCase.body)
        #expect(robots.isAllowed(productToken: testCase.agent, url: testCase.url) == testCase.allowed)
    }

    @Test("the deciding rule and its line are reported")
    func decidingRule() throws {
        let robots = RobotsTxt("user-agent: *\ndisallow: /a\nallow: /a/b")
        let decision = robots.decide(productToken: "Bot", url: "https://x.com/a/c")
        let rule = try #require(decision.rule)
        #expect(!decision.allowed)
        #expect(rule.pattern == "/a")
        #expect(rule.line == 2)
        #expect(decision.agents == ["*"])
    }

    @Test("sitemaps and crawl-delay are read")
    func sitemapsAndCrawlDelay() {
        let robots = RobotsTxt("sitemap: https://x.com/s.xml\nuser-agent: bot\ncrawl-delay: 2.5\ndisallow: /p")
        #expect(robots.sitemaps == ["https://x.com/s.xml"])
        #expect(robots.crawlDelay(for: "BOT") == 2.5)
        #expect(robots.crawlDelay(for: "other") == nil)
    }

    /// Issue 35 §1: `inf` and `1e400` read as numbers; a Crawl-delay must be a finite one (an
    /// infinite delay reached an `Int` in the side requests' throttle message and trapped).
    @Test("a Crawl-delay that is not a finite number is ignored", arguments: ["inf", "1e400", "nan", "-1"])
    func nonFiniteCrawlDelay(value: String) {
        let robots = RobotsTxt("User-agent: *\nCrawl-delay: \(value)\nDisallow: /private\n")
        #expect(robots.crawlDelay(for: "bot") == nil)
    }

    @Test("only the first 500 KiB are parsed")
    func parseLimit() {
        let filler = String(repeating: "# padding line\n", count: 40_000)
        let robots = RobotsTxt("user-agent: *\n" + filler + "disallow: /late")
        #expect(robots.isAllowed(productToken: "Bot", url: "https://x.com/late"))
    }

    @Test("hostile patterns match in bounded time")
    func hostilePattern() {
        let pattern = String(repeating: "*a", count: 2_000)
        let robots = RobotsTxt("user-agent: *\ndisallow: /" + pattern + "$")
        let path = "https://x.com/" + String(repeating: "a", count: 5_000) + "b"
        #expect(robots.isAllowed(productToken: "Bot", url: path))
    }

    @Test("Google mode: keys without a colon and user-agent values cut at the first non-letter")
    func googleMode() {
        let robots = RobotsTxt("user-agent FooBot\ndisallow /", mode: .google)
        #expect(!robots.isAllowed(productToken: "FooBot", url: "https://x.com/a"))
        #expect(RobotsTxt("user-agent FooBot\ndisallow /").isAllowed(productToken: "FooBot", url: "https://x.com/a"))
        let cut = RobotsTxt("user-agent: Foo Bar\ndisallow: /", mode: .google)
        #expect(!cut.isAllowed(productToken: "Foo", url: "https://x.com/a"))
    }
}
