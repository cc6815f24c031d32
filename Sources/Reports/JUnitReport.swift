public import Verification

/// Findings as JUnit XML, the format CI systems show as tests: one test case per page (and one
/// for the site-level rules), one failure per error finding; warnings and infos are listed in the
/// case's `system-out`. Every text is XML-escaped (pages are hostile).
public struct JUnitReport: Sendable {
    public struct Case: Sendable {
        public var name: String
        public var findings: [Finding]

        public init(name: String, findings: [Finding]) {
            self.name = name
            self.findings = findings
        }
    }

    public var suiteName: String
    public var cases: [Case]

    public init(suiteName: String, cases: [Case]) {
        self.suiteName = suiteName
        self.cases = cases
    }

    public var xml: String {
        let failures = cases.reduce(0) { $0 + $1.findings.filter { $0.severity == .error }.count }
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        text += "<testsuites name=\"spotcheck\" tests=\"\(cases.count)\" failures=\"\(failures)\">\n"
        text +=
            "  <testsuite name=\"\(Self.escaped(suiteName))\" tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"0\">\n"
        for testCase in cases {
            text += "    <testcase classname=\"\(Self.escaped(suiteName))\" name=\"\(Self.escaped(testCase.name))\""
            guard !testCase.findings.isEmpty else {
                text += "/>\n"
                continue
            }
            text += ">\n"
            for finding in testCase.findings where finding.severity == .error {
                let where_ = finding.line > 0 ? " (line \(finding.line))" : ""
                text +=
                    "      <failure type=\"\(Self.escaped(finding.ruleID))\" message=\"\(Self.escaped("\(finding.ruleID)\(where_): \(finding.message)"))\">"
                text += Self.escaped("\(finding.excerpt)\nFix: \(finding.fixHint)") + "</failure>\n"
            }
            let others = testCase.findings.filter { $0.severity != .error }
            if !others.isEmpty {
                let lines = others.map { "\($0.severity.rawValue) \($0.ruleID) line \($0.line): \($0.message)" }
                text += "      <system-out>" + Self.escaped(lines.joined(separator: "\n")) + "</system-out>\n"
            }
            text += "    </testcase>\n"
        }
        text += "  </testsuite>\n</testsuites>\n"
        return text
    }

    /// XML 1.0 text and attribute escaping; characters XML 1.0 cannot hold become U+FFFD.
    static func escaped(_ text: String) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&apos;"
            case "\t", "\n", "\r": output.unicodeScalars.append(scalar)
            default:
                let value = scalar.value
                let allowed =
                    (0x20...0xD7FF).contains(value) || (0xE000...0xFFFD).contains(value)
                    || (0x10000...0x10FFFF).contains(value)
                output.unicodeScalars.append(allowed ? scalar : "\u{FFFD}")
            }
        }
        return output
    }
}
