public import CrawlStore
import Foundation
import PostgresNIO

extension PostgresCrawlStore {
    // MARK: - Pages

    /// One transaction: the frontier entry becomes done, the page is stored, the aliases join the
    /// frontier as done, the discovered entries are queued and the skipped URLs recorded; returns
    /// the newly queued entries. An entry that is no longer queued or in flight (another worker
    /// completed it after this one's lease expired) changes nothing: the first completion wins.
    public func complete(
        _ page: PageRecord, discovered: [FrontierEntry], skipped: [SkippedURL], aliases: [FrontierEntry]
    ) throws(CrawlStoreError) -> [FrontierEntry] {
        try withCrawl("complete") { statements, id in
            guard
                try statements.execute(
                    """
                    UPDATE frontier SET state = 2 WHERE crawl_id = \(id) AND id = \(page.frontierID) AND state IN (0, 1)
                    """) > 0
            else { return [] }
            try Self.insert(page, statements, crawl: id)
            _ = try Self.insert(aliases, state: .done, statements, crawl: id)
            let added = try Self.insert(discovered, state: .queued, statements, crawl: id)
            try Self.insert(skipped, statements, crawl: id)
            if !added.isEmpty { try Self.notify(statements, crawl: id) }
            return added
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
                try withCrawl("forEachPage", oneRead: true) { statements, id in
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
        try withCrawl("page", oneRead: true) { statements, id in
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

    static func insert(_ page: PageRecord, _ statements: PostgresSession.Statements, crawl id: Int64) throws {
        var binds = PostgresBindings(capacity: 37)
        binds.append(id)
        binds.append(page.frontierID)
        binds.append(page.requestedURL)
        binds.append(page.finalURL)
        binds.append(page.key)
        binds.append(page.finalKey)
        binds.append(page.depth)
        binds.append(page.status)
        binds.append(page.contentType)
        binds.append(page.headersJSON)
        binds.append(page.redirectsJSON)
        binds.append(page.timingsJSON)
        binds.append(page.bodyBytes)
        binds.append(page.bodySHA256)
        binds.append(page.etag)
        binds.append(page.lastModified)
        binds.append(page.notModified)
        binds.append(page.errorKind)
        binds.append(page.errorMessage)
        binds.append(page.markupJSON)
        binds.append(page.attributeSetJSON)
        binds.append(page.findingsJSON)
        binds.append(page.applebotAllowed)
        binds.append(page.fetchedAt)
        binds.append(page.verdict?.uniqueIdentifier)
        binds.append(page.verdict?.canonical)
        binds.append(page.verdict?.appArgument)
        binds.append(page.verdict?.title)
        binds.append(page.verdict?.contentDescription)
        binds.append(page.verdict?.thumbnailURL)
        binds.append(page.verdict?.isCandidate)
        binds.append(page.verdict.map { $0.failingConditions.joined(separator: " ") })
        binds.append(page.findingCounts.errors)
        binds.append(page.findingCounts.warnings)
        binds.append(page.findingCounts.infos)
        binds.append(page.payloadVersion)
        binds.append(page.markupDumpJSON)
        let placeholders = (1...37).map { "$\($0)" }.joined(separator: ", ")
        // A key fetched twice (a lease lost under a stalled worker) keeps the latest page.
        let updates = pageColumns.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .filter { $0 != "key" }.map { "\($0) = EXCLUDED.\($0)" }.joined(separator: ", ")
        try statements.execute(
            PostgresQuery(
                unsafeSQL: """
                    INSERT INTO page (crawl_id, \(pageColumns)) VALUES (\(placeholders))
                    ON CONFLICT (crawl_id, key) DO UPDATE SET \(updates)
                    """,
                binds: binds))
    }

    static func pageRecord(_ row: PostgresRow) throws -> PageRecord {
        let cells = row.makeRandomAccess()
        func value<T: PostgresDecodable>(_ index: Int, as type: T.Type = T.self) throws -> T {
            try cells[index].decode(T.self)
        }
        let failing: String? = try value(30)
        let verdict: PageVerdict? =
            try failing.map {
                try PageVerdict(
                    uniqueIdentifier: value(23), canonical: value(24), appArgument: value(25), title: value(26),
                    contentDescription: value(27), thumbnailURL: value(28), isCandidate: value(29),
                    failingConditions: $0.split(separator: " ").map(String.init))
            }
        return try PageRecord(
            frontierID: value(0), requestedURL: value(1), finalURL: value(2), key: value(3), finalKey: value(4),
            depth: value(5), status: value(6), contentType: value(7), headersJSON: value(8), redirectsJSON: value(9),
            timingsJSON: value(10), bodyBytes: value(11), bodySHA256: value(12), etag: value(13),
            lastModified: value(14), notModified: value(15), errorKind: value(16), errorMessage: value(17),
            markupJSON: value(18), markupDumpJSON: value(35), attributeSetJSON: value(19), findingsJSON: value(20),
            applebotAllowed: value(21), fetchedAt: value(22), verdict: verdict,
            findingCounts: FindingCounts(errors: value(31), warnings: value(32), infos: value(33)),
            payloadVersion: value(34))
    }
}
