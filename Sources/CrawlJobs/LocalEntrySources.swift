import Foundation
import ItemLinking
import SpotlightIndex
import SpotlightModel
import Verification

/// The app's local entries for `crawl --items FILE` / `--index DB`, and feeding a crawl's
/// candidates into an index.
enum LocalEntrySources {
    /// Reads a local-items file (JSON array or JSON Lines); each invalid record is passed to
    /// `skipped` with its position and left out. Throws when the file cannot be read at all.
    static func load(file path: String, skipped: (String) -> Void) throws -> (
        entries: [LocalEntry], places: LocalEntryPlaces
    ) {
        var entries: [LocalEntry] = []
        var places = LocalEntryPlaces(file: path)
        try LocalItemsFile.read(path: path) { position, place, result in
            let entry: LocalEntry
            switch result {
            case .success(.item(let item)): entry = .item(item)
            case .success(.activity(let record)): entry = .activity(record.activity)
            case .success(.clientState(let indexName, let state)):
                entry = .clientState(indexName: indexName, bytes: state.count)
            case .failure(let problem):
                skipped("\(path): \(position): \(problem.message) (skipped)")
                return
            }
            entries.append(entry)
            if places.byName[entry.name] == nil { places.byName[entry.name] = place }
        }
        return (entries, places)
    }

    /// The app's entries in an index: its items and activities, without the crawl's own candidates.
    static func load(index: LocalIndex, excludingDomain domain: String) throws -> [LocalEntry] {
        let items = try index.items().filter { $0.item.domainIdentifier != domain }.map { LocalEntry.item($0.item) }
        return items + (try index.activities().map { LocalEntry.activity($0.record.activity) })
    }

    /// Upserts the crawl's candidates (the items of candidates.jsonl, from the report pass) into
    /// `index` and deletes the crawl's earlier candidates that are no longer candidates (page gone
    /// or lost its markup), so that feeding the same crawl twice changes nothing. Returns
    /// (indexed, removed).
    static func feed(_ candidates: [SearchableItem], into index: LocalIndex, domain: String) throws -> (Int, Int) {
        let items = candidates.map { item in
            var item = item
            item.domainIdentifier = domain
            return item
        }
        let current = Set(items.map(\.uniqueIdentifier))
        let stale = try index.items().filter {
            $0.item.domainIdentifier == domain && !current.contains($0.item.uniqueIdentifier)
        }
        .map(\.item.uniqueIdentifier)
        if !items.isEmpty { try index.indexItems(items) }
        if !stale.isEmpty { try index.deleteItems(identifiers: stale) }
        return (items.count, stale.count)
    }
}

/// Where each local entry of a local-items file is (the first record of a name), so that a
/// finding about an entry, and a page fetched because an entry names it, point at the record.
struct LocalEntryPlaces: Sendable {
    var file: String
    var byName: [String: RecordPlace] = [:]
}
