import Crawling
import PageFetching
import Rulebook
import Testing
import Verification

/// What a fetch of apple-app-site-association gave, judged by Apple's serving rules and the file's
/// own rules; and what the file says of URLs.
@Suite("apple-app-site-association in a crawl")
struct AssociationFileTests {
    static let app = "ABCDE12345.com.example.familycinema"
    static let url = "https://www.example.com/.well-known/apple-app-site-association"
    static let valid =
        #"{"applinks": {"apps": [], "details": [{"appIDs": ["ABCDE12345.com.example.familycinema"], "components": [{"/": "/private/*", "exclude": true, "comment": "staff"}, {"/": "/movies/*"}]}]}}"#

    static func check(
        status: Int = 200, contentType: String? = "application/json", body: String = valid, standIn: Bool = false,
        apps: [String] = [app]
    ) -> AssociationFile {
        var headers: [HTTPHeader] = []
        if let contentType { headers.append(HTTPHeader("Content-Type", contentType)) }
        if (300..<400).contains(status) { headers.append(HTTPHeader("Location", "https://example.com/aasa")) }
        let response = FetchResponse(
            url: url, status: status, httpVersion: "2", headers: headers, body: Array(body.utf8),
            wireBytes: body.utf8.count, timings: FetchTimings(), remoteAddress: nil)
        return AssociationFile.check(
            .success(response), url: url, onlyAtRootPath: false, isStandIn: standIn, appIDs: apps,
            verifier: PageVerifier())
    }

    @Test(
        arguments: [
            (200, "application/json", valid, [String]()),
            (404, "text/html", "<h1>Not found</h1>", ["UL001"]),
            (301, nil, "", ["UL001", "UL003"]),
            (200, "text/html", valid, ["UL005"]),
            (200, "application/json", "{\"applinks\": {\"details\": []},}", ["UL006"]),
            (
                200, "application/json",
                #"{"applinks": {"apps": [], "details": [{"appIDs": ["OTHER12345.com.x"], "paths": ["*"]}]}}"#, ["UL019"]
            ),
        ] as [(Int, String?, String, [String])])
    func servingAndContentRules(status: Int, contentType: String?, body: String, expected: [String]) {
        let file = Self.check(status: status, contentType: contentType, body: body)
        #expect(Set(file.findings.map(\.ruleID)) == Set(expected), "\(file.findings.map(\.message))")
        #expect(file.findings.allSatisfy { $0.url == Self.url })
        #expect((file.document != nil) == (status == 200 && !expected.contains("UL006")))
    }

    @Test func theObsoleteDictionaryFormOfDetailsIsAWarningAsTheRuleSaysAndAMissingDetailsAnError() {
        let dictionary = #"{"applinks": {"apps": [], "details": {"\#(Self.app)": {"paths": ["*"]}}}}"#
        func ul009(_ body: String) -> [Severity] {
            Self.check(body: body).findings.filter { $0.ruleID == "UL009" }.map(\.severity)
        }
        #expect(ul009(dictionary) == [.warning])
        #expect(ul009(#"{"applinks": {"apps": []}}"#) == [.error])
    }

    @Test func aStandInServerIsNotJudgedOnHTTPS() {
        let file = Self.check(standIn: true)
        #expect(file.findings.isEmpty)
        #expect(file.summary.notApplicable?.first?.rule == "UL004")
    }

    @Test func verdictsNameTheDecidingRule() {
        let file = Self.check()
        guard case .handled(let rule) = file.verdict(for: "https://www.example.com/movies/up.html", appIDs: [Self.app])
        else {
            Issue.record("not handled")
            return
        }
        #expect(rule.contains("components[1]"))
        guard case .excluded(let excluded) = file.verdict(for: "https://www.example.com/private/a", appIDs: [])
        else {
            Issue.record("not excluded")
            return
        }
        #expect(excluded.contains("staff"))
        #expect(file.verdict(for: "https://www.example.com/about", appIDs: [Self.app]) == .notMatched)
        #expect(
            Self.check(status: 404, contentType: nil, body: "").verdict(for: "https://www.example.com/", appIDs: [])
                == .noFile(reason: "\(Self.url) answers HTTP 404"))
    }
}
