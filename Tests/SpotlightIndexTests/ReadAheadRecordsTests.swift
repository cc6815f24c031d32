import Foundation
import Testing

@testable import SpotlightIndex

/// An import reads its file on a thread of its own, a few batches ahead (`ReadAheadRecords`).
@Suite("Records read ahead")
struct ReadAheadRecordsTests {
    /// A JSON Lines file of `count` records: items (every 31st an `isUpdate` one), with an invalid
    /// line every 97th and a blank line every 50th.
    static func itemsFile(_ name: String, count: Int) throws -> String {
        let path = try temporaryFolder(name) + "/items.jsonl"
        var text = ""
        for number in 0..<count {
            if number % 97 == 5 {
                text += "{\"uniqueIdentifier\": \(number)}\n"
            } else {
                let update = number % 31 == 3 ? ", \"isUpdate\": true" : ""
                text +=
                    "{\"uniqueIdentifier\": \"item-\(number)\", \"attributeSet\": {\"title\": \"Item \(number)\", "
                    + "\"contentURL\": \"HTTPS://Example.COM/items/\(number)\", \"keywords\": [\"a\", \"b\"]}\(update)}\n"
            }
            if number % 50 == 0 { text += "\n" }
        }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func describe(_ position: RecordPosition, _ result: Result<LocalRecord, RecordProblem>) -> String {
        switch result {
        case .success(.item(let item)): "\(position) \(item.uniqueIdentifier)"
        case .success(let record): "\(position) \(record)"
        case .failure(let problem): "\(position) \(problem)"
        }
    }

    /// The records, their positions and the problems come in file order, as `LocalItemsFile.read`
    /// gives them, whatever the batch size and however few batches may wait; each item that is not
    /// an update comes with what the index stores of its attribute set.
    @Test(arguments: [(1, 1), (7, 2), (256, 8), (5_000, 1)])
    func recordsComeInFileOrderAsTheFileReaderGivesThem(batchSize: Int, depth: Int) throws {
        let path = try Self.itemsFile("read-ahead-order", count: 1_000)
        var expected: [String] = []
        let format = try LocalItemsFile.read(path: path) { expected.append(Self.describe($0, $1)) }
        var seen: [String] = []
        var prepared = 0
        let records = ReadAheadRecords(path: path, batchSize: batchSize, depth: depth)
        defer { records.finish() }
        reading: while true {
            switch records.next() {
            case .records(let batch):
                seen += batch.map { Self.describe($0.position, $0.result) }
                for record in batch {
                    if case .success(.item(let item)) = record.result, !item.isUpdate {
                        #expect(record.stored == StoredAttributes(item.attributeSet))
                        prepared += 1
                    } else {
                        #expect(record.stored == nil)
                    }
                }
            case .end(let read):
                #expect(read == format)
                break reading
            case .failed(let error):
                Issue.record("failed: \(error)")
                break reading
            }
        }
        #expect(expected.count == 1_000)
        #expect(seen == expected)
        // 1,000 records less 11 invalid ones and 33 updates.
        #expect(prepared == 956)
        #expect(seen[5].hasPrefix("line 7 "), "\(seen[5])")
        #expect(seen[5].contains("uniqueIdentifier: expected a string"), "\(seen[5])")
    }

    /// An import that stops after its first batch (SQLite failed, or a PostgreSQL connection was
    /// lost and the transaction runs again) ends the reading thread at once, with batches waiting
    /// and the thread waiting for room: `finish()` returns although most of the file is unread,
    /// and the reader is released without a word from libdispatch (which stops the process when a
    /// semaphore goes below its starting value; the free places started at `depth` before).
    @Test(arguments: [1, 8])
    func finishingEarlyStopsTheReadingThread(depth: Int) throws {
        let path = try Self.itemsFile("read-ahead-stop", count: 20_000)
        for _ in 0..<5 {
            let records = ReadAheadRecords(path: path, batchSize: 10, depth: depth)
            guard case .records(let batch) = records.next() else {
                Issue.record("no first batch")
                return
            }
            #expect(batch.count == 10)
            // Time for the reading thread to fill every free place and wait for another.
            Thread.sleep(forTimeInterval: 0.05)
            records.finish()
            records.finish()
        }
    }

    /// Once the file is read, `next()` says so again rather than waiting for a batch that never
    /// comes.
    @Test func afterTheEndNextReturnsTheEndAgain() throws {
        let path = try Self.itemsFile("read-ahead-end", count: 3)
        let records = ReadAheadRecords(path: path, batchSize: 10, depth: 2)
        defer { records.finish() }
        guard case .records(let batch) = records.next() else {
            Issue.record("no batch")
            return
        }
        #expect(batch.count == 3)
        for _ in 0..<3 {
            guard case .end(.jsonLines) = records.next() else {
                Issue.record("expected the end")
                return
            }
        }
    }

    @Test func aFileThatCannotBeReadFailsWithItsError() throws {
        let path = try temporaryFolder("read-ahead-missing") + "/missing.jsonl"
        let records = ReadAheadRecords(path: path)
        defer { records.finish() }
        guard case .failed(let error) = records.next() else {
            Issue.record("expected a failure")
            return
        }
        #expect(error.description == "\(path): no such file")
    }
}
