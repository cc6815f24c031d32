import Foundation
import MarkupExtraction
import Rulebook
import SpotlightModel
import Testing

@testable import Verification

/// Each check group registers the rules it can report (`static let rules`), and what the catalogue
/// calls implemented is derived from those registrations: these tests hold the registrations to
/// what the checks report.
@Suite("Rule registration")
struct RuleRegistrationTests {
    static let projectRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()

    /// Every fixture page, the hostile one included (it tests no rule, but its findings must be
    /// registered all the same).
    static var pages: [String] {
        let root = projectRoot.appendingPathComponent("Fixtures/html").path
        let enumerator = FileManager.default.enumerator(atPath: root)
        var pages: [String] = []
        while let path = enumerator?.nextObject() as? String {
            if path.hasSuffix(".html") { pages.append(path) }
        }
        return pages.sorted()
    }

    /// How a page may be served: as a file, and as a crawl that found everything wrong around it
    /// (not 200, not HTML, noindex by header, blocked for Applebot, excluded from universal links),
    /// so the checks that need a response take their other paths too.
    static let contexts = [
        PageContext(),
        PageContext(
            status: 404, mediaType: "text/plain", robotsHeaders: ["noindex, nosnippet"],
            headerCanonicals: ["https://www.example.com/elsewhere.html"], bodyBytes: 2 << 20, applebotAllowed: false,
            canonicalLink: .notMatched, appArgumentLink: .excluded(rule: "NOT /movies/*")),
        PageContext(canonicalLink: .excluded(rule: "NOT /*"), appArgumentLink: .notMatched),
    ]

    @Test(arguments: pages)
    func everyRuleAFixturePageTriggersIsRegisteredByTheGroupThatReportsIt(path: String) throws {
        let bytes = try [UInt8](Data(contentsOf: Self.projectRoot.appendingPathComponent("Fixtures/html/" + path)))
        let page = MarkupExtractor().extract(html: bytes, url: "https://www.example.com/" + path)
        let verifier = PageVerifier(appStoreID: "1234567890", appIDs: ["ABCDE12345.com.example.familycinema"])
        let registered = RuleCatalogue.groups.reduce(into: Set<RuleID>()) { $0.formUnion($1.rules) }
        for context in Self.contexts {
            var reported = 0
            verifier.runChecks(page, attributes: AttributeSetBuilder().build(page), context: context) {
                group, rule, _, _, message in
                reported += 1
                let isRegistered = group.rules.contains(rule)
                #expect(isRegistered, "\(path): \(group) reports \(rule) (\(message)) without registering it")
            }
            let findings = verifier.verify(page, context: context)
            #expect(findings.count == reported, "\(path): every report is a finding (no rule is dropped)")
            for finding in findings {
                #expect(registered.contains(finding.rule), "\(path): \(finding.rule) is registered by no group")
            }
        }
    }

    @Test func theImplementedRulesAreTheRegisteredOnes() {
        let registered = RuleCatalogue.groups.reduce(into: Set<RuleID>()) { $0.formUnion($1.rules) }
        let implemented = Set(RuleCatalogue.all.filter(\.isImplemented).map(\.id))
        #expect(implemented == registered)
        #expect(!registered.isEmpty)
        let text = RuleCatalogue.text()
        #expect(text.contains("\(registered.count) checked"), "spotcheck rules counts the registered rules")
    }

    /// The registrations against the code: each rule id a check file names (`.sab003`, outside
    /// comments) is registered by the group that file declares, and each rule a group registers is
    /// named in its file, so a check the fixture pages do not reach cannot report an unregistered rule
    /// either. (The file rules of universal links are checked in `UniversalLinks`; their group's file
    /// names each of them in its fix hints.)
    @Test func eachCheckFileNamesExactlyTheRulesItsGroupRegisters() throws {
        let folder = Self.projectRoot.appendingPathComponent("Sources/Verification")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".swift") && !$0.hasPrefix("RuleCatalogue+") }
        var named: [String: Set<String>] = [:]
        var declared: [String: String] = [:]
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            // Comments are left out: whole comment lines, and the rest of a line after " // ".
            let code = text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
                .map { line in line.range(of: " // ").map { line[..<$0.lowerBound] } ?? line }
            named[file] = Set(code.flatMap(Self.ruleTokens))
            for group in RuleCatalogue.groups
            where text.contains("struct \(group) ") || text.contains("struct \(group):")
                || text.contains("enum \(group):")
            {
                declared["\(group)"] = file
            }
        }
        for group in RuleCatalogue.groups {
            let file = try #require(declared["\(group)"], "no file in Sources/Verification declares \(group)")
            let registered = Set(group.rules.map { $0.rawValue.lowercased() })
            let inFile = named[file] ?? []
            #expect(inFile.subtracting(registered).isEmpty, "\(file) names rules \(group) does not register")
            // The association file's rules are reported in UniversalLinks, the local items' in
            // ItemLinking (checked below), not in their group's file.
            if group != UniversalLinkFileRules.self, group != LocalItemRules.self {
                #expect(registered.subtracting(inFile).isEmpty, "\(group) registers rules \(file) never names")
            }
        }
        for (file, ids) in named where !ids.isEmpty && !declared.values.contains(file) {
            Issue.record("\(file) names rules (\(ids.sorted())) but declares no rule group")
        }
    }

    /// ItemLinking names exactly the local items' rules (AS), which `LocalItemRules` registers.
    @Test func itemLinkingNamesExactlyTheLocalItemRules() throws {
        let folder = Self.projectRoot.appendingPathComponent("Sources/ItemLinking")
        var named: Set<String> = []
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            let code = text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
            named.formUnion(code.flatMap(Self.ruleTokens))
        }
        #expect(named == Set(LocalItemRules.rules.map { $0.rawValue.lowercased() }))
    }

    /// What the catalogue (Rulebook) calls implemented is exactly what the groups register.
    @Test func theCataloguesImplementedRulesAreTheGroupsRegistrations() {
        let registered = RuleCatalogue.groups.reduce(into: Set<RuleID>()) { $0.formUnion($1.rules) }
        #expect(Set(RuleCatalogue.all.filter(\.isImplemented).map(\.id)) == registered)
    }

    /// `.sab003`, `.og010` … in a line of code: a dot, two or three letters, three digits.
    static func ruleTokens(_ line: Substring) -> [String] {
        var tokens: [String] = []
        var rest = line[...]
        while let dot = rest.firstIndex(of: ".") {
            rest = rest[rest.index(after: dot)...]
            let letters = rest.prefix { $0.isASCII && $0.isLowercase }
            let digits = rest.dropFirst(letters.count).prefix { $0.isASCII && $0.isNumber }
            let next = rest.dropFirst(letters.count + digits.count).first
            if (2...3).contains(letters.count), digits.count == 3, next.map({ !$0.isLetter && !$0.isNumber }) ?? true {
                tokens.append(String(letters) + String(digits))
            }
        }
        return tokens
    }
}
