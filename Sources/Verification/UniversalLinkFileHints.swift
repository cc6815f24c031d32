import RuleIDs
import UniversalLinks

/// The rules of the apple-app-site-association file itself, checked by `UniversalLinks` once per
/// host (crawl, `aasa check`): what ``AASAValidator`` registers, and UL023 (the file differs for
/// another User-Agent), which the crawl's second request reports (`AssociationBook`).
enum UniversalLinkFileRules: RuleGroup {
    static let rules = AASAValidator.rules.union([.ul023])
}

extension RuleCatalogue {
    static let universalLinkFilePartly = AASAValidator.partlyImplementedRules

    static let universalLinkFileFixHints: [RuleID: String] = [
        .ul001:
            "Serve the file at https://<host>/.well-known/apple-app-site-association with HTTP 200, to every client.",
        .ul002: "Move the file to /.well-known/apple-app-site-association (the root path is deprecated).",
        .ul003: "Serve the file without any redirect, from the exact host of the entitlement.",
        .ul004: "Serve the file over HTTPS with a valid, publicly trusted certificate.",
        .ul005: "Serve the file with Content-Type: application/json.",
        .ul006: "Make the file strict JSON: one object, no BOM, no comments, no trailing commas.",
        .ul007: "Keep the file under 128 KB uncompressed: merge patterns, use components with wildcards.",
        .ul008: "Serve the file unsigned (plain JSON); signing is deprecated.",
        .ul009: "Give applinks a details array of entries (the dictionary form is obsolete).",
        .ul010: "Add \"apps\": [] to applinks if the app supports iOS 12 or earlier.",
        .ul011: "Give each entry appIDs (or appID) of the form TEAMID.bundle.id, with the 10-character prefix.",
        .ul012: "Use appIDs only (an array), not appID and appIDs together.",
        .ul013: "Use components or paths in an entry, not both (paths is ignored on iOS 13+).",
        .ul014:
            "Use the documented types: strings for /, #, comment; a string or dictionary for ?; booleans for flags.",
        .ul015: "Use \"exclude\": true in components; in paths write \"NOT \" with its space.",
        .ul016: "Put narrower rules before broader ones: the first match wins.",
        .ul017: "Name variables without $, ( and ); define every $(name) used; do not nest variables.",
        .ul018: "Percent-encode non-ASCII characters in patterns, or set percentEncoded to false.",
        .ul019: "Add the app's ID (TEAMID.bundle.id, as in its application-identifier entitlement) to appIDs.",
        .ul022: "Keep only caseSensitive and percentEncoded in defaults.",
        .ul023: "Serve the same file to every User-Agent and region (no bot rules or WAF challenges on it).",
        .ul024: "Write entitlement entries as applinks:<host>, without scheme, port, path or trailing /.",
        .ul025: "Give each query item pattern as a string.",
    ]
}
