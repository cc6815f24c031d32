import GRDB
import SpotlightModel

/// A full-text query over the index.
public struct SearchQuery: Sendable, Hashable {
    /// What the user typed. Words are runs of letters and digits; everything else (quotes, `*`,
    /// `-`, `AND`, `NEAR(…)`'s punctuation) only separates words, so no input is FTS5 syntax.
    /// Every word must match (AND), diacritics and case folded.
    public var text: String
    /// Only results in this domain or its sub-domains (`movies` takes `movies.pixar`).
    public var domainIdentifier: String?
    /// Only results of this content type (a UTI, compared without case).
    public var contentType: String?
    /// At most this many results.
    public var limit: Int
    /// Type-ahead: the last word also matches as a prefix (`pad` finds "Paddington").
    public var prefixMatchesLastWord: Bool

    public init(
        _ text: String, domainIdentifier: String? = nil, contentType: String? = nil, limit: Int = 20,
        prefixMatchesLastWord: Bool = true
    ) {
        self.text = text
        self.domainIdentifier = domainIdentifier
        self.contentType = contentType
        self.limit = limit
        self.prefixMatchesLastWord = prefixMatchesLastWord
    }

    /// The FTS5 column weights for bm25: title, displayName, contentDescription, keywords.
    public static let columnWeights: [Double] = [10, 6, 2, 4]

    /// The words of `text`: maximal runs of letters, marks, digits and private-use characters
    /// (the token characters of FTS5's unicode61 tokenizer).
    public var words: [String] {
        var words: [String] = []
        var current = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber,
                .privateUse:
                current.append(scalar)
            default:
                if !current.isEmpty { words.append(String(current)) }
                current = String.UnicodeScalarView()
            }
        }
        if !current.isEmpty { words.append(String(current)) }
        return words
    }

    /// The FTS5 MATCH expression: each word a quoted string (it holds no quote), the last one a
    /// prefix query when type-ahead is on; nil when the text has no word.
    public var matchExpression: String? {
        let words = words
        guard !words.isEmpty else { return nil }
        return words.enumerated().map { index, word in
            "\"\(word)\"" + (prefixMatchesLastWord && index == words.count - 1 ? "*" : "")
        }.joined(separator: " ")
    }
}

/// One search result. An item and the activities that describe the same thing (their
/// `relatedUniqueIdentifier` is its identifier, or their `webpageURL` is its identifier, `url` or
/// `contentURL`) are one result, shown with the item's metadata (§5.5: the Core Spotlight
/// metadata wins in search results).
public struct SearchResult: Sendable, Hashable {
    /// The item's identifier; nil for an activity that no item describes.
    public var uniqueIdentifier: String?
    public var title: String?
    public var displayName: String?
    public var contentDescription: String?
    public var domainIdentifier: String?
    public var contentType: String?
    /// The item's `url`, else its `contentURL`; an activity's `webpageURL`.
    public var url: String?
    public var rankingHint: Double?
    /// Higher is better: bm25 relevance (sign flipped) × (1 + rankingHint / 100).
    public var score: Double
    /// Whether a Core Spotlight item matched or is the result.
    public var isItem: Bool
    /// The activity types merged into this result.
    public var activityTypes: [String]
}

extension LocalIndex {
    /// Searches titles, display names, descriptions and keywords of live items and of live
    /// activities eligible for search, best first.
    public func search(_ query: SearchQuery) throws(LocalIndexError) -> [SearchResult] {
        guard let match = query.matchExpression, query.limit > 0 else { return [] }
        let now = self.now
        var conditions = [
            """
            ((i.id IS NOT NULL AND i.expires_at > :now)
              OR (a.id IS NOT NULL AND a.expires_at > :now AND a.is_eligible_for_search))
            """
        ]
        var arguments: [String: (any DatabaseValueConvertible)?] = ["match": match, "now": now]
        if let domain = query.domainIdentifier {
            conditions.append(
                """
                (coalesce(i.domain_identifier, a.domain_identifier) = :domain
                  OR (coalesce(i.domain_identifier, a.domain_identifier) >= :domainDot
                      AND coalesce(i.domain_identifier, a.domain_identifier) < :domainEnd))
                """)
            arguments["domain"] = domain
            arguments["domainDot"] = domain + "."
            arguments["domainEnd"] = domain + "/"
        }
        if let type = query.contentType {
            conditions.append("coalesce(i.content_type, a.content_type) = :type COLLATE NOCASE")
            arguments["type"] = type
        }
        let weights = SearchQuery.columnWeights.map { String($0) }.joined(separator: ", ")
        let sql = """
            WITH hits AS (
                SELECT rowid AS hit, bm25(search_text, \(weights)) AS relevance
                FROM search_text WHERE search_text MATCH :match
            )
            SELECT h.hit, -h.relevance * (1.0 + coalesce(i.ranking_hint, a.ranking_hint, 0) / 100.0) AS score
            FROM hits h
            LEFT JOIN item i ON h.hit > 0 AND i.id = h.hit
            LEFT JOIN activity a ON h.hit < 0 AND a.id = -h.hit
            WHERE \(conditions.joined(separator: " AND "))
            ORDER BY score DESC, h.hit
            """
        return try readDatabase("search") { db in
            var results: [SearchResult] = []
            var positions: [String: Int] = [:]
            let hits = try Row.fetchCursor(db, sql: sql, arguments: StatementArguments(arguments))
            while results.count < query.limit, let hit = try hits.next() {
                let rowid: Int64 = hit[0]
                let score: Double = hit[1]
                if rowid > 0 {
                    guard let item = try Self.item(db, rowid: rowid) else { continue }
                    let key = item.item.uniqueIdentifier
                    if let position = positions[key] {
                        results[position].isItem = true
                    } else {
                        positions[key] = results.count
                        results.append(Self.result(item, score: score))
                    }
                } else {
                    guard let activity = try Self.activity(db, id: -rowid) else { continue }
                    let target = try Self.itemDescribed(by: activity, db: db, now: now)
                    switch target {
                    case .none:
                        // Related to an item that is gone (expired): not shown, as on a device.
                        continue
                    case .item(let item):
                        let key = item.item.uniqueIdentifier
                        if let position = positions[key] {
                            results[position].activityTypes.append(activity.activityType)
                        } else {
                            positions[key] = results.count
                            var result = Self.result(item, score: score)
                            result.isItem = false
                            result.activityTypes = [activity.activityType]
                            results.append(result)
                        }
                    case .standalone:
                        let attributes = activity.contentAttributeSet
                        results.append(
                            SearchResult(
                                uniqueIdentifier: nil, title: activity.title ?? attributes?.title,
                                displayName: attributes?.displayName,
                                contentDescription: attributes?.contentDescription,
                                domainIdentifier: attributes?.domainIdentifier, contentType: attributes?.contentType,
                                url: activity.webpageURL, rankingHint: attributes?.rankingHint, score: score,
                                isItem: false, activityTypes: [activity.activityType]))
                    }
                }
            }
            return results
        }
    }

    private static func result(_ indexed: IndexedItem, score: Double) -> SearchResult {
        let attributes = indexed.item.attributeSet
        return SearchResult(
            uniqueIdentifier: indexed.item.uniqueIdentifier, title: attributes.title,
            displayName: attributes.displayName, contentDescription: attributes.contentDescription,
            domainIdentifier: indexed.item.domainIdentifier ?? attributes.domainIdentifier,
            contentType: attributes.contentType, url: attributes.url ?? attributes.contentURL,
            rankingHint: attributes.rankingHint, score: score, isItem: true, activityTypes: [])
    }

    private static func item(_ db: Database, rowid: Int64) throws -> IndexedItem? {
        try Row.fetchOne(
            db.cachedStatement(sql: "SELECT \(ItemRow.columns) FROM item WHERE id = ?"), arguments: [rowid]
        ).map(ItemRow.decode)
    }

    private static func activity(_ db: Database, id: Int64) throws -> UserActivity? {
        try Row.fetchOne(
            db.cachedStatement(sql: "SELECT \(ActivityRow.columns) FROM activity WHERE id = ?"), arguments: [id]
        ).map { try ActivityRow.decode($0).record.activity }
    }

    private enum ActivityTarget {
        case item(IndexedItem)
        /// Its related item is not live.
        case none
        /// No item describes it.
        case standalone
    }

    /// The live item an activity describes: its related item, else the item whose identifier,
    /// `url` or `contentURL` is its `webpageURL` (normalised).
    private static func itemDescribed(by activity: UserActivity, db: Database, now: Double) throws -> ActivityTarget {
        if let related = activity.contentAttributeSet?.relatedUniqueIdentifier {
            return try IndexWriter.liveItem(db, identifier: related, now: now).map(ActivityTarget.item) ?? .none
        }
        guard let webpageURL = activity.webpageURL else { return .standalone }
        let key = URLNormalizer.normalize(webpageURL)
        let row = try Row.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT \(ItemRow.columns) FROM item
                    WHERE (unique_identifier IN (?1, ?2) OR url_key = ?2 OR content_url_key = ?2) AND expires_at > ?3
                    ORDER BY id LIMIT 1
                    """), arguments: [webpageURL, key, now])
        return try row.map { try ActivityTarget.item(ItemRow.decode($0)) } ?? .standalone
    }
}
