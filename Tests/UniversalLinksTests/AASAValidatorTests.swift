import Rulebook
import Testing
import UniversalLinks

/// A DER element.
func der(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
    var length: [UInt8]
    if content.count < 0x80 {
        length = [UInt8(content.count)]
    } else {
        var bytes: [UInt8] = []
        var count = content.count
        while count > 0 {
            bytes.insert(UInt8(count & 0xFF), at: 0)
            count >>= 8
        }
        length = [0x80 | UInt8(bytes.count)] + bytes
    }
    return [tag] + length + content
}

/// A minimal CMS `SignedData` (no signer infos) carrying `json`, like `openssl smime -sign -outform der` makes.
func signedFile(_ json: String) -> [UInt8] {
    let signedDataOID: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]
    let dataOID: [UInt8] = [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x01]
    let encapsulated = der(0x30, der(0x06, dataOID) + der(0xA0, der(0x04, Array(json.utf8))))
    let signedData = der(0x30, der(0x02, [1]) + der(0x31, []) + encapsulated + der(0x31, []))
    return der(0x30, der(0x06, signedDataOID) + der(0xA0, signedData))
}

/// A valid file with one entry for ``testAppID`` and the given `components` JSON.
func validFile(components: String = #"[{"/": "/a/*"}]"#) -> String {
    #"{"applinks": {"apps": [], "details": [{"appIDs": ["\#(testAppID)"], "components": \#(components)}]}}"#
}

/// One content-rule case: a file body, an optional configured app ID, a rule and whether it must fire.
struct RuleCase: CustomTestStringConvertible, Sendable {
    var ruleID: String
    var fires: Bool
    var body: [UInt8]
    var appID: String?
    var label: String

    init(_ ruleID: String, fires: Bool, _ text: String, appID: String? = nil) {
        self.ruleID = ruleID
        self.fires = fires
        body = Array(text.utf8)
        self.appID = appID
        label = text.count > 120 ? String(text.prefix(120)) + "…" : text
    }

    init(_ ruleID: String, fires: Bool, bytes: [UInt8], label: String) {
        self.ruleID = ruleID
        self.fires = fires
        body = bytes
        appID = nil
        self.label = label
    }

    var testDescription: String { "\(ruleID) \(fires ? "fires" : "silent"): \(label)" }
}

@Suite("AASA validation")
struct AASAValidatorTests {
    static let contentCases: [RuleCase] = [
        RuleCase("UL006", fires: false, validFile()),
        RuleCase("UL006", fires: true, "\u{FEFF}" + validFile()),
        RuleCase("UL006", fires: true, #"{/* comment */ "applinks": {"apps": [], "details": []}}"#),
        RuleCase("UL006", fires: true, #"{"applinks": {"apps": [], "details": [],}}"#),
        RuleCase("UL006", fires: true, #"["applinks"]"#),
        RuleCase("UL006", fires: true, ""),
        RuleCase("UL007", fires: false, validFile()),
        RuleCase(
            "UL007", fires: true,
            #"{"applinks": {"apps": [], "details": []}, "padding": ""# + String(repeating: "x", count: 131_072)
                + #""}"#),
        RuleCase("UL008", fires: false, bytes: Array(validFile().utf8), label: "plain JSON"),
        RuleCase("UL008", fires: true, bytes: signedFile(validFile()), label: "CMS SignedData around JSON"),
        RuleCase("UL008", fires: true, bytes: Array(signedFile(validFile()).prefix(40)), label: "truncated CMS"),
        RuleCase("UL009", fires: false, #"{"applinks": {"apps": [], "details": []}}"#),
        RuleCase("UL009", fires: false, #"{"webcredentials": {"apps": []}}"#),
        RuleCase("UL009", fires: true, #"{"applinks": {"apps": []}}"#),
        RuleCase("UL009", fires: true, #"{"applinks": {"apps": [], "details": "none"}}"#),
        RuleCase("UL009", fires: true, #"{"applinks": []}"#),
        RuleCase("UL009", fires: true, #"{"applinks": {"apps": [], "details": {"\#(testAppID)": {"paths": ["*"]}}}}"#),
        RuleCase("UL010", fires: false, validFile()),
        RuleCase("UL010", fires: true, #"{"applinks": {"details": []}}"#),
        RuleCase("UL010", fires: true, #"{"applinks": {"apps": ["\#(testAppID)"], "details": []}}"#),
        RuleCase("UL010", fires: true, #"{"applinks": {"apps": {}, "details": []}}"#),
        RuleCase("UL011", fires: false, validFile()),
        RuleCase("UL011", fires: true, #"{"applinks": {"apps": [], "details": [{"components": []}]}}"#),
        RuleCase("UL011", fires: true, #"{"applinks": {"apps": [], "details": [{"appID": "com.example.app"}]}}"#),
        RuleCase("UL011", fires: true, #"{"applinks": {"apps": [], "details": [{"appIDs": ["ABCDE1234.com.x"]}]}}"#),
        RuleCase("UL011", fires: true, #"{"applinks": {"apps": [], "details": [{"appIDs": ["ABCDE-1234.com.x"]}]}}"#),
        RuleCase("UL011", fires: true, #"{"applinks": {"apps": [], "details": [{"appIDs": ["ABCDE12345."]}]}}"#),
        RuleCase("UL011", fires: true, #"{"applinks": {"apps": [], "details": [{"appIDs": ["ABCDE12345.a..b"]}]}}"#),
        RuleCase("UL011", fires: true, #"{"applinks": {"apps": [], "details": [{"appIDs": "\#(testAppID)"}]}}"#),
        RuleCase("UL011", fires: true, #"{"applinks": {"apps": [], "details": [{"appID": 12345}]}}"#),
        RuleCase("UL011", fires: true, #"{"applinks": {"apps": [], "details": ["\#(testAppID)"]}}"#),
        RuleCase("UL012", fires: false, validFile()),
        RuleCase(
            "UL012", fires: true,
            #"{"applinks": {"apps": [], "details": [{"appID": "\#(testAppID)", "appIDs": ["\#(testAppID)"]}]}}"#),
        RuleCase("UL013", fires: false, validFile()),
        RuleCase(
            "UL013", fires: true,
            #"{"applinks": {"apps": [], "details": [{"appIDs": ["\#(testAppID)"], "components": [], "paths": ["*"]}]}}"#
        ),
        RuleCase(
            "UL014", fires: false,
            validFile(
                components:
                    ##"[{"/": "/a", "?": {"b": "c"}, "#": "d", "exclude": true, "comment": "e", "caseSensitive": false, "percentEncoded": true}]"##
            )),
        RuleCase("UL014", fires: true, validFile(components: #"[{"/": 5}]"#)),
        RuleCase("UL014", fires: true, validFile(components: #"[{"?": 5}]"#)),
        RuleCase("UL014", fires: true, validFile(components: #"[{"?": {"a": ["b"]}}]"#)),
        RuleCase("UL014", fires: true, validFile(components: ##"[{"#": []}]"##)),
        RuleCase("UL014", fires: true, validFile(components: #"[{"exclude": "true"}]"#)),
        RuleCase("UL014", fires: true, validFile(components: #"[{"caseSensitive": "no"}]"#)),
        RuleCase("UL014", fires: true, validFile(components: #"[{"percentEncoded": 0}]"#)),
        RuleCase("UL014", fires: true, validFile(components: #"[{"comment": 1}]"#)),
        RuleCase("UL014", fires: true, validFile(components: #"["/a/*"]"#)),
        RuleCase("UL014", fires: true, validFile(components: #"{"/": "/a"}"#)),
        RuleCase(
            "UL014", fires: true, #"{"applinks": {"apps": [], "details": [{"appID": "\#(testAppID)", "paths": [1]}]}}"#),
        RuleCase(
            "UL014", fires: true, #"{"applinks": {"apps": [], "details": [{"appID": "\#(testAppID)", "paths": "*"}]}}"#),
        RuleCase(
            "UL015", fires: false,
            #"{"applinks": {"apps": [], "details": [{"appID": "\#(testAppID)", "paths": ["NOT /x", "*"]}]}}"#),
        RuleCase(
            "UL015", fires: true,
            #"{"applinks": {"apps": [], "details": [{"appID": "\#(testAppID)", "paths": ["NOT/x", "*"]}]}}"#),
        RuleCase("UL015", fires: true, validFile(components: #"[{"/": "NOT /x"}]"#)),
        RuleCase("UL016", fires: false, validFile(components: #"[{"/": "/a/*"}, {"/": "/b"}]"#)),
        RuleCase("UL016", fires: false, validFile(components: #"[{"/": "/a"}, {"/": "/a/b"}]"#)),
        RuleCase("UL016", fires: false, validFile(components: #"[{"/": "*", "?": {"x": "1"}}, {"/": "/y"}]"#)),
        RuleCase("UL016", fires: false, validFile(components: ##"[{"/": "*", "#": "f"}, {"/": "/y"}]"##)),
        RuleCase(
            "UL016", fires: false, validFile(components: #"[{"/": "/A/*"}, {"/": "/a/x", "caseSensitive": false}]"#)),
        RuleCase("UL016", fires: false, validFile(components: #"[{"/": "/a/*b"}, {"/": "/a/xb"}]"#)),
        RuleCase(
            "UL016", fires: false, validFile(components: #"[{"/": "/a/*", "percentEncoded": false}, {"/": "/a/x"}]"#)),
        RuleCase("UL016", fires: true, validFile(components: #"[{"/": "*"}, {"/": "/x", "exclude": true}]"#)),
        RuleCase("UL016", fires: true, validFile(components: #"[{}, {"/": "/x"}]"#)),
        // A rule without "/" takes the entry's or the domain's default "/" (as swcutil does): not everything.
        RuleCase(
            "UL016", fires: false,
            #"{"applinks": {"apps": [], "details": [{"appIDs": ["\#(testAppID)"], "defaults": {"/": "/a/*"}, "components": [{}, {"/": "/b"}]}]}}"#
        ),
        RuleCase(
            "UL016", fires: true,
            #"{"applinks": {"apps": [], "defaults": {"/": "/a/*"}, "details": [{"appIDs": ["\#(testAppID)"], "components": [{}, {"/": "/a/b"}]}]}}"#
        ),
        RuleCase(
            "UL016", fires: false,
            #"{"applinks": {"apps": [], "defaults": {"/": "/a/*"}, "details": [{"appIDs": ["\#(testAppID)"], "components": [{}]}, {"appIDs": ["\#(testAppID)"], "components": [{"/": "*"}]}]}}"#
        ),
        RuleCase("UL016", fires: true, validFile(components: #"[{"/": "/private/*"}, {"/": "/private/a.html"}]"#)),
        RuleCase("UL016", fires: true, validFile(components: #"[{"/": "/private/*"}, {"/": "/private/*/x/*"}]"#)),
        RuleCase("UL016", fires: true, validFile(components: #"[{"/": "/a/*"}, {"/": "/a"}]"#)),
        RuleCase("UL016", fires: true, validFile(components: #"[{"/": "/a"}, {"/": "a/"}]"#)),
        RuleCase(
            "UL016", fires: true, validFile(components: #"[{"/": "/A/*", "caseSensitive": false}, {"/": "/a/x"}]"#)),
        RuleCase("UL016", fires: true, validFile(components: #"[{"/": "/a/*"}, {"/": "/a/x", "?": "q"}]"#)),
        RuleCase(
            "UL016", fires: true,
            #"{"applinks": {"apps": [], "details": [{"appID": "\#(testAppID)", "paths": ["*", "/x"]}]}}"#),
        RuleCase(
            "UL016", fires: true,
            #"{"applinks": {"apps": [], "details": [{"appID": "\#(testAppID)", "paths": ["/x/*", "NOT /x/y"]}]}}"#),
        RuleCase(
            "UL016", fires: true,
            #"{"applinks": {"apps": [], "details": [{"appIDs": ["\#(testAppID)"], "components": [{"/": "/*"}]}, {"appIDs": ["\#(testAppID)"], "components": [{"/": "/x"}]}]}}"#
        ),
        RuleCase(
            "UL016", fires: false,
            #"{"applinks": {"apps": [], "details": [{"appIDs": ["\#(testAppID)"], "components": [{"/": "/*"}]}, {"appIDs": ["\#(testAppID)", "ZZZZZ99999.com.other"], "components": [{"/": "/x"}]}]}}"#
        ),
        RuleCase(
            "UL017", fires: false,
            #"{"applinks": {"apps": [], "substitutionVariables": {"food": ["taco*"]}, "details": [{"appIDs": ["\#(testAppID)"], "components": [{"/": "/$(lang)/$(food)/$(digit)"}]}]}}"#
        ),
        RuleCase(
            "UL017", fires: true,
            #"{"applinks": {"apps": [], "substitutionVariables": {"fo$d": ["x"]}, "details": []}}"#),
        RuleCase(
            "UL017", fires: true,
            #"{"applinks": {"apps": [], "substitutionVariables": {"f(x)": ["x"]}, "details": []}}"#),
        RuleCase(
            "UL017", fires: true,
            #"{"applinks": {"apps": [], "substitutionVariables": {"a": ["$(lang)"]}, "details": []}}"#),
        RuleCase("UL017", fires: true, validFile(components: #"[{"/": "/$(food)/*"}]"#)),
        RuleCase("UL017", fires: true, validFile(components: #"[{"?": {"q": "$(Digit)"}}]"#)),
        RuleCase("UL018", fires: false, validFile(components: #"[{"/": "/café", "percentEncoded": false}]"#)),
        RuleCase("UL018", fires: false, validFile(components: #"[{"/": "/caf%C3%A9"}]"#)),
        RuleCase("UL018", fires: true, validFile(components: #"[{"/": "/café"}]"#)),
        RuleCase("UL018", fires: true, validFile(components: ##"[{"#": "ü"}]"##)),
        RuleCase(
            "UL018", fires: true,
            #"{"applinks": {"apps": [], "details": [{"appID": "\#(testAppID)", "paths": ["/é"]}]}}"#),
        RuleCase("UL019", fires: false, validFile(), appID: testAppID),
        RuleCase("UL019", fires: false, validFile()),
        RuleCase("UL019", fires: true, validFile(), appID: "ZZZZZ99999.com.other"),
        RuleCase("UL019", fires: true, #"{"webcredentials": {"apps": ["\#(testAppID)"]}}"#, appID: testAppID),
        RuleCase(
            "UL019", fires: false, #"{"applinks": {"apps": [], "details": {"\#(testAppID)": {"paths": ["*"]}}}}"#,
            appID: testAppID),
        RuleCase(
            "UL022", fires: false,
            #"{"applinks": {"apps": [], "defaults": {"caseSensitive": false, "percentEncoded": true}, "details": []}}"#),
        RuleCase(
            "UL022", fires: true,
            #"{"applinks": {"apps": [], "defaults": {"caseSensitive": false, "exclude": true}, "details": []}}"#),
        RuleCase(
            "UL022", fires: true,
            #"{"applinks": {"apps": [], "details": [{"appIDs": ["\#(testAppID)"], "defaults": {"/": "*"}}]}}"#),
        RuleCase("UL025", fires: false, validFile(components: #"[{"?": {"a": "1"}}]"#)),
        RuleCase("UL025", fires: true, validFile(components: #"[{"?": {"a": 1}}]"#)),
        RuleCase("UL025", fires: true, validFile(components: #"[{"?": {"a": null, "b": "x"}}]"#)),
    ]

    @Test(arguments: contentCases)
    func contentRule(_ testCase: RuleCase) {
        let result = AASAValidator.validate(testCase.body, configuredAppID: testCase.appID)
        let fired = result.problems.filter { $0.ruleID == testCase.ruleID }
        if testCase.fires {
            #expect(!fired.isEmpty, "problems: \(result.problems)")
        } else {
            #expect(fired.isEmpty, "problems: \(fired)")
        }
    }

    /// Every rule id the module reports is one of the catalogue's UL rules, with the catalogue's severity.
    @Test func problemsUseCatalogueRulesAndSeverities() {
        let severities: [String: Set<AASAProblem.Severity>] = [
            "UL001": [.error], "UL002": [.warning], "UL003": [.error], "UL004": [.error], "UL005": [.warning],
            "UL006": [.error], "UL007": [.error], "UL008": [.warning], "UL009": [.error, .warning], "UL010": [.info],
            "UL011": [.error], "UL012": [.warning], "UL013": [.warning], "UL014": [.error], "UL015": [.warning],
            "UL016": [.warning], "UL017": [.error], "UL018": [.warning], "UL019": [.error], "UL022": [.warning],
            "UL024": [.warning], "UL025": [.warning],
        ]
        #expect(Set(severities.keys) == Set(AASAValidator.rules.map(\.rawValue)))
        for testCase in Self.contentCases {
            for problem in AASAValidator.validate(testCase.body, configuredAppID: testCase.appID).problems {
                #expect(severities[problem.ruleID]?.contains(problem.severity) == true, "\(problem)")
            }
        }
    }

    @Test func cleanFileHasNoProblems() {
        #expect(AASAValidator.validate(validFile(), configuredAppID: testAppID).problems.isEmpty)
    }

    @Test func problemsPointIntoTheFile() throws {
        let text = """
            {
              "applinks": {
                "apps": [],
                "details": [
                  {
                    "appIDs": ["\(testAppID)"],
                    "components": [
                      {"/": "/a"},
                      {"/": "/b", "?": 7}
                    ]
                  }
                ]
              }
            }
            """
        let problems = AASAValidator.validate(text).problems
        let problem = try #require(problems.first { $0.ruleID == "UL014" })
        #expect(problem.location == AASALocation(path: #"applinks.details[0].components[1]["?"]"#, line: 9, column: 28))
        #expect(problem.message.contains("7"))
    }

    @Test func problemsComeInFileOrder() {
        let text = """
            {"applinks": {"apps": [], "details": [
              {"appIDs": ["bad", 7], "components": [{"/": 1}, {"/": "NOT /x"}]}
            ],
              "defaults": {"x": 1}}}
            """
        let problems = AASAValidator.validate(text).problems
        #expect(Set(problems.map(\.ruleID)) == ["UL011", "UL014", "UL015", "UL022"])
        let positions = problems.map { ($0.location?.line ?? 0) * 10_000 + ($0.location?.column ?? 0) }
        #expect(!positions.contains { $0 < 10_000 })
        #expect(positions == positions.sorted())
    }

    @Test func invalidJSONReportsTheParserPosition() throws {
        let problem = try #require(AASAValidator.validate("{\n  \"applinks\": {},\n}").problems.first)
        #expect(problem.ruleID == "UL006")
        // The strict parser points at the trailing comma.
        #expect(problem.location?.line == 2)
        #expect(problem.location?.column == 17)
    }

    @Test func byteOrderMarkIsNamed() throws {
        let problem = try #require(AASAValidator.validate("\u{FEFF}" + validFile()).problems.first)
        #expect(problem.ruleID == "UL006")
        #expect(problem.message.contains("byte order mark"))
    }

    @Test func signedFileContentIsStillReadAndMatched() throws {
        let result = AASAValidator.validate(signedFile(validFile()), configuredAppID: testAppID)
        #expect(result.problems.map(\.ruleID) == ["UL008"])
        let document = try #require(result.document)
        #expect(Expected(document.match("https://e.com/a/1", appID: testAppID)) == .handled(0))
    }

    // MARK: Serving

    static func facts(
        status: Int = 200, https: Bool = true, certificate: Bool? = true, redirected: Bool = false,
        contentType: String? = "application/json", size: Int = 500, signed: Bool = false, rootOnly: Bool = false,
        standIn: Bool = false
    ) -> AASAServingFacts {
        AASAServingFacts(
            url: (https ? "https" : "http") + "://www.example.com/.well-known/apple-app-site-association",
            isHTTPS: https, certificateIsValid: certificate, statusCode: status, redirected: redirected,
            contentType: contentType, bodyByteCount: size, bodyIsSigned: signed, foundOnlyAtRootPath: rootOnly,
            isStandIn: standIn)
    }

    static let servingCases: [(AASAServingFacts, [String])] = [
        (facts(), []),
        (facts(status: 404), ["UL001"]),
        (facts(status: 403, contentType: "text/html"), ["UL001"]),
        (facts(rootOnly: true), ["UL002"]),
        (facts(redirected: true), ["UL003"]),
        (facts(https: false, certificate: nil), ["UL004"]),
        (facts(certificate: false), ["UL004"]),
        (facts(https: false, certificate: nil, standIn: true), []),
        (facts(contentType: "text/plain"), ["UL005"]),
        (facts(contentType: nil), ["UL005"]),
        (facts(contentType: "Application/JSON; charset=utf-8"), []),
        (facts(contentType: "application/pkcs7-mime"), ["UL005"]),
        (facts(contentType: "application/pkcs7-mime", signed: true), []),
        (facts(size: 131_072), []),
        (facts(size: 131_073), ["UL007"]),
    ]

    @Test(arguments: servingCases)
    func servingRules(_ facts: AASAServingFacts, _ expected: [String]) {
        #expect(AASAValidator.checkServing(facts).problems.map(\.ruleID) == expected)
    }

    @Test func standInMakesHTTPSNotApplicable() {
        let report = AASAValidator.checkServing(Self.facts(https: false, certificate: nil, standIn: true))
        #expect(report.notApplicable.map(\.ruleID) == ["UL004"])
        #expect(AASAValidator.checkServing(Self.facts()).notApplicable.isEmpty)
    }

    @Test func signedBodiesAreRecognised() {
        #expect(AASAServingFacts.bodyLooksSigned(signedFile("{}")))
        #expect(!AASAServingFacts.bodyLooksSigned(Array("{}".utf8)))
    }

    // MARK: Entitlements (UL024)

    @Test(
        arguments: [
            ("applinks:www.example.com", nil, 0),
            ("applinks:www.example.com?mode=developer", nil, 0),
            ("applinks:*.example.com", "www.example.com", 0),
            ("applinks:www.example.com:8080", nil, 1),
            ("applinks:www.example.com/", nil, 1),
            ("applinks:www.example.com/app", nil, 1),
            ("applinks:https://www.example.com", nil, 1),
            ("applinks:https://www.example.com:443/", nil, 3),
            ("applinks:*.example.com", "example.com", 1),
            ("webcredentials:*.Example.com", "example.COM", 1),
        ] as [(String, String?, Int)])
    func entitlementDomains(_ entry: String, _ host: String?, _ count: Int) {
        let problems = AASAValidator.checkEntitlementDomain(entry, coveringHost: host)
        #expect(problems.count == count, "\(problems)")
        #expect(problems.allSatisfy { $0.ruleID == "UL024" })
    }
}
