import Crypto
import Foundation
public import LenientJSON
public import Rulebook

/// Findings as a SARIF 2.1.0 log (OASIS Static Analysis Results Interchange Format) that passes
/// the official JSON Schema with its format checks: one run, the rule catalogue as the driver's
/// rules (each with a name for people, help text, citations and `helpUri`, its row in
/// docs/rules.md), one result per finding with `partialFingerprints`, located in the page (its URL
/// as the artifact, the source line and column as the region). A page read from a file under the
/// source root is named relative to `%SRCROOT%` (`run.originalUriBaseIds`); what has no URL (an
/// app's local item) is a logical location.
public struct SARIFLog: Sendable {
    /// The official schema's own id (OASIS SARIF 2.1.0, errata 01).
    public static let schema =
        "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
    /// The project's home, SARIF's `informationUri`.
    public static let informationURI = "https://github.com/spotcheck/spotcheck"
    /// The rule catalogue's page; each rule's `helpUri` is this with the rule's anchor.
    public static let rulesDocument = informationURI + "/blob/main/docs/rules.md"
    /// The base id of file URLs under `sourceRoot`.
    public static let sourceRootID = "%SRCROOT%"
    /// The `partialFingerprints` key: a hash of rule, location and excerpt, then the occurrence.
    public static let fingerprintKey = "spotcheckFinding/v1"

    public var toolVersion: String
    /// Every page's findings, in report order, then the findings over the whole site.
    public var findings: [Finding]
    /// A folder as a `file://` URL ending in `/` (`validate`: the working directory): findings in
    /// files under it are named relative to it. Nil: every URL is written as it is.
    public var sourceRoot: String?
    /// The files pages were read from (`validate`, `crawl FOLDER`): a finding on such a page is
    /// located in its file, relative to `%SRCROOT%` (the files' root), whatever URL it had.
    public var sourceFiles: SourceFiles?

    public init(toolVersion: String, findings: [Finding], sourceRoot: String? = nil) {
        self.toolVersion = toolVersion
        self.findings = findings
        self.sourceRoot = sourceRoot.map { $0.hasSuffix("/") ? $0 : $0 + "/" }
    }

    /// Where a result is: an artifact (a URI reference, maybe relative to `%SRCROOT%`) or, for
    /// what has no URI (an app's local item, "local item NAME"), a logical location.
    enum Place: Equatable {
        case artifact(uri: String, baseID: String?)
        case logical(name: String)
    }

    public var json: JSONValue {
        let rules = RuleCatalogue.all
        let index = Dictionary(uniqueKeysWithValues: rules.enumerated().map { ($1.id, $0) })
        var driver = JSONObject()
        driver.append("name", "spotcheck")
        driver.append("version", .string(toolVersion))
        driver.append("informationUri", .string(Self.informationURI))
        driver.append("rules", .array(rules.map { .object(Self.descriptor($0)) }))
        var run = JSONObject()
        run.append("tool", ["driver": .object(driver)])
        var occurrences: [String: Int] = [:]
        var usesSourceRoot = false
        var results: [JSONValue] = []
        results.reserveCapacity(findings.count)
        for finding in findings {
            let place = self.place(of: finding.url)
            if case .artifact(_, .some) = place { usesSourceRoot = true }
            let identity = Self.identity(of: finding, at: place)
            occurrences[identity, default: 0] += 1
            var result = JSONObject()
            result.append("ruleId", .string(finding.ruleID))
            if let position = index[finding.rule] { result.append("ruleIndex", JSONValue(position)) }
            result.append("level", .string(Self.level(finding.severity)))
            result.append("message", ["text": .string(finding.message)])
            result.append("locations", [.object(Self.location(of: finding, at: place))])
            result.append(
                "partialFingerprints", [Self.fingerprintKey: .string("\(identity):\(occurrences[identity] ?? 1)")])
            if !finding.fixHint.isEmpty { result.append("properties", ["fix": .string(finding.fixHint)]) }
            results.append(.object(result))
        }
        if usesSourceRoot, let root = sourceFiles?.rootURL ?? sourceRoot {
            run.append("originalUriBaseIds", [Self.sourceRootID: ["uri": .string(root)]])
        }
        run.append("results", .array(results))
        var log = JSONObject()
        log.append("$schema", .string(Self.schema))
        log.append("version", "2.1.0")
        log.append("runs", .array([.object(run)]))
        return .object(log)
    }

    /// A finding's URL as SARIF places it.
    func place(of url: String) -> Place {
        if let file = sourceFiles?[url] {
            if file.hasPrefix("/") { return .artifact(uri: URL(fileURLWithPath: file).absoluteString, baseID: nil) }
            return .artifact(uri: Self.relativeReference(file), baseID: Self.sourceRootID)
        }
        guard let uri = URIReference.artifactURI(url) else { return .logical(name: url) }
        if let sourceRoot, uri.hasPrefix(sourceRoot), uri.count > sourceRoot.count {
            let path = String(uri.dropFirst(sourceRoot.count))
            // "a:b.html" would read as a scheme; "./a:b.html" is the same path.
            let firstSegment = path.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
            return .artifact(uri: firstSegment.contains(":") ? "./" + path : path, baseID: Self.sourceRootID)
        }
        return .artifact(uri: uri, baseID: nil)
    }

    /// A relative file path as a URI reference: each segment percent-encoded where RFC 3986
    /// does not allow its characters, and `./` before a first segment with a `:`.
    static func relativeReference(_ path: String) -> String {
        let allowed = CharacterSet(
            charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@")
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).map {
            $0.addingPercentEncoding(withAllowedCharacters: allowed) ?? String($0)
        }
        let joined = segments.joined(separator: "/")
        return (segments.first ?? "").contains(":") ? "./" + joined : joined
    }

    static func location(of finding: Finding, at place: Place) -> JSONObject {
        var location = JSONObject()
        switch place {
        case .logical(let name):
            location.append("logicalLocations", [["fullyQualifiedName": .string(name), "kind": "object"]])
            return location
        case .artifact(let uri, let baseID):
            var artifact = JSONObject()
            artifact.append("uri", .string(uri))
            if let baseID { artifact.append("uriBaseId", .string(baseID)) }
            var physical = JSONObject()
            physical.append("artifactLocation", .object(artifact))
            if finding.line > 0 {
                var region = JSONObject()
                region.append("startLine", JSONValue(finding.line))
                if let column = finding.column, column > 0 { region.append("startColumn", JSONValue(column)) }
                if !finding.excerpt.isEmpty { region.append("snippet", ["text": .string(finding.excerpt)]) }
                physical.append("region", .object(region))
            }
            location.append("physicalLocation", .object(physical))
            return location
        }
    }

    /// What stays the same when a finding comes back in the next run: its rule, where it is (as
    /// written in the log, so a file's path does not depend on the machine) and the markup that
    /// breaks it (the line may move; `ReportDiff` matches findings the same way). SHA-256, 32 hex digits.
    static func identity(of finding: Finding, at place: Place) -> String {
        let location =
            switch place {
            case .artifact(let uri, let baseID): (baseID ?? "") + uri
            case .logical(let name): name
            }
        let digest = SHA256.hash(
            data: Array([finding.ruleID, location, finding.excerpt].joined(separator: "\u{0}").utf8))
        return digest.prefix(16).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    static func descriptor(_ rule: Rule) -> JSONObject {
        var object = JSONObject()
        object.append("id", .string(rule.id.rawValue))
        object.append("name", .string(rule.title))
        object.append("shortDescription", ["text": .string(rule.check)])
        let fix = RuleCatalogue.fixHints[rule.id]
        var help = "\(rule.check) Source: \(rule.source) (\(rule.authority); \(RuleCatalogue.reference))."
        if let fix { help += " Fix: \(fix)" }
        object.append("fullDescription", ["text": .string("\(rule.check) Affects: \(rule.consumer).")])
        object.append("helpUri", .string("\(rulesDocument)#\(rule.anchor)"))
        object.append("help", ["text": .string(help)])
        object.append(
            "defaultConfiguration", ["level": .string(level(rule.severity)), "enabled": JSONValue(rule.isImplemented)])
        object.append(
            "properties",
            [
                "tags": .array([.string(rule.group), .string(rule.authority)]), "source": .string(rule.source),
                "section": .string(rule.section), "implemented": JSONValue(rule.isImplemented),
            ])
        return object
    }

    /// SARIF's levels: error, warning, note.
    static func level(_ severity: Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .info: "note"
        }
    }
}

/// RFC 3986 §4.1's URI-reference, the format of SARIF's `artifactLocation.uri`: a URI (scheme,
/// then anything of the URI characters) or a relative reference. Only the characters and their
/// places are checked: `[`/`]` only in the authority (an IPv6 host), `%` with two hex digits,
/// one `#`, no space, and a first path segment with a `:` only after a scheme.
enum URIReference {
    static func isValid(_ text: String) -> Bool { scan(text, repairing: false) == text }

    /// `text` as a URI reference: itself when it is one; a URL with a scheme whose characters RFC
    /// 3986 does not allow where they stand (a WHATWG URL may keep `|`, `{`, `^` … in its query)
    /// with those percent-encoded; nil for what is no URL ("local item NAME").
    static func artifactURI(_ text: String) -> String? {
        if isValid(text) { return text }
        guard schemeEnd(Array(text.utf8)) > 0, let repaired = scan(text, repairing: true), isValid(repaired) else {
            return nil
        }
        return repaired
    }

    /// The index after a scheme's ":" (a letter, then letters, digits, "+", "-", "."), or 0.
    private static func schemeEnd(_ bytes: [UInt8]) -> Int {
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0, isLetter(bytes[0]),
            bytes[1..<colon].allSatisfy({ isLetter($0) || isDigit($0) || "+-.".utf8.contains($0) })
        else { return 0 }
        return colon + 1
    }

    /// The text when every byte stands where RFC 3986 allows it; otherwise nil, or with
    /// `repairing`, the text with each such byte percent-encoded.
    private static func scan(_ text: String, repairing: Bool) -> String? {
        let bytes = Array(text.utf8)
        let afterScheme = schemeEnd(bytes)
        // The authority's end, where "[" and "]" are allowed (an IP literal).
        var authorityEnd = afterScheme
        if bytes.count >= afterScheme + 2, bytes[afterScheme] == UInt8(ascii: "/"),
            bytes[afterScheme + 1] == UInt8(ascii: "/")
        {
            authorityEnd = bytes[(afterScheme + 2)...].firstIndex { "/?#".utf8.contains($0) } ?? bytes.count
        }
        if afterScheme == 0 {
            // A relative reference whose first segment has a ":" would read as a scheme.
            let segmentEnd = bytes.firstIndex { "/?#".utf8.contains($0) } ?? bytes.count
            if bytes[..<segmentEnd].contains(UInt8(ascii: ":")) { return nil }
        }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var sawFragment = false
        for (index, byte) in bytes.enumerated() {
            let allowed: Bool
            switch byte {
            case UInt8(ascii: "%"):
                allowed = index + 2 < bytes.count && isHex(bytes[index + 1]) && isHex(bytes[index + 2])
            case UInt8(ascii: "#"):
                allowed = !sawFragment
                sawFragment = true
            case UInt8(ascii: "["), UInt8(ascii: "]"):
                allowed = index < authorityEnd
            default:
                allowed = isLetter(byte) || isDigit(byte) || "-._~!$&'()*+,;=:@/?".utf8.contains(byte)
            }
            if allowed {
                output.append(byte)
            } else if repairing {
                output.append(contentsOf: "%\(byte < 16 ? "0" : "")\(String(byte, radix: 16, uppercase: true))".utf8)
            } else {
                return nil
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    private static func isHex(_ byte: UInt8) -> Bool {
        isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }
}
