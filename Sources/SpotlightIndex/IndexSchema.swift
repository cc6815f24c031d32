import Foundation
import GRDB

/// The index's schema, as GRDB migrations. Times are seconds since 1970 (REAL); JSON is TEXT in
/// Core Spotlight's property names (`AttributeSet.json`).
enum IndexSchema {
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
        }
        migrator.registerMigration("v4") { db in
            // Setting FTS5's hashsize rewrites its structure record, which word counts kept by v3
            // are tied to: counts that held before still hold (no row changes here).
            let before = try FullTextRanking.structure(db, table: "search_text")
            let kept = try Data.fetchOne(db, sql: "SELECT structure FROM search_word_rows_state WHERE id = 1")
            try db.execute(sql: v4)
            if kept == before {
                try db.execute(
                    sql: "UPDATE search_word_rows_state SET structure = ? WHERE id = 1",
                    arguments: [try FullTextRanking.structure(db, table: "search_text")])
            }
        }
        migrator.registerMigration("v5") { db in
            try db.execute(sql: v5)
        }
        // A later migration that writes to `item` or `activity` runs its triggers: it must end with
        // `flushPendingSearchText` (v4), or the full-text index misses those rows.
        return migrator
    }

    /// Whether this SQLite has FTS5: creating a throw-away table in the connection's temporary
    /// schema tells (it leaves nothing in the file). Other failures are rethrown.
    static func hasFullTextSearch(_ db: Database) throws -> Bool {
        do {
            try db.execute(sql: "CREATE VIRTUAL TABLE temp.fts5_probe USING fts5(x); DROP TABLE temp.fts5_probe;")
            return true
        } catch let error as DatabaseError where error.message?.contains("no such module") == true {
            return false
        }
    }

    /// v2: type-ahead at a million items (issue 16). The full-text rowid orders matches by a
    /// static rank (`SearchRowID`), so a search reads its candidates best-hinted first and stops;
    /// prefix indexes for 1 to 6 letters, so a prefix of up to 6 letters reads one list lazily
    /// instead of merging every matching term's up front (a 5-letter prefix of a common word took
    /// 280 ms at a million items with indexes up to 4 letters, for 180 MB less file); and the
    /// item's title, display name and description are read from its attribute set instead of
    /// being stored twice. The full-text index is rebuilt from the rows. (`detail = column` would
    /// halve the full-text index, but bm25 scores every match 0 in a contentless table with it,
    /// SQLite 3.40.)
    private static var v2: String {
        func triggers(_ table: String) -> String {
            let rowID = { (row: String) in SearchRowID.sql(table: table, row: row) }
            let columns = "rowid, title, display_name, content_description, keywords"
            let delete = """
                INSERT INTO search_text (search_text, \(columns))
                    VALUES ('delete', \(rowID("old")), \(searchedText(table, "old")));
                """
            let insert = "INSERT INTO search_text (\(columns)) VALUES (\(rowID("new")), \(searchedText(table, "new")));"
            return """
                CREATE TRIGGER \(table)_search_insert AFTER INSERT ON \(table) BEGIN
                    \(insert)
                END;
                CREATE TRIGGER \(table)_search_delete AFTER DELETE ON \(table) BEGIN
                    \(delete)
                END;
                CREATE TRIGGER \(table)_search_update AFTER UPDATE ON \(table) BEGIN
                    \(delete)
                    \(insert)
                END;
                INSERT INTO search_text (rowid, title, display_name, content_description, keywords)
                    SELECT \(SearchRowID.sql(table: table, row: table)), \(searchedText(table, table)) FROM \(table)
                    ORDER BY 1;
                """
        }
        return """
            DROP TRIGGER item_search_insert;
            DROP TRIGGER item_search_delete;
            DROP TRIGGER item_search_update;
            DROP TRIGGER activity_search_insert;
            DROP TRIGGER activity_search_delete;
            DROP TRIGGER activity_search_update;
            DROP TABLE search_text;

            ALTER TABLE item DROP COLUMN title;
            ALTER TABLE item DROP COLUMN display_name;
            ALTER TABLE item DROP COLUMN content_description;
            ALTER TABLE item ADD COLUMN title TEXT
                GENERATED ALWAYS AS (json_extract(attribute_set_json, '$.title')) VIRTUAL;
            ALTER TABLE item ADD COLUMN display_name TEXT
                GENERATED ALWAYS AS (json_extract(attribute_set_json, '$.displayName')) VIRTUAL;
            ALTER TABLE item ADD COLUMN content_description TEXT
                GENERATED ALWAYS AS (json_extract(attribute_set_json, '$.contentDescription')) VIRTUAL;

            CREATE VIRTUAL TABLE search_text USING fts5 (
                title, display_name, content_description, keywords,
                content = '', tokenize = 'unicode61 remove_diacritics 2', prefix = '1 2 3 4 5 6'
            );
            \(triggers("item"))
            \(triggers("activity"))
            """
    }

    /// v3: the rows that hold each common word of the full-text index, counted after an import
    /// (`FullTextRanking.recountWords`), so a search of several words weighs them without counting
    /// (a word in most of a million items took 30–50 ms to count in every search process). The
    /// counts hold for the full-text index whose structure record is `structure`; after any later
    /// write they are ignored until the next recount.
    private static let v3 = """
        CREATE TABLE search_word_rows (word TEXT PRIMARY KEY, rows INTEGER NOT NULL) WITHOUT ROWID;
        CREATE TABLE search_word_rows_state (id INTEGER PRIMARY KEY CHECK (id = 1), structure BLOB NOT NULL);
        """

    /// v4: a write transaction changes the full-text index once, at its end, in rowid order
    /// (`flushPendingSearchText`). FTS5 writes out its buffer of changes whenever a row's rowid is
    /// not above the one before, and the rank-ordered rowids (`SearchRowID`) of an import in file
    /// order made that happen for most rows: 200,000 items took 31 s to import, 5 s of it without
    /// the full-text index, and 39 s to import again over themselves. The triggers now note the
    /// full-text rowid of each row to add in `search_pending`, and each row to take out, with its
    /// old text (a contentless index needs it), in `search_pending_removal`; a row added in the
    /// same transaction is just no longer owed. FTS5 also buffers more before writing
    /// (`fullTextBufferBytes`). Word counts kept by v3 stay valid (the migration).
    private static var v4: String {
        func triggers(_ table: String) -> String {
            let remove = pendingRemoval(table)
            let owe = pendingAddition(table)
            return """
                DROP TRIGGER \(table)_search_insert;
                DROP TRIGGER \(table)_search_delete;
                DROP TRIGGER \(table)_search_update;
                CREATE TRIGGER \(table)_search_insert AFTER INSERT ON \(table) BEGIN
                    \(owe)
                END;
                CREATE TRIGGER \(table)_search_delete AFTER DELETE ON \(table) BEGIN
                    \(remove)
                END;
                CREATE TRIGGER \(table)_search_update AFTER UPDATE ON \(table) BEGIN
                    \(remove)
                    \(owe)
                END;
                """
        }
        return """
            CREATE TABLE search_pending (rowid INTEGER PRIMARY KEY);
            CREATE TABLE search_pending_removal (
                rowid INTEGER PRIMARY KEY, title TEXT, display_name TEXT, content_description TEXT, keywords TEXT
            );
            INSERT INTO search_text (search_text, rank) VALUES ('hashsize', \(fullTextBufferBytes));
            \(triggers("item"))
            \(triggers("activity"))
            """
    }

    /// The statements of a v4 trigger noting that the full-text index owes the removal of the
    /// `old` row of `table`, with its text. A row whose rowid is owed to the full-text index was
    /// written earlier in this transaction: its old text is not in the index under that rowid
    /// (either nothing is, or the removal of what was is noted already).
    private static func pendingRemoval(_ table: String) -> String {
        let rowID = SearchRowID.sql(table: table, row: "old")
        return """
            INSERT INTO search_pending_removal (rowid, title, display_name, content_description, keywords)
                SELECT \(rowID), \(searchedText(table, "old"))
                WHERE NOT EXISTS (SELECT 1 FROM search_pending WHERE rowid = \(rowID));
            DELETE FROM search_pending WHERE rowid = \(rowID);
            """
    }

    /// The statement of a v4 trigger noting that the full-text index owes the `new` row of
    /// `table`. Not `INSERT OR IGNORE`: an upsert's own conflict handling would override it.
    private static func pendingAddition(_ table: String) -> String {
        let rowID = SearchRowID.sql(table: table, row: "new")
        return """
            INSERT INTO search_pending (rowid) SELECT \(rowID)
                WHERE NOT EXISTS (SELECT 1 FROM search_pending WHERE rowid = \(rowID));
            """
    }

    /// v5: an update that changes neither a row's searched text nor its full-text rowid (its rank
    /// bucket) leaves the full-text index alone. Importing the same items again, which is how an
    /// app re-indexes, took each row out of the full-text index and put it back: the time of a
    /// first import again, and the old entries stayed in the file until FTS5 merged them (three
    /// imports of 200,000 items left 1,498 bytes of full-text data per item instead of 580). An
    /// item's title, display name and description come from its attribute set, so they are only
    /// compared when the attribute set changed.
    private static var v5: String {
        func updateTrigger(_ table: String, changed: String) -> String {
            """
            DROP TRIGGER \(table)_search_update;
            CREATE TRIGGER \(table)_search_update AFTER UPDATE ON \(table)
                WHEN \(SearchRowID.sql(table: table, row: "old")) IS NOT \(SearchRowID.sql(table: table, row: "new"))
                    OR old.keywords_text IS NOT new.keywords_text
                    OR \(changed)
            BEGIN
                \(pendingRemoval(table))
                \(pendingAddition(table))
            END;
            """
        }
        let textChanged = { (columns: [String]) in
            columns.map { "old.\($0) IS NOT new.\($0)" }.joined(separator: " OR ")
        }
        return updateTrigger(
            "item",
            changed:
                "(old.attribute_set_json IS NOT new.attribute_set_json AND (\(textChanged(["title", "display_name", "content_description"]))))"
        )
            + updateTrigger(
                "activity", changed: "(\(textChanged(["search_title", "display_name", "content_description"])))")
    }

    /// How much new full-text data a write buffers before FTS5 writes it out as a segment (FTS5's
    /// `hashsize`, kept in the file; its default is 1 MiB): fewer segments to merge. FTS5 also
    /// writes its buffer out when a statement starts (its savepoint), so each chunk of
    /// `flushPendingSearchText` ends at least one segment. The 200,000-item bench index took 4.5 s
    /// instead of 7.6 s to build in one statement (`sqlite3`, rowid order).
    static let fullTextBufferBytes = 16 << 20

    /// Takes the rows the transaction's writes noted in `search_pending_removal` out of the
    /// full-text index and adds those in `search_pending`, in one pass in rowid order, and forgets
    /// them (v4). Every write transaction calls it before it commits. A transaction that took many
    /// rows out ends by compacting the full-text index (`compactSearchText`).
    ///
    /// The changes go in rowid order, a row taken out and added again under the same rowid taken
    /// out first (`step`): a `delete` command, then a plain insert (a NULL command), as FTS5 itself
    /// updates a row. The pass goes `chunk` rowids at a time: SQLite keeps a copy of every page a
    /// statement changes until it ends (its statement journal, in memory here), which for one
    /// statement over 200,000 re-imported items reached 310 MB; a chunk is also sorted on its own.
    static func flushPendingSearchText(_ db: Database, chunk: Int = flushChunk) throws {
        precondition(chunk > 0, "a chunk of full-text changes holds at least one")
        let chunkEnd = try db.cachedStatement(sql: chunkEndSQL)
        let apply = try db.cachedStatement(sql: applyChunkSQL)
        var after = Int64.min
        while let last = try Int64.fetchOne(chunkEnd, arguments: ["after": after, "chunk": chunk]) {
            try apply.execute(arguments: ["after": after, "last": last])
            after = last
        }
        // Full-text rowids are 1 or more: nothing was owed.
        guard after != Int64.min else { return }
        let removals = try Int.fetchOne(db, sql: "SELECT count(*) FROM search_pending_removal") ?? 0
        try db.execute(sql: "DELETE FROM search_pending_removal; DELETE FROM search_pending;")
        try compactSearchText(db, after: removals)
    }

    /// After a transaction that took `removals` rows out of the full-text index: merges the index
    /// into one segment (FTS5's `optimize`) when they are `compactAfterRemovals` or more and at
    /// least a quarter of the rows it holds. A contentless FTS5 index marks a row taken out in a
    /// new segment, and both the mark and the old entries stay in the file until a merge of the
    /// segments holding them: three imports of 200,000 items with changed descriptions grew its
    /// data from 580 to 2,176 bytes per item, the file from 253 to 632 MB, and a one-letter
    /// search's p50 from 2.4 to 4.1 ms. `optimize` on that index took 6.7 s and brought the data
    /// back to 599 bytes per item (the file keeps its free pages for later writes).
    private static func compactSearchText(_ db: Database, after removals: Int) throws {
        guard removals >= compactAfterRemovals else { return }
        let rows =
            try Int.fetchOne(db, sql: "SELECT (SELECT count(*) FROM item) + (SELECT count(*) FROM activity)") ?? 0
        guard removals * 4 >= rows else { return }
        try db.execute(sql: "INSERT INTO search_text (search_text) VALUES ('optimize')")
    }

    /// The fewest rows taken out of the full-text index in one transaction that lead to
    /// compacting it (`compactSearchText`): FTS5's own merging keeps up with smaller writes.
    static let compactAfterRemovals = 1_000

    /// Deletes every item and activity and empties the full-text index; returns how many items.
    /// Row by row, each row's triggers noted its removal with its text, and SQLite kept a copy of
    /// every page the delete changed until it ended (its statement journal, in memory): a million
    /// items took 45 s and 700 MB. So the tables' triggers are dropped for the deletes, which
    /// SQLite then does by clearing the tables' pages, and created again as they were, in the
    /// order they were created. The schema changes are part of the transaction: a failure undoes
    /// them with the rest.
    static func deleteEveryRow(_ db: Database) throws -> Int {
        let triggers = try Row.fetchAll(
            db,
            sql: """
                SELECT name, sql FROM sqlite_schema WHERE type = 'trigger' AND tbl_name IN ('item', 'activity')
                ORDER BY rowid
                """)
        for trigger in triggers {
            try db.execute(sql: "DROP TRIGGER \((trigger["name"] as String).quotedDatabaseIdentifier)")
        }
        try db.execute(sql: "DELETE FROM activity")
        try db.execute(sql: "DELETE FROM item")
        let items = db.changesCount
        for trigger in triggers { try db.execute(sql: trigger["sql"]) }
        try emptySearchText(db)
        return items
    }

    /// Empties the full-text index, and forgets what it was owed and the word counts kept for it
    /// (v3), for a transaction that deleted every row. FTS5's `delete-all` drops its data at once.
    /// It also writes a structure record that an index holding other rows can have again later:
    /// its write counter and segment ids start again. Searches take an unchanged structure record
    /// to mean an unchanged index (`FullTextRanking.indexState`, the kept counts), so FTS5's
    /// buffer size is set again after it, which raises the record's config cookie: no later
    /// record is one from before.
    private static func emptySearchText(_ db: Database) throws {
        try db.execute(
            sql: """
                DELETE FROM search_pending_removal;
                DELETE FROM search_pending;
                DELETE FROM search_word_rows;
                DELETE FROM search_word_rows_state;
                INSERT INTO search_text (search_text) VALUES ('delete-all');
                INSERT INTO search_text (search_text, rank) VALUES ('hashsize', \(fullTextBufferBytes));
                """)
    }

    /// The rowid ending the chunk after `:after`: every change up to it is in the chunk (a removal
    /// and an addition under one rowid stay together); NULL when nothing is left.
    private static let chunkEndSQL = """
        SELECT max(rowid) FROM (
            SELECT rowid FROM (
                SELECT rowid FROM search_pending_removal WHERE rowid > :after
                UNION ALL
                SELECT rowid FROM search_pending WHERE rowid > :after
            )
            ORDER BY rowid LIMIT :chunk
        )
        """

    /// Applies the changes with rowids in (`:after`, `:last`], removals first under one rowid.
    private static let applyChunkSQL: String = {
        let pending = "search_pending.rowid"
        let inChunk = "\(pending) > :after AND \(pending) <= :last"
        func additions(_ table: String, isTable: String) -> String {
            """
            SELECT NULL, \(pending), \(searchedText(table, table)), 1
            FROM search_pending JOIN \(table) ON \(table).id = \(SearchRowID.id(pending))
            WHERE \(isTable) AND \(inChunk)
            """
        }
        return """
            INSERT INTO search_text (search_text, rowid, title, display_name, content_description, keywords)
                SELECT command, rowid, title, display_name, content_description, keywords FROM (
                    SELECT 'delete' AS command, rowid, title, display_name, content_description, keywords, 0 AS step
                    FROM search_pending_removal WHERE rowid > :after AND rowid <= :last
                    UNION ALL
                    \(additions("item", isTable: SearchRowID.isItem(pending)))
                    UNION ALL
                    \(additions("activity", isTable: SearchRowID.isActivity(pending)))
                )
                ORDER BY rowid, step
            """
    }()

    /// Full-text changes applied by one statement (`flushPendingSearchText`).
    static let flushChunk = 20_000

    /// The searched columns of `row` (`new`, `old` or the table's name) in `table`, in
    /// `search_text`'s order.
    private static func searchedText(_ table: String, _ row: String) -> String {
        let title = table == "item" ? "title" : "search_title"
        return "coalesce(\(row).\(title), ''), coalesce(\(row).display_name, ''), "
            + "coalesce(\(row).content_description, ''), \(row).keywords_text"
    }

    private static let v1 = """
        -- Core Spotlight items, one per uniqueIdentifier. The text columns repeat what the search
        -- reads from the attribute set (triggers keep search_text in step with them).
        CREATE TABLE item (
            id INTEGER PRIMARY KEY,
            unique_identifier TEXT NOT NULL UNIQUE,
            domain_identifier TEXT,
            attribute_set_json TEXT NOT NULL,
            expiration_text TEXT,
            expires_at REAL NOT NULL,
            indexed_at REAL NOT NULL,
            title TEXT,
            display_name TEXT,
            content_description TEXT,
            keywords_text TEXT NOT NULL DEFAULT '',
            content_type TEXT,
            ranking_hint REAL CHECK (ranking_hint BETWEEN 0 AND 100),
            url_key TEXT,
            content_url_key TEXT
        );
        CREATE INDEX item_domain ON item (domain_identifier);
        CREATE INDEX item_expires_at ON item (expires_at);
        CREATE INDEX item_url_key ON item (url_key) WHERE url_key IS NOT NULL;
        CREATE INDEX item_content_url_key ON item (content_url_key) WHERE content_url_key IS NOT NULL;

        -- NSUserActivity values, one per activity_key (persistentIdentifier, else type + link).
        CREATE TABLE activity (
            id INTEGER PRIMARY KEY,
            activity_key TEXT NOT NULL UNIQUE,
            activity_type TEXT NOT NULL,
            title TEXT,
            keywords_json TEXT NOT NULL,
            webpage_url TEXT,
            webpage_url_key TEXT,
            persistent_identifier TEXT,
            is_eligible_for_search INTEGER NOT NULL,
            is_eligible_for_public_indexing INTEGER NOT NULL,
            is_eligible_for_handoff INTEGER NOT NULL,
            is_eligible_for_prediction INTEGER NOT NULL,
            required_user_info_keys_json TEXT,
            user_info_json TEXT,
            content_attribute_set_json TEXT,
            related_unique_identifier TEXT,
            domain_identifier TEXT,
            expiration_text TEXT,
            expires_at REAL NOT NULL,
            indexed_at REAL NOT NULL,
            search_title TEXT,
            display_name TEXT,
            content_description TEXT,
            keywords_text TEXT NOT NULL DEFAULT '',
            content_type TEXT,
            ranking_hint REAL CHECK (ranking_hint BETWEEN 0 AND 100)
        );
        CREATE INDEX activity_related ON activity (related_unique_identifier)
            WHERE related_unique_identifier IS NOT NULL;
        CREATE INDEX activity_domain ON activity (domain_identifier);
        CREATE INDEX activity_webpage_url_key ON activity (webpage_url_key) WHERE webpage_url_key IS NOT NULL;

        -- Deleting an item deletes the activities related to it (relatedUniqueIdentifier, §5.1).
        -- An upsert is an UPDATE, so re-indexing an item keeps its activities.
        CREATE TRIGGER item_deletes_related_activities AFTER DELETE ON item BEGIN
            DELETE FROM activity WHERE related_unique_identifier = old.unique_identifier;
        END;

        -- The last client state of each named index (< 250 bytes).
        CREATE TABLE client_state (
            index_name TEXT PRIMARY KEY NOT NULL CHECK (index_name <> ''),
            state BLOB NOT NULL CHECK (length(state) < 250),
            updated_at REAL NOT NULL
        );

        -- Full-text search: contentless (the text lives in item and activity), rowid = item.id for
        -- items and -activity.id for activities. Diacritics folded: "Tomas" finds "Tomás". Prefix
        -- indexes for 2 and 3 characters make type-ahead on a short prefix read one list instead
        -- of merging every term's (5x faster at 50,000 items, for about 30% more file).
        CREATE VIRTUAL TABLE search_text USING fts5 (
            title, display_name, content_description, keywords,
            content = '', tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
        );

        CREATE TRIGGER item_search_insert AFTER INSERT ON item BEGIN
            INSERT INTO search_text (rowid, title, display_name, content_description, keywords)
            VALUES (new.id, coalesce(new.title, ''), coalesce(new.display_name, ''),
                    coalesce(new.content_description, ''), new.keywords_text);
        END;
        CREATE TRIGGER item_search_delete AFTER DELETE ON item BEGIN
            INSERT INTO search_text (search_text, rowid, title, display_name, content_description, keywords)
            VALUES ('delete', old.id, coalesce(old.title, ''), coalesce(old.display_name, ''),
                    coalesce(old.content_description, ''), old.keywords_text);
        END;
        CREATE TRIGGER item_search_update AFTER UPDATE ON item BEGIN
            INSERT INTO search_text (search_text, rowid, title, display_name, content_description, keywords)
            VALUES ('delete', old.id, coalesce(old.title, ''), coalesce(old.display_name, ''),
                    coalesce(old.content_description, ''), old.keywords_text);
            INSERT INTO search_text (rowid, title, display_name, content_description, keywords)
            VALUES (new.id, coalesce(new.title, ''), coalesce(new.display_name, ''),
                    coalesce(new.content_description, ''), new.keywords_text);
        END;

        CREATE TRIGGER activity_search_insert AFTER INSERT ON activity BEGIN
            INSERT INTO search_text (rowid, title, display_name, content_description, keywords)
            VALUES (-new.id, coalesce(new.search_title, ''), coalesce(new.display_name, ''),
                    coalesce(new.content_description, ''), new.keywords_text);
        END;
        CREATE TRIGGER activity_search_delete AFTER DELETE ON activity BEGIN
            INSERT INTO search_text (search_text, rowid, title, display_name, content_description, keywords)
            VALUES ('delete', -old.id, coalesce(old.search_title, ''), coalesce(old.display_name, ''),
                    coalesce(old.content_description, ''), old.keywords_text);
        END;
        CREATE TRIGGER activity_search_update AFTER UPDATE ON activity BEGIN
            INSERT INTO search_text (search_text, rowid, title, display_name, content_description, keywords)
            VALUES ('delete', -old.id, coalesce(old.search_title, ''), coalesce(old.display_name, ''),
                    coalesce(old.content_description, ''), old.keywords_text);
            INSERT INTO search_text (rowid, title, display_name, content_description, keywords)
            VALUES (-new.id, coalesce(new.search_title, ''), coalesce(new.display_name, ''),
                    coalesce(new.content_description, ''), new.keywords_text);
        END;
        """
}

/// The full-text rowid of an item or an activity: its rank bucket (100 − its `rankingHint`, whole;
/// no hint is 0) above bit 40, bit 39 set for an activity, its row id below. Matches come in
/// rowid order, so the best-hinted come first and a search can stop after enough of them.
///
/// Row ids stay below 2^39 (SQLite gives the next id after the largest, from 1): 549 billion.
enum SearchRowID {
    static let activityBit: Int64 = 1 << 39
    static let idMask: Int64 = activityBit - 1

    /// The SQL expression of the rowid of `row` (`new`, `old` or the table's name) in `table`.
    static func sql(table: String, row: String) -> String {
        let bucket = "((100 - CAST(coalesce(\(row).ranking_hint, 0) AS INTEGER)) << 40)"
        return table == "item" ? "(\(bucket) | \(row).id)" : "(\(bucket) | \(activityBit) | \(row).id)"
    }

    /// SQL conditions true when the full-text rowid `rowID` is an item's (`isItem`) or an
    /// activity's, and the SQL expression of that row's id.
    static func isItem(_ rowID: String) -> String { "\(rowID) & \(activityBit) = 0" }
    static func isActivity(_ rowID: String) -> String { "\(rowID) & \(activityBit) <> 0" }
    static func id(_ rowID: String) -> String { "(\(rowID) & \(idMask))" }

    /// The SQL expression of the search's key for `rowID`: the item id, or the activity id negated
    /// (the key results are ordered by on equal scores, as before v2).
    static func key(_ rowID: String) -> String {
        "CASE WHEN \(isItem(rowID)) THEN \(id(rowID)) ELSE -\(id(rowID)) END"
    }
}
