#!/usr/bin/env python3
"""One big site shared by a crawl and a worker (issue 32 §1): does a second process help a crawl of
one host?

The site is the crawl CPU benchmark's (Scripts/bench_crawl_cpu.py: N real pages with injected links,
their own relative links ending in 404s), one host served by nginx. The crawl shares it through a
throwaway PostgreSQL cluster (Scripts/bench_scaleout.py's: fsync off, pg_stat_statements), in one run:
  - alone: `taskset -c 0 spotcheck crawl http://127.0.0.1:PORT/ --store URL`;
  - with a worker: the same crawl on core 0, `taskset -c 1 spotcheck worker --store URL --crawl ID`
    on core 1.
nginx and PostgreSQL are not pinned. Prints each run's wall time, URLs fetched and URLs/s, the
ratio of the two, and the worker's share of the URLs (from its "fetched N pages" line). Targets:
ratio >= 1.5 and a worker share >= 30 %.

  Scripts/bench_one_host.py [--pages 2000] [--concurrency 16] [--port 8741] [--binary PATH]
"""
import argparse, json, pathlib, re, shutil, subprocess, sys, tempfile, time

ROOT = pathlib.Path(__file__).resolve().parent.parent
BIN = ROOT / ".build/release/spotcheck"
sys.path.insert(0, str(ROOT / "Scripts"))
from bench_crawl_cpu import build_site, start_nginx  # noqa: E402
from bench_scaleout import start_cluster  # noqa: E402


def fetched_urls(folder: pathlib.Path) -> int:
    report = json.loads((folder / "report.json").read_text())
    return sum(report["summary"]["byStatus"].values())


def run(crawl_argv, worker_argv=None):
    """The crawl (and, once it registered, the worker): (wall seconds, worker's fetched count)."""
    start = time.monotonic()
    crawl = subprocess.Popen(crawl_argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    worker, said = None, []
    for line in crawl.stdout:
        said.append(line)
        found = re.search(r"crawl (\d+) registered", line)
        if found and worker_argv:
            worker = subprocess.Popen([*worker_argv, "--crawl", found.group(1)], stdout=subprocess.PIPE,
                                      stderr=subprocess.STDOUT, text=True)
            break
    said.append(crawl.stdout.read())
    status = crawl.wait()
    wall = time.monotonic() - start
    worker_fetched = 0
    if worker:
        output = worker.communicate()[0]
        if worker.returncode != 0:
            sys.exit("the worker failed:\n" + output)
        worker_fetched = int(re.search(r"fetched (\d+) pages", output).group(1))
    if status not in (0, 1):
        sys.exit("the crawl failed:\n" + "".join(said))
    return wall, worker_fetched


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pages", type=int, default=2000)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--port", type=int, default=8741)
    parser.add_argument("--corpus", default=str(ROOT.parent / "shared/corpora/realpages"))
    parser.add_argument("--binary", default=str(BIN), help="the spotcheck to run (default: the release build)")
    arguments = parser.parse_args()
    binary = arguments.binary
    if not pathlib.Path(binary).exists():
        sys.exit(f"{binary} is missing: make release")
    work = pathlib.Path(tempfile.mkdtemp(prefix="bench-one-host-"))
    work.chmod(0o755)  # nginx reads the site as its own user when started by root
    site = work / "site"
    build_site(site, arguments.pages, pathlib.Path(arguments.corpus))
    server = start_nginx(work, site, arguments.port)
    cluster, url = start_cluster()
    try:
        common = [f"http://127.0.0.1:{arguments.port}/", "--no-sitemaps", "--concurrency", str(arguments.concurrency),
                  "--max-pages", str(arguments.pages * 20), "--depth", "100000", "--store", url, "--no-progress"]
        alone_wall, _ = run(["taskset", "-c", "0", binary, "crawl", *common, "--output", str(work / "alone")])
        alone = fetched_urls(work / "alone")
        shared_wall, by_worker = run(
            ["taskset", "-c", "0", binary, "crawl", *common, "--output", str(work / "shared")],
            ["taskset", "-c", "1", binary, "worker", "--store", url])
        shared = fetched_urls(work / "shared")
        print(f"site: {arguments.pages} real pages on one host served by nginx; --concurrency {arguments.concurrency}")
        print(f"crawl alone on core 0:          {alone_wall:6.2f} s  {alone} URLs  {alone / alone_wall:7.1f} URLs/s")
        print(f"crawl on core 0 + worker on 1:  {shared_wall:6.2f} s  {shared} URLs  {shared / shared_wall:7.1f} URLs/s")
        print(f"ratio: {(shared / shared_wall) / (alone / alone_wall):.2f} (target >= 1.5); the worker fetched "
              f"{by_worker} of {shared} URLs = {100 * by_worker / max(shared, 1):.0f} % (target >= 30 %)")
    finally:
        server.terminate()
        server.wait()
        subprocess.run([str(ROOT / "Scripts/postgres-cluster.sh"), "stop", str(cluster)])
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
