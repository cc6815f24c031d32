#!/usr/bin/env python3
"""Rendered-crawl benchmark (issue 14): `spotcheck crawl --render` against the same crawl without
it, on the fixture site and on N pages of the benchmark site (bench_crawl.py's site: real pages of
../shared/corpora/realpages, served on loopback). Prints pages/s with and without rendering,
spotcheck's peak RSS (wait4), Chromium's peak memory (the sum of its processes' PSS, sampled every
100 ms from /proc: the crawl's Chromium is found by the crawl's own TMPDIR in its command line),
and whether any Chromium process was left after the crawl.

  Scripts/bench_render.py [--pages 500] [--render-concurrency 4] [--binary .build/release/spotcheck]
Offline, the real pages' third-party scripts and fonts fail at once (no DNS) and their robots.txt
is unreachable, so they count as blocked for Applebot (IX016), as RFC 9309 says an unreachable
robots.txt means.
"""
import argparse, json, os, pathlib, shutil, subprocess, sys, tempfile, threading, time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import bench_crawl  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent


def chromium_rss(marker: str) -> int:
    """KiB of memory over every Chromium process whose command line names `marker`: the sum of
    their proportional set sizes (PSS, /proc/PID/smaps_rollup: a shared page counts once in all),
    which is what the processes together hold; a sum of RSS would count shared pages again in
    each process."""
    total = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            command = open(f"/proc/{entry}/cmdline", "rb").read().replace(b"\0", b" ")
            if b"chrom" not in command or marker.encode() not in command:
                continue
            for line in open(f"/proc/{entry}/smaps_rollup"):
                if line.startswith("Pss:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return total


def crawl(binary, arguments, render: bool, concurrency: int):
    """(pages, seconds, spotcheck peak MiB, Chromium peak MiB, Chromium processes left)."""
    scratch = tempfile.mkdtemp(prefix="spotcheck-bench-render-")
    out = os.path.join(scratch, "out")
    argv = [binary, "crawl", *arguments, "--output", out, "--quiet", "--no-progress", "--format", "json"]
    if render:
        argv += ["--render", "--render-concurrency", str(concurrency)]
    peak = [0]
    done = threading.Event()

    def sample():
        while not done.is_set():
            peak[0] = max(peak[0], chromium_rss(scratch))
            time.sleep(0.1)

    sampler = threading.Thread(target=sample)
    sampler.start()
    start = time.monotonic()
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               env={**os.environ, "TMPDIR": scratch + "/"})
    output = process.stdout.read().decode(errors="replace")
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.monotonic() - start
    done.set()
    sampler.join()
    time.sleep(1)
    left = chromium_rss(scratch) > 0
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        sys.exit(f"crawl failed: {output[-2000:]}")
    report = json.load(open(os.path.join(out, "report.json")))
    pages = sum(1 for page in report["pages"] if page.get("markup"))
    shutil.rmtree(scratch, ignore_errors=True)
    return pages, seconds, usage.ru_maxrss / 1024, peak[0] / 1024, left


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pages", type=int, default=500)
    parser.add_argument("--render-concurrency", type=int, default=4)
    parser.add_argument("--port", type=int, default=8741)
    parser.add_argument("--binary", default=str(ROOT / ".build/release/spotcheck"))
    parser.add_argument("--corpus", default=str(ROOT.parent / "shared/corpora/realpages"))
    args = parser.parse_args()
    bench_crawl.BIN = pathlib.Path(args.binary)
    print(f"| site | pages | without --render | with --render (concurrency {args.render_concurrency}) | "
          "spotcheck peak RSS | Chromium peak (PSS, all processes) | Chromium left |")
    print("|---|---|---|---|---|---|---|")
    fixture = [str(ROOT / "Fixtures/html")]
    runs = [("fixture site", fixture)]
    site = ROOT / ".build/bench-render-site"
    if pathlib.Path(args.corpus).exists():
        bench_crawl.build_site(site, args.pages, pathlib.Path(args.corpus))
        server = bench_crawl.serve(site, args.port)
        base = f"http://127.0.0.1:{args.port}"
        runs.append((f"benchmark site ({args.pages} real pages)",
                     [f"{base}/p0.html", "--include", f"{base}/p*.html", "--max-pages", str(args.pages),
                      "--depth", "100000", "--no-sitemaps", "--concurrency", "16"]))
    else:
        server = None
    try:
        for name, arguments in runs:
            plain = crawl(args.binary, arguments, False, args.render_concurrency)
            rendered = crawl(args.binary, arguments, True, args.render_concurrency)
            print(f"| {name} | {rendered[0]} | {plain[0] / plain[1]:.1f} pages/s ({plain[1]:.1f} s) | "
                  f"{rendered[0] / rendered[1]:.1f} pages/s ({rendered[1]:.1f} s) | {rendered[2]:.0f} MiB "
                  f"(without: {plain[2]:.0f} MiB) | {rendered[3]:.0f} MiB | {'YES' if rendered[4] else 'none'} |",
                  flush=True)
    finally:
        if server:
            server.kill()


if __name__ == "__main__":
    main()
