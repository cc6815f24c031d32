public import Rulebook

/// Findings as GitHub Actions workflow commands, one line each on stdout, which the runner turns
/// into annotations: `::error file=…,line=…,col=…,title=…::message` (`warning`, `notice` for the
/// other severities), the syntax of GitHub's "Workflow commands for GitHub Actions"
/// (docs.github.com/en/actions/reference/workflow-commands-for-github-actions). Values are escaped
/// as GitHub's own toolkit escapes them (actions/toolkit, packages/core/src/command.ts,
/// `escapeData` and `escapeProperty`): `%`, CR and LF in the message; also `:` and `,` in
/// properties. So a page's text can never end the line and start a command of its own.
///
/// A finding on a file (`validate`, `crawl FOLDER`) names it with `file` (relative to the
/// repository's root), `line` and `col`; a finding on a page that has no file (a site's URL) has
/// its URL, line and column written in the message.
public struct GitHubAnnotations: Sendable {
    public var findings: [Finding]
    /// Page URL → the file it was read from, as `validate` found it.
    public var sourcePaths: [String: String]

    public init(findings: [Finding], sourcePaths: [String: String] = [:]) {
        self.findings = findings
        self.sourcePaths = sourcePaths
    }

    /// Every finding's line, each ending with a newline.
    public var text: String {
        findings.map(line(for:)).joined()
    }

    func line(for finding: Finding) -> String {
        var properties: [(String, String)] = []
        let file = sourcePaths[finding.url]
        if let file {
            properties.append(("file", file))
            if finding.line > 0 {
                properties.append(("line", String(finding.line)))
                if let column = finding.column, column > 0 { properties.append(("col", String(column))) }
            }
        }
        properties.append(("title", "SpotCheck \(finding.ruleID)"))
        var message = finding.message
        if file == nil {
            message += "\n" + finding.url
            if finding.line > 0 { message += ", " + finding.lineAndColumn }
        }
        if !finding.fixHint.isEmpty { message += "\nFix: " + finding.fixHint }
        let list = properties.map { "\($0.0)=\(Self.escapedProperty($0.1))" }.joined(separator: ",")
        return "::\(Self.command(finding.severity)) \(list)::\(Self.escapedData(message))\n"
    }

    /// `error`, `warning`, or `notice` for an info finding.
    static func command(_ severity: Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .info: "notice"
        }
    }

    /// The message: `%` → `%25`, CR → `%0D`, LF → `%0A` (toolkit's `escapeData`).
    static func escapedData(_ text: String) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "%": output += "%25"
            case "\r": output += "%0D"
            case "\n": output += "%0A"
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output
    }

    /// A property value: the message's escapes, and `:` → `%3A`, `,` → `%2C` (toolkit's `escapeProperty`).
    static func escapedProperty(_ text: String) -> String {
        escapedData(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}
