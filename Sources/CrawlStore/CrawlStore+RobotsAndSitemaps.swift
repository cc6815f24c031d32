import Foundation
import GRDB

extension CrawlStore {
    // MARK: - robots.txt cache

    /// Stores (or replaces) the robots.txt record of an origin. The cache outlives runs.
    public func saveRobots(_ record: RobotsRecord) throws(CrawlStoreError) {
        try write("saveRobots") { db in
            let statement = try db.cachedStatement(
                sql: """
                    INSERT OR REPLACE INTO robots (origin, status, body, fetched_at, final_url, error)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """)
            try statement.execute(arguments: [
                record.origin, record.status, Data(record.body), record.fetchedAt, record.finalURL, record.error,
            ])
        }
    }

    /// The cached robots.txt record of an origin (`"http://host:port"`).
    public func robots(origin: String) throws(CrawlStoreError) -> RobotsRecord? {
        try read("robots") { db in
            let statement = try db.cachedStatement(
                sql: "SELECT origin, status, body, fetched_at, final_url, error FROM robots WHERE origin = ?")
            return try Row.fetchOne(statement, arguments: [origin]).map { row in
                let body: Data? = try row.decode(atIndex: 2)
                return try RobotsRecord(
                    origin: row.decode(atIndex: 0), status: row.decode(atIndex: 1), body: [UInt8](body ?? Data()),
                    fetchedAt: row.decode(atIndex: 3),
                    finalURL: row.decode(atIndex: 4), error: row.decode(atIndex: 5))
            }
        }
    }

    // MARK: - Sitemap entries

    /// Records sitemap locations read during this run, de-duplicated by (sitemap URL, location).
    public func addSitemapEntries(_ entries: [SitemapEntryRecord]) throws(CrawlStoreError) {
        guard !entries.isEmpty else { return }
        try write("addSitemapEntries") { db in try Self.insert(entries, db) }
    }

    /// A sitemap harvest in one transaction: its locations, the frontier entries it adds and
    /// the URLs it skips. Returns the entries that were new, with their ids. After a kill, either
    /// all of it is in the store or none of it is (so `hasSitemapEntries` says whether a resumed
    /// run must harvest again).
    public func addSitemapHarvest(
        _ entries: [SitemapEntryRecord], enqueue frontier: [FrontierEntry], skipped: [SkippedURL]
    ) throws(CrawlStoreError) -> [FrontierEntry] {
        try write("addSitemapHarvest") { db in
            try Self.insert(entries, db)
            let added = try Self.insert(frontier, db)
            try Self.insert(skipped, db)
            return added
        }
    }

    /// Whether this run has recorded any sitemap location.
    public func hasSitemapEntries() throws(CrawlStoreError) -> Bool {
        try read("hasSitemapEntries") { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM sitemap_entry)") ?? false
        }
    }

    static func insert(_ entries: [SitemapEntryRecord], _ db: Database) throws {
        guard !entries.isEmpty else { return }
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO sitemap_entry (sitemap_url, location, key, line) VALUES (?, ?, ?, ?)
                ON CONFLICT (sitemap_url, location) DO NOTHING
                """)
        for entry in entries {
            try statement.execute(arguments: [entry.sitemapURL, entry.location, entry.key, entry.line])
        }
    }

    /// The sitemap locations of this run, in the order they were added.
    public func sitemapEntries() throws(CrawlStoreError) -> [SitemapEntryRecord] {
        try read("sitemapEntries") { db in
            try Row.fetchAll(
                db.cachedStatement(sql: "SELECT \(Self.sitemapColumns) FROM sitemap_entry ORDER BY id")
            )
            .map(Self.sitemapEntry)
        }
    }

    /// The sitemap locations the site checks compare (IX009, IX014): those of this run's pages,
    /// and those with a #fragment. Not the locations never crawled, however many there are.
    public func sitemapEntriesForSiteChecks() throws(CrawlStoreError) -> [SitemapEntryRecord] {
        try read("sitemapEntriesForSiteChecks") { db in
            let generation = try Self.currentGeneration(db) ?? 0
            let statement = try db.cachedStatement(
                sql: """
                    SELECT \(Self.sitemapColumns) FROM sitemap_entry
                    WHERE instr(location, '#') > 0 OR NOT (\(Self.notCrawledCondition))
                    ORDER BY id
                    """)
            return try Row.fetchAll(statement, arguments: ["generation": generation]).map(Self.sitemapEntry)
        }
    }

    /// The line on which the sitemap at `sitemapURL` first lists a location with this key.
    public func sitemapLine(of key: String, in sitemapURL: String) throws(CrawlStoreError) -> Int? {
        try read("sitemapLine") { db in
            try Int.fetchOne(
                db.cachedStatement(
                    sql: "SELECT line FROM sitemap_entry WHERE key = ? AND sitemap_url = ? ORDER BY id LIMIT 1"),
                arguments: [key, sitemapURL])
        }
    }

    /// Sitemap locations that no page of this run has: no page's requested key or final key equals
    /// the location's key, and no page's final URL equals the location. In the order they were added.
    public func sitemapLocationsNotCrawled() throws(CrawlStoreError) -> [SitemapEntryRecord] {
        try sitemapLocationsNotCrawled(first: Int(Int64.max)).first
    }

    /// The first `limit` sitemap locations not crawled, and how many there are.
    public func sitemapLocationsNotCrawled(first limit: Int) throws(CrawlStoreError) -> ListSample<SitemapEntryRecord> {
        try read("sitemapLocationsNotCrawled") { db in
            let arguments: StatementArguments = ["generation": try Self.currentGeneration(db) ?? 0, "limit": limit]
            let total = try Int.fetchOne(
                db.cachedStatement(sql: "SELECT COUNT(*) FROM sitemap_entry WHERE \(Self.notCrawledCondition)"),
                arguments: arguments)
            let first = try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT \(Self.sitemapColumns) FROM sitemap_entry WHERE \(Self.notCrawledCondition)
                        ORDER BY id LIMIT :limit
                        """),
                arguments: arguments
            ).map(Self.sitemapEntry)
            return ListSample(total: total ?? 0, first: first)
        }
    }

    /// A sitemap entry no page of the generation `:generation` has. Each IN list is built once as
    /// a transient index: O((pages + entries) log n).
    static let notCrawledCondition = """
        key NOT IN (SELECT key FROM page WHERE generation = :generation)
        AND key NOT IN (SELECT final_key FROM page WHERE generation = :generation AND final_key IS NOT NULL)
        AND location NOT IN (SELECT final_url FROM page WHERE generation = :generation)
        """

    /// The final URLs of this run's pages that no sitemap lists (by requested key, final key or
    /// final URL), in frontier order. Only meaningful when some sitemap entries exist: without any,
    /// this is empty rather than every page.
    public func pagesNotInSitemaps() throws(CrawlStoreError) -> [String] {
        try pagesNotInSitemaps(first: Int(Int64.max)).first
    }

    /// The first `limit` pages no sitemap lists, and how many there are.
    public func pagesNotInSitemaps(first limit: Int) throws(CrawlStoreError) -> ListSample<String> {
        try read("pagesNotInSitemaps") { db in
            guard let generation = try Self.currentGeneration(db),
                try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM sitemap_entry)") == true
            else { return ListSample(total: 0, first: []) }
            let condition = """
                generation = :generation
                AND key NOT IN (SELECT key FROM sitemap_entry)
                AND (final_key IS NULL OR final_key NOT IN (SELECT key FROM sitemap_entry))
                AND final_url NOT IN (SELECT location FROM sitemap_entry)
                """
            let arguments: StatementArguments = ["generation": generation, "limit": limit]
            let total = try Int.fetchOne(
                db.cachedStatement(sql: "SELECT COUNT(*) FROM page WHERE \(condition)"), arguments: arguments)
            let first = try String.fetchAll(
                db.cachedStatement(
                    sql: "SELECT final_url FROM page WHERE \(condition) ORDER BY frontier_id LIMIT :limit"),
                arguments: arguments)
            return ListSample(total: total ?? 0, first: first)
        }
    }

    static let sitemapColumns = "sitemap_url, location, key, line"

    static func sitemapEntry(_ row: Row) throws -> SitemapEntryRecord {
        try SitemapEntryRecord(
            sitemapURL: row.decode(atIndex: 0), location: row.decode(atIndex: 1), key: row.decode(atIndex: 2),
            line: row.decode(atIndex: 3))
    }
}
