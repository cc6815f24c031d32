/// What `LocalIndex.importFile` did: the counts, and every record that was left out with its
/// position in the file.
public struct FileImport: Sendable {
    public var format: LocalItemsFile.Format
    public var report: IndexingReport
    /// Records that were not imported: invalid JSON or values, a client state without an index,
    /// an activity whose related item is not indexed. In file order.
    public var skipped: [RecordProblem]
    /// `isUpdate` items for identifiers that are not indexed: ignored, as Core Spotlight does (AS014).
    public var ignoredUpdates: [(position: RecordPosition, identifier: String)]
}

/// Why a file could not be imported: the file itself (nothing was written), or the index.
public enum FileImportError: Error, Sendable, CustomStringConvertible {
    case unreadableFile(LocalItemsFileError)
    case index(LocalIndexError)

    public var description: String {
        switch self {
        case .unreadableFile(let error): error.description
        case .index(let error): error.description
        }
    }
}

extension LocalIndex {
    /// An import of this many records or more is followed by a recount of the words searches
    /// weigh (`IndexStorage.refreshAfterBulkWrite`; 0.9 s at a million items). After a smaller one
    /// the counts are out of date and searches count rows as they go, as before the first recount.
    public static let recountAfterRecords = 1_000

    /// Imports a local-items file (a JSON array or JSON Lines) in one transaction: all of it or,
    /// when the process dies, none of it. Items are applied in file order, activities after them
    /// (so their related items may come later in the file). `name` is the named index (a batch);
    /// `clientState` is recorded for it when the import commits. `afterRecord` is called with the
    /// number of records read so far, inside the open transaction.
    public func importFile(
        _ path: String, index name: String? = nil, clientState: [UInt8]? = nil,
        afterRecord: (Int) -> Void = { _ in }
    ) throws(FileImportError) -> FileImport {
        var skipped: [RecordProblem] = []
        var ignoredUpdates: [(position: RecordPosition, identifier: String)] = []
        var format = LocalItemsFile.Format.jsonLines
        var fileError: LocalItemsFileError?
        var recordsRead = 0
        let report: IndexingReport
        do {
            report = try write("import", index: name, clientState: clientState) { writer in
                // A PostgreSQL transaction whose connection was lost runs again from the start.
                skipped = []
                ignoredUpdates = []
                recordsRead = 0
                var activities: [(RecordPosition, ActivityRecord)] = []
                // Records are decoded on another thread, a few batches ahead.
                let records = ReadAheadRecords(path: path)
                defer { records.finish() }
                reading: while true {
                    switch records.next() {
                    case .records(let batch):
                        for (position, result, stored) in batch {
                            recordsRead += 1
                            switch result {
                            case .failure(let problem): skipped.append(problem)
                            case .success(.item(let item)):
                                if try writer.indexItem(item, stored: stored) == .updateIgnored {
                                    ignoredUpdates.append((position, item.uniqueIdentifier))
                                }
                            case .success(.activity(let activity)): activities.append((position, activity))
                            case .success(.clientState(let indexName, let state)):
                                guard let target = indexName ?? name else {
                                    skipped.append(
                                        RecordProblem(
                                            position: position,
                                            "clientState: no indexName and no --name; the default index keeps no client state (AS016)"
                                        ))
                                    break
                                }
                                guard state.count <= maximumClientStateBytes else {
                                    skipped.append(
                                        RecordProblem(
                                            position: position,
                                            "clientState: \(state.count) bytes; Core Spotlight takes less than 250 (AS016)"
                                        ))
                                    break
                                }
                                try writer.setClientState(state, index: target)
                            }
                            afterRecord(recordsRead)
                        }
                    case .end(let read):
                        format = read
                        break reading
                    case .failed(let error):
                        fileError = error
                        throw error
                    }
                }
                for (position, activity) in activities {
                    if let refused = try writer.indexActivity(activity) {
                        skipped.append(RecordProblem(position: position, refused.description))
                    }
                }
                return writer.report
            }
        } catch {
            if let fileError { throw .unreadableFile(fileError) }
            throw .index(error)
        }
        if recordsRead >= Self.recountAfterRecords {
            // The import has committed; a recount that fails leaves the counts out of date, which
            // searches detect (they count rows instead), so it does not fail the import.
            try? storage.refreshAfterBulkWrite()
        }
        skipped.sort { Self.order($0.position) < Self.order($1.position) }
        return FileImport(format: format, report: report, skipped: skipped, ignoredUpdates: ignoredUpdates)
    }

    private static func order(_ position: RecordPosition?) -> Int {
        switch position {
        case .arrayIndex(let index): index
        case .line(let line): line
        case nil: -1
        }
    }
}
