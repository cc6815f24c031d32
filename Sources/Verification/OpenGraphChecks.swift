import MarkupExtraction
import Rulebook
import SpotlightModel
import URLNormalization

/// The Open Graph rules (apple-markup-rules.md §7.4) over a page's `og:*` and type-namespace tags
/// (`article:*`, `video:*` …), as the extractor keeps them in document order.
struct OpenGraphChecks: PageRuleGroup {
    /// The page, with RDFa property lists split (see `splittingPropertyLists`).
    let page: PageMarkup

    init(page: PageMarkup) {
        var page = page
        page.openGraph = Self.splittingPropertyLists(page.openGraph, declared: Set(page.prefixes.map(\.prefix)))
        self.page = page
    }

    /// RDFa allows several properties in one attribute (`property="og:title twitter:title"`); the
    /// extractor keeps such a list as one key. Each Open Graph property in it becomes a tag of its
    /// own, as an RDFa consumer reads it. (A list whose first entry is not Open Graph, such as
    /// `dc:title og:title`, never reaches `page.openGraph`.)
    static func splittingPropertyLists(_ tags: [MetaTag], declared: Set<String>) -> [MetaTag] {
        tags.flatMap { tag -> [MetaTag] in
            guard tag.attribute == .property, tag.key.contains(where: \.isWhitespace) else { return [tag] }
            return tag.key.split(whereSeparator: \.isWhitespace).compactMap { token in
                guard let colon = token.firstIndex(of: ":") else { return nil }
                let prefix = token[..<colon].lowercased()
                guard MarkupExtractor.openGraphPrefixes.contains(prefix) || declared.contains(prefix) else {
                    return nil
                }
                var single = tag
                single.key = String(token)
                return single
            }
        }
    }

    static let rules = RuleCatalogue.openGraphRules

    /// Calls `report(rule, position, excerpt, message)` for each broken rule.
    func run(_ report: (RuleID, SourcePosition, String, String) -> Void) {
        func flag(_ id: RuleID, _ tag: MetaTag, _ message: String) {
            report(id, tag.position, Self.excerpt(tag), message)
        }
        checkRequiredProperties(report)
        let hasImage = page.openGraphMedia.media.contains { $0.kind == .image && !$0.url.isEmpty }
        for tag in page.openGraph {
            checkValue(of: tag, hasImage: hasImage, flag)
        }
        checkCanonical(flag)
        checkPrefixes(report)
        for orphan in page.openGraphMedia.orphans {
            let kind = orphan.key.lowercased().split(separator: ":").dropFirst().first ?? "image"
            flag(
                .og009, orphan,
                "\(orphan.key) (line \(orphan.line)) comes before any og:\(kind) it could belong to, so consumers drop it"
            )
        }
        checkImageAlternativeText(flag)
        checkType(flag)
        checkRepeatedSingleValues(flag)
        checkTitleBranding(flag)
        checkTypeSpecificProperties(report)
    }

    // MARK: OG001–OG004

    /// A page without any Open Graph tag gets one OG001 that says so (link previews will be
    /// bare), not one finding per missing property; OG002–OG004 only on pages that use Open Graph
    /// ("any non-marked up webpage should be treated as og:type website", ogp.me).
    private func checkRequiredProperties(_ report: (RuleID, SourcePosition, String, String) -> Void) {
        guard let anchor = page.openGraph.first else {
            report(
                .og001, .page, "",
                "the page has no Open Graph tags at all: link previews in Messages, Mail and social apps will be bare (no og:title, og:description or og:image)"
            )
            return
        }
        let position = anchor.position
        let excerpt = Self.excerpt(anchor)
        let required: [(RuleID, String, String)] = [
            (.og001, "og:title", ""),
            (.og002, "og:type", "; consumers assume website"),
            (.og004, "og:url", ""),
        ]
        for (id, property, consequence) in required where page.openGraphValue(property) == nil {
            report(id, position, excerpt, Self.missingMessage(property, tags: tags(property)) + consequence)
        }
        let images = page.openGraphMedia.media.filter { $0.kind == .image }
        if !images.contains(where: { !$0.url.isEmpty }) {
            let written = tags("og:image") + tags("og:image:url")
            report(
                .og003, position, excerpt, Self.missingMessage("og:image", tags: written) + "; previews show no picture"
            )
        }
    }

    private static func missingMessage(_ property: String, tags: [MetaTag]) -> String {
        if let empty = tags.first {
            return "\(property) is empty (line \(empty.line))"
        }
        return "the page has no \(property)"
    }

    // MARK: Per-tag values: OG005, OG007, OG010–OG012, OG014, OG015, OG017, OG020

    private static let urlProperties: Set<String> = [
        "og:url", "og:image", "og:image:url", "og:image:secure_url", "og:video", "og:video:url",
        "og:video:secure_url", "og:audio", "og:audio:url", "og:audio:secure_url",
    ]
    private static let dimensionProperties: Set<String> = [
        "og:image:width", "og:image:height", "og:video:width", "og:video:height",
    ]
    private static let dateTimeProperties: Set<String> = [
        "article:published_time", "article:modified_time", "article:expiration_time", "music:release_date",
        "video:release_date", "book:release_date", "payment:expires_at",
    ]
    private static let positiveIntegerProperties: Set<String> = [
        "music:duration", "video:duration", "music:album:disc", "music:album:track", "music:song:disc",
        "music:song:track",
    ]
    /// Deprecated in ogp.me's `ns/ogp.me.ttl`.
    static let deprecatedProperties: Set<String> = [
        "og:latitude", "og:longitude", "og:street-address", "og:locality", "og:region", "og:postal-code",
        "og:country-name", "og:email", "og:phone_number", "og:fax_number", "og:isbn", "og:upc", "og:audio:title",
        "og:audio:artist", "og:audio:album",
    ]

    /// `hasImage`: some og:image (or og:image:url) has a URL; without one, OG003 reports the page.
    private func checkValue(of tag: MetaTag, hasImage: Bool, _ flag: (RuleID, MetaTag, String) -> Void) {
        let key = tag.key.lowercased()
        let value = tag.content
        let quoted = Self.quoted(value)
        // Type-namespace tags written with name= (`video:playerId`, `article:word_count`) are most
        // often a site's own metadata that happens to share the prefix, so only og:* counts here.
        if tag.attribute == .name, key.hasPrefix("og:") {
            flag(.og007, tag, "\(tag.key) is written with name=; Open Graph uses property=\"\(tag.key)\"")
        }
        if Self.urlProperties.contains(key), value.isEmpty {
            // An empty URL is no URL (OG005), unless the page has no value for the property at
            // all: then OG003 (no og:image) or OG004 (no og:url) says "is empty" already.
            let reportedAsMissing =
                switch key {
                case "og:image", "og:image:url": !hasImage
                case "og:url": page.openGraphValue("og:url") == nil
                default: false
                }
            if !reportedAsMissing {
                flag(.og005, tag, "\(key) is empty, not an absolute http(s) URL (line \(tag.line))")
            }
        } else if Self.urlProperties.contains(key) {
            if !Self.isAbsoluteWebURL(value) {
                flag(.og005, tag, "\(key) \(quoted) is not an absolute http(s) URL")
            } else if key == "og:image:secure_url", URLParser.parse(value)?.scheme != "https" {
                flag(.og012, tag, "og:image:secure_url \(quoted) is not an https URL")
            }
        }
        if Self.dimensionProperties.contains(key), Self.positiveInt32(value) == nil {
            flag(.og010, tag, "\(key) \(quoted) is not a whole number of pixels from 1 to 2147483647")
        }
        if key.hasPrefix("og:"), key.hasSuffix(":type"), let kind = key.split(separator: ":").dropFirst().first,
            ["image", "video", "audio"].contains(kind), !value.isEmpty, !Self.isMediaType(value, for: String(kind))
        {
            flag(.og011, tag, "\(key) \(quoted) is not \(Self.expectedMediaTypes[String(kind)] ?? "a MIME type")")
        }
        if key == "og:determiner", !["a", "an", "the", "", "auto"].contains(value) {
            flag(.og014, tag, "og:determiner \(quoted) is not a, an, the, auto or empty")
        }
        if key == "og:locale" || key == "og:locale:alternate", !Self.isLocale(value) {
            flag(.og015, tag, "\(key) \(quoted) is not language_TERRITORY (e.g. en_US)")
        }
        if Self.dateTimeProperties.contains(key), !value.isEmpty, ISO8601.conformingDate(value) == nil {
            flag(
                .og017, tag,
                "\(key) \(quoted) is not an ISO 8601 date or date-time (e.g. 2024-05-01T10:00:00Z: a T between date and time, an offset as ±hh:mm)"
            )
        }
        if Self.positiveIntegerProperties.contains(key), Self.positiveInt32(value) == nil {
            let unit = key.hasSuffix(":duration") ? " of seconds" : ""
            flag(.og017, tag, "\(key) \(quoted) is not a whole number\(unit) of at least 1")
        }
        if key == "profile:gender", !["male", "female"].contains(value) {
            flag(.og017, tag, "profile:gender \(quoted) is not male or female")
        }
        if Self.deprecatedProperties.contains(key) {
            flag(.og020, tag, "\(key) is deprecated in the Open Graph vocabulary; consumers may ignore it")
        }
    }

    // MARK: OG006

    private func checkCanonical(_ flag: (RuleID, MetaTag, String) -> Void) {
        guard let ogURL = page.openGraphValue("og:url"), Self.isAbsoluteWebURL(ogURL.content),
            let canonical = page.canonicals.first(where: { !$0.content.isEmpty }),
            let ogKey = URLParser.parse(ogURL.content)?.deduplicationKey,
            let canonicalKey = URLParser.parse(canonical.content)?.deduplicationKey
        else { return }
        if ogKey != canonicalKey {
            flag(
                .og006, ogURL,
                "og:url \(Self.quoted(ogURL.content)) is not the canonical URL \(Self.quoted(canonical.content)) (line \(canonical.line))\(Self.difference(ogKey, canonicalKey))"
            )
        }
    }

    /// Names a difference that is easy to overlook: only the scheme, or only a trailing slash.
    static func difference(_ first: String, _ second: String) -> String {
        func withoutScheme(_ url: String) -> Substring { url.drop { $0 != ":" } }
        if withoutScheme(first) == withoutScheme(second) { return "; only the scheme differs" }
        if first + "/" == second || second + "/" == first { return "; only a trailing slash differs" }
        return ""
    }

    // MARK: OG008

    /// The namespace each Open Graph prefix stands for (ogp.me; http and https both occur).
    static let namespaces: [String: String] = [
        "og": "ogp.me/ns#", "music": "ogp.me/ns/music#", "video": "ogp.me/ns/video#",
        "article": "ogp.me/ns/article#", "book": "ogp.me/ns/book#", "profile": "ogp.me/ns/profile#",
        "website": "ogp.me/ns/website#",
    ]

    private func checkPrefixes(_ report: (RuleID, SourcePosition, String, String) -> Void) {
        var used: [String] = []
        // Prefixes are RDFa: they scope property= attributes, not name= (OG007's business).
        for tag in page.openGraph where tag.attribute == .property {
            guard let colon = tag.key.firstIndex(of: ":") else { continue }
            let prefix = tag.key[..<colon].lowercased()
            if Self.namespaces[prefix] != nil, !used.contains(prefix) { used.append(prefix) }
        }
        guard let first = page.openGraph.first(where: { $0.attribute == .property }), !used.isEmpty else { return }
        let declared = Set(page.prefixes.map(\.prefix))
        let undeclared = used.filter { !declared.contains($0) }
        if !undeclared.isEmpty {
            let wanted = undeclared.map { "\($0): https://\(Self.namespaces[$0] ?? "")" }.joined(separator: " ")
            report(
                .og008, first.position, Self.excerpt(first),
                "\(undeclared.map { "\($0):" }.joined(separator: ", ")) used without a prefix attribute declaring \(undeclared.count == 1 ? "it" : "them") (prefix=\"\(wanted)\")"
            )
        }
        for declaration in page.prefixes {
            guard let namespace = Self.namespaces[declaration.prefix] else { continue }
            if declaration.iri != "https://" + namespace, declaration.iri != "http://" + namespace {
                report(
                    .og008, declaration.position,
                    "prefix=\"\(declaration.prefix): \(Self.shortened(declaration.iri))\"",
                    "prefix \(declaration.prefix): is declared as \(Self.quoted(declaration.iri)), not https://\(namespace)"
                )
            }
        }
    }

    // MARK: OG013

    /// One finding per page, at the first image without a text: a gallery of 40 og:image tags
    /// without og:image:alt is one defect, not 40.
    private func checkImageAlternativeText(_ flag: (RuleID, MetaTag, String) -> Void) {
        let images = page.openGraphMedia.media.filter { $0.kind == .image && !$0.url.isEmpty }
        // `og:image` and a following `og:image:url` with the same URL describe one image.
        let describedURLs = Set(images.filter { !($0.alt ?? "").isEmpty }.map(\.url))
        var undescribed: [OpenGraphMedia] = []
        for image in images where !describedURLs.contains(image.url) {
            if !undescribed.contains(where: { $0.url == image.url }) { undescribed.append(image) }
        }
        guard let first = undescribed.first,
            let tag = page.openGraph.first(where: {
                $0.line == first.line && $0.column == first.column && $0.content == first.url
            })
        else { return }
        var message = "og:image \(Self.quoted(first.url)) "
        message += first.alt == nil ? "has no og:image:alt" : "has an empty og:image:alt"
        let others = undescribed.dropFirst()
        if !others.isEmpty {
            let lines = others.prefix(5).map { String($0.line) }.joined(separator: ", ")
            message +=
                "; \(others.count) more og:image \(others.count == 1 ? "has" : "have") none (line\(others.count == 1 ? "" : "s") \(lines)\(others.count > 5 ? " …" : ""))"
        }
        flag(.og013, tag, message)
    }

    // MARK: OG016

    /// The global types of ogp.me (`payment.link` is in beta).
    static let globalTypes: Set<String> = [
        "website", "article", "book", "profile", "music.song", "music.album", "music.playlist",
        "music.radio_station", "video.movie", "video.episode", "video.tv_show", "video.other", "payment.link",
    ]

    private func checkType(_ flag: (RuleID, MetaTag, String) -> Void) {
        for tag in page.openGraph where tag.key.lowercased() == "og:type" && !tag.content.isEmpty {
            let value = tag.content
            if Self.globalTypes.contains(value) { continue }
            if let colon = value.firstIndex(of: ":"), colon != value.startIndex,
                page.prefixes.contains(where: { $0.prefix == value[..<colon].lowercased() })
            {
                continue
            }
            let hint = Self.globalTypes.contains(value.lowercased()) ? " (types are lower-case)" : ""
            flag(
                .og016, tag,
                "og:type \(Self.quoted(value)) is not an Open Graph global type nor a CURIE with a declared prefix\(hint)"
            )
        }
    }

    // MARK: OG018

    static let singleValuedProperties: Set<String> = [
        "og:title", "og:type", "og:url", "og:description", "og:determiner", "og:locale", "og:site_name",
        "article:published_time", "article:modified_time", "article:expiration_time", "article:section",
        "book:isbn", "book:release_date", "profile:first_name", "profile:last_name", "profile:username",
        "profile:gender", "music:duration", "music:release_date", "video:duration", "video:release_date",
    ]

    private func checkRepeatedSingleValues(_ flag: (RuleID, MetaTag, String) -> Void) {
        var first: [String: MetaTag] = [:]
        for tag in page.openGraph where !tag.content.isEmpty {
            let key = tag.key.lowercased()
            guard Self.singleValuedProperties.contains(key) else { continue }
            guard let earlier = first[key] else {
                first[key] = tag
                continue
            }
            if earlier.content != tag.content {
                flag(
                    .og018, tag,
                    "\(key) is repeated: \(Self.quoted(tag.content)) (line \(tag.line)) differs from \(Self.quoted(earlier.content)) (line \(earlier.line)); consumers use the first"
                )
            }
        }
        // Structured properties are single-valued within their image, video or audio.
        for group in mediaGroups() {
            var seen: [String: MetaTag] = [:]
            for tag in group.properties {
                let key = tag.key.lowercased()
                guard let earlier = seen[key] else {
                    seen[key] = tag
                    continue
                }
                if earlier.content != tag.content {
                    flag(
                        .og018, tag,
                        "\(key) is repeated for the same og:\(group.kind) (line \(group.rootLine)): \(Self.quoted(tag.content)) (line \(tag.line)) differs from \(Self.quoted(earlier.content)) (line \(earlier.line)); consumers use the first"
                    )
                }
            }
        }
    }

    /// Each `og:image`/`og:video`/`og:audio` root with the structured properties that belong to it
    /// (the same ownership as `PageMarkup.openGraphMedia`; orphans are left out).
    private func mediaGroups() -> [(kind: String, rootLine: Int, properties: [MetaTag])] {
        var groups: [(kind: String, rootLine: Int, url: String, properties: [MetaTag])] = []
        var current: [String: Int] = [:]
        for tag in page.openGraph {
            let parts = tag.key.lowercased().split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count >= 2, parts[0] == "og", ["image", "video", "audio"].contains(parts[1]) else {
                continue
            }
            let kind = String(parts[1])
            let startsGroup: Bool
            if parts.count == 2 {
                startsGroup = true
            } else if parts.count == 3, parts[2] == "url" {
                startsGroup = current[kind].map { !groups[$0].url.isEmpty } ?? true
            } else {
                startsGroup = false
            }
            if startsGroup {
                current[kind] = groups.count
                groups.append((kind, tag.line, tag.content, []))
            } else if let index = current[kind] {
                if parts.count == 3, parts[2] == "url" {
                    groups[index].url = tag.content
                } else {
                    groups[index].properties.append(tag)
                }
            }
        }
        return groups.map { ($0.kind, $0.rootLine, $0.properties) }
    }

    // MARK: OG019

    private func checkTitleBranding(_ flag: (RuleID, MetaTag, String) -> Void) {
        guard let title = page.openGraphValue("og:title"), let siteName = page.openGraphValue("og:site_name"),
            Self.containsAsSegment(title.content, siteName.content)
        else { return }
        flag(
            .og019, title,
            "og:title \(Self.quoted(title.content)) contains the site name \(Self.quoted(siteName.content)) (og:site_name, line \(siteName.line)); previews show both"
        )
    }

    /// Characters that separate a title from its branding: `Up | Family Cinema`, `Family Cinema – Up`.
    static let titleSeparators: Set<Character> = ["|", "-", "–", "—", "·", "•", ":", "»", "«", "/", "~", "｜"]

    /// Whether `name` is a segment of `title` of its own: set off by a separator (`|`, `-`, `–`, `:` …)
    /// from the rest of the title, compared case-insensitively. A title that is only the name is not.
    static func containsAsSegment(_ title: String, _ name: String) -> Bool {
        let title = Array(title.lowercased())
        let name = Array(name.lowercased().trimmingWhitespaceAndNewlines())
        guard !name.isEmpty, title.count > name.count else { return false }
        func separated<S: Sequence<Character>>(_ side: S) -> Bool? {
            // nil: nothing but whitespace on this side (title edge); true: a separator follows.
            for character in side where !character.isWhitespace {
                return titleSeparators.contains(character)
            }
            return nil
        }
        var start = 0
        while start + name.count <= title.count {
            if Array(title[start..<(start + name.count)]) == name {
                let before = separated(title[..<start].reversed())
                let after = separated(title[(start + name.count)...])
                let rest = title[..<start] + title[(start + name.count)...]
                let restHasWords = rest.contains { $0.isLetter || $0.isNumber }
                if before != false, after != false, before == true || after == true, restHasWords {
                    return true
                }
            }
            start += 1
        }
        return false
    }

    // MARK: OG021

    /// Which `og:type` values each type-specific property belongs to; namespaces not listed
    /// property by property (`article:*`, `book:*`, `profile:*`, `video:*`) belong to their types.
    static let propertyTypes: [String: Set<String>] = [
        "music:duration": ["music.song"], "music:album": ["music.song"], "music:album:disc": ["music.song"],
        "music:album:track": ["music.song"], "music:musician": ["music.song", "music.album"],
        "music:song": ["music.album", "music.playlist"], "music:song:disc": ["music.album", "music.playlist"],
        "music:song:track": ["music.album", "music.playlist"], "music:release_date": ["music.album"],
        "music:creator": ["music.playlist", "music.radio_station"], "video:series": ["video.episode"],
    ]
    static let namespaceTypes: [String: Set<String>] = [
        "article": ["article"], "book": ["book"], "profile": ["profile"],
        "video": ["video.movie", "video.episode", "video.tv_show", "video.other"],
        "music": ["music.song", "music.album", "music.playlist", "music.radio_station"],
        "payment": ["payment.link"],
    ]

    private func checkTypeSpecificProperties(_ report: (RuleID, SourcePosition, String, String) -> Void) {
        // Without og:type (OG002) or with an unknown one (OG016) there is nothing to compare with.
        guard let typeTag = page.openGraphValue("og:type"), Self.globalTypes.contains(typeTag.content) else { return }
        let type = typeTag.content
        var misplaced: [String: [MetaTag]] = [:]
        var order: [String] = []
        // Only property= tags: a name= tag is not RDFa, and sites use name="video:…" for their own data.
        for tag in page.openGraph where tag.attribute == .property {
            let key = tag.key.lowercased()
            guard let colon = key.firstIndex(of: ":") else { continue }
            let namespace = String(key[..<colon])
            guard let namespaceTypes = Self.namespaceTypes[namespace] else { continue }
            let types = Self.propertyTypes[key] ?? namespaceTypes
            if !types.contains(type) {
                if misplaced[namespace] == nil { order.append(namespace) }
                misplaced[namespace, default: []].append(tag)
            }
        }
        for namespace in order {
            guard let tags = misplaced[namespace], let first = tags.first else { continue }
            var names: [String] = []
            for tag in tags where !names.contains(tag.key.lowercased()) { names.append(tag.key.lowercased()) }
            let owners = Set(
                tags.flatMap { Self.propertyTypes[$0.key.lowercased()] ?? Self.namespaceTypes[namespace] ?? [] })
            report(
                .og021, first.position, Self.excerpt(first),
                "\(names.joined(separator: ", ")) (line \(first.line)) belong\(names.count == 1 ? "s" : "") to og:type \(owners.sorted().joined(separator: " or ")), but og:type is \(type) (line \(typeTag.line))"
            )
        }
    }

    // MARK: Values

    static func isAbsoluteWebURL(_ value: String) -> Bool {
        // `scheme://host…` as written: browsers repair `https:host` and `https:\\host`, the spec does not.
        let lowered = value.lowercased()
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://"), let url = URLParser.parse(value)
        else { return false }
        return url.isCrawlable && !(url.host ?? "").isEmpty
    }

    /// A 32-bit signed integer of at least 1, written as ASCII digits.
    static func positiveInt32(_ value: String) -> Int32? {
        guard !value.isEmpty, value.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int32(value),
            number >= 1
        else { return nil }
        return number
    }

    static let expectedMediaTypes: [String: String] = [
        "image": "an image/* MIME type", "video": "a video MIME type (video/*)",
        "audio": "an audio MIME type (audio/*)",
    ]

    /// `image/*` for images; `video/*` (or the Flash and streaming types ogp.me's examples and
    /// players use) for videos; `audio/*` for audio.
    static func isMediaType(_ value: String, for kind: String) -> Bool {
        let essence = value.split(separator: ";", maxSplits: 1).first.map(String.init) ?? value
        let lowered = essence.trimmingWhitespaceAndNewlines().lowercased()
        let parts = lowered.split(separator: "/", omittingEmptySubsequences: false)
        let token: (Substring) -> Bool = { part in
            !part.isEmpty && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "!#$&-^_.+".contains($0)) }
        }
        guard parts.count == 2, token(parts[0]), token(parts[1]) else { return false }
        switch kind {
        case "image":
            return parts[0] == "image"
        case "video":
            return parts[0] == "video"
                || [
                    "application/x-shockwave-flash", "application/vnd.apple.mpegurl", "application/x-mpegurl",
                    "application/dash+xml",
                ].contains(lowered)
        default:
            return parts[0] == "audio" || lowered == "application/ogg"
        }
    }

    /// `language_TERRITORY`: 2–3 lower-case letters, `_`, 2 upper-case letters or 3 digits.
    static func isLocale(_ value: String) -> Bool {
        let parts = value.split(separator: "_", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return false }
        let language = parts[0]
        let territory = parts[1]
        let languageOK = (2...3).contains(language.count) && language.allSatisfy { $0.isASCII && $0.isLowercase }
        let territoryOK =
            (territory.count == 2 && territory.allSatisfy { $0.isASCII && $0.isUppercase })
            || (territory.count == 3 && territory.allSatisfy { $0.isASCII && $0.isNumber })
        return languageOK && territoryOK
    }

    // MARK: Excerpts

    /// `"value"`, cut to 120 characters: page values can be huge.
    static func quoted(_ value: String) -> String {
        "\"\(shortened(value))\""
    }

    static func shortened(_ value: String, limit: Int = 120) -> String {
        value.count > limit ? String(value.prefix(limit)) + "…" : value
    }

    static func excerpt(_ tag: MetaTag) -> String {
        "<meta \(tag.attribute.rawValue)=\"\(shortened(tag.key, limit: 80))\" content=\"\(shortened(tag.content, limit: 200))\">"
    }

    private func tags(_ property: String) -> [MetaTag] {
        page.openGraph.filter { $0.key.lowercased() == property }
    }
}

extension String {
    fileprivate func trimmingWhitespaceAndNewlines() -> String {
        var view = Substring(self)
        while let first = view.first, first.isWhitespace { view = view.dropFirst() }
        while let last = view.last, last.isWhitespace { view = view.dropLast() }
        return String(view)
    }
}
