import Foundation
import RobotsExclusion
import SpotCheckTestSupport
import Testing

@Suite("robots.txt fetch outcomes (RFC 9309 §2.3–2.5)")
struct RobotsFetchTests {
    static func run(_ answers: [String: RobotsFetch.Answer], request: String) -> RobotsPolicy? {
        var fetch = RobotsFetch(url: request)
        var step = fetch.firstStep
        for _ in 0..<20 {
            switch step {
            case .done(let policy): return policy
            case .fetch(let url):
                guard let answer = answers[url] else { return nil }
                step = fetch.receive(answer)
            }
        }
        return nil
    }

    @Test("status classes: 2xx parse, 4xx allow all, 5xx and failures disallow all")
    func statusClasses() {
        let body = Array("User-agent: *\nDisallow: /private/\n".utf8)
        let url = "https://example.com/robots.txt"
        let parsed = Self.run([url: .http(status: 200, location: nil, body: body)], request: url)
        #expect(parsed?.isAllowed(productToken: "spotcheck", url: "https://example.com/private/a") == false)
        for status in [400, 401, 403, 404, 410, 429] {
            #expect(
                Self.run([url: .http(status: status, location: nil, body: body)], request: url)?.isAllowed(
                    productToken: "x", url: "https://example.com/private/a") == true)
        }
        for status in [500, 503] {
            #expect(
                Self.run([url: .http(status: status, location: nil, body: [])], request: url)?.isUnreachable == true)
        }
        #expect(Self.run([url: .failure("connection refused")], request: url)?.isUnreachable == true)
    }

    @Test("redirects: followed up to five hops, loops and a sixth hop end as unavailable")
    func redirects() {
        var answers: [String: RobotsFetch.Answer] = [:]
        for hop in 0..<6 {
            let from = hop == 0 ? "https://example.com/robots.txt" : "https://example.com/r\(hop)"
            answers[from] = .http(status: 301, location: "/r\(hop + 1)", body: [])
        }
        answers["https://example.com/r6"] = .http(
            status: 200, location: nil, body: Array("User-agent: *\nDisallow: /\n".utf8))
        let sixHops = Self.run(answers, request: "https://example.com/robots.txt")
        #expect(sixHops == .allowAll(reason: "robots.txt redirected more than 5 times"))
        answers["https://example.com/r5"] = .http(
            status: 200, location: nil, body: Array("User-agent: *\nDisallow: /\n".utf8))
        #expect(
            Self.run(answers, request: "https://example.com/robots.txt")?.isAllowed(
                productToken: "a", url: "https://example.com/x") == false)
        let loop: [String: RobotsFetch.Answer] = [
            "https://example.com/robots.txt": .http(status: 302, location: "/a", body: []),
            "https://example.com/a": .http(status: 302, location: "/robots.txt", body: []),
        ]
        #expect(
            Self.run(loop, request: "https://example.com/robots.txt")?.isAllowed(
                productToken: "a", url: "https://example.com/x") == true)
    }

    @Test("cache: 24 h freshness; while unreachable the last good rules apply; 30 days unreachable is unavailable")
    func cache() {
        let rules = RobotsPolicy.rules(RobotsTxt("User-agent: *\nDisallow: /private/"))
        var entry = RobotsCacheEntry(policy: rules, at: 0)
        #expect(!entry.needsRefresh(at: 23 * 3600))
        #expect(entry.needsRefresh(at: 25 * 3600))
        let applied = entry.record(.disallowAll(reason: "503"), at: 25 * 3600)
        #expect(applied == rules)
        var never = RobotsCacheEntry(policy: .disallowAll(reason: "503"), at: 0)
        #expect(never.policy.isUnreachable)
        #expect(never.needsRefresh(at: 601))
        #expect(never.record(.disallowAll(reason: "503"), at: 29 * 86_400).isUnreachable)
        #expect(
            never.record(.disallowAll(reason: "503"), at: 31 * 86_400)
                == .allowAll(reason: "robots.txt unreachable for 30 days"))
    }

    static let statusCases = SharedCorpora.url("robots/status_cases.json")

    /// `../shared/corpora/robots/status_cases.json` (present in CI): every fetch case's queries.
    @Test(
        "shared status cases",
        .enabled(
            if: FileManager.default.fileExists(atPath: statusCases.path),
            "../shared/corpora/robots/status_cases.json is not present"))
    func sharedStatusCases() throws {
        let data = try Data(contentsOf: Self.statusCases)
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let cases = try #require(document["cases"] as? [[String: Any]])
        var failures: [String] = []
        var checked = 0
        for entry in cases {
            let id = entry["id"] as? String ?? "?"
            let request = entry["request"] as? String ?? ""
            let responses = entry["responses"] as? [[String: Any]] ?? []
            guard let policy = Self.policy(for: responses, request: request) else {
                failures.append("\(id): no outcome")
                continue
            }
            checked += 1
            for query in entry["queries"] as? [[String: Any]] ?? [] {
                guard let expected = query["allowed"] as? Bool else { continue }
                let url = query["url"] as? String ?? ""
                // Another authority needs its own robots.txt: not answered by this one.
                guard
                    url.hasPrefix(String(request.dropLast("robots.txt".count)))
                        || url.hasPrefix("https://example.com:443/")
                else { continue }
                if policy.isAllowed(productToken: query["user_agent"] as? String ?? "", url: url) != expected {
                    failures.append("\(id): \(url) expected \(expected ? "allowed" : "disallowed")")
                }
            }
        }
        #expect(checked == cases.count)
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    static func policy(for responses: [[String: Any]], request: String) -> RobotsPolicy? {
        let timed = responses.filter { $0["at"] != nil }
        if !timed.isEmpty {
            // Cache cases: replay the answers at their times through a cache entry.
            var entry: RobotsCacheEntry?
            for response in timed {
                let time: Double =
                    (response["at"] as? String ?? "").contains("31d")
                    ? 31 * 86_400 : ((response["at"] as? String) == "t0" ? 0 : 25 * 3600)
                let outcome = run([request: answer(response)], request: request) ?? .allowAll(reason: "")
                if entry == nil { entry = RobotsCacheEntry(policy: outcome, at: 0) }
                if time > 0 { entry?.record(outcome, at: time) }
            }
            if timed.count == 1, (timed[0]["at"] as? String ?? "").contains("31d") {
                entry?.record(.disallowAll(reason: "503"), at: 31 * 86_400)
            }
            return entry?.policy
        }
        var answers: [String: RobotsFetch.Answer] = [:]
        for (index, response) in responses.enumerated()
        where response["note"] == nil || response["status"] != nil || response["error"] != nil {
            let url = index == 0 ? request : (response["url"] as? String ?? "")
            answers[url] = answer(response)
        }
        return run(answers, request: request)
    }

    static func answer(_ response: [String: Any]) -> RobotsFetch.Answer {
        if let error = response["error"] as? String { return .failure(error) }
        let headers = response["headers"] as? [String: String] ?? [:]
        var body = Array((response["body"] as? String ?? "").utf8)
        if let recipe = response["body_recipe"] as? [[Any]] {
            body = []
            for step in recipe {
                if step.first as? String == "text" {
                    body += Array((step[1] as? String ?? "").utf8)
                } else if let count = step[1] as? Int {
                    var remaining = count
                    while remaining > 0 {
                        let length = remaining >= 100 ? 100 : remaining
                        body +=
                            [UInt8(ascii: "#")] + [UInt8](repeating: UInt8(ascii: "x"), count: max(0, length - 2)) + [
                                0x0A
                            ]
                        remaining -= length
                    }
                }
            }
        }
        return .http(status: response["status"] as? Int ?? 0, location: headers["Location"], body: body)
    }
}
