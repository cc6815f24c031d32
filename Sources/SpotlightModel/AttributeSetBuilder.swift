public import MarkupExtraction
import URLNormalization

/// Where a value came from: the markup source (`og:title`, `json-ld Movie.name`, `<title>` …) and
/// its line, with its tag's column when known (the attribute set's JSON gives the line only).
public struct ValueSource: Sendable, Hashable, Codable {
    public var source: String
    public var line: Int
    public var column: Int? = nil

    public var position: SourcePosition { SourcePosition(line: line, column: column) }
}

/// The value chosen for one attribute-set field, and the other values the page gave for it.
public struct Provenance: Sendable, Hashable, Codable {
    public struct Candidate: Sendable, Hashable, Codable {
        public var value: String
        public var source: ValueSource
    }

    public var field: String
    public var chosen: Candidate
    /// Candidates with a different value that lost on precedence (conflicts to report).
    public var conflicting: [Candidate]
}

/// A way into the app the page declares.
public struct DeepLink: Sendable, Hashable, Codable {
    public var url: String
    public var source: ValueSource

    /// The App Links and X tags whose value is a deep link, in the order the builder reads them
    /// (after the Smart App Banner's `app-argument`).
    public static let tagKeys = [
        "al:iphone:url", "al:ipad:url", "al:ios:url", "twitter:app:url:iphone", "twitter:app:url:ipad",
    ]

    /// True for a link to the App Store rather than into the app (`https://apps.apple.com/app/id…`,
    /// `itunes.apple.com`, `itms-apps://…`): it opens the store page, never the content, so it is
    /// no deep link (reference §2.6: the deep link opens the content in the app).
    public static func isAppStoreLink(_ url: String) -> Bool {
        guard let parsed = URLParser.parse(url) else { return false }
        if ["itms", "itms-apps", "itms-appss"].contains(parsed.scheme) { return true }
        guard parsed.isCrawlable, let host = parsed.host else { return false }
        return ["apps.apple.com", "itunes.apple.com", "geo.itunes.apple.com", "itunes.com", "www.itunes.com"]
            .contains(host)
    }
}

/// What the builder made of one page.
public struct PageAttributes: Sendable, Hashable, Codable {
    /// The normalised canonical URL: the item's `uniqueIdentifier` and the join key.
    public var uniqueIdentifier: String
    public var attributeSet: AttributeSet
    public var expirationDate: SpotlightDate?
    public var provenance: [Provenance]
    /// Smart App Banner `app-argument`, `al:*:url`, `twitter:app:url:*`, in that order.
    public var deepLinks: [DeepLink]
    /// App Store IDs from the Smart App Banner, App Links and Twitter tags.
    public var appStoreIDs: [DeepLink]
    /// The main schema.org entity's types, when there is one.
    public var mainEntityTypes: [String]
    /// `WebSite` `SearchAction` target template.
    public var searchActionTarget: String?

    public func provenance(of field: String) -> Provenance? { provenance.first { $0.field == field } }
}

/// `PageMarkup → AttributeSet`, following the mapping table of reference §6: display fields
/// prefer Open Graph, entity facts prefer schema.org (JSON-LD, then Microdata, then RDFa), Twitter
/// values are fallbacks, and within a source the first occurrence wins. Every chosen value keeps
/// its source and line, and the values that lost are kept as conflicts.
public struct AttributeSetBuilder: Sendable {
    public init() {}

    private struct Candidate {
        var value: String
        var source: String
        var line: Int
        var column: Int? = nil
    }

    private struct Recorder {
        var provenance: [Provenance] = []

        mutating func choose(_ field: String, _ candidates: [Candidate?]) -> String? {
            let present = candidates.compactMap { $0 }.filter { !$0.value.isEmpty }
            guard let first = present.first else { return nil }
            var seen: Set<String> = [first.value]
            var conflicting: [Provenance.Candidate] = []
            for candidate in present.dropFirst() where seen.insert(candidate.value).inserted {
                conflicting.append(
                    .init(
                        value: candidate.value,
                        source: ValueSource(source: candidate.source, line: candidate.line, column: candidate.column)))
            }
            provenance.append(
                Provenance(
                    field: field,
                    chosen: .init(
                        value: first.value,
                        source: ValueSource(source: first.source, line: first.line, column: first.column)),
                    conflicting: conflicting))
            return first.value
        }
    }

    /// Types that are page furniture, not the page's subject (reference §6, "Main schema.org entity").
    static let furnitureTypes: Set<String> = [
        "WebSite", "WebPage", "BreadcrumbList", "SiteNavigationElement", "WPHeader", "WPFooter", "SearchAction",
    ]

    public func build(_ page: PageMarkup) -> PageAttributes {
        var recorder = Recorder()
        var set = AttributeSet()
        let entities = Entity.all(in: page)

        // Identity: canonical → og:url → main entity url/@id → the page URL.
        let canonicalCandidates: [Candidate?] = [
            page.canonicals.first.map {
                Candidate(value: $0.content, source: "link rel=canonical", line: $0.line, column: $0.column)
            },
            page.openGraphValue("og:url").map {
                Candidate(value: $0.content, source: "og:url", line: $0.line, column: $0.column)
            },
            Candidate(value: page.url, source: "page URL", line: 0),
        ]
        let canonical = URLNormalizer.normalize(recorder.choose("url", canonicalCandidates) ?? page.url)
        set.url = canonical
        set.contentURL = canonical

        let main = Self.mainEntity(entities, canonical: canonical, base: URLResolver(base: page.baseURL))
        /// `property` of the main entity.
        func fromEntity(_ property: String) -> Candidate? { fromEntity(property, in: main) }
        /// `property` of `entity` (no fallback to the main entity when it is nil).
        func fromEntity(_ property: String, in entity: Entity?) -> Candidate? {
            guard let entity, let text = entity.text(property) else { return nil }
            return Candidate(
                value: text, source: "\(entity.syntax.rawValue) \(entity.path(property))", line: entity.line,
                column: entity.column)
        }
        func og(_ property: String) -> Candidate? {
            page.openGraphValue(property).map {
                Candidate(value: $0.content, source: property, line: $0.line, column: $0.column)
            }
        }
        func twitter(_ name: String) -> Candidate? {
            page.twitterValue(name).map { Candidate(value: $0.content, source: name, line: $0.line, column: $0.column) }
        }

        let title = recorder.choose(
            "title",
            [
                og("og:title"), fromEntity("name"), fromEntity("headline"), twitter("twitter:title"),
                page.title.map { Candidate(value: $0.text, source: "<title>", line: $0.line, column: $0.column) },
            ])
        set.title = title.map { Self.strippingSiteName($0.collapsingWhitespace(), og("og:site_name")?.value) }
        set.displayName = set.title
        set.contentDescription = recorder.choose(
            "contentDescription",
            [
                og("og:description"), fromEntity("description"), twitter("twitter:description"),
                page.descriptions.first.map {
                    Candidate(value: $0.content, source: "meta description", line: $0.line, column: $0.column)
                },
            ])?.collapsingWhitespace()

        // Thumbnail: first og:image (secure_url when https) → entity image → thumbnailUrl → twitter:image → touch icon.
        let media = page.openGraphMedia.media.filter { $0.kind == .image }
        let firstImage = media.first.map { image -> Candidate in
            let url = image.secureURL.flatMap { $0.hasPrefix("https://") ? $0 : nil } ?? image.url
            return Candidate(value: url, source: "og:image", line: image.line, column: image.column)
        }
        let entityImage: Candidate? = main.flatMap { entity in
            for value in entity.values("image") {
                switch value {
                case .text(let url):
                    return Candidate(
                        value: url, source: "\(entity.syntax.rawValue) \(entity.path("image"))", line: entity.line,
                        column: entity.column)
                case .entity(let image):
                    if let url = image.text("contentUrl") ?? image.text("url") {
                        return Candidate(
                            value: url, source: "\(entity.syntax.rawValue) \(entity.path("image"))", line: entity.line,
                            column: entity.column)
                    }
                }
            }
            return nil
        }
        let thumbnail = recorder.choose(
            "thumbnailURL",
            [
                firstImage, entityImage, fromEntity("thumbnailUrl"), twitter("twitter:image"),
                twitter("twitter:image:src"),
                page.touchIcons.first.map {
                    Candidate(value: $0.content, source: "apple-touch-icon", line: $0.line, column: $0.column)
                },
            ])
        if let thumbnail {
            set.thumbnailURL = URLResolver(base: page.baseURL).resolve(thumbnail)
            if let image = media.first, firstImage?.value == thumbnail {
                set.pixelWidth = image.width.flatMap { Int($0.trimmingWhitespace()) }
                set.pixelHeight = image.height.flatMap { Int($0.trimmingWhitespace()) }
            }
        }

        // Keywords: entity keywords → article/book/video tags → meta keywords; deduplicated, at most 5.
        var keywordCandidates: [Candidate] = []
        if let main {
            for text in main.texts("keywords") {
                for keyword in text.split(separator: ",") {
                    keywordCandidates.append(
                        Candidate(
                            value: keyword.trimmingWhitespace(),
                            source: "\(main.syntax.rawValue) \(main.path("keywords"))", line: main.line,
                            column: main.column))
                }
            }
        }
        for tag in page.openGraph where ["article:tag", "book:tag", "video:tag"].contains(tag.key.lowercased()) {
            keywordCandidates.append(Candidate(value: tag.content, source: tag.key, line: tag.line, column: tag.column))
        }
        if keywordCandidates.isEmpty, let meta = page.keywords.first {
            for keyword in meta.content.split(separator: ",") {
                keywordCandidates.append(
                    Candidate(
                        value: keyword.trimmingWhitespace(), source: "meta keywords", line: meta.line,
                        column: meta.column))
            }
        }
        var seenKeywords: Set<String> = []
        for candidate in keywordCandidates where !candidate.value.isEmpty && set.keywords.count < 5 {
            if seenKeywords.insert(candidate.value.lowercased()).inserted { set.keywords.append(candidate.value) }
        }
        if let first = keywordCandidates.first, !set.keywords.isEmpty {
            recorder.provenance.append(
                Provenance(
                    field: "keywords",
                    chosen: .init(
                        value: set.keywords.joined(separator: ", "),
                        source: ValueSource(source: first.source, line: first.line, column: first.column)),
                    conflicting: []))
        }

        // Rating.
        if let main, let rating = main.entity("aggregateRating") ?? main.entity("reviewRating"),
            let normalized = Self.normalizedRating(rating)
        {
            set.rating = normalized
            recorder.provenance.append(
                Provenance(
                    field: "rating",
                    chosen: .init(
                        value: String(normalized),
                        source: ValueSource(
                            source: "\(rating.syntax.rawValue) \(main.path("aggregateRating")).ratingValue",
                            line: rating.line, column: rating.column)),
                    conflicting: []))
            if let count = rating.text("ratingCount") ?? rating.text("reviewCount") {
                set.ratingDescription = "\(count) ratings"
            }
        }

        // Contact and place facts: the main entity, else a business-like entity on the page.
        let business = main.flatMap { Self.isBusinessLike($0) ? $0 : nil } ?? entities.first(where: Self.isBusinessLike)
        let contact = main ?? business
        if let contact {
            let phones = contact.texts("telephone")
            set.phoneNumbers = phones.map { $0.hasPrefix("tel:") ? String($0.dropFirst(4)) : $0 }
            if !set.phoneNumbers.isEmpty, Self.isBusinessLike(contact) { set.supportsPhoneCall = true }
            set.emailAddresses = contact.texts("email").map { $0.hasPrefix("mailto:") ? String($0.dropFirst(7)) : $0 }
        }
        if set.emailAddresses.isEmpty, let email = og("og:email") { set.emailAddresses = [email.value] }
        let place = business ?? main
        let geo = place?.entity("geo") ?? place?.entity("location")?.entity("geo")
        let latitude = geo?.text("latitude") ?? place?.text("latitude") ?? og("og:latitude")?.value
        let longitude = geo?.text("longitude") ?? place?.text("longitude") ?? og("og:longitude")?.value
        if let latitude = latitude.flatMap(Double.init), let longitude = longitude.flatMap(Double.init),
            (-90...90).contains(latitude), (-180...180).contains(longitude)
        {
            set.latitude = latitude
            set.longitude = longitude
            set.supportsNavigation = true
        }
        if let address = place?.entity("address") ?? place?.entity("location")?.entity("address") {
            set.thoroughfare = address.text("streetAddress")
            set.city = address.text("addressLocality")
            set.stateOrProvince = address.text("addressRegion")
            set.postalCode = address.text("postalCode")
            set.country = address.text("addressCountry")
        } else if let text = place?.text("address") {
            set.fullyFormattedAddress = text
        }
        set.namedLocation =
            main?.entity("location")?.text("name") ?? (main?.isA("Place") == true ? main?.text("name") : nil)

        // Dates.
        func date(_ field: String, _ candidates: [Candidate?]) -> SpotlightDate? {
            recorder.choose(field, candidates).flatMap(ISO8601.date)
        }
        set.startDate = date("startDate", [fromEntity("startDate")])
        set.endDate = date("endDate", [fromEntity("endDate")])
        set.contentCreationDate = date(
            "contentCreationDate",
            [
                og("article:published_time"), fromEntity("datePublished"), fromEntity("dateCreated"),
                og("video:release_date"), og("book:release_date"),
            ])
        set.contentModificationDate = date(
            "contentModificationDate", [og("article:modified_time"), fromEntity("dateModified"), og("og:updated_time")])
        let expiration = date(
            "expirationDate",
            [
                og("article:expiration_time"), fromEntity("endDate"),
                fromEntity("priceValidUntil", in: main?.entity("offers")),
            ])

        // Kind, people, language, duration, identifiers.
        set.contentType = Self.contentType(ogType: page.openGraphValue("og:type")?.content, entity: main)
        set.authorNames = page.openGraph.filter { ["article:author", "book:author"].contains($0.key.lowercased()) }.map(
            \.content)
        if set.authorNames.isEmpty, let main { set.authorNames = main.texts("author") }
        if let publisher = recorder.choose(
            "publishers", [og("og:site_name"), fromEntity("name", in: main?.entity("publisher"))])
        {
            set.publishers = [publisher]
        }
        if let language = recorder.choose(
            "languages",
            [
                og("og:locale").map {
                    Candidate(
                        value: Self.bcp47(fromLocale: $0.value), source: $0.source, line: $0.line, column: $0.column)
                },
                fromEntity("inLanguage"),
                page.lang.map { Candidate(value: $0.text, source: "<html lang>", line: $0.line, column: $0.column) },
            ])
        {
            set.languages = [Self.bcp47(fromLocale: language)]
        }
        if let duration = recorder.choose(
            "duration", [og("video:duration"), og("music:duration"), fromEntity("duration")])
        {
            // `inf` and `nan` read as numbers, but are no duration (and no JSON number).
            let seconds = Double(duration.trimmingWhitespace()) ?? ISO8601.duration(duration)
            set.duration = seconds.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
        }
        set.genre = main?.text("genre")
        set.director = main?.text("director")
        set.performers = main?.texts("actor") ?? []
        set.headline = main?.text("headline")
        set.identifier = recorder.choose(
            "identifier",
            [fromEntity("sku"), fromEntity("gtin13"), fromEntity("gtin"), fromEntity("isbn"), og("book:isbn")])
        if let offers = main?.entity("offers") {
            for key in ["price", "priceCurrency", "lowPrice", "highPrice"] {
                if let value = offers.text(key) { set.customAttributes["com_spotcheck_\(key)"] = value }
            }
        }

        // Deep links and App Store IDs (report only).
        var deepLinks: [DeepLink] = []
        var appStoreIDs: [DeepLink] = []
        for banner in page.smartAppBanners {
            if let argument = banner.appArgument, !argument.isEmpty, !DeepLink.isAppStoreLink(argument) {
                deepLinks.append(
                    DeepLink(
                        url: argument,
                        source: ValueSource(
                            source: "apple-itunes-app app-argument", line: banner.line, column: banner.column)))
            }
            if let id = banner.appID {
                appStoreIDs.append(
                    DeepLink(
                        url: id,
                        source: ValueSource(source: "apple-itunes-app app-id", line: banner.line, column: banner.column)
                    ))
            }
        }
        for key in DeepLink.tagKeys {
            if let tag = page.appLinksValue(key) ?? page.twitterValue(key), !DeepLink.isAppStoreLink(tag.content) {
                deepLinks.append(
                    DeepLink(url: tag.content, source: ValueSource(source: key, line: tag.line, column: tag.column)))
            }
        }
        for key in [
            "al:iphone:app_store_id", "al:ipad:app_store_id", "al:ios:app_store_id", "twitter:app:id:iphone",
            "twitter:app:id:ipad",
        ] {
            if let tag = page.appLinksValue(key) ?? page.twitterValue(key) {
                appStoreIDs.append(
                    DeepLink(url: tag.content, source: ValueSource(source: key, line: tag.line, column: tag.column)))
            }
        }
        let searchAction = entities.first { $0.isA("WebSite") }?.entity("potentialAction").flatMap { action in
            action.text("target") ?? action.entity("target")?.text("urlTemplate")
        }

        return PageAttributes(
            uniqueIdentifier: canonical, attributeSet: set, expirationDate: expiration, provenance: recorder.provenance,
            deepLinks: deepLinks, appStoreIDs: appStoreIDs, mainEntityTypes: main?.types ?? [],
            searchActionTarget: searchAction)
    }

    /// The entity the page is about (reference §6): the one whose `url`/`@id`/`mainEntityOfPage`
    /// is the canonical URL, else `WebPage.mainEntity`, else the first that is not page furniture
    /// or the publisher.
    static func mainEntity(_ entities: [Entity], canonical: String, base: URLResolver) -> Entity? {
        let matchesCanonical = entities.first { entity in
            identities(of: entity).contains { URLNormalizer.normalize(base.resolve($0)) == canonical }
                && furnitureTypes.isDisjoint(with: entity.types)
        }
        if let matchesCanonical { return matchesCanonical }
        if let webPage = entities.first(where: { $0.isA("WebPage") }), let main = webPage.entity("mainEntity") {
            return main
        }
        let publishers = Set(entities.compactMap { $0.entity("publisher")?.text("name") })
        return entities.first { entity in
            furnitureTypes.isDisjoint(with: entity.types) && !entity.types.isEmpty
                && !(entity.isA("Organization") && publishers.contains(entity.text("name") ?? ""))
        }
    }

    /// The URLs that may name the page an entity is about: its `url` and `@id`, and its
    /// `mainEntityOfPage` (a URL, or the `WebPage` node's `@id` and `url`), as written.
    static func identities(of entity: Entity) -> [String] {
        var identities = [entity.text("url"), entity.id].compactMap { $0 }
        for value in entity.values("mainEntityOfPage") {
            switch value {
            case .text(let text): identities.append(text)
            case .entity(let page): identities += [page.id, page.text("url")].compactMap { $0 }
            }
        }
        return identities
    }

    static func isBusinessLike(_ entity: Entity) -> Bool {
        let types: Set<String> = [
            "Organization", "LocalBusiness", "Corporation", "Restaurant", "Store", "Place", "Hotel", "MovieTheater",
            "ContactPoint", "GovernmentOrganization", "EducationalOrganization", "NGO",
        ]
        return !types.isDisjoint(with: entity.types)
    }

    /// `aggregateRating.ratingValue` on a 0–5 scale. With `worstRating` given:
    /// 5 × (v − worst) / (best − worst); without it the scale is taken to start at 0 (5 × v / best),
    /// so a 4.5 out of 5 stays 4.5. `bestRating` defaults to 5. Out-of-range values are dropped.
    static func normalizedRating(_ rating: Entity) -> Double? {
        guard let value = rating.text("ratingValue").flatMap({ Double($0.trimmingWhitespace()) }) else { return nil }
        let best = rating.text("bestRating").flatMap { Double($0.trimmingWhitespace()) } ?? 5
        let worst = rating.text("worstRating").flatMap { Double($0.trimmingWhitespace()) }
        let low = worst ?? 0
        guard best > low, value >= low, value <= best else { return nil }
        let normalized = 5 * (value - low) / (best - low)
        return (normalized * 100).rounded() / 100
    }

    /// Separators written between a title and a trailing site name ("Headline | TechCrunch").
    static let siteNameSeparators: Set<Character> = ["|", "-", "–", "—", "·", ":"]

    /// `title` without a trailing `siteName` and the separator before it (reference §6: "strip
    /// site-name suffix only if it equals og:site_name"), compared case-insensitively; unchanged
    /// when no separator precedes the name or nothing would remain.
    static func strippingSiteName(_ title: String, _ siteName: String?) -> String {
        guard let siteName = siteName?.collapsingWhitespace(), !siteName.isEmpty,
            title.count > siteName.count, title.lowercased().hasSuffix(siteName.lowercased())
        else { return title }
        var rest = title.dropLast(siteName.count)
        let spaced = rest.last?.isWhitespace ?? false
        while let last = rest.last, last.isWhitespace { rest.removeLast() }
        // "X-Men" on a site named "Men" is a word, not a suffix: a separator other than "|" needs a space.
        guard let separator = rest.last, siteNameSeparators.contains(separator), spaced || separator == "|" else {
            return title
        }
        rest.removeLast()
        while let last = rest.last, last.isWhitespace { rest.removeLast() }
        return rest.isEmpty ? title : String(rest)
    }

    /// `en_US` → `en-US`.
    static func bcp47(fromLocale locale: String) -> String {
        locale.trimmingWhitespace().replacingUnderscores()
    }

    static func contentType(ogType: String?, entity: Entity?) -> String {
        let type = ogType?.lowercased() ?? ""
        if type.hasPrefix("video.") { return "public.movie" }
        if type == "music.song" { return "public.audio" }
        if let entity {
            if entity.isA("ImageObject") { return "public.image" }
            if entity.isA("VideoObject") || entity.isA("Movie") { return "public.movie" }
            if entity.isA("AudioObject") || entity.isA("MusicRecording") { return "public.audio" }
        }
        return "public.html"
    }
}

extension UInt8 {
    /// An ASCII byte that is a white-space `Character` on its own (`Character.isWhitespace`: tab,
    /// LF, VT, FF, CR and space), for the byte paths that must answer as the `Character` ones.
    public var isWhitespaceCharacter: Bool { self == 0x20 || (0x09...0x0D).contains(self) }
}

extension String {
    /// Runs of white space (`Character.isWhitespace`) made one space, none at either end. ASCII
    /// text takes a byte path with the same answer (CR LF, one `Character`, is white space either way).
    func collapsingWhitespace() -> String {
        guard utf8.allSatisfy({ $0 < 0x80 }) else {
            return split(whereSeparator: \.isWhitespace).joined(separator: " ")
        }
        var collapsed: [UInt8] = []
        collapsed.reserveCapacity(utf8.count)
        var spacePending = false
        for byte in utf8 {
            if byte.isWhitespaceCharacter {
                spacePending = !collapsed.isEmpty
                continue
            }
            if spacePending {
                collapsed.append(0x20)
                spacePending = false
            }
            collapsed.append(byte)
        }
        return String(decoding: collapsed, as: UTF8.self)
    }

    func replacingUnderscores() -> String {
        String(map { $0 == "_" ? "-" : $0 })
    }
}
