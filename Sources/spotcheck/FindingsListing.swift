import Foundation
import LenientJSON
import Verification

/// Findings for people: grouped by page (in report order), each with severity, rule, line and
/// message, then the site-level ones, then a count by severity. Pages are untrusted, so control
/// characters are shown as U+FFFD.
struct FindingsListing {
    private(set) var text = ""
    private var counts: [String: Int] = [:]

    /// Adds one page's findings (JSON as stored in reports).
    mutating func add(page url: String, findings: [JSONValue]) {
        guard !findings.isEmpty else { return }
        var lines = [url]
        for finding in findings {
            let severity = finding["severity"]?.stringValue ?? "?"
            counts[severity, default: 0] += 1
            let line = finding["line"]?.intValue ?? 0
            lines.append(
                "  \(severity) \(finding["rule"]?.stringValue ?? "?")\(line > 0 ? " line \(line)" : ""): \(finding["message"]?.stringValue ?? "")"
            )
        }
        text += PageSummary.printable(lines.joined(separator: "\n")) + "\n"
    }

    mutating func add(siteFindings: [Finding]) {
        guard !siteFindings.isEmpty else { return }
        var lines = ["across the site:"]
        for finding in siteFindings {
            counts[finding.severity.rawValue, default: 0] += 1
            lines.append("  \(finding.severity.rawValue) \(finding.ruleID) \(finding.url): \(finding.message)")
        }
        text += PageSummary.printable(lines.joined(separator: "\n")) + "\n"
    }

    var countLine: String {
        "findings: " + ["error", "warning", "info"].map { "\(counts[$0] ?? 0) \($0)" }.joined(separator: ", ")
    }
}
