public import ReportModel
public import Rulebook
public import SpotlightModel
import URLNormalization

/// One entry of the app's local index: a Core Spotlight item or a user activity, with its place
/// in the file it came from.
public enum LocalEntry: Sendable, Hashable {
    case item(SearchableItem)
    case activity(UserActivity)
    /// A batch's client state as the export records it (`{"clientState": "…", "indexName": "…"}`):
    /// `indexName` nil is the default index. Joined to no page; checked by AS016.
    case clientState(indexName: String?, bytes: Int)

    /// How reports name it: the item's `uniqueIdentifier`, `activity <type> "<title>"`, or
    /// `client state of <index>`.
    public var name: String {
        switch self {
        case .item(let item): item.uniqueIdentifier
        case .activity(let activity): "activity \(activity.activityType)\(activity.title.map { " \"\($0)\"" } ?? "")"
        case .clientState(let indexName, _): "client state of \(indexName.map { "index \($0)" } ?? "the default index")"
        }
    }

    /// What the crawl and the AS findings name the entry by where a URL would go: `local item NAME`
    /// (a finding's `url`, the `foundOn` of a URL the entry names).
    public var label: String { Self.labelPrefix + name }

    /// The entry's `name` in a `label`; nil for anything else.
    public static func name(inLabel label: String) -> String? {
        label.hasPrefix(labelPrefix) ? String(label.dropFirst(labelPrefix.count)) : nil
    }

    private static let labelPrefix = "local item "

    var attributeSet: AttributeSet? {
        switch self {
        case .item(let item): item.attributeSet
        case .activity(let activity): activity.contentAttributeSet
        case .clientState: nil
        }
    }

    /// The entry's web URLs (its join keys that are http(s) URLs), for a crawl to fetch.
    public var webURLs: [String] {
        joinKeys.map(\.value).filter { URLParser.parse($0)?.isCrawlable == true }
    }

    /// The join keys in the order DESIGN.md gives: `contentURL`, `url`, `uniqueIdentifier`,
    /// `relatedUniqueIdentifier`, the activity's `webpageURL`.
    var joinKeys: [(field: String, value: String)] {
        var keys: [(String, String)] = []
        if let set = attributeSet {
            if let value = set.contentURL { keys.append(("contentURL", value)) }
            if let value = set.url { keys.append(("url", value)) }
        }
        if case .item(let item) = self { keys.append(("uniqueIdentifier", item.uniqueIdentifier)) }
        if let value = attributeSet?.relatedUniqueIdentifier { keys.append(("relatedUniqueIdentifier", value)) }
        if case .activity(let activity) = self, let value = activity.webpageURL { keys.append(("webpageURL", value)) }
        return keys
    }
}

/// What the linker needs to know of one crawled URL.
public struct LinkablePage: Sendable, Hashable {
    /// The public URL requested, and the final one after redirects.
    public var url: String
    public var finalURL: String
    public var status: Int?
    /// The page's canonical URL (its identity), when it names one.
    public var canonical: String?
    public var isCandidate: Bool
    /// Applebot may fetch it and it says no `noindex`.
    public var isPubliclyIndexable: Bool
    public var attributeSet: AttributeSet?

    public init(
        url: String, finalURL: String, status: Int?, canonical: String?, isCandidate: Bool,
        isPubliclyIndexable: Bool, attributeSet: AttributeSet?
    ) {
        self.url = url
        self.finalURL = finalURL
        self.status = status
        self.canonical = canonical
        self.isCandidate = isCandidate
        self.isPubliclyIndexable = isPubliclyIndexable
        self.attributeSet = attributeSet
    }
}

/// What joining the app's local entries to the crawled pages found (issue 5 §4, reference §5.5).
public struct LinkReport: Sendable {
    /// Each entry joined to a page, and by which key: `contentURL`, `url`, `uniqueIdentifier`,
    /// `relatedUniqueIdentifier`, `webpageURL`, or `related item <id>` for an activity linked
    /// through the item it relates to.
    public var links: [LocalItemLink] = []
    /// Entries with no page, and why (404, redirected, blocked by robots, outside the crawl …).
    public var unmatched: [UnmatchedEntry] = []
    /// Candidate pages no entry links to (AS001).
    public var pagesWithoutEntries: [String] = []
    /// The AS findings (reference §7.9).
    public var findings: [Finding] = []
}

/// Joins the app's local entries to crawled pages by the normalized URL and checks the AS rules.
public struct LocalItemLinker: Sendable {
    /// The project's rule levels, for the AS rules' findings.
    public var configuration: RuleConfiguration
    /// The instant the expiration rules compare with (seconds since 1970).
    public var now: Double

    static let rules = RuleCatalogue.localItemRules

    public init(configuration: RuleConfiguration = RuleConfiguration(), now: Double) {
        self.configuration = configuration
        self.now = now
    }

    /// The de-duplication keys by which `entries` are joined to pages: the keys `link`'s
    /// `notFetched` is looked up by.
    public static func joinKeys(of entries: [LocalEntry]) -> Set<String> {
        Set(entries.flatMap { $0.joinKeys.compactMap { key($0.value) } })
    }

    static func key(_ url: String) -> String? {
        URLParser.parse(url).flatMap { $0.isCrawlable ? $0.deduplicationKey : nil }
    }

    /// `notFetched`: de-duplication key → why the crawl did not fetch that URL (robots, scope …).
    public func link(entries: [LocalEntry], pages: [LinkablePage], notFetched: [String: String] = [:]) -> LinkReport {
        var report = LinkReport()
        func key(_ url: String) -> String? { Self.key(url) }
        func flag(_ rule: RuleID, _ entry: LocalEntry, url: String? = nil, _ message: String) {
            if let finding = configuration.finding(
                rule, url: url ?? entry.label, line: 0, excerpt: entry.name, message: message)
            {
                report.findings.append(finding)
            }
        }

        // Pages by the keys they answer to: requested, final and canonical URL.
        var pageByKey: [String: LinkablePage] = [:]
        for page in pages {
            for url in [page.canonical, page.finalURL, page.url].compactMap({ $0 }) {
                if let key = key(url), pageByKey[key] == nil || page.status == 200 { pageByKey[key] = page }
            }
        }
        let itemIDs = Set(
            entries.compactMap { entry -> String? in
                if case .item(let item) = entry, !item.isUpdate { return item.uniqueIdentifier }
                return nil
            })

        var linkedPages: Set<String> = []
        var itemPage: [String: LinkablePage] = [:]
        var identifiersByPage: [String: Set<String>] = [:]
        var deferredActivities: [(LocalEntry, String)] = []
        for entry in entries {
            checkEntry(entry, itemIDs: itemIDs, flag: flag)
            if case .clientState = entry { continue }
            var matched: (LinkablePage, String)?
            var missing: (String, String)?
            for (field, value) in entry.joinKeys {
                guard let joinKey = key(value) else { continue }
                if let page = pageByKey[joinKey] {
                    if page.status == 200, page.attributeSet != nil {
                        matched = (page, field)
                        break
                    }
                    missing = missing ?? (value, page.status.map { "HTTP \($0)" } ?? "the fetch failed")
                    if page.finalURL != page.url, key(page.finalURL) != joinKey {
                        missing = (value, "redirected to \(page.finalURL)")
                    }
                } else if let reason = notFetched[joinKey] {
                    missing = missing ?? (value, "not fetched: \(reason)")
                } else {
                    missing = missing ?? (value, "outside the crawl (no crawled page has this URL)")
                }
            }
            if matched == nil, case .activity(let activity) = entry,
                let related = activity.contentAttributeSet?.relatedUniqueIdentifier
            {
                deferredActivities.append((entry, related))
                continue
            }
            guard let (page, field) = matched else {
                report.unmatched.append(
                    UnmatchedEntry(entry: entry.name, reason: missing.map { "\($0.0): \($0.1)" } ?? "no URL to join on")
                )
                continue
            }
            link(entry, to: page, key: field)
        }
        for (entry, related) in deferredActivities {
            if let page = itemPage[related] {
                link(entry, to: page, key: "related item \(related)")
            } else {
                report.unmatched.append(
                    UnmatchedEntry(entry: entry.name, reason: "its related item \(related) has no page"))
            }
        }

        func link(_ entry: LocalEntry, to page: LinkablePage, key field: String) {
            report.links.append(LocalItemLink(entry: entry.name, page: page.finalURL, key: field))
            linkedPages.insert(page.finalURL)
            var identifier = entry.name
            if case .item(let item) = entry {
                itemPage[item.uniqueIdentifier] = page
            } else if let related = entry.attributeSet?.relatedUniqueIdentifier {
                identifier = related
            }
            identifiersByPage[page.finalURL, default: []].insert(identifier)
            compare(entry, with: page, flag: flag)
            if case .activity(let activity) = entry, activity.isEligibleForPublicIndexing, !page.isPubliclyIndexable {
                flag(
                    .as015, entry, url: page.finalURL,
                    "\(entry.name) is eligible for public indexing, but \(page.finalURL) is not publicly indexable (robots.txt or noindex)"
                )
            }
        }

        for (page, identifiers) in identifiersByPage where identifiers.count > 1 {
            if let finding = configuration.finding(
                .as002, url: page, line: 0, excerpt: identifiers.sorted().joined(separator: ", "),
                message:
                    "\(page) is indexed under \(identifiers.count) identifiers (\(identifiers.sorted().joined(separator: ", "))); use one, the URL, for every API"
            ) {
                report.findings.append(finding)
            }
        }
        for page in pages where page.isCandidate && !linkedPages.contains(page.finalURL) {
            report.pagesWithoutEntries.append(page.finalURL)
            if let finding = configuration.finding(
                .as001, url: page.finalURL, line: 0, excerpt: page.finalURL,
                message: "\(page.finalURL) is a public-index candidate, but no local item or activity has its URL")
            {
                report.findings.append(finding)
            }
        }
        report.pagesWithoutEntries.sort()
        report.findings.sort { ($0.url, $0.rule, $0.message) < ($1.url, $1.rule, $1.message) }
        return report
    }

    /// The rules of an entry alone (AS004–AS014).
    private func checkEntry(
        _ entry: LocalEntry, itemIDs: Set<String>, flag: (RuleID, LocalEntry, String?, String) -> Void
    ) {
        let set = entry.attributeSet
        if let thumbnail = set?.thumbnailURL, let scheme = URLParser.parse(thumbnail)?.scheme,
            scheme == "http" || scheme == "https"
        {
            flag(.as007, entry, nil, "thumbnailURL \(thumbnail) is a web URL; Core Spotlight takes a local file URL")
        }
        // A web contentURL is the items file's documented join key (DESIGN.md "Local items"), so it is
        // flagged only when `url` carries the page's URL and contentURL is a web URL beside it (issue 31:
        // every item of a correct site was AS008).
        if let content = set?.contentURL, set?.url != nil, let scheme = URLParser.parse(content)?.scheme,
            scheme != "file"
        {
            flag(
                .as008, entry, nil,
                "contentURL \(content) is a web URL beside url; Apple documents contentURL as the file URL of the "
                    + "content")
        }
        if set?.supportsPhoneCall == true, set?.phoneNumbers.isEmpty ?? true {
            flag(.as011, entry, nil, "supportsPhoneCall is set without phoneNumbers")
        }
        if set?.supportsNavigation == true, set?.latitude == nil || set?.longitude == nil {
            flag(.as011, entry, nil, "supportsNavigation is set without both latitude and longitude")
        }
        if let rating = set?.rating, !(0...5).contains(rating) {
            flag(.as012, entry, nil, "rating \(rating) is outside Core Spotlight's 0–5 stars")
        }
        if let hint = set?.rankingHint, !(0...100).contains(hint) {
            flag(.as012, entry, nil, "rankingHint \(hint) is outside 0–100")
        }
        switch entry {
        case .item(let item):
            if (item.attributeSet.keywords.count) > 5 {
                flag(.as013, entry, nil, "\(item.attributeSet.keywords.count) keywords; Apple suggests 3 to 5")
            }
            if let expiration = item.expirationDate {
                if expiration.secondsSince1970 < now {
                    flag(
                        .as009, entry, nil,
                        "expirationDate \(expiration.text) has passed: the item is gone from the index")
                }
            } else {
                flag(
                    .as009, entry, nil,
                    "no expirationDate: Core Spotlight expires the item about a month after indexing")
            }
            if let domain = item.domainIdentifier, Self.looksLikeHostName(domain) {
                flag(
                    .as010, entry, nil,
                    "domainIdentifier \"\(domain)\" has dots: deleting \"\(domain.split(separator: ".").first ?? "")\" deletes it too (the dots make a hierarchy)"
                )
            }
            if item.isUpdate, !itemIDs.contains(item.uniqueIdentifier) {
                flag(
                    .as014, entry, nil,
                    "isUpdate is set for \(item.uniqueIdentifier), which is not indexed: the update is dropped")
            }
        case .clientState(let indexName, let bytes):
            if indexName == nil {
                flag(
                    .as016, entry, nil,
                    "a client state is recorded for the default index: defaultSearchableIndex does not support batches (beginIndexBatch/endIndexBatch); use a named CSSearchableIndex"
                )
            }
            if bytes > SearchableItem.maximumClientStateBytes {
                flag(.as016, entry, nil, "the client state is \(bytes) bytes; Core Spotlight takes less than 250")
            }
        case .activity(let activity):
            if activity.keywords.count > 5 {
                flag(.as013, entry, nil, "\(activity.keywords.count) keywords; Apple suggests 3 to 5")
            }
            if let url = activity.webpageURL, let scheme = URLParser.parse(url)?.scheme, scheme != "http",
                scheme != "https"
            {
                flag(.as004, entry, nil, "webpageURL \(url) is not http or https (NSUserActivity raises)")
            }
            if activity.isEligibleForPublicIndexing, activity.webpageURL == nil,
                activity.requiredUserInfoKeys?.isEmpty ?? true
            {
                flag(.as005, entry, nil, "isEligibleForPublicIndexing without webpageURL or requiredUserInfoKeys")
            }
            if let related = activity.contentAttributeSet?.relatedUniqueIdentifier, !itemIDs.contains(related) {
                flag(
                    .as006, entry, nil,
                    "relatedUniqueIdentifier \(related) names no indexed item: the activity is not stored")
            }
        }
    }

    /// AS003: the entry's metadata against the page's (Spotlight shows Core Spotlight's).
    private func compare(
        _ entry: LocalEntry, with page: LinkablePage, flag: (RuleID, LocalEntry, String?, String) -> Void
    ) {
        guard let local = entry.attributeSet, let web = page.attributeSet else { return }
        var differences: [String] = []
        func text(_ name: String, _ a: String?, _ b: String?) {
            guard let a, let b, a.split(whereSeparator: \.isWhitespace) != b.split(whereSeparator: \.isWhitespace)
            else {
                return
            }
            differences.append("\(name) \"\(a)\" vs the page's \"\(b)\"")
        }
        text("title", local.title, web.title)
        text("description", local.contentDescription, web.contentDescription)
        if let a = local.rating, let b = web.rating, abs(a - b) > 0.05 {
            differences.append("rating \(a) vs the page's \(b)")
        }
        if !local.keywords.isEmpty, !web.keywords.isEmpty,
            Set(local.keywords.map { $0.lowercased() }).isDisjoint(with: web.keywords.map { $0.lowercased() })
        {
            differences.append("keywords share nothing with the page's")
        }
        if !differences.isEmpty {
            flag(
                .as003, entry, page.finalURL,
                "\(entry.name) differs from \(page.finalURL): \(differences.joined(separator: "; ")); Spotlight shows the local values"
            )
        }
    }

    /// `www.example.com`, `com.example.movies`: dots that make an unintended hierarchy.
    static func looksLikeHostName(_ domain: String) -> Bool {
        domain.split(separator: ".").count >= 3
    }
}
