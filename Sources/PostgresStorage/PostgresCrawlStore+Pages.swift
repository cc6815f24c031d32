public import CrawlStore
import Foundation
import PostgresNIO

extension PostgresCrawlStore {
    // MARK: - Pages

    /// One statement (`CompletePages`), so one round trip and one plan per connection: the
    /// frontier entry becomes done, the page is stored, the aliases join the frontier as done, the
    /// discovered entries are queued and the skipped URLs recorded; returns the newly queued
    /// entries. An entry that is no longer queued or in flight (another worker completed it after
    /// this one's lease expired) changes nothing: the first completion wins.
    public func complete(
        _ page: PageRecord, discovered: [FrontierEntry], skipped: [SkippedURL], aliases: [FrontierEntry]
    ) throws(CrawlStoreError) -> [FrontierEntry] {
        try complete(
            together: [PageCompletion(page: page, discovered: discovered, skipped: skipped, aliases: aliases)],
            as: OnePage.self)[0]
    }

    /// The pages in statements of 8, 4, 2 and 1 pages (`CompletePages`), each page's result as
    /// `complete` gives it. A statement that fails for another reason than the connection (a lost
    /// connection is run again by the session) is tried again a page at a time, so that only the
    /// page at fault fails.
    public func complete(_ pages: [PageCompletion]) -> [Result<[FrontierEntry], CrawlStoreError>] {
        var results: [Result<[FrontierEntry], CrawlStoreError>] = []
        var rest = pages[...]
        while !rest.isEmpty {
            let statement = severalPages.first { $0.pages <= rest.count }
            let batch = Array(rest.prefix(statement?.pages ?? 1))
            rest = rest.dropFirst(batch.count)
            // One frontier entry per page of a statement (`done` updates each entry once).
            if let statement, Set(batch.map(\.page.frontierID)).count == batch.count,
                let together = try? complete(together: batch, as: statement)
            {
                results += together.map { .success($0) }
                continue
            }
            for completion in batch {
                results.append(
                    Result { () throws(CrawlStoreError) in try complete(together: [completion], as: OnePage.self)[0] })
            }
        }
        return results
    }

    /// `Batch.pages` pages in one `CompletePages` statement; the entries each page added (a key
    /// two pages discovered goes to the first).
    private func complete<Batch: PageBatch>(together pages: [PageCompletion], as batch: Batch.Type)
        throws(CrawlStoreError) -> [[FrontierEntry]]
    {
        precondition(pages.count == Batch.pages, "a statement for \(Batch.pages) pages")
        return try withCrawl("complete", oneStatement: true) { statements, id in
            var bindings = PostgresBindings(capacity: CompletePages<Batch>.parameterTypes.count)
            bindings.append(id)
            for completion in pages { Self.appendColumns(of: completion.page, to: &bindings) }
            var entries: [FrontierEntry] = []
            var states: [Int] = []
            var entryPages: [Int] = []
            for (index, completion) in pages.enumerated() {
                entries += completion.aliases + completion.discovered
                states += completion.aliases.map { _ in FrontierState.done.rawValue }
                states += completion.discovered.map { _ in FrontierState.queued.rawValue }
                entryPages += Array(repeating: index + 1, count: completion.aliases.count + completion.discovered.count)
            }
            Self.appendColumns(of: entries, states: states, to: &bindings)
            bindings.append(entryPages)
            let skipped = pages.flatMap(\.skipped)
            bindings.append(skipped.map(\.url))
            bindings.append(skipped.map { $0.key ?? "" })
            bindings.append(skipped.map(\.reason))
            bindings.append(skipped.map(\.detail))
            bindings.append(skipped.map { $0.foundOn ?? "" })
            bindings.append(
                pages.enumerated().flatMap { index, completion in
                    Array(repeating: index + 1, count: completion.skipped.count)
                })
            bindings.append(WorkNotifications.channel)
            bindings.append(String(id))
            bindings.append(worker)
            var queued: [String: Int64] = [:]
            for row in try statements.rows(CompletePages<Batch>.self, bindings) {
                let (entryID, key) = try row.decode((Int64, String).self)
                queued[key] = entryID
            }
            return pages.map { completion in
                completion.discovered.compactMap { entry in
                    guard let entryID = queued.removeValue(forKey: entry.key) else { return nil }
                    var added = entry
                    added.id = entryID
                    return added
                }
            }
        }
    }

    /// A crawl here is one run: there is no previous generation's page.
    public func previousPage(key: String) throws(CrawlStoreError) -> PageRecord? { nil }

    /// A crawl here is one run: no page is left over from an earlier one.
    public func stalePages() throws(CrawlStoreError) -> [PageRecord] { [] }

    public func stalePageURLs(first limit: Int) throws(CrawlStoreError) -> ListSample<String> {
        ListSample(total: 0, first: [])
    }

    public func forEachPage(
        batchSize: Int = 64, includingMarkupDump: Bool = true, _ body: ([PageRecord]) throws -> Void
    ) throws {
        let columns = includingMarkupDump ? Self.pageColumns : Self.pageColumnsWithoutDump
        try KeysetBatches.forEach(
            of: batchSize, id: \.frontierID,
            read: { after, size in
                try withCrawl("forEachPage", oneStatement: true) { statements, id in
                    try statements.rows(
                        """
                        SELECT \(unescaped: columns) FROM page
                        WHERE crawl_id = \(id) AND frontier_id > \(after) ORDER BY frontier_id LIMIT \(size)
                        """
                    ).map(Self.pageRecord)
                }
            }, body)
    }

    /// The page whose requested URL is `url`, if it was fetched.
    public func page(url: String) throws(CrawlStoreError) -> PageRecord? {
        try withCrawl("page", oneStatement: true) { statements, id in
            try statements.rows(
                """
                SELECT \(unescaped: Self.pageColumnsWithoutDump) FROM page
                WHERE crawl_id = \(id) AND requested_url = \(url) LIMIT 1
                """
            ).first.map(Self.pageRecord)
        }
    }

    // MARK: - Rows

    /// The page table's columns, as the SQLite store names and orders them.
    static let pageColumns = CrawlStore.pageColumns
    static let pageColumnsWithoutDump = CrawlStore.pageColumnsWithoutDump

    /// The page's columns in `pageColumns`' order, as `CompletePages` takes them.
    static func appendColumns(of page: PageRecord, to bindings: inout PostgresBindings) {
        bindings.append(page.frontierID)
        bindings.append(page.requestedURL)
        bindings.append(page.finalURL)
        bindings.append(page.key)
        bindings.append(page.finalKey)
        bindings.append(page.depth)
        bindings.append(page.status)
        bindings.append(page.contentType)
        bindings.append(page.bodyBytes)
        bindings.append(page.bodySHA256)
        bindings.append(page.etag)
        bindings.append(page.lastModified)
        bindings.append(page.notModified)
        bindings.append(page.errorKind)
        bindings.append(page.errorMessage)
        bindings.append(page.applebotAllowed)
        bindings.append(page.fetchedAt)
        bindings.append(page.verdict?.uniqueIdentifier)
        bindings.append(page.verdict?.canonical)
        bindings.append(page.verdict?.appArgument)
        bindings.append(page.verdict?.title)
        bindings.append(page.verdict?.contentDescription)
        bindings.append(page.verdict?.thumbnailURL)
        bindings.append(page.verdict?.isCandidate)
        bindings.append(page.verdict.map { $0.failingConditions.joined(separator: " ") })
        bindings.append(page.findingCounts.errors)
        bindings.append(page.findingCounts.warnings)
        bindings.append(page.findingCounts.infos)
        bindings.append(page.payloadVersion)
        // A ByteBuffer binds as bytea; a [UInt8] would bind as an array of "char".
        bindings.append(page.payload.map { ByteBuffer(bytes: $0) })
        bindings.append(page.markup.map { ByteBuffer(bytes: $0) })
    }

    /// Frontier entries as `unnest` takes them: one array per column, and the state of each.
    static func appendColumns(of entries: [FrontierEntry], states: [Int], to bindings: inout PostgresBindings) {
        bindings.append(entries.map(\.url))
        bindings.append(entries.map(\.key))
        bindings.append(entries.map(\.host))
        bindings.append(entries.map(\.depth))
        bindings.append(entries.map(\.discovery.rawValue))
        bindings.append(entries.map { $0.foundOn ?? "" })
        bindings.append(entries.map(\.attempts))
        bindings.append(entries.map(\.notBefore))
        bindings.append(states)
    }

    static func pageRecord(_ row: PostgresRow) throws -> PageRecord {
        let cells = row.makeRandomAccess()
        func value<T: PostgresDecodable>(_ index: Int, as type: T.Type = T.self) throws -> T {
            try cells[index].decode(T.self)
        }
        func bytes(_ index: Int) throws -> [UInt8]? {
            try value(index, as: ByteBuffer?.self).map { Array($0.readableBytesView) }
        }
        let failing: String? = try value(24)
        let verdict: PageVerdict? =
            try failing.map {
                try PageVerdict(
                    uniqueIdentifier: value(17), canonical: value(18), appArgument: value(19), title: value(20),
                    contentDescription: value(21), thumbnailURL: value(22), isCandidate: value(23),
                    failingConditions: $0.split(separator: " ").map(String.init))
            }
        return try PageRecord(
            frontierID: value(0), requestedURL: value(1), finalURL: value(2), key: value(3), finalKey: value(4),
            depth: value(5), status: value(6), contentType: value(7), bodyBytes: value(8), bodySHA256: value(9),
            etag: value(10), lastModified: value(11), notModified: value(12), errorKind: value(13),
            errorMessage: value(14), payload: bytes(29), markup: bytes(30), applebotAllowed: value(15),
            fetchedAt: value(16), verdict: verdict,
            findingCounts: FindingCounts(errors: value(25), warnings: value(26), infos: value(27)),
            payloadVersion: value(28))
    }
}
