import Crypto
public import LenientJSON
public import Rulebook

/// Findings as a GitLab Code Quality report (`gl-code-quality-report.json`, the artifact of
/// `artifacts:reports:codequality`): a JSON array with one object per finding holding the subset
/// of the Code Climate issue format GitLab reads (docs.gitlab.com/ci/testing/code_quality/, "Code
/// Quality report format"; github.com/codeclimate/platform spec/analyzers/SPEC.md): `description`
/// (one line, as the spec asks), `check_name` (the rule id), `fingerprint`, `severity` and
/// `location.path`, `location.lines.begin`.
///
/// - `location.path` is the file the page was read from (`validate`) or served from (`crawl
///   FOLDER`), relative to the repository's root, else the page's URL; `positions.begin` has the
///   finding's line and column when the column is known, else `lines.begin` has its line, or 1
///   when it has none (the format's lines start at 1).
/// - `severity`: error → `major`, warning → `minor`, info → `info` (SpotCheck has three levels;
///   `critical` and `blocker` are not used).
/// - `fingerprint`: the first 32 hex digits of SHA-256 over the rule, the location as written,
///   the markup excerpt and which occurrence of that triple it is (1, 2 …). Not the line, which moves
///   when lines above are edited: the same finding keeps its fingerprint from run to run, and two
///   findings of one report never share one (GitLab compares reports by fingerprint).
public struct CodeQualityReport: Sendable {
    /// The file name GitLab's documentation uses.
    public static let fileName = "gl-code-quality-report.json"

    public var findings: [Finding]
    /// Page URL → the file it was read from, as `validate` found it.
    public var sourcePaths: [String: String]

    public init(findings: [Finding], sourcePaths: [String: String] = [:]) {
        self.findings = findings
        self.sourcePaths = sourcePaths
    }

    public var json: JSONValue {
        var occurrences: [String: Int] = [:]
        var issues: [JSONValue] = []
        issues.reserveCapacity(findings.count)
        for finding in findings {
            let path = sourcePaths[finding.url] ?? finding.url
            let identity = [finding.ruleID, path, finding.excerpt].joined(separator: "\u{0}")
            occurrences[identity, default: 0] += 1
            var issue = JSONObject()
            issue.append("description", .string(Self.oneLine(finding.message)))
            issue.append("check_name", .string(finding.ruleID))
            issue.append("fingerprint", .string(Self.fingerprint(identity, occurrence: occurrences[identity] ?? 1)))
            issue.append("severity", .string(Self.severity(finding.severity)))
            issue.append("location", Self.location(path: path, finding: finding))
            issues.append(.object(issue))
        }
        return .array(issues)
    }

    /// `lines.begin`, or where the column is known, `positions` (begin and end, the spec's
    /// other form, which GitLab reads too) with the line and column.
    static func location(path: String, finding: Finding) -> JSONValue {
        let line = JSONValue(max(1, finding.line))
        guard finding.line > 0, let column = finding.column, column > 0 else {
            return ["path": .string(path), "lines": ["begin": line]]
        }
        let position: JSONValue = ["line": line, "column": JSONValue(column)]
        return ["path": .string(path), "positions": ["begin": position, "end": position]]
    }

    static func severity(_ severity: Severity) -> String {
        switch severity {
        case .error: "major"
        case .warning: "minor"
        case .info: "info"
        }
    }

    static func fingerprint(_ identity: String, occurrence: Int) -> String {
        let digest = SHA256.hash(data: Array("\(identity)\u{0}\(occurrence)".utf8))
        return digest.prefix(16).map { byte in
            let hex = String(byte, radix: 16)
            return hex.count == 1 ? "0" + hex : hex
        }.joined()
    }

    /// Line breaks and other control characters as spaces: a description is one line of text.
    static func oneLine(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.map { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) ? " " : $0 }))
    }
}
