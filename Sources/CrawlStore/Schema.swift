import GRDB

/// The database schema, as GRDB migrations. Times are seconds since 1970 (REAL); JSON is TEXT
/// written by the caller.
enum Schema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: v1)
        }
        migrator.registerMigration("v2") { db in
            try db.execute(sql: v2)
        }
        migrator.registerMigration("v3") { db in
            try db.execute(sql: v3)
            try StoredVerdictBackfill.run(db)
        }
        migrator.registerMigration("v4") { db in
            try db.execute(sql: v4)
        }
        migrator.registerMigration("v5") { db in
            try db.execute(sql: v5)
        }
        return migrator
    }

    /// v5: a page's payload and markup as binary values (payload version 5, ReportModel's
    /// `PagePayload` and the page's `PageMarkup`), in place of the JSON text columns, which new
    /// pages leave empty.
    private static let v5 = """
        ALTER TABLE page ADD COLUMN payload BLOB;
        ALTER TABLE page ADD COLUMN markup BLOB;
        """

    /// v4: the page's raw markup dump (JSON-LD, Microdata, RDFa, Open Graph, links …) in a column
    /// of its own (payload version 3), so the reports read the analysis they show without it.
    /// Pages of earlier payload versions keep everything in `markup_json` and leave this NULL.
    private static let v4 = """
        ALTER TABLE page ADD COLUMN markup_dump_json TEXT;
        """

    /// v3: the page's verdict in typed columns (what the reports compare across pages and count),
    /// and the payload's version. Pages of an earlier store are filled in from their stored
    /// analysis by `StoredVerdictBackfill`, so `report`, `diff` and `--resume` keep working.
    private static let v3 = """
        ALTER TABLE page ADD COLUMN unique_identifier TEXT;
        ALTER TABLE page ADD COLUMN canonical TEXT;
        ALTER TABLE page ADD COLUMN app_argument TEXT;
        ALTER TABLE page ADD COLUMN title TEXT;
        ALTER TABLE page ADD COLUMN description TEXT;
        ALTER TABLE page ADD COLUMN thumbnail_url TEXT;
        ALTER TABLE page ADD COLUMN is_candidate INTEGER;
        ALTER TABLE page ADD COLUMN failing_conditions TEXT;
        ALTER TABLE page ADD COLUMN error_count INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE page ADD COLUMN warning_count INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE page ADD COLUMN info_count INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE page ADD COLUMN payload_version INTEGER NOT NULL DEFAULT 1;
        """

    /// v2: the site-level files checked once per host (apple-app-site-association), with what
    /// was found and the findings, as JSON the caller writes.
    private static let v2 = """
        CREATE TABLE site_file (
            url TEXT PRIMARY KEY NOT NULL,
            kind TEXT NOT NULL,
            summary_json TEXT NOT NULL,
            findings_json TEXT NOT NULL,
            fetched_at REAL NOT NULL
        );
        """

    private static let v1 = """
        -- One row per crawl; the current run has the largest generation.
        CREATE TABLE run (
            generation INTEGER PRIMARY KEY,
            seed TEXT NOT NULL,
            settings_json TEXT NOT NULL,
            started_at REAL NOT NULL,
            finished_at REAL
        );

        -- The current run's frontier and seen set. AUTOINCREMENT: ids are never reused, so the
        -- frontier ids kept in older generations' pages do not collide with the new run's.
        CREATE TABLE frontier (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            url TEXT NOT NULL,
            key TEXT NOT NULL UNIQUE,
            host TEXT NOT NULL,
            depth INTEGER NOT NULL CHECK (depth >= 0),
            discovery TEXT NOT NULL CHECK (discovery IN ('seed', 'link', 'sitemap', 'redirect')),
            found_on TEXT,
            attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
            not_before REAL NOT NULL DEFAULT 0,
            state INTEGER NOT NULL DEFAULT 0 CHECK (state BETWEEN 0 AND 3)
        );
        -- Queued entries of a host in id order (claim), and the distinct hosts (hostsWithWork).
        CREATE INDEX frontier_queued ON frontier (host, id) WHERE state = 0;
        -- The earliest not_before of a host's queued entries (hostsWithWork).
        CREATE INDEX frontier_queued_not_before ON frontier (host, not_before) WHERE state = 0;
        -- counts() and resumeRun().
        CREATE INDEX frontier_state ON frontier (state);

        -- URLs not fetched, with the reason; de-duplicated by (url, reason).
        CREATE TABLE skipped (
            id INTEGER PRIMARY KEY,
            url TEXT NOT NULL,
            key TEXT,
            reason TEXT NOT NULL,
            detail TEXT NOT NULL,
            found_on TEXT,
            UNIQUE (url, reason)
        );

        -- One page per key: a run replaces the page of a previous generation when it fetches the
        -- key again, so pages left with an older generation are the ones that disappeared.
        CREATE TABLE page (
            id INTEGER PRIMARY KEY,
            key TEXT NOT NULL UNIQUE,
            generation INTEGER NOT NULL,
            frontier_id INTEGER NOT NULL,
            requested_url TEXT NOT NULL,
            final_url TEXT NOT NULL,
            final_key TEXT,
            depth INTEGER NOT NULL,
            status INTEGER,
            content_type TEXT,
            headers_json TEXT NOT NULL,
            redirects_json TEXT NOT NULL,
            timings_json TEXT NOT NULL,
            body_bytes INTEGER NOT NULL,
            body_sha256 TEXT,
            etag TEXT,
            last_modified TEXT,
            not_modified INTEGER NOT NULL,
            error_kind TEXT,
            error_message TEXT,
            markup_json TEXT,
            attribute_set_json TEXT,
            findings_json TEXT,
            applebot_allowed INTEGER,
            fetched_at REAL NOT NULL
        );
        CREATE INDEX page_generation ON page (generation, frontier_id);

        -- robots.txt cache, kept across runs (the caller judges freshness by fetched_at).
        CREATE TABLE robots (
            origin TEXT PRIMARY KEY NOT NULL,
            status INTEGER,
            body BLOB NOT NULL,
            fetched_at REAL NOT NULL,
            final_url TEXT,
            error TEXT
        );

        -- Sitemap locations read during the current run.
        CREATE TABLE sitemap_entry (
            id INTEGER PRIMARY KEY,
            sitemap_url TEXT NOT NULL,
            location TEXT NOT NULL,
            key TEXT NOT NULL,
            line INTEGER NOT NULL,
            UNIQUE (sitemap_url, location)
        );
        CREATE INDEX sitemap_entry_key ON sitemap_entry (key);
        """
}
