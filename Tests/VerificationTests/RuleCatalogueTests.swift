import Foundation
import LenientJSON
import Rulebook
import Testing
import Verification

@Suite("Rule catalogue")
struct RuleCatalogueTests {
    static let projectRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()

    @Test func holdsTheReferencesRulesByGroup() {
        // apple-markup-rules.md §7: "22 SAB + 5 DL + 25 UL + 21 OG + 10 TW/AL + 28 SD + 15 CT + 11 IX + 16 AS = 153 rules".
        let reference = RuleCatalogue.all.filter(\.isFromReference)
        #expect(reference.count == 153)
        var counts: [String: Int] = [:]
        for rule in reference { counts[rule.group, default: 0] += 1 }
        #expect(counts["SAB"] == 22)
        #expect(counts["DL"] == 5)
        #expect(counts["UL"] == 25)
        #expect(counts["OG"] == 21)
        #expect((counts["TW"] ?? 0) + (counts["AL"] ?? 0) == 10)
        #expect(counts["SD"] == 28)
        #expect(counts["CT"] == 15)
        #expect(counts["IX"] == 11)
        #expect(counts["AS"] == 16)
        #expect(Set(reference.map(\.id)).count == 153)
        #expect(Set(RuleCatalogue.all.map(\.id)).count == RuleCatalogue.all.count, "ids are unique")
    }

    @Test func spotChecksOwnRulesAreTaggedAsItsOwn() {
        let own = RuleCatalogue.all.filter { !$0.isFromReference }
        #expect(!own.isEmpty)
        for rule in own {
            #expect(rule.sourceKinds.first == .inference, "\(rule.id)")
            #expect(!rule.citesApple, "\(rule.id)")
        }
    }

    @Test func everyRuleCitesASourceAndNamesWhoItAffects() {
        for rule in RuleCatalogue.all {
            #expect(!rule.sourceKinds.isEmpty, "\(rule.id) has no source tag: \(rule.source)")
            #expect(!rule.consumer.isEmpty, "\(rule.id)")
            #expect(!rule.check.isEmpty, "\(rule.id)")
        }
    }

    @Test(
        arguments: [
            ("SAB003", Severity.error, "Apple", true),
            ("SAB009", Severity.warning, "SpotCheck", false),
            ("SAB004", Severity.info, "Apple (archived)", true),
            ("DL003", Severity.error, "SpotCheck", false),
            ("AS007", Severity.error, "Apple", true),
        ] as [(String, Severity, String, Bool)])
    func rulesKeepTheirSeverityAndAuthority(id: String, severity: Severity, authority: String, citesApple: Bool) throws
    {
        let rule = try #require(RuleCatalogue.rule(id))
        #expect(rule.severity == severity)
        #expect(rule.authority == authority)
        #expect(rule.citesApple == citesApple)
        #expect(RuleCatalogue.rule(id.lowercased())?.id.rawValue == id)
    }

    /// `../shared/reference/apple-markup-rules.md`, beside the package (present in CI).
    static let reference = projectRoot.deletingLastPathComponent().appendingPathComponent(
        "shared/reference/apple-markup-rules.md")

    /// The catalogue in the code is the reference's, row for row (skipped, and shown as skipped,
    /// without ../shared).
    @Test(
        .enabled(
            if: FileManager.default.fileExists(atPath: reference.path),
            "../shared/reference/apple-markup-rules.md is not present"))
    func catalogueMatchesTheReference() throws {
        let text = try String(contentsOf: Self.reference, encoding: .utf8)
        var rows: [(String, String, String, String)] = []
        var inCatalogue = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("## 7.") { inCatalogue = true }
            if line.hasPrefix("## 8.") { break }
            guard inCatalogue, line.hasPrefix("| "), line.hasSuffix("|") else { continue }
            let cells = line.dropFirst(2).dropLast().split(separator: " | ", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 4, cells[0].first?.isUppercase == true, cells[0].last?.isNumber == true else {
                continue
            }
            rows.append((cells[0], cells[1], cells[2], cells[3]))
        }
        let reference = RuleCatalogue.all.filter(\.isFromReference)
        #expect(rows.count == reference.count, "run Scripts/generate-rule-catalogue.py")
        for (row, rule) in zip(rows, reference) {
            #expect(row.0 == rule.id.rawValue)
            #expect(row.1 == rule.severity.rawValue, "\(rule.id)")
            #expect(row.2 == rule.check, "\(rule.id): run Scripts/generate-rule-catalogue.py")
            #expect(row.3 == rule.source, "\(rule.id)")
        }
    }

    /// SpotCheck's own rules are Scripts/spotcheck-rules.md's, row for row (the same generator).
    @Test func ownRulesMatchTheirData() throws {
        let path = Self.projectRoot.appendingPathComponent("Scripts/spotcheck-rules.md").path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var sections: [String] = []
        var rows: [[String]] = []
        for line in text.split(separator: "\n") {
            if line.hasPrefix("### ") { sections.append(String(line.dropFirst(4))) }
            guard line.hasPrefix("| "), line.hasSuffix("|") else { continue }
            let cells = line.dropFirst(2).dropLast().split(separator: " | ", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            if cells.count == 4, RuleID(rawValue: cells[0]) != nil { rows.append(cells) }
        }
        let own = RuleCatalogue.all.filter { !$0.isFromReference }
        #expect(rows.count == own.count, "run Scripts/generate-rule-catalogue.py")
        for (row, rule) in zip(rows, own) {
            #expect(row == [rule.id.rawValue, rule.severity.rawValue, rule.check, rule.source], "\(rule.id)")
            #expect(sections == [rule.section], "\(rule.id)")
        }
    }

    /// `RuleID` has one case per row of the catalogue, in its order (both are generated from the
    /// same data), and reads, prints, sorts and encodes as the id's text.
    @Test func ruleIDsAreTheCataloguesRowsInOrder() throws {
        #expect(RuleID.allCases.map(\.rawValue) == RuleCatalogue.all.map(\.id.rawValue))
        #expect(RuleID.allCases.count == 162)
        #expect(RuleID(rawValue: "SAB003") == .sab003)
        #expect(RuleID(text: "og010") == .og010)
        #expect(RuleID(text: "XYZ001") == nil)
        #expect("\(RuleID.tw006)" == "TW006")
        #expect(RuleID.allCases.sorted().map(\.rawValue) == RuleID.allCases.map(\.rawValue).sorted())
        let encoded = try JSONEncoder().encode([RuleID.ix012])
        #expect(String(decoding: encoded, as: UTF8.self) == #"["IX012"]"#)
        #expect(try JSONDecoder().decode([RuleID].self, from: encoded) == [.ix012])
    }

    /// A rule's title (SARIF's rule `name`) is its check's first sentence without the asides in
    /// parentheses; parentheses inside code spans and words stay.
    @Test(
        arguments: [
            (RuleID.sab003, "`app-id` not all ASCII digits"),
            (.sab009, "`app-argument` contains `,`"),
            (.ul003, "Any redirect on the AASA request"),
            (
                .ul017,
                "Substitution variable name with `$`, `(`, `)`; value referencing another variable; `$(name)` undefined"
            ),
            (.ct009, "Image below Apple's thumbnail guidance, or < 150 px wide"),
            (.al005, "`al:web:url` not absolute http(s), or differs from the canonical URL"),
            (.dl001, "No deep link at all → not an App Search candidate"),
        ])
    func ruleTitleIsTheCheckShortened(id: RuleID, title: String) {
        #expect(RuleCatalogue.rule(id).title == title)
    }

    @Test func everyRuleHasATitleAndAnAnchor() {
        for rule in RuleCatalogue.all {
            #expect(!rule.title.isEmpty && rule.title != rule.id.rawValue, "\(rule.id)")
            #expect(!rule.title.hasSuffix(".") && !rule.title.contains("  "), "\(rule.id): \(rule.title)")
            #expect(rule.title.count <= rule.check.count, "\(rule.id)")
            #expect(rule.anchor == rule.id.rawValue.lowercased())
        }
        #expect(Set(RuleCatalogue.all.map(\.anchor)).count == RuleCatalogue.all.count)
    }

    @Test func docsRulesMarkdownIsCurrent() throws {
        let path = Self.projectRoot.appendingPathComponent("docs/rules.md").path
        let checkedIn = try String(contentsOfFile: path, encoding: .utf8)
        #expect(checkedIn == RuleCatalogue.markdown(), "regenerate: spotcheck rules --format md > docs/rules.md")
    }

    /// The counts people read (the README's opening and its figures) are the catalogue's, as
    /// `spotcheck rules` prints them: one source. A rule checked only in part is said to be.
    @Test func readmeCountsAreTheCataloguesCounts() throws {
        let markdown = RuleCatalogue.markdown()
        let summary = try #require(
            markdown.firstMatch(
                of: #/(\d+) rules \(the reference's (\d+) \+ (\d+) of SpotCheck's own\); (\d+) checked/#))
        let (total, reference, own, checked) = (summary.output.1, summary.output.2, summary.output.3, summary.output.4)
        let partly = markdown.components(separatedBy: "| partly checked").count - 1
        let full = (Int(checked) ?? 0) - partly
        let readme = try String(
            contentsOfFile: Self.projectRoot.appendingPathComponent("README.md").path, encoding: .utf8
        ).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(readme.contains("catalogue of \(total) rules (the \(reference) of Apple's"), "README.md")
        #expect(readme.contains("and \(own) of SpotCheck's own"), "README.md")
        #expect(
            readme.contains("all \(checked) have a check: \(full) checked in full and \(partly) in part"), "README.md")
    }

    @Test func notImplementedRulesAreListedNotDropped() throws {
        let json = RuleCatalogue.json()
        let rules = try #require(json["rules"]?.arrayValue)
        #expect(rules.count == RuleCatalogue.all.count)
        let markdown = RuleCatalogue.markdown()
        for rule in RuleCatalogue.all where !rule.isImplemented {
            #expect(markdown.contains("| <a id=\"\(rule.anchor)\"></a>\(rule.id) |"))
        }
        #expect(RuleCatalogue.text().split(separator: "\n").count >= 153)
    }
}

@Suite("Rule configuration")
struct RuleConfigurationTests {
    @Test func theRulesObjectSwitchesRulesOffAndChangesSeverities() throws {
        let configuration = try RuleConfiguration.parse(
            rules: ["SAB004": "off", "sab009": "error", "OG005": "info"], origin: "rules")
        #expect(configuration.severity(of: try #require(RuleCatalogue.rule("SAB004"))) == nil)
        #expect(configuration.severity(of: try #require(RuleCatalogue.rule("SAB009"))) == .error)
        #expect(configuration.severity(of: try #require(RuleCatalogue.rule("SAB003"))) == .error)
        let json = RuleCatalogue.json(configuration: configuration)
        let sab004 = json["rules"]?.arrayValue?.first { $0["id"]?.stringValue == "SAB004" }
        #expect(sab004?["severity"]?.isNull == true)
        #expect(sab004?["defaultSeverity"]?.stringValue == "info")
    }

    @Test(
        arguments: [
            (JSONValue(["XYZ001": "off"]), #"unknown rule "XYZ001""#),
            (JSONValue(["SAB004": "loud"]), #""loud" is not off, error, warning or info"#),
            (JSONValue(["SAB004": 3]), "the level must be a string"),
            (JSONValue(["SAB004"]), "must be an object"),
            (JSONValue(["XYZ*": "off"]), #"the group "XYZ*" matches no rule"#),
            (JSONValue(["S*B": "off"]), "a group is an id's beginning followed by one *"),
        ] as [(JSONValue, String)])
    func badSettingsAreRefusedNamingTheirOrigin(rules: JSONValue, message: String) {
        do {
            _ = try RuleConfiguration.parse(rules: rules, origin: "/project/.spotcheck.json: rules")
            Issue.record("accepted \(rules)")
        } catch {
            #expect(error.description.hasPrefix("/project/.spotcheck.json: rules: "))
            #expect(error.description.contains(message), "\(error.description)")
        }
    }

    @Test func optionsOverrideTheFile() throws {
        var configuration = try RuleConfiguration.parse(rules: ["SAB004": "off"], origin: "f")
        try configuration.apply(option: "SAB004=warning")
        #expect(configuration.severity(of: try #require(RuleCatalogue.rule("SAB004"))) == .warning)
        #expect(throws: RuleConfigurationError.self) { try configuration.apply(option: "SAB004") }
    }
}
