import Testing
import UniversalLinks

/// `AppIDFormat`, the one app-ID check (UL011 in association files, `--app` on the command line).
@Suite("App ID format")
struct AppIDFormatTests {
    @Test(arguments: ["ABCDE12345.com.example.app", "ABCDE12345.x", "abcde12345.com.example.app-1", "0123456789.a.b-c"])
    func accepts(appID: String) {
        #expect(AppIDFormat.isValid(appID))
        #expect(AppIDFormat.problem(appID) == nil)
    }

    @Test(
        arguments: [
            // An empty bundle-ID part: the case the command line once accepted.
            ("ABCDE12345.com..x", "empty part"), ("ABCDE12345.com.x.", "empty part"),
            ("ABCDE12345..com.x", "empty part"), ("ABCDE12345.", "is not <10-character prefix>"),
            ("ABCDE1234.com.x", "is not <10-character prefix>"), ("ABCDE-1234.com.x", "not 10 ASCII letters or digits"),
            ("ABCDE1234é.com.x", "not 10 ASCII letters or digits"), ("ABCDE12345.com.ex ample", "characters other"),
            ("ABCDE12345.com.exämple", "characters other"), ("com.example.app", "is not <10-character prefix>"),
        ] as [(String, String)])
    func refuses(appID: String, reason: String) {
        #expect(!AppIDFormat.isValid(appID))
        #expect(AppIDFormat.problem(appID)?.contains(reason) == true, "\(AppIDFormat.problem(appID) ?? "nil")")
    }

    /// The association-file rule agrees: the disputed app ID is UL011 there too.
    @Test func anAssociationFileWithTheDisputedAppIDBreaksUL011() {
        let body = #"{"applinks": {"details": [{"appIDs": ["ABCDE12345.com..x"], "components": []}]}}"#
        let result = AASADocument.parse(body)
        #expect(result.problems.contains { $0.ruleID == "UL011" }, "\(result.problems)")
    }
}
