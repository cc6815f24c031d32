import Foundation
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

    /// The words of `text` (`SearchTokens.words`).
    public var words: [String] { SearchTokens.words(in: text) }

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

/// How text is cut into the words a search matches, the same for the indexed text and the query
/// in both storages: FTS5's unicode61 tokenizer with `remove_diacritics 2` in SQLite, and these
/// functions (the lexemes of a `tsvector`) in PostgreSQL.
public enum SearchTokens {
    /// The maximal runs of letters, marks, digits and private-use characters (the token characters
    /// of FTS5's unicode61 tokenizer).
    public static func words(in text: String) -> [String] {
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

    /// The word lowercased with the diacritics of Latin letters removed ("Tomás" is "tomas"), as
    /// unicode61 with `remove_diacritics 2` folds it: marks on other scripts stay ("й" is not
    /// "и"). ASCII words take a fast path.
    public static func folded(_ word: String) -> String {
        if word.utf8.allSatisfy({ $0 < 0x80 }) { return word.lowercased() }
        var kept = String.UnicodeScalarView()
        var baseIsLatin = false
        for scalar in word.lowercased().decomposedStringWithCanonicalMapping.unicodeScalars {
            if scalar.properties.generalCategory == .nonspacingMark {
                if !baseIsLatin { kept.append(scalar) }
            } else {
                baseIsLatin = isLatin(scalar)
                kept.append(scalar)
            }
        }
        return String(kept).precomposedStringWithCanonicalMapping
    }

    /// Whether the scalar is a letter of the Latin script's blocks (Basic Latin to Latin
    /// Extended-B, IPA, Latin Extended Additional, -C, -D and -E).
    private static func isLatin(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x41...0x5A, 0x61...0x7A, 0xC0...0x24F, 0x250...0x2AF, 0x1E00...0x1EFF, 0x2C60...0x2C7F,
            0xA720...0xA7FF, 0xAB30...0xAB6F:
            true
        default: false
        }
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
    /// Higher is better: bm25 relevance (sign flipped) × (1 + rankingHint / 100). In SQLite, a
    /// one-word search's relevance is bm25's divided by the word's IDF (the same order,
    /// `FullTextRanking`).
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
        guard query.matchExpression != nil, query.limit > 0 else { return [] }
        let now = self.now
        return try read("search") { reader in
            var results: [SearchResult] = []
            var positions: [String: Int] = [:]
            try reader.forEachHit(query, now: now) { hit in
                switch hit.match {
                case .item(let item):
                    let key = item.item.uniqueIdentifier
                    if let position = positions[key] {
                        results[position].isItem = true
                    } else {
                        positions[key] = results.count
                        results.append(Self.result(item, score: hit.score))
                    }
                case .activity(let indexed):
                    let activity = indexed.record.activity
                    switch try Self.itemDescribed(by: activity, reader: reader, now: now) {
                    case .none:
                        // Related to an item that is gone (expired): not shown, as on a device.
                        break
                    case .item(let item):
                        let key = item.item.uniqueIdentifier
                        if let position = positions[key] {
                            results[position].activityTypes.append(activity.activityType)
                        } else {
                            positions[key] = results.count
                            var result = Self.result(item, score: hit.score)
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
                                url: activity.webpageURL, rankingHint: attributes?.rankingHint, score: hit.score,
                                isItem: false, activityTypes: [activity.activityType]))
                    }
                }
                return results.count < query.limit
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

    private enum ActivityTarget {
        case item(IndexedItem)
        /// Its related item is not live.
        case none
        /// No item describes it.
        case standalone
    }

    /// The live item an activity describes: its related item, else the item whose identifier,
    /// `url` or `contentURL` is its `webpageURL` (normalised).
    private static func itemDescribed(
        by activity: UserActivity, reader: any IndexStorageReader, now: Double
    ) throws -> ActivityTarget {
        if let related = activity.contentAttributeSet?.relatedUniqueIdentifier {
            return try reader.liveItem(identifier: related, now: now).map(ActivityTarget.item) ?? .none
        }
        guard let webpageURL = activity.webpageURL else { return .standalone }
        let key = URLNormalizer.normalize(webpageURL)
        return try reader.liveItem(describing: webpageURL, key: key, now: now).map(ActivityTarget.item) ?? .standalone
    }
}
