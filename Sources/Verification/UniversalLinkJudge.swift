import URLNormalization
public import UniversalLinks

/// Says how an `apple-app-site-association` file treats URLs for the configured apps (every app
/// it names when none is configured), as verdicts for the page rules.
public struct UniversalLinkJudge: Sendable {
    public var document: AASADocument
    public var appIDs: [String]
    /// The host the file was served for; nil when any host counts (a local file).
    public var host: String?

    public init(document: AASADocument, appIDs: [String], host: String? = nil) {
        self.document = document
        self.appIDs = appIDs
        self.host = host
    }

    /// The verdict for `url`; nil when the URL is not http(s) or is on another host than the file's.
    public func verdict(for url: String) -> UniversalLinkVerdict? {
        guard let parsed = URLParser.parse(url), parsed.isCrawlable else { return nil }
        if let host, parsed.host != host { return nil }
        let apps = appIDs.isEmpty ? (document.applinks?.details.flatMap(\.appIDs) ?? []) : appIDs
        var excluded: String?
        for app in apps {
            switch document.match(url, appID: app, servedForHost: parsed.host) {
            case .handled(let rule): return .handled(rule: "\(app): \(rule)")
            case .excluded(let rule): excluded = excluded ?? "\(app): \(rule)"
            case .notMatched, .notUniversalLink: break
            }
        }
        if let excluded { return .excluded(rule: excluded) }
        return .notMatched
    }
}
