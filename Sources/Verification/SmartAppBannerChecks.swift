import MarkupExtraction
import URLNormalization

/// The Smart App Banner rules (apple-markup-rules.md §7.1) over a page's `apple-itunes-app` tags.
struct SmartAppBannerChecks {
    let page: PageMarkup
    let appStoreID: String?
    /// `--app`: the apps' IDs (TEAMID.bundle.id); their bundle IDs are the App Clip's parents.
    var appIDs: [String] = []

    static let implemented: Set<String> = [
        "SAB001", "SAB002", "SAB003", "SAB004", "SAB005", "SAB006", "SAB007", "SAB008", "SAB009", "SAB010",
        "SAB011", "SAB012", "SAB013", "SAB014", "SAB015", "SAB016", "SAB017", "SAB018", "SAB019", "SAB020", "SAB022",
    ]

    /// Calls `report(ruleID, line, excerpt, message)` for each broken rule.
    func run(_ report: (String, Int, String, String) -> Void) {
        guard let banner = page.smartAppBanners.first else { return }
        let excerpt = "<meta name=\"apple-itunes-app\" content=\"\(banner.content)\">"
        func flag(_ id: String, _ message: String) { report(id, banner.line, excerpt, message) }

        for extra in page.smartAppBanners.dropFirst() {
            report(
                "SAB017", extra.line, "<meta name=\"apple-itunes-app\" content=\"\(extra.content)\">",
                "another apple-itunes-app tag (line \(extra.line)) after the one on line \(banner.line); which one Safari uses is undocumented"
            )
        }
        if banner.section == .body {
            flag("SAB018", "the apple-itunes-app tag is in <body> (line \(banner.line)); Apple asks for it in <head>")
        }
        if banner.oddities.contains(.emptyContent) {
            flag("SAB001", "apple-itunes-app has an empty content attribute")
            return
        }
        let appID = banner.appID
        if appID == nil, banner.appClipBundleID == nil {
            flag("SAB002", "content \"\(banner.content)\" has no app-id (nor app-clip-bundle-id)")
        }
        if let appID, !appID.isEmpty {
            let digits = appID.allSatisfy { $0.isASCII && $0.isNumber }
            if !digits {
                flag(
                    "SAB003",
                    "app-id \"\(appID)\" is not all digits (the App Store ID is the number after \"id\" in the app's App Store URL)"
                )
            } else if !(9...10).contains(appID.count) {
                flag("SAB004", "app-id \"\(appID)\" has \(appID.count) digits; App Store IDs have 9 or 10")
            }
            if let appStoreID, appID != appStoreID {
                flag("SAB020", "app-id \"\(appID)\" is not the configured app's App Store ID \(appStoreID)")
            }
        }
        if let argument = banner.appArgument, !argument.isEmpty {
            if Self.isWhollyPercentEncoded(argument) {
                flag(
                    "SAB006",
                    "app-argument \"\(argument)\" looks percent-encoded as a whole; the app receives it undecoded")
            } else if !Self.isAbsoluteURL(argument) {
                flag("SAB005", "app-argument \"\(argument)\" is not an absolute URL (no scheme, or it does not parse)")
            } else if let parsed = URLParser.parse(argument), parsed.isCrawlable, parsed.path == "/",
                parsed.query == nil
            {
                flag(
                    "SAB007",
                    "app-argument \"\(argument)\" is the site root: it does not say which content the page shows")
            }
            if banner.appClipBundleID != nil {
                flag(
                    "SAB014",
                    "app-argument \"\(argument)\" is not delivered to the App Clip named by app-clip-bundle-id")
            }
        } else if appID != nil {
            flag("SAB008", "no app-argument: the banner opens the app, but Apple cannot map this page to content in it")
        }
        if let clip = banner.appClipBundleID, !clip.isEmpty {
            let first = clip.split(separator: ".").first ?? ""
            let parents = appIDs.compactMap { $0.split(separator: ".", maxSplits: 1).last.map(String.init) }
            if first.count == 10, first.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber) }),
                first.contains(where: \.isNumber)
            {
                flag(
                    "SAB013",
                    "app-clip-bundle-id \"\(clip)\" starts with a team/app ID prefix (\(first)); it takes the bare bundle ID"
                )
            } else if !parents.isEmpty, !parents.contains(where: { clip.hasPrefix($0 + ".") }) {
                flag(
                    "SAB013",
                    "app-clip-bundle-id \"\(clip)\" does not start with the app's bundle ID (\(parents.joined(separator: ", "))) and a dot"
                )
            }
        }
        if banner.appClipBundleID != nil, appID == nil {
            flag("SAB010", "app-clip-bundle-id \"\(banner.appClipBundleID ?? "")\" without app-id")
        }
        if let display = banner.appClipDisplay {
            if display != "card" {
                flag("SAB011", "app-clip-display \"\(display)\": the only documented value is card")
            }
            if banner.appClipBundleID == nil { flag("SAB012", "app-clip-display without app-clip-bundle-id") }
        }
        if banner.affiliateData != nil {
            flag(
                "SAB022",
                "affiliate-data \"\(banner.affiliateData ?? "")\" is legacy: current documentation no longer lists it")
        }
        for oddity in banner.oddities {
            switch oddity {
            case .commaInAppArgument:
                flag(
                    "SAB009",
                    "app-argument \"\(banner.appArgument ?? "")\" contains a comma, the separator between parameters")
            case .unknownKey(let key):
                flag(
                    "SAB015",
                    "unknown parameter \"\(key)\" (known: \(SmartAppBanner.knownKeys.joined(separator: ", ")))")
            case .duplicateKey(let key, let ignored):
                flag("SAB016", "\(key) appears twice; the second value \"\(ignored)\" is ignored")
            case .pieceWithoutValue(let piece):
                flag("SAB019", "\"\(piece)\" has no \"=\"")
            case .emptyValue(let key):
                flag("SAB019", "\(key) has an empty value")
            case .whitespaceAroundEquals(let key):
                flag("SAB019", "spaces around \"=\" after \(key)")
            case .keyNotLowercase(let key):
                flag("SAB019", "key \"\(key)\" is not lower-case")
            case .missingComma:
                flag("SAB019", "two parameters without a comma between them")
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

extension RuleCatalogue {
    static let smartAppBannerFixHints: [String: String] = [
        "SAB001": "Give the tag a content attribute: content=\"app-id=123456789, app-argument=https://…\".",
        "SAB002": "Add app-id=<the App Store ID> (the number in the app's App Store URL) to content.",
        "SAB003": "Use the numeric App Store ID (from apps.apple.com/app/id123456789), not the bundle or team ID.",
        "SAB004": "Check the App Store ID: it is the 9- or 10-digit number after \"id\" in the App Store URL.",
        "SAB005": "Write app-argument as an absolute URL with its scheme, e.g. the page's canonical https URL.",
        "SAB006": "Do not percent-encode the whole app-argument; write the URL as is (encode only inside it).",
        "SAB007": "Make app-argument the URL of the content this page shows, not the site root.",
        "SAB008": "Add app-argument=<this page's canonical URL> so the app and Apple can open this content.",
        "SAB009": "Percent-encode commas inside app-argument (%2C): the comma separates parameters.",
        "SAB010": "Add app-id=<the App Store ID> next to app-clip-bundle-id.",
        "SAB011": "Use app-clip-display=card, or leave it out.",
        "SAB012": "Add app-clip-bundle-id, or remove app-clip-display.",
        "SAB013":
            "Use the App Clip's bundle ID, which is the parent app's bundle ID plus a suffix (com.example.app.Clip).",
        "SAB014": "Leave app-argument out when the banner invokes an App Clip, or use an App Clip experience URL.",
        "SAB015":
            "Fix the key's spelling (app-id, app-argument, app-clip-bundle-id, app-clip-display, affiliate-data).",
        "SAB016": "Keep one value per key.",
        "SAB017": "Keep one apple-itunes-app tag per page.",
        "SAB018": "Move the apple-itunes-app tag into <head>.",
        "SAB019": "Write each parameter as key=value in lower case, separated by \", \", without spaces around \"=\".",
        "SAB020": "Use the configured app's App Store ID, or check --app-id.",
        "SAB022": "Remove affiliate-data unless you still rely on it; it is no longer documented.",
    ]

    static let smartAppBannerPartly: [String: String] = [
        "SAB007":
            "the site root on every page, and the same app-argument on 3 or more pages in a crawl; \"the app's opening screen\" is not known to SpotCheck"
    ]
}
