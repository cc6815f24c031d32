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
    static func load(file path: String, skipped: (String) -> Void) throws -> [LocalEntry] {
        var entries: [LocalEntry] = []
        try LocalItemsFile.read(path: path) { position, result in
            switch result {
            case .success(.item(let item)): entries.append(.item(item))
            case .success(.activity(let record)): entries.append(.activity(record.activity))
            case .success(.clientState(let indexName, let state)):
                entries.append(.clientState(indexName: indexName, bytes: state.count))
            case .failure(let problem): skipped("\(path): \(position): \(problem.message) (skipped)")
            }
        }
        return entries
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
