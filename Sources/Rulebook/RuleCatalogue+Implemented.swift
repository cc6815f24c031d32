/// Which rules SpotCheck checks: those a group of checks registers, by group. The groups
/// (Sources/Verification, Sources/UniversalLinks) report these and only these
/// (`RuleRegistrationTests`); a rule in none of them is listed as not implemented.
extension RuleCatalogue {
    /// The rules `AssetChecks` reports.
    package static let assetRules: Set<RuleID> = [.ct009, .ct010, .ct011, .tw003]

    /// The rules `ConsumerChecks` reports.
    package static let consumerRules: Set<RuleID> = [.ix010]

    /// The rules `ContentChecks` reports.
    package static let contentRules: Set<RuleID> = [
        .ct001, .ct002, .ct003, .ct004, .ct005, .ct006, .ct007, .ct012, .ct013, .ct015, .ct016,
    ]

    /// The rules `DeepLinkChecks` reports.
    package static let deepLinkRules: Set<RuleID> = [.dl001, .dl002, .dl004]

    /// The rules `IndexabilityChecks` reports.
    package static let indexabilityRules: Set<RuleID> = [
        .ix001, .ix002, .ix003, .ix004, .ix005, .ix006, .ix007, .ix008,
    ]

    /// The rules `LocalItemLinker` reports.
    package static let localItemRules: Set<RuleID> = [
        .as001, .as002, .as003, .as004, .as005, .as006, .as007, .as008, .as009, .as010, .as011, .as012,
        .as013, .as014, .as015, .as016,
    ]

    /// The rules `MarketingPageRules` reports.
    package static let marketingPageRules: Set<RuleID> = [.ix011]

    /// The rules `OpenGraphChecks` reports.
    package static let openGraphRules: Set<RuleID> = [
        .og001, .og002, .og003, .og004, .og005, .og006, .og007, .og008, .og009, .og010, .og011,
        .og012, .og013, .og014, .og015, .og016, .og017, .og018, .og019, .og020, .og021,
    ]

    /// The rules `RenderingChecks` reports.
    package static let renderingRules: Set<RuleID> = [.dl005, .ix015, .ix016]

    /// The rules `SiteVerifier` reports.
    package static let siteRules: Set<RuleID> = [.ct008, .ct014, .ix009, .ix012, .ix013, .ix014, .sab007]

    /// The rules `SmartAppBannerChecks` reports.
    package static let smartAppBannerRules: Set<RuleID> = [
        .sab001, .sab002, .sab003, .sab004, .sab005, .sab006, .sab007, .sab008, .sab009, .sab010,
        .sab011, .sab012, .sab013, .sab014, .sab015, .sab016, .sab017, .sab018, .sab019, .sab020, .sab022,
        .sab023, .sab024,
    ]

    /// The rules `StructuredDataChecks` reports.
    package static let structuredDataRules: Set<RuleID> = [
        .sd001, .sd002, .sd003, .sd004, .sd005, .sd006, .sd007, .sd008, .sd009, .sd010, .sd011, .sd012, .sd013, .sd014,
        .sd015, .sd016, .sd017, .sd018, .sd019, .sd020, .sd021, .sd022, .sd023, .sd024, .sd025,
        .sd026, .sd027, .sd028,
    ]

    /// The rules `TwitterAppLinksChecks` reports.
    package static let twitterAppLinksRules: Set<RuleID> = [
        .tw001, .tw002, .tw003, .tw004, .tw005, .al001, .al002, .al003, .al004, .al005, .dl003,
        .tw006,
    ]

    /// The rules `UniversalLinkChecks` reports.
    package static let universalLinkPageRules: Set<RuleID> = [.ul020, .ul021, .sab021]

    /// The rules `UniversalLinkFileHints` reports.
    package static let universalLinkFileRules: Set<RuleID> = associationFileRules.union([.ul023])

    /// The rules `UniversalLinks` reports of the association file itself (`AASAValidator`).
    package static let associationFileRules: Set<RuleID> = [
        .ul001, .ul002, .ul003, .ul004, .ul005, .ul006, .ul007, .ul008, .ul009, .ul010, .ul011, .ul012,
        .ul013, .ul014, .ul015, .ul016, .ul017, .ul018, .ul019, .ul022, .ul024, .ul025,
    ]

    /// The association-file rules checked only in part, with what is missing.
    package static let associationFilePartly: [RuleID: String] = [
        .ul004: "certificate validity comes from the caller; not applicable for a stand-in server",
        .ul016: "only certain shadowing is reported: match-everything rules, equal paths and literal-prefix `*` "
            + "patterns; overlaps through ?, inner * or variables are not",
        .ul024: "checks an entitlement string given by the caller; the app's signed entitlements are not read",
    ]

    /// Every rule some group of checks reports.
    static let implementedIDs: Set<RuleID> = [
        assetRules, consumerRules, contentRules, deepLinkRules, indexabilityRules, localItemRules, marketingPageRules,
        openGraphRules, renderingRules, siteRules, smartAppBannerRules, structuredDataRules, twitterAppLinksRules,
        universalLinkPageRules, universalLinkFileRules,
    ].reduce(into: []) { $0.formUnion($1) }
}
