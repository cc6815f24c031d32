#!/usr/bin/env python3
"""The frontier benchmark (issue 32 §3): what one PostgreSQL database sustains as the shared
frontier, for 1, 2, 4, 8, 16 and 32 simulated workers.

Each run is one `FrontierBench` process (Benchmarks/FrontierBench, built beside the release binary;
not shipped in it): WORKERS crawl loops with the real frontier and PostgreSQL store, each on its
own connection, crawl a made-up site of PAGES pages on HOSTS hosts served from memory (a few
hundred bytes of HTML a page, so fetching and analysis cost next to nothing and the database is
what is measured). For each count it prints pages/s, the database server's time per page
(pg_stat_statements: planning and execution, summed over every statement) and the benchmark
process's own CPU per page; then the statements with the most server time at the largest count.
The server is a throwaway cluster on this machine (Scripts/postgres-cluster.sh: fsync and
synchronous commit off), sharing its cores with the benchmark.

  Scripts/bench_frontier.py [--pages 20000] [--hosts 64] [--workers 1,2,4,8,16,32]
"""
import argparse, json, os, pathlib, subprocess, sys, tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "Scripts"))
from bench_scaleout import print_statements, psql, start_cluster  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pages", type=int, default=20000)
    parser.add_argument("--hosts", type=int, default=64)
    parser.add_argument("--workers", default="1,2,4,8,16,32")
    parser.add_argument("--bench", default=str(ROOT / ".build/release/FrontierBench"))
    args = parser.parse_args()
    cluster, url = start_cluster()
    try:
        print(f"site: {args.hosts} hosts x {args.pages // args.hosts} pages; {os.cpu_count()} cores "
              "shared by the benchmark and the server")
        print("workers  pages   seconds   pages/s   server ms/page   bench CPU ms/page")
        for workers in (int(count) for count in args.workers.split(",")):
            # Each count in a new database: the same empty tables and statistics every time.
            psql(url, "DROP DATABASE IF EXISTS frontier_bench")
            psql(url, "CREATE DATABASE frontier_bench")
            bench_url = url.rsplit("/", 1)[0] + "/frontier_bench"
            psql(url, "SELECT pg_stat_statements_reset()")
            result = subprocess.run([args.bench, bench_url, str(workers), str(args.pages), str(args.hosts)],
                                    capture_output=True, text=True)
            if result.returncode != 0:
                sys.exit(f"FrontierBench failed with {workers} workers:\n{result.stderr}")
            run = json.loads(result.stdout.strip().splitlines()[-1])
            server_ms = float(psql(url, "SELECT sum(total_exec_time + total_plan_time) FROM pg_stat_statements "
                                        "WHERE dbid = (SELECT oid FROM pg_database WHERE datname = 'frontier_bench')"))
            pages = run["pages"]
            print(f"{workers:7d} {pages:6d} {run['seconds']:9.2f} {run['pagesPerSecond']:9.1f} "
                  f"{server_ms / pages:16.3f} {run['cpuSeconds'] * 1000 / pages:19.3f}", flush=True)
        print_statements(url, pages, 8)
    finally:
        subprocess.run([str(ROOT / "Scripts/postgres-cluster.sh"), "stop", str(cluster)])


if __name__ == "__main__":
    main()
