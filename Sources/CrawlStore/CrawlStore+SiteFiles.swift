import GRDB

extension CrawlStore {
    /// A file checked once per host (`kind` `aasa`: apple-app-site-association): what was found
    /// and the findings, as JSON.
    public struct SiteFileRecord: Sendable, Hashable {
        public var url: String
        public var kind: String
        public var summaryJSON: String
        public var findingsJSON: String
        /// Seconds since 1970.
        public var fetchedAt: Double

        public init(url: String, kind: String, summaryJSON: String, findingsJSON: String, fetchedAt: Double) {
            self.url = url
            self.kind = kind
            self.summaryJSON = summaryJSON
            self.findingsJSON = findingsJSON
            self.fetchedAt = fetchedAt
        }
    }

    /// Stores (or replaces) a site file's record.
    public func saveSiteFile(_ record: SiteFileRecord) throws(CrawlStoreError) {
        try write("saveSiteFile") { db in
            try db.cachedStatement(
                sql: """
                    INSERT OR REPLACE INTO site_file (url, kind, summary_json, findings_json, fetched_at)
                    VALUES (?, ?, ?, ?, ?)
                    """
            ).execute(arguments: [
                record.url, record.kind, record.summaryJSON, record.findingsJSON, record.fetchedAt,
            ])
        }
    }

    /// Every site file's record, by URL.
    public func siteFiles() throws(CrawlStoreError) -> [SiteFileRecord] {
        try read("siteFiles") { db in
            try Row.fetchAll(
                db.cachedStatement(
                    sql: "SELECT url, kind, summary_json, findings_json, fetched_at FROM site_file ORDER BY url")
            ).map { row in
                try SiteFileRecord(
                    url: row.decode(atIndex: 0), kind: row.decode(atIndex: 1), summaryJSON: row.decode(atIndex: 2),
                    findingsJSON: row.decode(atIndex: 3), fetchedAt: row.decode(atIndex: 4))
            }
        }
    }
}
