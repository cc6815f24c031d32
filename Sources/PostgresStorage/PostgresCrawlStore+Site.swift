public import CrawlStore
import Foundation
import PostgresNIO

extension PostgresCrawlStore {
    // MARK: - robots.txt, for the whole cluster

    public func saveRobots(_ record: CrawlStore.RobotsRecord) throws(CrawlStoreError) {
        do {
            try session.transaction("saveRobots") { statements in
                try statements.execute(
                    """
                    INSERT INTO robots (origin, status, body, fetched_at, final_url, error)
                    VALUES (\(record.origin), \(record.status), \(ByteBuffer(bytes: record.body)), \(record.fetchedAt),
                        \(record.finalURL), \(record.error))
                    ON CONFLICT (origin) DO UPDATE SET status = EXCLUDED.status, body = EXCLUDED.body,
                        fetched_at = EXCLUDED.fetched_at, final_url = EXCLUDED.final_url, error = EXCLUDED.error
                    """)
            }
        } catch {
            throw error.crawlStoreError
        }
    }

    public func robots(origin: String) throws(CrawlStoreError) -> CrawlStore.RobotsRecord? {
        do {
            return try session.read("robots") { statements in
                try statements.rows(
                    "SELECT origin, status, body, fetched_at, final_url, error FROM robots WHERE origin = \(origin)"
                ).first.map { row in
                    let (origin, status, body, fetchedAt, finalURL, error) = try row.decode(
                        (String, Int?, ByteBuffer, Double, String?, String?).self)
                    return CrawlStore.RobotsRecord(
                        origin: origin, status: status, body: Array(body.readableBytesView), fetchedAt: fetchedAt,
                        finalURL: finalURL, error: error)
                }
            }
        } catch {
            throw error.crawlStoreError
        }
    }

    // MARK: - Sitemaps

    public func hasSitemapEntries() throws(CrawlStoreError) -> Bool {
        try withCrawl("hasSitemapEntries", oneStatement: true) { statements, id in
            try statements.rows("SELECT EXISTS (SELECT 1 FROM sitemap_entry WHERE crawl_id = \(id))")[0]
                .decode(Bool.self)
        }
    }

    /// A sitemap harvest in one transaction: its locations, the entries it queues, the URLs it
    /// skips; the harvest is no longer pending once it is in.
    public func addSitemapHarvest(
        _ entries: [CrawlStore.SitemapEntryRecord], enqueue frontier: [FrontierEntry], skipped: [SkippedURL]
    ) throws(CrawlStoreError) -> [FrontierEntry] {
        let added = try withCrawl("addSitemapHarvest") { statements, id in
            if !entries.isEmpty {
                try statements.execute(
                    """
                    INSERT INTO sitemap_entry (crawl_id, sitemap_url, location, key, line)
                    SELECT \(id), t.sitemap_url, t.location, t.key, t.line
                    FROM unnest(\(entries.map(\.sitemapURL)), \(entries.map(\.location)), \(entries.map(\.key)),
                        \(entries.map(\.line)))
                        WITH ORDINALITY AS t(sitemap_url, location, key, line, position)
                    ORDER BY t.position
                    ON CONFLICT (crawl_id, sitemap_url, location) DO NOTHING
                    """)
            }
            let added = try Self.insert(frontier, state: .queued, statements, crawl: id)
            try Self.insert(skipped, statements, crawl: id)
            try statements.execute("UPDATE crawl SET harvest_pending = false WHERE id = \(id)")
            try Self.notify(statements, crawl: id)
            return added
        }
        harvesting.withLock { $0 = false }
        return added
    }

    public func sitemapEntries() throws(CrawlStoreError) -> [CrawlStore.SitemapEntryRecord] {
        try withCrawl("sitemapEntries", oneStatement: true) { statements, id in
            try statements.rows(
                "SELECT \(unescaped: Self.sitemapColumns) FROM sitemap_entry WHERE crawl_id = \(id) ORDER BY id"
            ).map(Self.sitemapEntry)
        }
    }

    /// The sitemap locations the site checks compare: those of this crawl's pages, and those
    /// with a #fragment.
    public func sitemapEntriesForSiteChecks() throws(CrawlStoreError) -> [CrawlStore.SitemapEntryRecord] {
        try withCrawl("sitemapEntriesForSiteChecks", oneStatement: true) { statements, id in
            try statements.rows(
                """
                SELECT \(unescaped: Self.sitemapColumns) FROM sitemap_entry s
                WHERE s.crawl_id = \(id) AND (strpos(s.location, '#') > 0 OR NOT (\(unescaped: Self.notCrawled)))
                ORDER BY s.id
                """
            ).map(Self.sitemapEntry)
        }
    }

    public func sitemapLine(of key: String, in sitemapURL: String) throws(CrawlStoreError) -> Int? {
        try withCrawl("sitemapLine", oneStatement: true) { statements, id in
            try statements.rows(
                """
                SELECT line FROM sitemap_entry
                WHERE crawl_id = \(id) AND key = \(key) AND sitemap_url = \(sitemapURL) ORDER BY id LIMIT 1
                """
            ).first?.decode(Int.self)
        }
    }

    public func sitemapLocationsNotCrawled() throws(CrawlStoreError) -> [CrawlStore.SitemapEntryRecord] {
        try sitemapLocationsNotCrawled(first: Int(Int64.max)).first
    }

    public func sitemapLocationsNotCrawled(first limit: Int) throws(CrawlStoreError)
        -> ListSample<CrawlStore.SitemapEntryRecord>
    {
        try withCrawl("sitemapLocationsNotCrawled", oneStatement: true) { statements, id in
            let total = try statements.rows(
                "SELECT COUNT(*) FROM sitemap_entry s WHERE s.crawl_id = \(id) AND \(unescaped: Self.notCrawled)"
            )[0].decode(Int.self)
            let first = try statements.rows(
                """
                SELECT \(unescaped: Self.sitemapColumns) FROM sitemap_entry s
                WHERE s.crawl_id = \(id) AND \(unescaped: Self.notCrawled)
                ORDER BY s.id LIMIT \(limit)
                """
            ).map(Self.sitemapEntry)
            return ListSample(total: total, first: first)
        }
    }

    /// A sitemap entry `s` that no page of its crawl has.
    static let notCrawled = """
        NOT EXISTS (SELECT 1 FROM page p WHERE p.crawl_id = s.crawl_id AND p.key = s.key)
        AND NOT EXISTS (SELECT 1 FROM page p WHERE p.crawl_id = s.crawl_id AND p.final_key = s.key)
        AND NOT EXISTS (SELECT 1 FROM page p WHERE p.crawl_id = s.crawl_id AND p.final_url = s.location)
        """

    public func pagesNotInSitemaps() throws(CrawlStoreError) -> [String] {
        try pagesNotInSitemaps(first: Int(Int64.max)).first
    }

    public func pagesNotInSitemaps(first limit: Int) throws(CrawlStoreError) -> ListSample<String> {
        try withCrawl("pagesNotInSitemaps") { statements, id in
            guard
                try statements.rows("SELECT EXISTS (SELECT 1 FROM sitemap_entry WHERE crawl_id = \(id))")[0]
                    .decode(Bool.self)
            else { return ListSample(total: 0, first: []) }
            let condition = """
                NOT EXISTS (SELECT 1 FROM sitemap_entry s WHERE s.crawl_id = p.crawl_id AND s.key = p.key)
                AND (p.final_key IS NULL
                    OR NOT EXISTS (SELECT 1 FROM sitemap_entry s WHERE s.crawl_id = p.crawl_id AND s.key = p.final_key))
                AND NOT EXISTS (SELECT 1 FROM sitemap_entry s WHERE s.crawl_id = p.crawl_id AND s.location = p.final_url)
                """
            let total = try statements.rows(
                "SELECT COUNT(*) FROM page p WHERE p.crawl_id = \(id) AND \(unescaped: condition)"
            )[0].decode(Int.self)
            let first = try statements.rows(
                """
                SELECT p.final_url FROM page p WHERE p.crawl_id = \(id) AND \(unescaped: condition)
                ORDER BY p.frontier_id LIMIT \(limit)
                """
            ).map { try $0.decode(String.self) }
            return ListSample(total: total, first: first)
        }
    }

    static let sitemapColumns = "sitemap_url, location, key, line"

    static func sitemapEntry(_ row: PostgresRow) throws -> CrawlStore.SitemapEntryRecord {
        let (sitemapURL, location, key, line) = try row.decode((String, String, String, Int).self)
        return CrawlStore.SitemapEntryRecord(sitemapURL: sitemapURL, location: location, key: key, line: line)
    }

    // MARK: - Site files

    public func saveSiteFile(_ record: CrawlStore.SiteFileRecord) throws(CrawlStoreError) {
        try withCrawl("saveSiteFile") { statements, id in
            try statements.execute(
                """
                INSERT INTO site_file (crawl_id, url, kind, summary_json, findings_json, fetched_at)
                VALUES (\(id), \(record.url), \(record.kind), \(record.summaryJSON), \(record.findingsJSON),
                    \(record.fetchedAt))
                ON CONFLICT (crawl_id, url) DO UPDATE SET kind = EXCLUDED.kind,
                    summary_json = EXCLUDED.summary_json, findings_json = EXCLUDED.findings_json,
                    fetched_at = EXCLUDED.fetched_at
                """)
        }
    }

    public func siteFiles() throws(CrawlStoreError) -> [CrawlStore.SiteFileRecord] {
        try withCrawl("siteFiles", oneStatement: true) { statements, id in
            try statements.rows(
                """
                SELECT url, kind, summary_json, findings_json, fetched_at FROM site_file
                WHERE crawl_id = \(id) ORDER BY url COLLATE "C"
                """
            ).map { row in
                let (url, kind, summary, findings, fetchedAt) = try row.decode(
                    (String, String, String, String, Double).self)
                return CrawlStore.SiteFileRecord(
                    url: url, kind: kind, summaryJSON: summary, findingsJSON: findings, fetchedAt: fetchedAt)
            }
        }
    }
}

extension PostgresCrawlStore: CrawlStoring {
    public var isShared: Bool { true }
    public var asksSeenKeysOnItsOwnConnection: Bool { true }
}
