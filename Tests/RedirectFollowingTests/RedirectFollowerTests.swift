import RedirectFollowing
import Testing
import URLNormalization

@Suite("Redirect follower (a state machine, no I/O)")
struct RedirectFollowerTests {
    static func follower(_ url: String = "https://a.test/start", maximumHops: Int = 5) throws -> RedirectFollower {
        RedirectFollower(start: try #require(URLParser.parse(url)), maximumHops: maximumHops)
    }

    @Test("each redirect status is followed to the resolved Location", arguments: [301, 302, 303, 307, 308])
    func redirectStatuses(status: Int) throws {
        var chain = try Self.follower()
        let step = chain.receive(status: status, location: "https://a.test/next")
        #expect(step == .follow(RedirectFollower.Target(try #require(URLParser.parse("https://a.test/next")))))
        #expect(chain.url == "https://a.test/next")
        #expect(
            chain.hops == [
                RedirectFollower.Hop(url: "https://a.test/start", status: status, location: "https://a.test/next")
            ])
    }

    @Test(
        "answers that are not redirects end the chain where it is",
        arguments: [
            (200, "https://a.test/x"), (304, "https://a.test/x"), (301, nil), (302, nil), (404, "https://a.test/x"),
            (503, nil),
        ] as [(Int, String?)])
    func notRedirects(status: Int, location: String?) throws {
        var chain = try Self.follower()
        #expect(chain.receive(status: status, location: location) == .answer)
        #expect(chain.hops.isEmpty)
        #expect(chain.url == "https://a.test/start")
    }

    @Test(
        "Location is resolved against the URL that answered",
        arguments: [
            ("/b", "https://a.test/b"),
            ("c?q=1", "https://a.test/dir/c?q=1"),
            ("../up", "https://a.test/up"),
            ("//b.test/x", "https://b.test/x"),
            ("http://a.test/plain", "http://a.test/plain"),
            ("/frag#part", "https://a.test/frag"),
            ("  /spaced  ", "https://a.test/spaced"),
        ])
    func relativeLocations(location: String, expected: String) throws {
        var chain = try Self.follower("https://a.test/dir/page")
        guard case .follow(let target) = chain.receive(status: 302, location: location) else {
            Issue.record("not followed")
            return
        }
        #expect(target.url == expected)
        #expect(chain.url == expected)
        // The next hop resolves against the new URL.
        guard case .follow(let next) = chain.receive(status: 301, location: "again") else {
            Issue.record("second hop not followed")
            return
        }
        #expect(next.url == (URLParser.parse("again", base: target.parsed)?.serialized(includingFragment: false)))
        #expect(chain.hops.map(\.url) == ["https://a.test/dir/page", expected])
    }

    @Test("a loop is caught by de-duplication key, on the first URL or a later one")
    func loops() throws {
        var chain = try Self.follower("https://a.test/a")
        #expect(chain.receive(status: 302, location: "/b") != .answer)
        // Back to the start, spelled with an escaped unreserved character: the same key.
        guard case .stopped(.loop(let target)) = chain.receive(status: 302, location: "/%61") else {
            Issue.record("no loop")
            return
        }
        #expect(target.key == "https://a.test/a")
        #expect(chain.hops.count == 2)
        #expect(chain.url == "https://a.test/b")

        var later = try Self.follower("https://a.test/a")
        _ = later.receive(status: 301, location: "/b")
        _ = later.receive(status: 301, location: "/c")
        #expect(
            later.receive(status: 301, location: "/b")
                == .stopped(.loop(RedirectFollower.Target(try #require(URLParser.parse("https://a.test/b"))))))
    }

    @Test("the frontier's key counts as visited", arguments: ["https://a.test/start", "https://a.test/START"])
    func startKey(location: String) throws {
        let start = try #require(URLParser.parse("https://a.test/start"))
        var chain = RedirectFollower(start: start, key: "https://a.test/START", maximumHops: 5)
        let step = chain.receive(status: 302, location: location)
        if location == "https://a.test/START" {
            guard case .stopped(.loop) = step else { Issue.record("no loop: \(step)"); return }
        } else {
            guard case .follow = step else { Issue.record("not followed: \(step)"); return }
        }
    }

    @Test("more hops than allowed stop the chain on the hop past the limit", arguments: [0, 1, 3, 10])
    func tooManyHops(maximumHops: Int) throws {
        var chain = try Self.follower(maximumHops: maximumHops)
        for hop in 0..<maximumHops {
            guard case .follow = chain.receive(status: 301, location: "/hop/\(hop)") else {
                Issue.record("hop \(hop) not followed")
                return
            }
        }
        guard case .stopped(.tooManyHops(let target)) = chain.receive(status: 301, location: "/past") else {
            Issue.record("not stopped")
            return
        }
        #expect(target.url == "https://a.test/past")
        #expect(chain.hops.count == maximumHops + 1)
        #expect(chain.url == (maximumHops == 0 ? "https://a.test/start" : "https://a.test/hop/\(maximumHops - 1)"))
    }

    @Test("out of scope: the judge's refusal wins over the loop and hop checks")
    func outOfScope() throws {
        var chain = try Self.follower(maximumHops: 0)
        let judge: (RedirectFollower.Target) -> RedirectFollower.Verdict = { target in
            target.parsed.host == "a.test"
                ? .follow : .outOfScope(reason: "scope", detail: "host \(target.parsed.host ?? "")")
        }
        let step = chain.receive(status: 302, location: "https://elsewhere.test/x", judge: judge)
        guard case .stopped(.outOfScope(let target, let reason, let detail)) = step else {
            Issue.record("not refused: \(step)")
            return
        }
        #expect(target.url == "https://elsewhere.test/x")
        #expect(reason == "scope")
        #expect(detail == "host elsewhere.test")
        #expect(chain.hops.count == 1)
    }

    @Test("a target crawled on its own ends the chain there, even at the hop limit, but not a loop")
    func endChain() throws {
        var chain = try Self.follower(maximumHops: 0)
        let known: (RedirectFollower.Target) -> RedirectFollower.Verdict = { _ in .endChain }
        #expect(
            chain.receive(status: 301, location: "/known", judge: known)
                == .endsAt(RedirectFollower.Target(try #require(URLParser.parse("https://a.test/known")))))
        var looping = try Self.follower()
        guard case .stopped(.loop) = looping.receive(status: 301, location: "/start", judge: known) else {
            Issue.record("no loop")
            return
        }
    }

    @Test(
        "a Location that does not parse stops the chain",
        arguments: ["http://[::1", "https://exa mple.test/", "http://a.test:99999/"])
    func unparsableLocation(location: String) throws {
        var chain = try Self.follower()
        #expect(chain.receive(status: 302, location: location) == .stopped(.unparsableLocation(location)))
        #expect(chain.hops.count == 1)
    }
}
