public import Rulebook

/// Findings as JUnit XML, the format CI systems show as tests: one test case per page (and one
/// for the site-level rules). A case with error findings fails, with one `<failure>` that lists
/// them all, so `failures` counts failing cases, as JUnit readers expect; warnings and infos are
/// listed in the case's `system-out`. Every text is XML-escaped (pages are hostile).
public struct JUnitReport: Sendable {
    public struct Case: Sendable {
        public var name: String
        public var findings: [Finding]
        /// For a case that gathers findings of many pages (the site-level rules): where each
        /// finding is (its page's file or URL), written with it. Empty: the case is the page.
        public var places: [String]

        public init(name: String, findings: [Finding], places: [String] = []) {
            self.name = name
            self.findings = findings
            self.places = places
        }

        /// ` at <place>` before a finding's position when the case names several pages.
        func place(of finding: Int) -> String {
            finding < places.count ? " at <\(places[finding])>" : ""
        }

        /// The findings that fail the case: its errors.
        var errors: [Finding] { findings.filter { $0.severity == .error } }
    }

    public var suiteName: String
    public var cases: [Case]

    public init(suiteName: String, cases: [Case]) {
        self.suiteName = suiteName
        self.cases = cases
    }

    /// How many cases fail: those with at least one error finding.
    public var failures: Int { cases.filter { !$0.errors.isEmpty }.count }

    public var xml: String {
        let counts = "tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"0\""
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        text += "<testsuites name=\"spotcheck\" \(counts)>\n"
        text += "  <testsuite name=\"\(Self.escaped(suiteName))\" \(counts)>\n"
        for testCase in cases {
            text += "    <testcase classname=\"\(Self.escaped(suiteName))\" name=\"\(Self.escaped(testCase.name))\""
            guard !testCase.findings.isEmpty else {
                text += "/>\n"
                continue
            }
            text += ">\n"
            let errors = testCase.findings.indices.filter { testCase.findings[$0].severity == .error }
            if !errors.isEmpty {
                text += Self.failure(errors.map { (testCase.findings[$0], testCase.place(of: $0)) })
            }
            let others = testCase.findings.indices.filter { testCase.findings[$0].severity != .error }
            if !others.isEmpty {
                let lines = others.map { index in
                    let finding = testCase.findings[index]
                    return "\(finding.severity.rawValue) \(finding.ruleID)\(testCase.place(of: index)) "
                        + "\(finding.lineAndColumn): \(finding.message)"
                }
                text += "      <system-out>" + Self.escaped(lines.joined(separator: "\n")) + "</system-out>\n"
            }
            text += "    </testcase>\n"
        }
        text += "  </testsuite>\n</testsuites>\n"
        return text
    }

    /// One `<failure>` for a case's errors: `type` names their rules, `message` the first error
    /// (and how many more), the body every error with its place, line, markup and fix.
    static func failure(_ errors: [(finding: Finding, place: String)]) -> String {
        func position(_ error: (finding: Finding, place: String)) -> String {
            error.place + (error.finding.line > 0 ? " (\(error.finding.lineAndColumn))" : "")
        }
        var rules: [String] = []
        for error in errors where !rules.contains(error.finding.ruleID) { rules.append(error.finding.ruleID) }
        let first = errors[0]
        var message = "\(first.finding.ruleID)\(position(first)): \(first.finding.message)"
        if errors.count > 1 { message += " (and \(errors.count - 1) more error\(errors.count > 2 ? "s" : ""))" }
        let body = errors.map { error in
            "\(error.finding.ruleID)\(position(error)): \(error.finding.message)\n\(error.finding.excerpt)\n"
                + "Fix: \(error.finding.fixHint)"
        }
        return "      <failure type=\"\(escaped(rules.joined(separator: " ")))\" message=\"\(escaped(message))\">"
            + escaped(body.joined(separator: "\n\n")) + "</failure>\n"
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
