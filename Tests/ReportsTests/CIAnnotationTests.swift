import LenientJSON
import Reports
import Rulebook
import Testing
import Verification

/// `--format github` and `--format gitlab` from findings, without a process.
@Suite("GitHub annotations and the GitLab Code Quality report")
struct CIAnnotationTests {
    static func finding(
        _ rule: RuleID = .sab002, _ severity: Severity = .error, url: String = "https://www.example.com/a.html",
        line: Int = 12, column: Int? = 5, excerpt: String = "<meta name=\"apple-itunes-app\">",
        message: String = "no app-id"
    ) -> Finding {
        Finding(
            rule: rule, severity: severity, url: url, line: line, column: column, excerpt: excerpt, message: message,
            fixHint: "Add app-id=NNN.")
    }

    @Test("a finding in a file is an annotation on its line; on a URL, the URL is in the message")
    func annotations() {
        let inFile = GitHubAnnotations(
            findings: [Self.finding()], sourcePaths: ["https://www.example.com/a.html": "site/a.html"])
        #expect(
            inFile.text
                == "::error file=site/a.html,line=12,col=5,title=SpotCheck SAB002::no app-id%0AFix: Add app-id=NNN.\n")
        let onURL = GitHubAnnotations(findings: [
            Self.finding(.sab007, .warning, column: nil), Self.finding(.sab004, .info),
        ])
        #expect(
            onURL.text
                == "::warning title=SpotCheck SAB007::no app-id%0Ahttps://www.example.com/a.html, line 12%0AFix: Add app-id=NNN.\n"
                + "::notice title=SpotCheck SAB004::no app-id%0Ahttps://www.example.com/a.html, line 12, column 5%0AFix: Add app-id=NNN.\n"
        )
    }

    @Test("hostile text cannot end the line or start a command: %, CR, LF escaped; : and , in properties too")
    func escaping() {
        let hostile = Self.finding(
            url: "https://x.example/a,b:c.html", message: "100% bad\r\n::set-env name=X::1")
        let text = GitHubAnnotations(findings: [hostile], sourcePaths: [hostile.url: "we,ird:name.html"]).text
        #expect(
            text
                == "::error file=we%2Cird%3Aname.html,line=12,col=5,title=SpotCheck SAB002::"
                + "100%25 bad%0D%0A::set-env name=X::1%0AFix: Add app-id=NNN.\n")
        #expect(text.split(separator: "\n").count == 1)
    }

    @Test("GitLab issues: the documented subset, one line of description, unique and stable fingerprints")
    func codeQuality() throws {
        let findings = [
            Self.finding(message: "two\nlines"), Self.finding(), Self.finding(line: 0),
            Self.finding(.og001, .warning, url: "https://www.example.com/b.html"),
        ]
        let json = CodeQualityReport(findings: findings, sourcePaths: ["https://www.example.com/a.html": "a.html"]).json
        let issues = try #require(json.arrayValue)
        #expect(issues.count == 4)
        #expect(issues[0]["description"] == "two lines")
        #expect(issues[0]["check_name"] == "SAB002")
        #expect(issues[0]["severity"] == "major")
        #expect(issues[3]["severity"] == "minor")
        #expect(
            issues[0]["location"]
                == [
                    "path": "a.html",
                    "positions": ["begin": ["line": 12, "column": 5], "end": ["line": 12, "column": 5]],
                ])
        let noColumn = CodeQualityReport(findings: [Self.finding(column: nil)], sourcePaths: [:]).json
        #expect(noColumn[0]?["location"]?["lines"]?["begin"] == 12)
        #expect(issues[2]["location"]?["lines"]?["begin"] == 1, "a finding without a line is on line 1")
        #expect(issues[3]["location"]?["path"] == "https://www.example.com/b.html")
        let fingerprints = issues.compactMap { $0["fingerprint"]?.stringValue }
        #expect(Set(fingerprints).count == 4, "the same finding twice gets two fingerprints")
        // The line is not part of it: an edit above the markup keeps the fingerprint.
        let moved = CodeQualityReport(
            findings: [Self.finding(line: 40, message: "two\nlines")],
            sourcePaths: ["https://www.example.com/a.html": "a.html"]
        ).json
        #expect(moved[0]?["fingerprint"]?.stringValue == fingerprints[0])
    }
}
