/// A value mirroring Core Spotlight's `CSSearchableItemAttributeSet`: the fields web content can
/// fill (reference §5.1), with Core Spotlight's property names. Dates keep their time zone.
public struct AttributeSet: Sendable, Hashable, Codable {
    public var title: String?
    public var displayName: String?
    public var alternateNames: [String] = []
    public var contentDescription: String?
    /// The image the result would show. On a device this is downloaded into `thumbnailData` or a
    /// local file; here it is the remote URL the page names.
    public var thumbnailURL: String?
    /// The page's canonical URL, the key SpotCheck joins local items on (the seeds' practice).
    public var contentURL: String?
    public var url: String?
    public var relatedUniqueIdentifier: String?
    public var weakRelatedUniqueIdentifier: String?
    public var domainIdentifier: String?
    /// A UTI (`public.html`, `public.movie` …).
    public var contentType: String?
    public var keywords: [String] = []
    public var rankingHint: Double?
    public var identifier: String?
    /// Out of 5 stars.
    public var rating: Double?
    public var ratingDescription: String?
    public var phoneNumbers: [String] = []
    public var emailAddresses: [String] = []
    public var supportsPhoneCall: Bool?
    public var supportsNavigation: Bool?
    public var latitude: Double?
    public var longitude: Double?
    public var altitude: Double?
    public var namedLocation: String?
    public var thoroughfare: String?
    public var subThoroughfare: String?
    public var city: String?
    public var stateOrProvince: String?
    public var postalCode: String?
    public var country: String?
    public var fullyFormattedAddress: String?
    public var startDate: SpotlightDate?
    public var endDate: SpotlightDate?
    public var contentCreationDate: SpotlightDate?
    public var contentModificationDate: SpotlightDate?
    public var authorNames: [String] = []
    public var publishers: [String] = []
    public var contributors: [String] = []
    public var organizations: [String] = []
    /// BCP 47 tags.
    public var languages: [String] = []
    public var genre: String?
    public var director: String?
    public var performers: [String] = []
    /// Seconds.
    public var duration: Double?
    public var headline: String?
    public var pixelWidth: Int?
    public var pixelHeight: Int?
    /// `CSCustomAttributeKey` values (price, currency …), keys in Apple's recommended form.
    public var customAttributes: [String: String] = [:]

    public init() {}
}

/// A date as written, with its parsed instant when it has one. A date without a zone is
/// "floating" (`timeZoneOffset` nil) and its instant is computed as UTC.
public struct SpotlightDate: Sendable, Hashable, Codable {
    /// The text as the page wrote it.
    public var text: String
    /// Seconds since 1970-01-01T00:00:00Z.
    public var secondsSince1970: Double
    /// Seconds east of UTC, or nil when the text had no zone.
    public var timeZoneOffset: Int?
    public var hasTime: Bool

    public init(text: String, secondsSince1970: Double, timeZoneOffset: Int?, hasTime: Bool) {
        self.text = text
        self.secondsSince1970 = secondsSince1970
        self.timeZoneOffset = timeZoneOffset
        self.hasTime = hasTime
    }
}

/// A value mirroring `CSSearchableItem`.
public struct SearchableItem: Sendable, Hashable, Codable {
    /// The largest batch client state Core Spotlight keeps: "less than 250 bytes"
    /// (`CSSearchableIndex.h`). `index import` refuses more; `crawl --items` reports it (AS016).
    public static let maximumClientStateBytes = 249

    public var uniqueIdentifier: String
    public var domainIdentifier: String?
    public var attributeSet: AttributeSet
    public var expirationDate: SpotlightDate?
    /// `isUpdate`: merge into an existing item instead of replacing it.
    public var isUpdate: Bool

    public init(
        uniqueIdentifier: String, domainIdentifier: String? = nil, attributeSet: AttributeSet,
        expirationDate: SpotlightDate? = nil, isUpdate: Bool = false
    ) {
        self.uniqueIdentifier = uniqueIdentifier
        self.domainIdentifier = domainIdentifier
        self.attributeSet = attributeSet
        self.expirationDate = expirationDate
        self.isUpdate = isUpdate
    }
}

/// A value mirroring the search-related fields of `NSUserActivity` (reference §5.4).
public struct UserActivity: Sendable, Hashable, Codable {
    public var activityType: String
    public var title: String?
    public var keywords: [String]
    /// http or https only.
    public var webpageURL: String?
    public var persistentIdentifier: String?
    public var isEligibleForSearch: Bool
    public var isEligibleForPublicIndexing: Bool
    public var isEligibleForHandoff: Bool
    public var isEligibleForPrediction: Bool
    public var expirationDate: SpotlightDate?
    public var requiredUserInfoKeys: [String]?
    public var contentAttributeSet: AttributeSet?

    public init(
        activityType: String, title: String? = nil, keywords: [String] = [], webpageURL: String? = nil,
        persistentIdentifier: String? = nil, isEligibleForSearch: Bool = false,
        isEligibleForPublicIndexing: Bool = false,
        isEligibleForHandoff: Bool = true, isEligibleForPrediction: Bool = false, expirationDate: SpotlightDate? = nil,
        requiredUserInfoKeys: [String]? = nil, contentAttributeSet: AttributeSet? = nil
    ) {
        self.activityType = activityType
        self.title = title
        self.keywords = keywords
        self.webpageURL = webpageURL
        self.persistentIdentifier = persistentIdentifier
        self.isEligibleForSearch = isEligibleForSearch
        self.isEligibleForPublicIndexing = isEligibleForPublicIndexing
        self.isEligibleForHandoff = isEligibleForHandoff
        self.isEligibleForPrediction = isEligibleForPrediction
        self.expirationDate = expirationDate
        self.requiredUserInfoKeys = requiredUserInfoKeys
        self.contentAttributeSet = contentAttributeSet
    }
}
