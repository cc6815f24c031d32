import Foundation
import PostgresNIO

/// The PostgreSQL schema, as numbered migrations applied in order and recorded in
/// `spotcheck_schema`. Every migration runs in one transaction under an advisory lock, so workers
/// starting at the same moment never apply one twice. Times are seconds since 1970 (`double
/// precision`); JSON is text written by the caller, as in the SQLite store.
enum PostgresSchema {
    /// The advisory lock key migrations take (any constant; "SPOT" in ASCII).
    static let migrationLock: Int64 = 0x5350_4F54

    /// The migrations, oldest first; version `n` is `migrations[n - 1]`.
    static let migrations: [String] = [v1, v2, v3, v4, v5]

    /// Until when the process reading the sitemaps is known to be alive: set with the pending
    /// harvest and renewed with its host leases, so a starter killed while it reads sitemaps no
    /// longer keeps the crawl from ending once this time has passed.
    private static let v2 = """
        ALTER TABLE crawl ADD COLUMN harvest_until double precision NOT NULL DEFAULT 0
        """

    /// A page's payload and markup as binary values (payload version 5, as the SQLite store's v5),
    /// in place of the JSON text columns, which new pages leave empty; lz4 where the server has it.
    private static let v4 = """
        ALTER TABLE page ADD COLUMN payload bytea, ADD COLUMN markup bytea;
        DO $$BEGIN ALTER TABLE page ALTER COLUMN payload SET COMPRESSION lz4, \
        ALTER COLUMN markup SET COMPRESSION lz4; \
        EXCEPTION WHEN feature_not_supported THEN NULL; END$$
        """

    /// A host several workers work on at once (issue 32): whether its lease may be shared (its
    /// requests need no spacing), each worker's share of its requests in flight (`slots`; 0 while
    /// it asks for a share), until when the share holds, and which worker claimed each in-flight
    /// entry, so that a gone worker's entries, not the host's, are queued again.
    private static let v5 = """
        ALTER TABLE crawl_host ADD COLUMN shareable boolean NOT NULL DEFAULT false;
        ALTER TABLE frontier ADD COLUMN claimed_by text;
        CREATE TABLE crawl_host_slot (
            crawl_id bigint NOT NULL REFERENCES crawl (id) ON DELETE CASCADE,
            host text NOT NULL,
            worker text NOT NULL,
            slots integer NOT NULL CHECK (slots >= 0),
            lease_until double precision NOT NULL,
            PRIMARY KEY (crawl_id, host, worker)
        )
        """

    /// What storing a page costs the server (issue 32):
    /// - each worker's admitted count in a row of its own (`CompletePage`), not the crawl's one row,
    ///   which every page of every worker locked until it committed;
    /// - no foreign key from the three tables a page writes to (frontier, skipped, page): it looked
    ///   up the crawl's row for every row written (3 µs a row; a page writes some 30 on the
    ///   scale-out benchmark); every statement names its crawl, and nothing deletes crawls;
    /// - a page's JSON compressed with lz4 where the server has it (pglz made storing a page the
    ///   largest part of the server's time per page); values stored before keep pglz.
    private static let v3 = """
        CREATE TABLE crawl_admitted (
            crawl_id bigint NOT NULL REFERENCES crawl (id) ON DELETE CASCADE,
            worker text NOT NULL,
            admitted bigint NOT NULL DEFAULT 0,
            PRIMARY KEY (crawl_id, worker)
        );
        ALTER TABLE frontier DROP CONSTRAINT frontier_crawl_id_fkey;
        ALTER TABLE skipped DROP CONSTRAINT skipped_crawl_id_fkey;
        ALTER TABLE page DROP CONSTRAINT page_crawl_id_fkey;
        DO $$BEGIN ALTER TABLE page ALTER COLUMN markup_json SET COMPRESSION lz4, \
        ALTER COLUMN markup_dump_json SET COMPRESSION lz4, ALTER COLUMN attribute_set_json SET COMPRESSION lz4, \
        ALTER COLUMN findings_json SET COMPRESSION lz4, ALTER COLUMN headers_json SET COMPRESSION lz4; \
        EXCEPTION WHEN feature_not_supported THEN NULL; END$$
        """

    /// The first schema of the location's `search_path` setting, where the tables are made
    /// (created when missing); nil without one, or when it is `$user` or `public`.
    static func firstSchema(of location: PostgresLocation) -> String? {
        guard let path = location.serverSettings["search_path"],
            let first = path.split(separator: ",").first?.trimmingCharacters(in: .whitespaces)
        else { return nil }
        let name =
            first.hasPrefix("\"") && first.hasSuffix("\"") && first.count >= 2
            ? String(first.dropFirst().dropLast()).replacingOccurrences(of: "\"\"", with: "\"") : first.lowercased()
        return name.isEmpty || name == "$user" || name == "public" ? nil : name
    }

    /// An SQL identifier in double quotes.
    static func quoted(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Applies the `migrations` the database has not had yet, recording each in `versionTable`,
    /// under the advisory lock `lock`, in one transaction. Throws for a database whose version is
    /// newer than this SpotCheck's.
    static func migrate(_ session: PostgresSession, versionTable: String, lock: Int64, migrations: [String])
        throws(PostgresStoreError)
    {
        try session.transaction("migrate") { statements in
            try statements.execute("SELECT pg_advisory_xact_lock(\(lock))")
            // Created only when missing: CREATE SCHEMA IF NOT EXISTS needs the right to create
            // schemas even when it exists, which a role given its own schema may not have.
            if let schema = firstSchema(of: session.location),
                try statements.rows("SELECT 1 FROM pg_namespace WHERE nspname = \(schema)").isEmpty
            {
                try statements.execute(PostgresQuery(unsafeSQL: "CREATE SCHEMA \(quoted(schema))"))
            }
            try statements.execute(
                PostgresQuery(unsafeSQL: "CREATE TABLE IF NOT EXISTS \(versionTable) (version integer NOT NULL)"))
            let version =
                try statements.rows(PostgresQuery(unsafeSQL: "SELECT MAX(version) FROM \(versionTable)")).first
                .flatMap { try $0.decode(Int?.self) } ?? 0
            guard version <= migrations.count else {
                throw StoreFailure(
                    "the database's SpotCheck schema (\(versionTable)) is version \(version), newer than this "
                        + "SpotCheck's (\(migrations.count)); use a newer SpotCheck")
            }
            for (index, migration) in migrations.enumerated().dropFirst(version) {
                for statement in migration.components(separatedBy: ";\n") {
                    let sql = statement.trimmingCharacters(in: .whitespacesAndNewlines)
                    if !sql.isEmpty { try statements.execute(PostgresQuery(unsafeSQL: sql)) }
                }
                try statements.execute(
                    PostgresQuery(unsafeSQL: "INSERT INTO \(versionTable) (version) VALUES (\(index + 1))"))
            }
        }
    }

    private static let v1 = """
        -- One row per crawl: its settings, when it started and finished, whether the starting
        -- process is still reading sitemaps (their entries may still come, so the crawl is not
        -- over), and how many entries the page budget admitted.
        CREATE TABLE crawl (
            id bigserial PRIMARY KEY,
            seed text NOT NULL,
            settings_json text NOT NULL,
            started_at double precision NOT NULL,
            finished_at double precision,
            harvest_pending boolean NOT NULL DEFAULT false,
            -- Frontier entries the page budget admitted (all but redirect targets), kept as the
            -- entries go in, so every worker reads the crawl's budget in one row.
            admitted bigint NOT NULL DEFAULT 0
        );

        -- Every crawl's frontier and seen set: the unique key is the seen set.
        CREATE TABLE frontier (
            id bigserial PRIMARY KEY,
            crawl_id bigint NOT NULL REFERENCES crawl (id) ON DELETE CASCADE,
            url text NOT NULL,
            key text NOT NULL,
            host text NOT NULL,
            depth integer NOT NULL CHECK (depth >= 0),
            discovery text NOT NULL CHECK (discovery IN ('seed', 'link', 'sitemap', 'redirect')),
            found_on text,
            attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
            not_before double precision NOT NULL DEFAULT 0,
            state smallint NOT NULL DEFAULT 0 CHECK (state BETWEEN 0 AND 3),
            UNIQUE (crawl_id, key)
        );
        -- Queued entries of a host in id order (claim), and the hosts with work.
        CREATE INDEX frontier_queued ON frontier (crawl_id, host, id) WHERE state = 0;
        -- In-flight entries of a host (a lease taken over from a worker that is gone).
        CREATE INDEX frontier_in_flight ON frontier (crawl_id, host) WHERE state = 1;
        CREATE INDEX frontier_state ON frontier (crawl_id, state);

        -- Hosts as the cluster schedules them: who holds the lease, until when, and the earliest
        -- time the next request may start (its delay, Crawl-delay and back-off, persisted on release).
        CREATE TABLE crawl_host (
            crawl_id bigint NOT NULL REFERENCES crawl (id) ON DELETE CASCADE,
            host text NOT NULL,
            lease_owner text,
            lease_until double precision NOT NULL DEFAULT 0,
            next_allowed double precision NOT NULL DEFAULT 0,
            PRIMARY KEY (crawl_id, host)
        );
        CREATE INDEX crawl_host_owner ON crawl_host (crawl_id, lease_owner) WHERE lease_owner IS NOT NULL;

        -- URLs not fetched, with the reason; de-duplicated by (url, reason) within a crawl.
        CREATE TABLE skipped (
            id bigserial PRIMARY KEY,
            crawl_id bigint NOT NULL REFERENCES crawl (id) ON DELETE CASCADE,
            url text NOT NULL,
            key text,
            reason text NOT NULL,
            detail text NOT NULL,
            found_on text,
            UNIQUE (crawl_id, url, reason)
        );

        -- One page per key and crawl, with the same columns as the SQLite store's page table.
        CREATE TABLE page (
            crawl_id bigint NOT NULL REFERENCES crawl (id) ON DELETE CASCADE,
            key text NOT NULL,
            frontier_id bigint NOT NULL,
            requested_url text NOT NULL,
            final_url text NOT NULL,
            final_key text,
            depth integer NOT NULL,
            status integer,
            content_type text,
            headers_json text NOT NULL,
            redirects_json text NOT NULL,
            timings_json text NOT NULL,
            body_bytes bigint NOT NULL,
            body_sha256 text,
            etag text,
            last_modified text,
            not_modified boolean NOT NULL,
            error_kind text,
            error_message text,
            markup_json text,
            attribute_set_json text,
            findings_json text,
            applebot_allowed boolean,
            fetched_at double precision NOT NULL,
            unique_identifier text,
            canonical text,
            app_argument text,
            title text,
            description text,
            thumbnail_url text,
            is_candidate boolean,
            failing_conditions text,
            error_count integer NOT NULL DEFAULT 0,
            warning_count integer NOT NULL DEFAULT 0,
            info_count integer NOT NULL DEFAULT 0,
            payload_version integer NOT NULL,
            markup_dump_json text,
            PRIMARY KEY (crawl_id, key)
        );
        CREATE INDEX page_order ON page (crawl_id, frontier_id);

        -- robots.txt, fetched once per origin for the whole cluster (the caller judges freshness
        -- by fetched_at, the 24-hour rule), shared by every crawl of the database.
        CREATE TABLE robots (
            origin text PRIMARY KEY,
            status integer,
            body bytea NOT NULL,
            fetched_at double precision NOT NULL,
            final_url text,
            error text
        );

        CREATE TABLE sitemap_entry (
            id bigserial PRIMARY KEY,
            crawl_id bigint NOT NULL REFERENCES crawl (id) ON DELETE CASCADE,
            sitemap_url text NOT NULL,
            location text NOT NULL,
            key text NOT NULL,
            line integer NOT NULL,
            UNIQUE (crawl_id, sitemap_url, location)
        );
        CREATE INDEX sitemap_entry_key ON sitemap_entry (crawl_id, key);

        CREATE TABLE site_file (
            crawl_id bigint NOT NULL REFERENCES crawl (id) ON DELETE CASCADE,
            url text NOT NULL,
            kind text NOT NULL,
            summary_json text NOT NULL,
            findings_json text NOT NULL,
            fetched_at double precision NOT NULL,
            PRIMARY KEY (crawl_id, url)
        );
        """
}
