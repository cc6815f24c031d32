import LenientJSON
import Testing
import UniversalLinks

/// Hostile input: nothing may crash, hang or fail to report.
@Suite("AASA hostile input")
struct AASARobustnessTests {
    static let urls = [
        "https://www.example.com/", "https://www.example.com/movies/up.html?x=1&x=2#f",
        "https://www.example.com/%C3%A9/%2F?%=%", "ftp://x/",
    ]

    static let template = """
        {"applinks": {"apps": [], "defaults": {"caseSensitive": false, "percentEncoded": true},
          "substitutionVariables": {"v": ["a*", "b?"]},
          "details": [{"appID": "ABCDE12345.com.example.app", "appIDs": ["ABCDE12345.com.example.app"],
            "defaults": {"percentEncoded": false},
            "paths": ["NOT /x/*", "*"],
            "components": [{"/": "/$(v)/*", "?": {"q": "?*"}, "#": "*", "exclude": true, "comment": "c",
                            "caseSensitive": true, "percentEncoded": false}, {"?": "a=*"}]}]},
         "webcredentials": {"apps": ["ABCDE12345.com.example.app"]}, "appclips": {"apps": []},
         "activitycontinuation": {"apps": []}}
        """

    static let replacements: [JSONValue] = [
        .null, true, 0, -1.5, "", "*", "NOT ", "$(", [], [nil], [:], ["x": [1]], [[[]]],
    ]

    /// Every value of the template, replaced in turn by every value of another type.
    static func mutants() -> [JSONValue] {
        guard let base = JSONParser.parse(template, lenient: false).value else { return [] }
        var result: [JSONValue] = []
        func visit(_ value: JSONValue, rebuild: (JSONValue) -> JSONValue) {
            for replacement in replacements where replacement != value {
                result.append(rebuild(replacement))
            }
            switch value {
            case .array(let elements):
                for index in elements.indices {
                    visit(elements[index]) { new in
                        var copy = elements
                        copy[index] = new
                        return rebuild(.array(copy))
                    }
                }
            case .object(let object):
                for index in object.members.indices {
                    visit(object.members[index].value) { new in
                        var copy = object
                        copy.members[index].value = new
                        return rebuild(.object(copy))
                    }
                }
            default:
                break
            }
        }
        visit(base) { $0 }
        return result
    }

    @Test func wrongTypesEverywhereNeverCrash() {
        let all = Self.mutants()
        #expect(all.count > 400)
        for mutant in all {
            let text = mutant.serialized()
            let result = AASAValidator.validate(text, configuredAppID: "ABCDE12345.com.example.app")
            for url in Self.urls {
                _ = result.document?.match(url, appID: "ABCDE12345.com.example.app", servedForHost: "www.example.com")
            }
            if mutant.objectValue == nil {
                #expect(result.problems.contains { $0.ruleID == "UL006" })
            }
        }
    }

    @Test(arguments: [100, 600, 100_000])
    func deepNesting(_ depth: Int) {
        let text =
            #"{"applinks": {"details": "# + String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            + "}}"
        let result = AASAValidator.validate(text)
        #expect(!result.problems.isEmpty)
        let objects =
            #"{"applinks": "# + String(repeating: #"{"a":"#, count: depth) + "1"
            + String(repeating: "}", count: depth + 1)
        _ = AASAValidator.validate(objects)
    }

    @Test func hugeStringsAreHandled() {
        let huge = String(repeating: "*?", count: 200_000)
        let text =
            #"{"applinks": {"apps": [], "details": [{"appIDs": ["ABCDE12345.com.x"], "components": [{"/": "/\#(huge)"}]}]}}"#
        let result = AASAValidator.validate(text, configuredAppID: "ABCDE12345.com.x")
        #expect(result.problems.contains { $0.ruleID == "UL007" })
        let document = result.document
        #expect(document != nil)
        let url = "https://e.com/" + String(repeating: "a", count: 2_000)
        #expect(document?.match(url, appID: "ABCDE12345.com.x") == .notMatched)
    }

    @Test func longRunsOfStarsStayLinear() {
        let stars = String(repeating: "*", count: 100_000)
        let text =
            #"{"applinks": {"apps": [], "details": [{"appIDs": ["ABCDE12345.com.x"], "components": [{"/": "/\#(stars)x"}]}]}}"#
        let document = AASADocument.parse(text).document
        let url = "https://e.com/" + String(repeating: "a", count: 4_000)
        #expect(document?.match(url, appID: "ABCDE12345.com.x") == .notMatched)
        #expect(document?.match(url + "x", appID: "ABCDE12345.com.x") != .notMatched)
    }

    @Test(arguments: [
        [UInt8](), [0x30], [0x30, 0x80], [0x30, 0x84, 0xFF, 0xFF, 0xFF, 0xFF], [0xFF, 0xFE, 0x00],
        [0x30, 0x80, 0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02, 0xA0, 0x80, 0x30, 0x80],
        Array(repeating: 0x30, count: 64) + [0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02],
        [0x30, 0x0D, 0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02, 0xA0, 0x00],
    ])
    func binaryGarbage(_ bytes: [UInt8]) {
        let result = AASAValidator.validate(bytes)
        #expect(result.document == nil)
        #expect(result.problems.contains { $0.ruleID == "UL006" || $0.ruleID == "UL008" })
    }

    @Test func nestedIndefiniteLengthsDoNotRecurseForever() {
        var bytes: [UInt8] = [0x30, 0x80, 0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02]
        bytes += Array(repeating: [0xA0, 0x80], count: 50_000).flatMap { $0 }
        let result = AASAValidator.validate(bytes)
        #expect(result.problems.map(\.ruleID) == ["UL008"])
    }
}
