import Foundation
import Rulebook
import Verification

#if canImport(Glibc)
    import Glibc
#endif

/// Findings for people, in the form compilers use so that editors and terminals can jump to them:
/// `place:line:col: error SAB005 <the rule's title>`, then the finding's own message indented.
/// The place is the file a page was read from (relative to the repository's root, as every machine
/// output names it), else its URL. Pages are untrusted, so control characters are shown as U+FFFD.
struct FindingsListing: Sendable {
    /// Which severities are listed: errors by default, every one with `--verbose`.
    var severities: Set<Severity>
    var style: TerminalStyle

    init(verbose: Bool, style: TerminalStyle = .standardOutput) {
        severities = verbose ? Set(Severity.allCases) : [.error]
        self.style = style
    }

    /// One page's listed findings; empty when it has none.
    func text(place: String, findings: [Finding]) -> String {
        findings.filter { severities.contains($0.severity) }.map { entry($0, place: place) }.joined()
    }

    /// The findings over the whole site, each at the URL (or file) it is about.
    func text(siteFindings: [Finding], files: [String: String] = [:]) -> String {
        siteFindings.filter { severities.contains($0.severity) }.map { entry($0, place: files[$0.url] ?? $0.url) }
            .joined()
    }

    /// `place:12:5: error SAB005 title` and the message below it.
    func entry(_ finding: Finding, place: String) -> String {
        var location = place
        if finding.line > 0 {
            location += ":\(finding.line)"
            if let column = finding.column, column > 0 { location += ":\(column)" }
        }
        let title = RuleCatalogue.rule(finding.rule).title
        // The place and the message come from the page: made printable; the colour codes are ours.
        return PageSummary.printable(Self.oneLine(location)) + ": \(style.severity(finding.severity)) "
            + "\(finding.ruleID) \(title)\n" + PageSummary.printable("    " + Self.oneLine(finding.message)) + "\n"
    }

    static func oneLine(_ text: String) -> String {
        String(text.map { $0 == "\n" || $0 == "\r" ? " " : $0 })
    }
}

/// Colour on a terminal, the conventions of no-color.org and terminfo: severities in colour only
/// when the stream is a terminal, `NO_COLOR` is unset or empty and `TERM` is not `dumb`.
struct TerminalStyle: Sendable {
    var colours: Bool

    static var standardOutput: TerminalStyle { TerminalStyle(stream: STDOUT_FILENO) }

    init(colours: Bool) {
        self.colours = colours
    }

    init(stream: Int32, environment: [String: String] = ProcessInfo.processInfo.environment) {
        colours = isatty(stream) == 1 && Self.allowsEscapes(environment) && (environment["NO_COLOR"] ?? "").isEmpty
    }

    /// Whether the terminal takes escape sequences at all (`TERM=dumb` does not).
    static func allowsEscapes(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        environment["TERM"] != "dumb"
    }

    /// The severity's word, bold red, yellow or cyan on a colour terminal.
    func severity(_ severity: Severity) -> String {
        guard colours else { return severity.rawValue }
        let code =
            switch severity {
            case .error: "1;31"
            case .warning: "33"
            case .info: "36"
            }
        return "\u{1B}[\(code)m\(severity.rawValue)\u{1B}[0m"
    }
}
