import Foundation
import Verification

/// Findings for people: grouped by page (in report order), each with severity, rule, line and
/// message, then the site-level ones. Pages are untrusted, so control characters are shown as
/// U+FFFD.
enum FindingsListing {
    /// One page's findings; empty when it has none.
    static func text(page url: String, findings: [Finding]) -> String {
        guard !findings.isEmpty else { return "" }
        var lines = [url]
        for finding in findings {
            let line = finding.line > 0 ? " line \(finding.line)" : ""
            lines.append("  \(finding.severity.rawValue) \(finding.ruleID)\(line): \(finding.message)")
        }
        return PageSummary.printable(lines.joined(separator: "\n")) + "\n"
    }

    static func text(siteFindings: [Finding], heading: String = "across the site:") -> String {
        guard !siteFindings.isEmpty else { return "" }
        var lines = [heading]
        for finding in siteFindings {
            lines.append("  \(finding.severity.rawValue) \(finding.ruleID) \(finding.url): \(finding.message)")
        }
        return PageSummary.printable(lines.joined(separator: "\n")) + "\n"
    }
}
