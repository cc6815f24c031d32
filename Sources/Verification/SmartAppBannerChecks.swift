import MarkupExtraction
import Rulebook
import URLNormalization

/// The Smart App Banner rules (apple-markup-rules.md §7.1) over a page's `apple-itunes-app` tags.
struct SmartAppBannerChecks: PageRuleGroup {
    let page: PageMarkup
    let appStoreID: String?
    /// `--app`: the apps' IDs (TEAMID.bundle.id); their bundle IDs are the App Clip's parents.
    var appIDs: [String] = []

    static let rules = RuleCatalogue.smartAppBannerRules

    /// Calls `report(rule, position, excerpt, message)` for each broken rule.
    func run(_ report: (RuleID, SourcePosition, String, String) -> Void) {
        // Safari reads `name=` tags: the banner judged is the first of those, else the first tag.
        let named = page.smartAppBanners.firstIndex { !$0.oddities.contains(.writtenWithProperty) }
        guard let chosen = named ?? page.smartAppBanners.indices.first else { return }
        let banner = page.smartAppBanners[chosen]
        let excerpt = "<meta name=\"apple-itunes-app\" content=\"\(banner.content)\">"
        func flag(_ id: RuleID, _ message: String) { report(id, banner.position, excerpt, message) }

        if named == nil {
            report(
                .sab023, banner.position, "<meta property=\"apple-itunes-app\" content=\"\(banner.content)\">",
                "apple-itunes-app is written with property= (line \(banner.line)) and the page has no <meta name=\"apple-itunes-app\">: the banner is a name= tag, so Safari shows none"
            )
        }

        for (index, extra) in page.smartAppBanners.enumerated() where index != chosen {
            report(
                .sab017, extra.position, "<meta name=\"apple-itunes-app\" content=\"\(extra.content)\">",
                "another apple-itunes-app tag (line \(extra.line)) after the one on line \(banner.line); which one Safari uses is undocumented"
            )
        }
        if banner.section == .body {
            flag(.sab018, "the apple-itunes-app tag is in <body> (line \(banner.line)); Apple asks for it in <head>")
        }
        if banner.oddities.contains(.emptyContent) {
            flag(.sab001, "apple-itunes-app has an empty content attribute")
            return
        }
        let appID = banner.appID
        if appID == nil, banner.appClipBundleID == nil {
            flag(.sab002, "content \"\(banner.content)\" has no app-id (nor app-clip-bundle-id)")
        }
        if let appID, !appID.isEmpty {
            let digits = appID.allSatisfy { $0.isASCII && $0.isNumber }
            if !digits {
                flag(
                    .sab003,
                    "app-id \"\(appID)\" is not all digits (the App Store ID is the number after \"id\" in the app's App Store URL)"
                )
            } else if !(9...10).contains(appID.count) {
                flag(.sab004, "app-id \"\(appID)\" has \(appID.count) digits; App Store IDs have 9 or 10")
            }
            if let appStoreID, appID != appStoreID {
                flag(.sab020, "app-id \"\(appID)\" is not the configured app's App Store ID \(appStoreID)")
            }
        }
        if let argument = banner.appArgument, !argument.isEmpty {
            if Self.isWhollyPercentEncoded(argument) {
                flag(
                    .sab006,
                    "app-argument \"\(argument)\" looks percent-encoded as a whole; the app receives it undecoded")
            } else if !Self.isAbsoluteURL(argument) {
                flag(.sab005, "app-argument \"\(argument)\" is not an absolute URL (no scheme, or it does not parse)")
            } else if let bad = URLText.invalidPercentEncoding(argument) {
                flag(
                    .sab005,
                    "app-argument \"\(argument)\" is not a valid URL: \"\(bad)\" is not percent-encoding (% and two hex digits)"
                )
            } else if let parsed = URLParser.parse(argument), parsed.isCrawlable, parsed.path == "/",
                parsed.query == nil
            {
                flag(
                    .sab007,
                    "app-argument \"\(argument)\" is the site root: it does not say which content the page shows")
            }
            if banner.appClipBundleID != nil {
                flag(
                    .sab014,
                    "app-argument \"\(argument)\" is not delivered to the App Clip named by app-clip-bundle-id")
            }
        } else if appID != nil {
            flag(.sab008, "no app-argument: the banner opens the app, but Apple cannot map this page to content in it")
        }
        if let clip = banner.appClipBundleID, !clip.isEmpty {
            let first = clip.split(separator: ".").first ?? ""
            let parents = appIDs.compactMap { $0.split(separator: ".", maxSplits: 1).last.map(String.init) }
            if first.count == 10, first.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber) }),
                first.contains(where: \.isNumber)
            {
                flag(
                    .sab013,
                    "app-clip-bundle-id \"\(clip)\" starts with a team/app ID prefix (\(first)); it takes the bare bundle ID"
                )
            } else if !parents.isEmpty, !parents.contains(where: { clip.hasPrefix($0 + ".") }) {
                flag(
                    .sab013,
                    "app-clip-bundle-id \"\(clip)\" does not start with the app's bundle ID (\(parents.joined(separator: ", "))) and a dot"
                )
            }
        }
        if banner.appClipBundleID != nil, appID == nil {
            flag(.sab010, "app-clip-bundle-id \"\(banner.appClipBundleID ?? "")\" without app-id")
        }
        if let display = banner.appClipDisplay {
            if display != "card" {
                flag(.sab011, "app-clip-display \"\(display)\": the only documented value is card")
            }
            if banner.appClipBundleID == nil { flag(.sab012, "app-clip-display without app-clip-bundle-id") }
        }
        if banner.affiliateData != nil {
            flag(
                .sab022,
                "affiliate-data \"\(banner.affiliateData ?? "")\" is legacy: current documentation no longer lists it")
        }
        for oddity in banner.oddities {
            switch oddity {
            case .commaInAppArgument:
                flag(
                    .sab009,
                    "app-argument \"\(banner.appArgument ?? "")\" contains a comma, the separator between parameters")
            case .unknownKey(let key):
                flag(
                    .sab015,
                    "unknown parameter \"\(key)\" (known: \(SmartAppBanner.knownKeys.joined(separator: ", ")))")
            case .duplicateKey(let key, let ignored):
                flag(.sab016, "\(key) appears twice; the second value \"\(ignored)\" is ignored")
            case .pieceWithoutValue(let piece):
                flag(.sab019, "\"\(piece)\" has no \"=\"")
            case .emptyValue(let key):
                flag(.sab019, "\(key) has an empty value")
            case .whitespaceAroundEquals(let key):
                flag(.sab019, "spaces around \"=\" after \(key)")
            case .keyNotLowercase(let key):
                flag(.sab019, "key \"\(key)\" is not lower-case")
            case .missingComma:
                flag(.sab019, "two parameters without a comma between them")
            case .parameterAsAttribute(let parameter):
                flag(
                    .sab024,
                    "\(parameter.key)=\"\(parameter.value)\" is written as an attribute of its own; only the parameters inside content count, so it is ignored"
                )
            default:
                break
            }
        }
    }

    /// `https%3A%2F%2F…`: a scheme followed by an encoded colon.
    static func isWhollyPercentEncoded(_ value: String) -> Bool {
        let lower = value.lowercased()
        guard let marker = lower.range(of: "%3a") else { return false }
        let scheme = lower[..<marker.lowerBound]
        return !scheme.isEmpty && scheme.first?.isLetter == true
            && scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
    }

    /// An absolute URL with a scheme, as RFC 3986 wants (custom schemes included).
    static func isAbsoluteURL(_ value: String) -> Bool {
        URLText.hasScheme(value) && URLParser.parse(value) != nil
    }
}
