import UniversalLinks

extension RuleCatalogue {
    /// The rules of the apple-app-site-association file itself, checked by `UniversalLinks` once per
    /// host (crawl, `aasa check`).
    static let universalLinkFileRules = AASAValidator.implementedRuleIDs.union(["UL023"])

    static let universalLinkFilePartly = AASAValidator.partlyImplementedRules

    static let universalLinkFileFixHints: [String: String] = [
        "UL001":
            "Serve the file at https://<host>/.well-known/apple-app-site-association with HTTP 200, to every client.",
        "UL002": "Move the file to /.well-known/apple-app-site-association (the root path is deprecated).",
        "UL003": "Serve the file without any redirect, from the exact host of the entitlement.",
        "UL004": "Serve the file over HTTPS with a valid, publicly trusted certificate.",
        "UL005": "Serve the file with Content-Type: application/json.",
        "UL006": "Make the file strict JSON: one object, no BOM, no comments, no trailing commas.",
        "UL007": "Keep the file under 128 KB uncompressed: merge patterns, use components with wildcards.",
        "UL008": "Serve the file unsigned (plain JSON); signing is deprecated.",
        "UL009": "Give applinks a details array of entries (the dictionary form is obsolete).",
        "UL010": "Add \"apps\": [] to applinks if the app supports iOS 12 or earlier.",
        "UL011": "Give each entry appIDs (or appID) of the form TEAMID.bundle.id, with the 10-character prefix.",
        "UL012": "Use appIDs only (an array), not appID and appIDs together.",
        "UL013": "Use components or paths in an entry, not both (paths is ignored on iOS 13+).",
        "UL014":
            "Use the documented types: strings for /, #, comment; a string or dictionary for ?; booleans for flags.",
        "UL015": "Use \"exclude\": true in components; in paths write \"NOT \" with its space.",
        "UL016": "Put narrower rules before broader ones: the first match wins.",
        "UL017": "Name variables without $, ( and ); define every $(name) used; do not nest variables.",
        "UL018": "Percent-encode non-ASCII characters in patterns, or set percentEncoded to false.",
        "UL019": "Add the app's ID (TEAMID.bundle.id, as in its application-identifier entitlement) to appIDs.",
        "UL022": "Keep only caseSensitive and percentEncoded in defaults.",
        "UL023": "Serve the same file to every User-Agent and region (no bot rules or WAF challenges on it).",
        "UL024": "Write entitlement entries as applinks:<host>, without scheme, port, path or trailing /.",
        "UL025": "Give each query item pattern as a string.",
    ]
}
