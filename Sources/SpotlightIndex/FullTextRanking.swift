import Foundation
import GRDB
import GRDBSQLite
import Synchronization

/// `spotcheck_rank(search_text, weights…, index, words)`: FTS5's bm25 (k1 1.2, b 0.75, the
/// weights multiplying each column's occurrences, the row's length against the average, each
/// searched word weighed by how few rows hold it: its IDF), negated like bm25, with the same
/// scores, but without reading every row that holds each word for every search, which is what
/// bm25 does to weigh it: 5–55 ms for a word or prefix in most of a million items, however few
/// rows are then ranked.
/// - One word: its weight multiplies every score alike, so it is left out (the order is bm25's;
///   the scores are bm25's divided by the word's IDF).
/// - Several words: each word's row count is kept for the process per state of the full-text
///   index (`index`: the file's path and a digest of FTS5's structure record, which every
///   committed write changes, `FullTextRanking.indexState`), keyed by the word as searched
///   (`words`: the MATCH expression's words in order, separated by spaces, a prefix ending in `*`),
///   so a word searched again is not counted again. The weights are computed once per query.
/// - Counts kept in the file: after an import, `recountWords` stores the rows holding each word
///   of the index (`search_word_rows`, with the full-text index's structure record they hold
///   for). A search passes what they say of its words (`rows`: `=N` exact, for a prefix that
///   only one word has; `>=N` at least, the most rows a word with the prefix is in; `?`
///   unknown), so a process does not count a common word either.
/// The only file that touches FTS5's C API.
enum FullTextRanking {
    static let functionName = "spotcheck_rank"

    /// The state of the full-text index `table` in `db` as `spotcheck_rank`'s `index` argument:
    /// `path` and a digest of FTS5's structure record (rowid 10 of its data table), which lists
    /// the index's segments and changes with every committed write.
    static func indexState(_ db: Database, table: String, path: String) throws -> String {
        indexState(structure: try structure(db, table: table), path: path)
    }

    /// `indexState` of the index at `path` whose structure record is `structure`.
    static func indexState(structure: Data, path: String) -> String {
        var hasher = Hasher()
        hasher.combine(structure)
        return "\(path)#\(hasher.finalize())"
    }

    /// FTS5's structure record of `table`: the list of its segments, changed by every committed
    /// write.
    static func structure(_ db: Database, table: String) throws -> Data {
        try Data.fetchOne(db, sql: "SELECT block FROM \(table)_data WHERE id = 10") ?? Data()
    }

    /// Stores the rows holding each word of `search_text`, with the structure record they hold
    /// for, replacing what was kept. Reads the whole full-text index once (FTS5's `fts5vocab`):
    /// 0.9 s at a million items (20,000 words). Nothing to do when the counts kept hold for the
    /// index as it is (an import that changed no searched text, v5). Call in a write transaction
    /// of its own.
    static func recountWords(_ db: Database) throws {
        let structure = try structure(db, table: "search_text")
        let kept = try Data.fetchOne(db, sql: "SELECT structure FROM search_word_rows_state WHERE id = 1")
        guard kept != structure else { return }
        try db.execute(
            sql: """
                CREATE VIRTUAL TABLE IF NOT EXISTS temp.search_text_words USING fts5vocab(main, 'search_text', 'row');
                DELETE FROM search_word_rows;
                DELETE FROM search_word_rows_state;
                """)
        try db.execute(sql: "INSERT INTO search_word_rows (word, rows) SELECT term, doc FROM temp.search_text_words")
        try db.execute(
            sql: "INSERT INTO search_word_rows_state (id, structure) VALUES (1, ?)", arguments: [structure])
    }

    /// What the kept counts say of each searched word (`words`, the last one a prefix when
    /// `lastIsPrefix`), as `spotcheck_rank`'s `rows` argument: `=N`, `>=N` or `?` per word,
    /// separated by spaces; all `?` when the counts do not hold for `search_text` as it is (its
    /// structure record, `structure`). Only a word of ASCII letters and digits is looked up: FTS5's
    /// token for it is the word lower-cased.
    static func keptRows(_ db: Database, words: [String], lastIsPrefix: Bool, structure: Data) throws -> String {
        let unknown = Array(repeating: "?", count: words.count).joined(separator: " ")
        guard
            let kept = try Data.fetchOne(db, sql: "SELECT structure FROM search_word_rows_state WHERE id = 1"),
            kept == structure
        else { return unknown }
        let exact = try db.cachedStatement(sql: "SELECT rows FROM search_word_rows WHERE word = ?")
        let prefixed = try db.cachedStatement(
            sql: "SELECT count(*), max(rows) FROM search_word_rows WHERE word >= ? AND word < ?")
        var hints: [String] = []
        for (position, word) in words.enumerated() {
            guard !word.isEmpty, word.utf8.allSatisfy(isASCIILetterOrDigit) else {
                hints.append("?")
                continue
            }
            let token = word.lowercased()
            if lastIsPrefix, position == words.count - 1 {
                // Every word from the prefix up to the next prefix of its length (its last byte
                // raised by one; the token is ASCII).
                var end = Array(token.utf8)
                end[end.count - 1] += 1
                let row = try Row.fetchOne(prefixed, arguments: [token, String(decoding: end, as: UTF8.self)])
                let withPrefix: Int64 = row?[0] ?? 0
                let most: Int64 = row?[1] ?? 0
                // One word with the prefix: its rows are the prefix's; several: at least the most.
                hints.append(withPrefix <= 1 ? "=\(most)" : ">=\(most)")
            } else {
                // Every word is kept: one that is not is in no row.
                hints.append("=\(try Int64.fetchOne(exact, arguments: [token]) ?? 0)")
            }
        }
        return hints.joined(separator: " ")
    }

    private static func isASCIILetterOrDigit(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

    /// Registers the function on `db`. Returns false when this SQLite has no FTS5 (the index
    /// refuses such a file when it opens it, `IndexSchema.hasFullTextSearch`).
    @discardableResult
    static func register(on db: Database) -> Bool {
        guard let api = fts5API(db.sqliteConnection), let create = api.pointee.xCreateFunction else { return false }
        return create(api, functionName, nil, rank, nil) == SQLITE_OK
    }

    /// The connection's `fts5_api`, asked for as FTS5 documents (`SELECT fts5(?1)` with a pointer
    /// bound), or nil without FTS5.
    private static func fts5API(_ connection: OpaquePointer?) -> UnsafeMutablePointer<fts5_api>? {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(connection, "SELECT fts5(?1)", -1, &statement, nil) == SQLITE_OK else { return nil }
        defer { sqlite3_finalize(statement) }
        var api: UnsafeMutablePointer<fts5_api>?
        // The pointer type must outlive the statement (SQLite compares it when FTS5 reads the
        // pointer, during the step): a static string, not a temporary C string made from a String.
        let type: StaticString = "fts5_api_ptr"
        // FTS5 writes the pointer into `api` while the statement steps.
        let stepped = withUnsafeMutablePointer(to: &api) { pointer in
            let bound = type.utf8Start.withMemoryRebound(to: CChar.self, capacity: type.utf8CodeUnitCount + 1) {
                sqlite3_bind_pointer(statement, 1, pointer, $0, nil)
            }
            return bound == SQLITE_OK && sqlite3_step(statement) == SQLITE_ROW
        }
        return stepped ? api : nil
    }
}

private func rank(
    _ api: UnsafePointer<Fts5ExtensionApi>?, _ fts: OpaquePointer?, _ context: OpaquePointer?, _ count: Int32,
    _ values: UnsafeMutablePointer<OpaquePointer?>?
) {
    let k1 = 1.2
    let b = 0.75
    guard let api = api?.pointee, let phrases = api.xPhraseCount?(fts), phrases > 0,
        let columns = api.xColumnCount?(fts)
    else {
        sqlite3_result_error(context, "spotcheck_rank: no phrase to rank", -1)
        return
    }
    var rows: Int64 = 0
    var allTokens: Int64 = 0
    var instances: Int32 = 0
    var rowTokens: Int32 = 0
    // The row count and total length are kept in the index's structure record (no scan).
    guard api.xRowCount?(fts, &rows) == SQLITE_OK, api.xColumnTotalSize?(fts, -1, &allTokens) == SQLITE_OK,
        api.xInstCount?(fts, &instances) == SQLITE_OK, api.xColumnSize?(fts, -1, &rowTokens) == SQLITE_OK
    else {
        sqlite3_result_error(context, "spotcheck_rank: cannot read the full-text index", -1)
        return
    }
    let weights: [Double]
    if phrases == 1 {
        weights = [1]
    } else if let kept = api.xGetAuxdata?(fts, 0) {
        weights = Unmanaged<PhraseWeights>.fromOpaque(kept).takeUnretainedValue().weights
    } else {
        // Once per query: FTS5 keeps the weights with the query and releases them after it.
        guard
            let computed = phraseWeights(
                api, fts, phrases: phrases, columns: columns, rows: rows, count: count, values)
        else {
            sqlite3_result_error(context, "spotcheck_rank: cannot count the rows of a phrase", -1)
            return
        }
        weights = computed
        let kept = Unmanaged.passRetained(PhraseWeights(computed)).toOpaque()
        _ = api.xSetAuxdata?(fts, kept) { kept in
            if let kept { Unmanaged<PhraseWeights>.fromOpaque(kept).release() }
        }
    }
    let averageLength = max(Double(allTokens) / Double(max(rows, 1)), 1e-9)
    let lengthFactor = k1 * (1 - b + b * Double(rowTokens) / averageLength)
    var frequencies = [Double](repeating: 0, count: Int(phrases))
    for instance in 0..<instances {
        var phrase: Int32 = 0
        var column: Int32 = 0
        var offset: Int32 = 0
        guard api.xInst?(fts, instance, &phrase, &column, &offset) == SQLITE_OK, phrase >= 0, phrase < phrases
        else { continue }
        frequencies[Int(phrase)] += column < min(count, columns) ? sqlite3_value_double(values?[Int(column)]) : 1
    }
    var score = 0.0
    for (frequency, weight) in zip(frequencies, weights) {
        score += weight * (frequency * (k1 + 1)) / (frequency + lengthFactor)
    }
    sqlite3_result_double(context, -score)
}

/// The query's phrase weights, kept by FTS5 between the rows of one query.
private final class PhraseWeights {
    let weights: [Double]

    init(_ weights: [Double]) { self.weights = weights }
}

/// Each phrase's bm25 IDF (floored at 1e-6, as bm25 does), its row count taken from the counts
/// kept in the file (`rows`), or from the process's kept counts when the arguments name the index
/// state and the words, or else counted.
private func phraseWeights(
    _ api: Fts5ExtensionApi, _ fts: OpaquePointer?, phrases: Int32, columns: Int32, rows: Int64, count: Int32,
    _ values: UnsafeMutablePointer<OpaquePointer?>?
) -> [Double]? {
    // Without one searched word per phrase (a word FTS5 made no phrase of), nothing is kept.
    let named = count >= columns + 2
    let words = named ? text(values?[Int(columns + 1)]).split(separator: " ") : []
    let index = named ? text(values?[Int(columns)]) : ""
    let hints = count >= columns + 3 ? text(values?[Int(columns + 2)]).split(separator: " ") : []
    // bm25 gives a phrase in half the rows or more the same floor weight, whatever its count.
    let enough = (rows + 1) / 2
    var weights: [Double] = []
    for phrase in 0..<phrases {
        let hint = hints.count == phrases ? KeptRows(hints[Int(phrase)]) : nil
        let key = words.count == phrases ? FrequencyKey(index: index, phrase: String(words[Int(phrase)])) : nil
        let holding: Int64
        switch hint {
        case .exactly(let kept)?:
            holding = kept
        case .atLeast(let kept)? where kept >= enough:
            holding = kept
        default:
            guard
                let counted = DocumentFrequencies.rows(
                    key, count: { countRows(api, fts, phrase: phrase, upTo: enough) })
            else { return nil }
            holding = counted
        }
        let idf = log((Double(rows) - Double(holding) + 0.5) / (Double(holding) + 0.5))
        weights.append(idf > 0 ? idf : 1e-6)
    }
    return weights
}

/// One word's entry in `spotcheck_rank`'s `rows` argument (`FullTextRanking.keptRows`).
private enum KeptRows {
    case exactly(Int64)
    case atLeast(Int64)

    init?(_ text: Substring) {
        if text.hasPrefix(">="), let rows = Int64(text.dropFirst(2)) {
            self = .atLeast(rows)
        } else if text.hasPrefix("="), let rows = Int64(text.dropFirst()) {
            self = .exactly(rows)
        } else {
            return nil
        }
    }
}

private func text(_ value: OpaquePointer?) -> String {
    sqlite3_value_text(value).map { String(cString: $0) } ?? ""
}

/// The rows holding phrase `phrase` of the current query, counted by FTS5 (as bm25 does) up to
/// `limit`: bm25 gives a phrase in half the rows or more the same floor weight whatever its count.
private func countRows(_ api: Fts5ExtensionApi, _ fts: OpaquePointer?, phrase: Int32, upTo limit: Int64) -> Int64? {
    var tally = Tally(holding: 0, limit: max(limit, 1))
    let counted = api.xQueryPhrase?(fts, phrase, &tally) { _, _, tally in
        guard let tally = tally?.assumingMemoryBound(to: Tally.self) else { return SQLITE_ERROR }
        tally.pointee.holding += 1
        // SQLITE_DONE ends the scan; xQueryPhrase then returns SQLITE_OK.
        return tally.pointee.holding < tally.pointee.limit ? SQLITE_OK : SQLITE_DONE
    }
    return counted == SQLITE_OK ? tally.holding : nil
}

private struct Tally {
    var holding: Int64
    var limit: Int64
}

/// A searched word in one state of one index (`FullTextRanking.indexState`).
private struct FrequencyKey: Hashable, Sendable {
    var index: String
    var phrase: String
}

/// Rows holding a searched word, kept for the process's searches; at most `capacity` entries
/// (emptied when full).
private enum DocumentFrequencies {
    static let capacity = 10_000
    static let kept = Mutex<[FrequencyKey: Int64]>([:])

    static func rows(_ key: FrequencyKey?, count: () -> Int64?) -> Int64? {
        guard let key else { return count() }
        if let known = kept.withLock({ $0[key] }) { return known }
        guard let counted = count() else { return nil }
        kept.withLock { kept in
            if kept.count >= capacity { kept.removeAll(keepingCapacity: true) }
            kept[key] = counted
        }
        return counted
    }
}
