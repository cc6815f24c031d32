import Foundation
import LenientJSON
import Verification

/// Findings for people: grouped by page (in report order), each with severity, rule, line and
/// message, then the site-level ones. Pages are untrusted, so control characters are shown as
/// U+FFFD.
enum FindingsListing {
    /// One page's findings (JSON as stored in reports); empty when it has none.
    static func text(page url: String, findings: [JSONValue]) -> String {
        guard !findings.isEmpty else { return "" }
        var lines = [url]
        for finding in findings {
            let line = finding["line"]?.intValue ?? 0
            lines.append(
                "  \(finding["severity"]?.stringValue ?? "?") \(finding["rule"]?.stringValue ?? "?")\(line > 0 ? " line \(line)" : ""): \(finding["message"]?.stringValue ?? "")"
            )
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
