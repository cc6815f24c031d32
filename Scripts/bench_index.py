#!/usr/bin/env python3
"""Local-index benchmark: import N generated items, run Q searches, report the figures, for the
SQLite index and (with --postgres) the PostgreSQL one in the same run, on the same items and queries.

Generates N searchable items as JSON Lines (titles, descriptions and keywords drawn from a
Zipf-distributed vocabulary of 20,000 made-up words; domains with sub-domains; rankingHint,
content type and expiration on some), then:
  - `spotcheck index import FILE --index DB` (one transaction): items per second;
  - Q searches (1-3 words, the last one cut to a prefix half of the time, a domain filter on one in
    ten) run in one process through IndexQueryTimer (Benchmarks/IndexQueryTimer, built beside the binary; not shipped in it): p50, p99
    and max latency per search, in-process (the index opened once);
  - the same queries' first 50 through separate `spotcheck index search` processes, each run 3
    times back to back and counted with its median: end-to-end CLI latency (process start and index
    open included);
  - the index file size (database + WAL), and items per MB;
  - the same file imported again over the index (how an app re-indexes): its time, and the size
    after it;
  - the floor: SQLite and FTS5 alone storing the same rows and building the same full-text index
    (Scripts/index_floor.py), printed beside the import and size targets;
  - per query class, p50 and p99 in-process: the last word cut to 1, 2 and 3 letters (type-ahead),
    and whole words (no prefix), --class-searches queries each (default 200).
With --postgres URL (or `auto`: a throwaway cluster from Scripts/postgres-cluster.sh, stopped at the
end) the same import and queries run against a PostgreSQL index (`--index URL`) too, in a schema
of its own, and the figures are printed side by side.

  Scripts/bench_index.py [--items 1000000] [--searches 1000] [--binary .build/release/spotcheck]
                         [--postgres URL|auto] [--keep DIR]
The default binary is the release build (`make release`); a debug binary works but is slow.
"""
import argparse, json, os, pathlib, random, shutil, statistics, subprocess, sys, tempfile, time

import index_floor

ROOT = pathlib.Path(__file__).resolve().parent.parent
CLI_ROUNDS = 3
SYLLABLES = ["ka", "lo", "mi", "ra", "tu", "ne", "so", "vi", "da", "pe", "zu", "ho", "gri", "bal", "lin",
             "mar", "tor", "shi", "qua", "fen", "dor", "el", "an", "or", "us", "is", "ber", "cal"]
DOMAINS = ["movies", "movies.pixar", "movies.ghibli", "people", "people.family", "people.colleagues",
           "places", "places.sf", "places.sf.office", "docs", "docs.handbook", "music"]
TYPES = ["public.movie", "public.contact", "public.html", "public.audio", "public.text"]


def vocabulary(count, rng):
    words = set()
    while len(words) < count:
        words.add("".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4))))
    return sorted(words)


def zipf_picker(words, rng):
    weights = [1.0 / (rank + 1) for rank in range(len(words))]
    cumulative, total = [], 0.0
    for weight in weights:
        total += weight
        cumulative.append(total)
    def pick(k):
        return rng.choices(words, cum_weights=cumulative, k=k)
    return pick


def generate(path, count, rng, pick):
    with open(path, "w", encoding="utf-8") as out:
        for number in range(count):
            attributes = {
                "title": " ".join(pick(rng.randint(2, 4))).title(),
                "contentDescription": " ".join(pick(rng.randint(10, 20))).capitalize() + ".",
                "keywords": pick(3),
                "contentType": rng.choice(TYPES),
                "contentURL": f"https://www.example.com/items/{number}.html",
            }
            if number % 3 == 0:
                attributes["rankingHint"] = rng.randint(0, 100)
            record = {"uniqueIdentifier": f"item-{number}", "domainIdentifier": rng.choice(DOMAINS),
                      "attributeSet": attributes}
            if number % 2 == 0:
                record["expirationDate"] = f"2030-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}T00:00:00Z"
            out.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")


def queries(count, rng, pick):
    lines = []
    for _ in range(count):
        words = pick(rng.randint(1, 3))
        if rng.random() < 0.5:
            words[-1] = words[-1][: max(2, len(words[-1]) // 2)]
        line = " ".join(words)
        if rng.random() < 0.1:
            line += "\t" + rng.choice(["movies", "people", "places.sf"])
        lines.append(line)
    return lines


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def class_queries(count, rng, pick, letters):
    """One word cut to its first `letters` letters (type-ahead), or whole (0) and matched whole."""
    lines = []
    for _ in range(count):
        words = pick(1)
        if letters:
            words[-1] = words[-1][:letters]
            lines.append(" ".join(words))
        else:
            lines.append(" ".join(words) + "\t\twhole")
    return lines


def timed_searches(timer, location, lines, work, name):
    path = work / f"{name}.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = subprocess.run([timer, location, str(path), "20"], capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"search failed ({result.returncode}): {result.stderr[-2000:]}")
    timings = [json.loads(line) for line in result.stdout.splitlines()]
    return [timing["seconds"] * 1000 for timing in timings], sum(1 for t in timings if t["results"] > 0)


def timed_import(label, what, args, items_path, location):
    """Runs `spotcheck index import` of the items into `location`; returns its seconds."""
    started = time.perf_counter()
    result = subprocess.run([args.binary, "index", "import", str(items_path), "--index", location],
                            capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if result.returncode != 0:
        sys.exit(f"{label}: {what} failed ({result.returncode}): {result.stderr[-2000:]}")
    return seconds


def bench(label, location, size_of, args, items_path, lines, classes, work):
    """Imports the items into `location`, then times the searches; returns the figures."""
    figures = {"label": label}
    import_seconds = timed_import(label, "import", args, items_path, location)
    figures["import"] = args.items / import_seconds
    print(f"{label} import: {import_seconds:.1f} s, {args.items / import_seconds:,.0f} items/s", flush=True)

    timer = str(pathlib.Path(args.binary).parent / "IndexQueryTimer")
    seconds, hits = timed_searches(timer, location, lines, work, "queries")
    figures["mixed"] = (percentile(seconds, 0.5), percentile(seconds, 0.99))
    print(f"{label} search ({len(seconds)} queries, in-process, limit 20; {hits} with results): "
          f"p50 {percentile(seconds, 0.5):.2f} ms, p99 {percentile(seconds, 0.99):.2f} ms, max {max(seconds):.2f} ms, "
          f"mean {statistics.mean(seconds):.2f} ms", flush=True)
    for name, class_lines in classes:
        seconds, hits = timed_searches(timer, location, class_lines, work, name.replace(" ", "-"))
        figures[name] = (percentile(seconds, 0.5), percentile(seconds, 0.99))
        print(f"{label} {name} ({len(seconds)} queries; {hits} with results): "
              f"p50 {percentile(seconds, 0.5):.2f} ms, p99 {percentile(seconds, 0.99):.2f} ms", flush=True)

    # Each of the 50 searches runs as a process CLI_ROUNDS times back to back and counts with its
    # median: on a shared VM one process in fifty may wait 100-400 ms for the CPU, and the p99 of
    # fifty single runs is their slowest one.
    cli, single = [], []
    for line in lines[:50]:
        query, *domain = line.split("\t")
        command = [args.binary, "index", "search", query, "--index", location, "--format", "json"]
        if domain:
            command += ["--domain", domain[0]]
        rounds = []
        for _ in range(CLI_ROUNDS):
            started = time.perf_counter()
            subprocess.run(command, capture_output=True, check=True)
            rounds.append((time.perf_counter() - started) * 1000)
        cli.append(statistics.median(rounds))
        single += rounds
    figures["cli"] = (percentile(cli, 0.5), percentile(cli, 0.99))
    print(f"{label} search through the CLI ({len(cli)} searches, each the median of {CLI_ROUNDS} processes): "
          f"p50 {percentile(cli, 0.5):.1f} ms, p99 {percentile(cli, 0.99):.1f} ms "
          f"(single processes: p99 {percentile(single, 0.99):.1f} ms, max {max(single):.1f} ms)")
    size = size_of()
    figures["bytes"] = size / args.items
    print(f"{label} index size: {size / 1e6:.1f} MB ({size / args.items:.0f} bytes per item)", flush=True)

    # An app re-indexes mostly unchanged items: the same file imported again over the index.
    again_seconds = timed_import(label, "import again", args, items_path, location)
    size = size_of()
    print(f"{label} import again (the same items over the index): {again_seconds:.1f} s, "
          f"{args.items / again_seconds:,.0f} items/s; index size then {size / 1e6:.1f} MB "
          f"({size / args.items:.0f} bytes per item)", flush=True)
    return figures


def psql_value(url, sql):
    return subprocess.run(["psql", "-XAtq", url, "-c", sql], check=True, capture_output=True,
                          text=True).stdout.strip()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--items", type=int, default=1_000_000)
    parser.add_argument("--searches", type=int, default=1000)
    parser.add_argument("--binary", default=str(ROOT / ".build/release/spotcheck"))
    parser.add_argument("--keep", help="work in this folder and keep it (default: a temporary one, removed)")
    parser.add_argument("--class-searches", type=int, default=200, help="queries per prefix/whole-word class")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--postgres", help="also a PostgreSQL index: a postgres:// URL, or auto (a throwaway cluster)")
    args = parser.parse_args()
    if not os.access(args.binary, os.X_OK):
        sys.exit(f"{args.binary}: not built (make release)")

    work = pathlib.Path(args.keep or tempfile.mkdtemp(prefix="spotcheck-bench-index-"))
    work.mkdir(parents=True, exist_ok=True)
    rng = random.Random(args.seed)
    words = vocabulary(20_000, rng)
    pick = zipf_picker(words, rng)
    items_path, db_path = work / "items.jsonl", work / "bench.sqlite"
    for suffix in ("", "-wal", "-shm"):
        pathlib.Path(str(db_path) + suffix).unlink(missing_ok=True)

    started = time.perf_counter()
    generate(items_path, args.items, rng, pick)
    print(f"generated {args.items:,} items ({items_path.stat().st_size / 1e6:.1f} MB JSON Lines) "
          f"in {time.perf_counter() - started:.1f} s")

    lines = queries(args.searches, rng, pick)
    classes = [(f"{letters}-letter prefix", class_queries(args.class_searches, rng, pick, letters)) for letters in (1, 2, 3)]
    classes.append(("whole words", class_queries(args.class_searches, rng, pick, 0)))

    def sqlite_size():
        return sum(pathlib.Path(str(db_path) + suffix).stat().st_size
                   for suffix in ("", "-wal", "-shm") if pathlib.Path(str(db_path) + suffix).exists())

    results = [bench("SQLite", str(db_path), sqlite_size, args, items_path, lines, classes, work)]
    # What SQLite and FTS5 alone take for the same rows and full-text index (Scripts/index_floor.py).
    results[0]["floor"] = index_floor.measure(db_path, report=lambda line: print(f"SQLite floor: {line}", flush=True))

    cluster = None
    if args.postgres:
        url = args.postgres
        if url == "auto":
            cluster = pathlib.Path(tempfile.mkdtemp(prefix="spotcheck-bench-index-postgres."))
            url = subprocess.run([str(ROOT / "Scripts/postgres-cluster.sh"), "start", str(cluster)], check=True,
                                 capture_output=True, text=True).stdout.strip()
        schema = f"bench_index_{os.getpid()}"
        location = url + ("&" if "?" in url else "?") + f"options=-csearch_path%3D{schema}"

        def postgres_size():
            return int(psql_value(url, f"SELECT pg_total_relation_size('{schema}.item') + "
                                       f"pg_total_relation_size('{schema}.activity')"))
        try:
            results.append(bench("PostgreSQL", location, postgres_size, args, items_path, lines, classes, work))
            psql_value(url, f"DROP SCHEMA {schema} CASCADE")
        finally:
            if cluster:
                subprocess.run([str(ROOT / "Scripts/postgres-cluster.sh"), "stop", str(cluster)])
                shutil.rmtree(cluster, ignore_errors=True)

    print(f"\nat {args.items:,} items (in-process search, limit 20; p50 / p99 ms)")
    names = ["mixed"] + [name for name, _ in classes]
    print(f"{'':12} {'import items/s':>15} " + " ".join(f"{name:>20}" for name in names) + f" {'bytes/item':>11}")
    for figures in results:
        cells = " ".join(f"{figures[name][0]:>9.2f} / {figures[name][1]:>8.2f}" for name in names)
        print(f"{figures['label']:12} {figures['import']:>15,.0f} {cells} {figures['bytes']:>11.0f}")
    print_targets(results[0], [name for name, _ in classes])
    if not args.keep:
        shutil.rmtree(work)


def print_targets(figures, classes):
    """Issue 16's targets for the local (SQLite) index, one PASS/FAIL line each, then overall."""
    checks = []
    for name in classes:
        p50, p99 = figures[name]
        checks.append((f"{name}: p99 {p99:.1f} ms <= 50 ms", p99 <= 50))
        checks.append((f"{name}: p50 {p50:.1f} ms <= 5 ms", p50 <= 5))
    floor = figures["floor"]
    checks.append((f"import {figures['import']:,.0f} items/s >= 50,000 (SQLite and FTS5 alone, the floor: "
                   f"{floor['items_per_second']:,.0f})", figures["import"] >= 50_000))
    checks.append((f"{figures['bytes']:.0f} bytes per item <= 500 (the full-text data alone: "
                   f"{index_floor.describe_bytes(floor['text_bytes_per_item'])})", figures["bytes"] <= 500))
    checks.append((f"spotcheck index search process p99 {figures['cli'][1]:.1f} ms <= 100 ms",
                   figures["cli"][1] <= 100))
    print(f"\ntargets ({figures['label']}, issue 16):")
    for text, passed in checks:
        print(f"  {'PASS' if passed else 'FAIL'}  {text}")
    failed = sum(1 for _, passed in checks if not passed)
    print(f"{'PASS' if failed == 0 else 'FAIL'}: {len(checks) - failed} of {len(checks)} targets met")


if __name__ == "__main__":
    main()
