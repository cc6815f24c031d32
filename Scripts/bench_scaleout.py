#!/usr/bin/env python3
"""Scale-out benchmark (issue 12): a crawl shared through PostgreSQL by 1, 2 and 3 processes,
beside the single-process SQLite crawl, in one run; and the host lease's round trip.

The site: the crawl benchmark's pages (Scripts/bench_crawl.py builds them from
../shared/corpora/realpages), HOSTS copies of a PAGES/HOSTS-page site, each served by its own
`spotcheck serve` on its own port of 127.0.0.1: HOSTS hosts as the crawler schedules and leases
them (host:port), PAGES pages in all. Every crawl starts from the HOSTS seeds with the same
options (--concurrency, --per-host, no sitemaps).
  - SQLite: `spotcheck crawl SEEDS…` alone.
  - PostgreSQL, N processes: `spotcheck crawl SEEDS… --store URL` and N-1 `spotcheck worker`
    processes joining it; pages/s is the pages of the report over the crawl process's wall time. (The realpages' own
    links to /p….html paths, /privacy.html say, add 404 pages: every crawl stops at --max-pages,
    PAGES + 10.)
  - Lease round trip: pgbench runs the lease-and-release transaction the store runs (take a free
    host's row FOR UPDATE SKIP LOCKED, set the lease, give it back with its next allowed time)
    on 1,000 hosts with 1, 8 and 32 clients for 10 s each; transactions per second.
The server's time per page (planning and execution, pg_stat_statements) is printed with each
PostgreSQL crawl. The PostgreSQL server is a throwaway cluster (Scripts/postgres-cluster.sh: fsync, full-page
writes and synchronous commit off, as a test server; SQLite runs with WAL and synchronous=NORMAL).

  Scripts/bench_scaleout.py [--pages 5000] [--hosts 4] [--concurrency 8] [--per-host 4]
"""
import argparse, os, pathlib, re, subprocess, sys, tempfile, time

ROOT = pathlib.Path(__file__).resolve().parent.parent
BIN = ROOT / ".build/release/spotcheck"
sys.path.insert(0, str(ROOT / "Scripts"))
from bench_crawl import build_site, serve  # noqa: E402

PGBENCH = "/usr/lib/postgresql/15/bin/pgbench"
LEASE_SCRIPT = r"""
\set host random(1, 1000)
BEGIN;
SELECT lease_owner FROM crawl_host WHERE crawl_id = :crawl AND host = 'h' || :host FOR UPDATE SKIP LOCKED;
UPDATE crawl_host SET lease_owner = 'bench-' || :client_id, lease_until = extract(epoch from now()) + 30
    WHERE crawl_id = :crawl AND host = 'h' || :host;
UPDATE crawl_host SET lease_owner = NULL, lease_until = 0, next_allowed = extract(epoch from now()) + 1
    WHERE crawl_id = :crawl AND host = 'h' || :host AND lease_owner = 'bench-' || :client_id;
COMMIT;
"""


def psql(url, sql):
    return subprocess.run(["psql", url, "-At", "-c", sql], check=True, capture_output=True, text=True).stdout.strip()


def timed_crawl(argv_crawl, worker_argvs=()):
    """Runs the crawl (and workers once it registered); returns (seconds, crawl output)."""
    start = time.monotonic()
    crawl = subprocess.Popen(argv_crawl, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    workers = []
    lines = []
    if worker_argvs:
        for line in crawl.stdout:
            lines.append(line)
            found = re.search(r"crawl (\d+) registered", line)
            if found:
                workers = [subprocess.Popen([*argv, "--crawl", found.group(1)], stdout=subprocess.DEVNULL,
                                            stderr=subprocess.DEVNULL) for argv in worker_argvs]
                break
    lines.append(crawl.stdout.read())
    status = crawl.wait()
    seconds = time.monotonic() - start
    for worker in workers:
        if worker.wait() != 0:
            sys.exit("a worker failed")
    if status != 0:
        sys.exit("the crawl failed:\n" + "".join(lines))
    return seconds, "".join(lines)


def start_cluster():
    """A throwaway cluster with pg_stat_statements (in Debian's postgresql-15): (folder, URL)."""
    cluster = pathlib.Path(tempfile.mkdtemp(prefix="spotcheck-bench-postgres."))
    url = subprocess.run([str(ROOT / "Scripts/postgres-cluster.sh"), "start", str(cluster)], check=True,
                         capture_output=True, text=True).stdout.strip()
    with open(cluster / "data/postgresql.conf", "a") as conf:
        conf.write("shared_preload_libraries = 'pg_stat_statements'\npg_stat_statements.track_planning = on\n")
    subprocess.run([str(ROOT / "Scripts/postgres-cluster.sh"), "restart", str(cluster)], check=True)
    psql(url, "CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
    return cluster, url


def print_statements(url, pages, count):
    """The statements with the most server time: calls per page, planning and execution µs per page."""
    rows = psql(url, f"""
        SELECT calls, total_plan_time, total_exec_time, regexp_replace(left(query, 90), '\\s+', ' ', 'g')
        FROM pg_stat_statements ORDER BY total_plan_time + total_exec_time DESC LIMIT {count}""")
    print("    calls/page  plan µs/page  exec µs/page  statement")
    for row in rows.splitlines():
        calls, plan, execution, query = row.split("|", 3)
        print(f"    {int(calls) / pages:10.2f}  {float(plan) * 1000 / pages:12.1f}  {float(execution) * 1000 / pages:12.1f}  {query}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pages", type=int, default=5000)
    parser.add_argument("--hosts", type=int, default=4)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--per-host", type=int, default=4)
    parser.add_argument("--corpus", default=str(ROOT.parent / "shared/corpora/realpages"))
    parser.add_argument("--skip-pgbench", action="store_true")
    parser.add_argument("--binary", default=str(BIN), help="the spotcheck to run (default: the release build)")
    parser.add_argument("--processes", default="1,2,3", help="the PostgreSQL crawls to run (comma-separated counts)")
    parser.add_argument("--statements", type=int, default=0,
                        help="after each PostgreSQL crawl, print its N statements with the most server time")
    args = parser.parse_args()
    binary = args.binary
    per_site = args.pages // args.hosts
    site = ROOT / f".build/bench-scaleout-site-{per_site}"
    build_site(site, per_site, pathlib.Path(args.corpus))
    servers, seeds = [], []
    for index in range(args.hosts):
        port = 8741 + index
        servers.append(serve(site, port))
        seeds.append(f"http://127.0.0.1:{port}/p0.html")
    cluster, url = start_cluster()
    try:
        common = [*seeds, "--no-sitemaps", "--concurrency", str(args.concurrency), "--per-host", str(args.per_host),
                  "--include", "http://127.0.0.1:*/p*.html", "--max-pages", str(args.pages + 10), "--depth", "100000",
                  "--quiet"]
        print(f"site: {args.hosts} hosts x {per_site} pages = {per_site * args.hosts} pages; "
              f"--concurrency {args.concurrency} --per-host {args.per_host}; {os.cpu_count()} cores")
        with tempfile.TemporaryDirectory() as out:
            seconds, output = timed_crawl([binary, "crawl", *common, "--output", f"{out}/sqlite"])
            crawled = int(re.search(r"on \d+ of (\d+) pages", output).group(1))
            print(f"SQLite, 1 process:      {seconds:6.2f} s  {crawled / seconds:7.1f} pages/s  ({crawled} pages)")
            for processes in (int(count) for count in args.processes.split(",")):
                worker = [binary, "worker", "--store", url, "--quiet"]
                psql(url, "SELECT pg_stat_statements_reset()")
                seconds, output = timed_crawl(
                    [binary, "crawl", *common, "--store", url, "--output", f"{out}/pg{processes}"],
                    [worker] * (processes - 1))
                crawled = int(re.search(r"on \d+ of (\d+) pages", output).group(1))
                server_ms = float(psql(url, "SELECT sum(total_exec_time + total_plan_time) FROM pg_stat_statements"))
                print(f"PostgreSQL, {processes} process{'es' if processes > 1 else '  '}: {seconds:6.2f} s  "
                      f"{crawled / seconds:7.1f} pages/s  ({crawled} pages; server {server_ms / crawled:.2f} ms per page)")
                if args.statements:
                    print_statements(url, crawled, args.statements)
        if not args.skip_pgbench:
            crawl = psql(url, "INSERT INTO crawl (seed, settings_json, started_at) VALUES ('bench', '{}', 0) RETURNING id").splitlines()[0]
            psql(url, f"INSERT INTO crawl_host (crawl_id, host) SELECT {crawl}, 'h' || i FROM generate_series(1, 1000) i")
            script = cluster / "lease.sql"
            script.write_text(LEASE_SCRIPT)
            for clients in (1, 8, 32):
                result = subprocess.run(
                    [PGBENCH, "-n", "-f", str(script), "-c", str(clients), "-j", str(min(clients, 2)), "-T", "10",
                     "-D", f"crawl={crawl}", url], capture_output=True, text=True, check=True).stdout
                tps = float(re.search(r"tps = ([\d.]+)", result).group(1))
                print(f"lease and release, {clients:2d} clients: {tps:9.0f} per second")
    finally:
        for server in servers:
            server.kill()
        subprocess.run([str(ROOT / "Scripts/postgres-cluster.sh"), "stop", str(cluster)])


if __name__ == "__main__":
    main()
