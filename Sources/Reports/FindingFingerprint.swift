import Crypto
public import Rulebook

/// What stays the same when a finding comes back in a later run, so a baseline can recognise it:
/// the rule, the page's key and the offending markup, normalised. The line and column are left
/// out (an edit above or before the tag moves them), and so are the message (it may carry values) and the severity (a
/// project may change it). Documented in docs/cli.md (`--baseline`); version 1.
///
/// - The **page key** of an http(s) URL is its path and query, without the origin: a baseline
///   written against staging applies to production, and a served folder's loopback port (which
///   changes from run to run) does not matter. A `file://` URL under `sourceRoot` (validate: the
///   working directory) is the path relative to it; any other text (an app's local item) is kept.
/// - The **excerpt** is normalised: every run of white space becomes one space, none is kept after
///   `<`, before `>` or `/>`, or around `=`, none at either end; the page's own origin written in
///   it is dropped (`https://www.example.com/a.html` → `/a.html`).
/// - The **fingerprint** is the first 16 bytes of SHA-256 over `v1`, the rule id, the page key and
///   the normalised excerpt (separated by U+0000), as 32 lower-case hex digits.
public struct FindingFingerprint: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The fingerprint's 32 hex digits.
    public var value: String

    public init(value: String) {
        self.value = value
    }

    /// The fingerprint of a rule at a page key with an excerpt (normalised here).
    public init(rule: String, pageKey: String, excerpt: String) {
        let normalised = Self.normalisedExcerpt(excerpt, origin: nil)
        self.init(rule: rule, pageKey: pageKey, normalisedExcerpt: normalised)
    }

    init(rule: String, pageKey: String, normalisedExcerpt: String) {
        let text = ["v1", rule, pageKey, normalisedExcerpt].joined(separator: "\u{0}")
        let digest = SHA256.hash(data: Array(text.utf8))
        value = digest.prefix(16).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    /// A finding's fingerprint; `sourceRoot` is the `file://` URL (ending in `/`) that file pages
    /// are named relative to.
    public init(_ finding: Finding, sourceRoot: String? = nil) {
        let parts = Self.parts(of: finding, sourceRoot: sourceRoot)
        self.init(rule: finding.ruleID, pageKey: parts.pageKey, normalisedExcerpt: parts.excerpt)
    }

    public var description: String { value }

    public static func < (lhs: FindingFingerprint, rhs: FindingFingerprint) -> Bool { lhs.value < rhs.value }

    /// The page key and normalised excerpt a finding's fingerprint is made of (a baseline file
    /// lists them beside it, for people reading it).
    public static func parts(of finding: Finding, sourceRoot: String? = nil) -> (pageKey: String, excerpt: String) {
        (pageKey(finding.url, sourceRoot: sourceRoot), normalisedExcerpt(finding.excerpt, origin: origin(finding.url)))
    }

    /// A page's key: an http(s) URL's path and query, a file's path relative to `sourceRoot`,
    /// anything else as it is.
    public static func pageKey(_ url: String, sourceRoot: String? = nil) -> String {
        let withoutFragment =
            url.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first
            .map(String.init) ?? url
        if let origin = origin(withoutFragment) {
            let rest = withoutFragment.dropFirst(origin.count)
            return rest.isEmpty || rest.first == "?" ? "/" + rest : String(rest)
        }
        if let sourceRoot, withoutFragment.hasPrefix(sourceRoot), withoutFragment.count > sourceRoot.count {
            return String(withoutFragment.dropFirst(sourceRoot.count))
        }
        if withoutFragment.lowercased().hasPrefix("file://") { return String(withoutFragment.dropFirst(7)) }
        return withoutFragment
    }

    /// `scheme://authority` of an http(s) URL, as written; nil for anything else.
    static func origin(_ url: String) -> String? {
        let lowercased = url.prefix(8).lowercased()
        let schemeLength = lowercased.hasPrefix("https://") ? 8 : lowercased.hasPrefix("http://") ? 7 : 0
        guard schemeLength > 0 else { return nil }
        let afterScheme = url.dropFirst(schemeLength)
        let authority = afterScheme.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard !authority.isEmpty else { return nil }
        return String(url.prefix(schemeLength + authority.count))
    }

    /// The excerpt as its fingerprint reads it: white space collapsed and trimmed, none after `<`,
    /// before `>` or `/>`, or around `=`; `origin` (the page's own) dropped where it is written.
    public static func normalisedExcerpt(_ excerpt: String, origin: String?) -> String {
        var text = excerpt
        if let origin, !origin.isEmpty { text = text.replacing(origin, with: "") }
        var output = ""
        output.reserveCapacity(text.count)
        var pendingSpace = false
        for character in text {
            if character.isWhitespace {
                pendingSpace = true
                continue
            }
            if pendingSpace, let last = output.last, last != "<", last != "=", character != ">", character != "=" {
                output.append(" ")
            }
            pendingSpace = false
            output.append(character)
        }
        // " />" → "/>": whether a "/" closes the tag is known only at its ">".
        return output.replacing(" />", with: "/>")
    }
}
