#!/usr/bin/env python3
"""The floor under `spotcheck index import`: what SQLite and FTS5 alone take to store an index's
rows and build its full-text index, with nothing of SpotCheck's around them.

Takes an index file written by SpotCheck (for example the one `Scripts/bench_index.py --keep DIR`
leaves in DIR/bench.sqlite) and, on a copy in the same folder (removed at the end), times with
the system's SQLite (Python's `sqlite3` module, the library `spotcheck` links too):
  1. rows: the item rows copied into an empty table with the item table's columns and indexes (read
     from the file's schema), in id order, as one `INSERT … SELECT` in one transaction, and its commit;
  2. full text: a contentless FTS5 table with the index's own options (tokenizer, prefix indexes
     1-6, 16 MiB buffer) built from the searched text in full-text rowid order (read beforehand
     into a plain table, so no `json_extract` is timed), in one transaction, and its commit;
then prints the items per second that the two together allow, and the full-text data per item
(`dbstat`; n/a where this SQLite lacks it). `Scripts/bench_index.py` runs it on its SQLite index
and prints it beside the targets. Nothing here parses JSON, runs a trigger or binds a value per
row: it is the work SQLite and FTS5 themselves do for these rows and this full-text index with
these settings (other FTS5 settings move it: `automerge = 0` builds faster and leaves the merging
to every search).

  Scripts/index_floor.py DIR/bench.sqlite
"""

import pathlib, shutil, sqlite3, sys, time

RANK_ROWID = "(((100 - CAST(coalesce(ranking_hint, 0) AS INTEGER)) << 40) | id)"


def describe_bytes(per_item):
    return "n/a" if per_item is None else f"{per_item:.0f}"


def timed(db, statements):
    started = time.perf_counter()
    db.execute("BEGIN")
    for statement in statements:
        db.execute(statement)
    written = time.perf_counter()
    db.execute("COMMIT")
    return written - started, time.perf_counter() - written


def measure(source, report=print):
    """Times the floor on a copy of the index file `source`; returns items/s and the full-text
    bytes per item. `report` gets each line as it is measured."""
    source = pathlib.Path(source)
    copy = source.with_name(source.stem + ".floor.sqlite")
    for suffix in ("", "-wal"):
        if pathlib.Path(str(source) + suffix).exists():
            shutil.copyfile(str(source) + suffix, str(copy) + suffix)
    try:
        db = sqlite3.connect(copy, isolation_level=None)
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = NORMAL")
        db.execute("PRAGMA temp_store = MEMORY")
        items = db.execute("SELECT count(*) FROM item").fetchone()[0]
        report(f"{source}: {items:,} items, SQLite {sqlite3.sqlite_version}")

        # The item table and its indexes as the index's own schema defines them, under other names.
        table = db.execute("SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = 'item'").fetchone()[0]
        db.execute(table.replace("CREATE TABLE item", "CREATE TABLE floor_item", 1))
        for name, sql in db.execute("SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'item' "
                                    "AND sql IS NOT NULL").fetchall():
            db.execute(sql.replace(f"CREATE INDEX {name} ON item", f"CREATE INDEX floor_{name} ON floor_item", 1))
        # The stored columns (generated ones are hidden 2 or 3).
        stored = ", ".join(row[1] for row in db.execute("PRAGMA table_xinfo(item)") if row[6] == 0)
        rows, rows_commit = timed(db, [f"INSERT INTO floor_item ({stored}) SELECT {stored} FROM item ORDER BY id"])
        report(f"rows: {rows:.1f} s, commit {rows_commit:.1f} s")

        db.execute("CREATE TABLE floor_text AS SELECT " + RANK_ROWID + " AS r, coalesce(title, '') AS t, "
                   "coalesce(display_name, '') AS d, coalesce(content_description, '') AS c, keywords_text AS k "
                   "FROM item ORDER BY 1")
        db.execute("CREATE VIRTUAL TABLE floor_search USING fts5 (title, display_name, content_description, "
                   "keywords, content = '', tokenize = 'unicode61 remove_diacritics 2', prefix = '1 2 3 4 5 6')")
        db.execute("INSERT INTO floor_search (floor_search, rank) VALUES ('hashsize', 16777216)")
        text, text_commit = timed(db, [
            "INSERT INTO floor_search (rowid, title, display_name, content_description, keywords) "
            "SELECT r, t, d, c, k FROM floor_text ORDER BY r"])
        report(f"full text: {text:.1f} s, commit {text_commit:.1f} s")
        try:
            data = db.execute("SELECT sum(pgsize) FROM dbstat WHERE name = 'floor_search_data'").fetchone()[0]
        except sqlite3.OperationalError:  # built without SQLITE_ENABLE_DBSTAT_VTAB
            data = None
        db.close()
        total = rows + rows_commit + text + text_commit
        floor = {"items_per_second": items / total, "text_bytes_per_item": data / items if data else None}
        report(f"floor: {total:.1f} s, {floor['items_per_second']:,.0f} items/s; "
               f"the full-text data alone {describe_bytes(floor['text_bytes_per_item'])} bytes per item")
        return floor
    finally:
        for suffix in ("", "-wal", "-shm"):
            pathlib.Path(str(copy) + suffix).unlink(missing_ok=True)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    measure(sys.argv[1])


if __name__ == "__main__":
    main()
