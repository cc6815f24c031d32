import LenientJSON

/// The verifier's rules: the 153 rules of apple-markup-rules.md §7, as data.
public enum RuleCatalogue {
    /// The document every rule is cited from.
    public static let reference = "apple-markup-rules.md §7 (SpotCheck's reference, sources in its §9)"

    /// Ids of the rules SpotCheck checks today. The rest are listed as not implemented.
    static let implementedIDs: Set<String> = SmartAppBannerChecks.implemented
        .union(TwitterAppLinksChecks.implemented)
        .union(OpenGraphChecks.implemented)
        .union(StructuredDataChecks.implemented)
        .union(ContentChecks.implemented)
        .union(IndexabilityChecks.implemented)
        .union(DeepLinkChecks.implemented)
        .union(SiteVerifier.implemented)
        .union(AssetChecks.implemented)
        .union(UniversalLinkChecks.implemented)
        .union(universalLinkFileRules)
        .union(LocalItemLinker.implemented)

    /// How to fix each implemented rule.
    public static let fixHints: [String: String] = [
        smartAppBannerFixHints, twitterAppLinksFixHints, openGraphFixHints, structuredDataFixHints, contentFixHints,
        indexabilityFixHints, deepLinkFixHints, siteFixHints, assetFixHints, universalLinkPageFixHints,
        universalLinkFileFixHints, localItemFixHints,
    ].reduce(into: [:]) { all, hints in all.merge(hints) { first, _ in first } }

    /// Rules whose check covers only part of what the catalogue says, with what is missing.
    static let partlyImplemented: [String: String] = [
        smartAppBannerPartly, twitterAppLinksPartly, contentPartly, openGraphPartly, structuredDataPartly,
        universalLinkFilePartly,
    ]
    .reduce(into: [:]) { all, notes in all.merge(notes) { first, _ in first } }

    /// Whose behaviour each group's rules protect.
    static let consumers: [String: String] = [
        "SAB": "Safari (Smart App Banner)",
        "DL": "Spotlight and Siri (App Search deep links)",
        "UL": "iOS universal links",
        "OG": "link previews (Messages, Facebook, Slack …)",
        "TW": "X (Twitter) cards",
        "AL": "App Links consumers (Facebook)",
        "SD": "Spotlight and Siri (structured data)",
        "CT": "Spotlight and Safari search results",
        "IX": "Applebot and the public index",
        "AS": "Core Spotlight (the app's local index)",
    ]

    /// Every rule: the reference's, in its order, then SpotCheck's own.
    public static let all: [Rule] = (entries + ownEntries).map { entry in
        let group = String(entry.id.prefix { $0.isLetter })
        return Rule(
            id: entry.id, group: group, section: entry.section, severity: Severity(rawValue: entry.severity) ?? .info,
            check: entry.check, source: entry.source, sourceKinds: sourceKinds(in: entry.source),
            consumer: consumers[group] ?? "", isImplemented: implementedIDs.contains(entry.id),
            isFromReference: entry.section != ownSection)
    }

    private static let byID: [String: Rule] = Dictionary(uniqueKeysWithValues: all.map { ($0.id, $0) })

    public static func rule(_ id: String) -> Rule? { byID[id.uppercased()] }

    /// The `[A]`, `[A-arch]`, `[S]`, `[3P]`, `[I]` tags of a citation, in order, once each.
    static func sourceKinds(in source: String) -> [SourceKind] {
        var kinds: [SourceKind] = []
        var rest = Substring(source)
        while let open = rest.firstIndex(of: "["), let close = rest[open...].firstIndex(of: "]") {
            if let kind = SourceKind(rawValue: String(rest[rest.index(after: open)..<close])), !kinds.contains(kind) {
                kinds.append(kind)
            }
            rest = rest[rest.index(after: close)...]
        }
        return kinds
    }

    /// Rules per group, with how many are implemented: `[(group, total, implemented)]`.
    public static var coverage: [(group: String, total: Int, implemented: Int)] {
        var order: [String] = []
        var counts: [String: (Int, Int)] = [:]
        for rule in all {
            if counts[rule.group] == nil { order.append(rule.group) }
            counts[rule.group, default: (0, 0)].0 += 1
            if rule.isImplemented { counts[rule.group, default: (0, 0)].1 += 1 }
        }
        return order.map { ($0, counts[$0]?.0 ?? 0, counts[$0]?.1 ?? 0) }
    }
}
