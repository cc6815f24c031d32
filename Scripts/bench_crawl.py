#!/usr/bin/env python3
"""Crawl benchmark: SpotCheck vs Scrapy + extruct on one loopback site, in one run.

Builds an N-page site from ../shared/corpora/realpages (page i is realpage i % 130 with links to
five other pages injected before </body>, so every page is reachable from /), serves it with
SpotCheck's embedded server (`spotcheck serve`), then crawls it:
  - SpotCheck: `spotcheck crawl URL --concurrency C` (fetch, extraction incl. RDFa off/on as
    configured, attribute sets, SQLite store, report.json);
  - Scrapy + extruct: a spider following every link, extracting JSON-LD, Microdata and Open
    Graph with extruct, same concurrency, robots.txt obeyed, no delay, no autothrottle.
Both start at /p0.html and follow only /pN.html links (the realpages' own links would lead to
404s on the loopback host).
Prints pages/s for both and SpotCheck's peak RSS (from wait4's rusage), and, in the same run, the
extraction ceiling: `spotcheck extract --jobs 2` over the same pages as files (no fetching, no
checks, no store), the crawl's pages/s as a share of it, and report.json's bytes per page.

  Scripts/bench_crawl.py [--pages 5000] [--concurrency 16] [--skip-scrapy] [--rss-only]
Scrapy is installed into .venv-bench (PyPI) on first use.
"""
import argparse, os, pathlib, re, resource, shutil, signal, subprocess, sys, time

ROOT = pathlib.Path(__file__).resolve().parent.parent
BIN = ROOT / ".build/release/spotcheck"
VENV = ROOT / ".venv-bench"

SPIDER = r'''
import re, extruct, scrapy
PAGE = re.compile(r"^http://127\.0\.0\.1:\d+/p\d+\.html$")
from w3lib.html import get_base_url

class Site(scrapy.Spider):
    name = "site"
    def __init__(self, start, **kw):
        super().__init__(**kw)
        self.start_urls = [start]  # /p0.html; only /pN.html links are followed (as SpotCheck's --include)
        self.allowed_domains = ["127.0.0.1"]
    def parse(self, response):
        if b"html" not in response.headers.get("Content-Type", b""):
            return
        data = extruct.extract(response.text, base_url=get_base_url(response.text, response.url),
                               syntaxes=["json-ld", "microdata", "opengraph"], uniform=False, errors="ignore")
        yield {"url": response.url, "n": sum(len(v) for v in data.values())}
        for href in response.css("a::attr(href)").getall():
            if PAGE.search(response.urljoin(href)):
                yield response.follow(href, self.parse)
'''


def build_site(folder: pathlib.Path, pages: int, corpus: pathlib.Path) -> int:
    marker = folder / f".built-{pages}"
    if marker.exists():
        return pages
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    sources = sorted(corpus.glob("*.html"))
    blobs = [p.read_bytes() for p in sources]
    for i in range(pages):
        targets = sorted({(i + 1) % pages, (i * 7 + 3) % pages, (i * 13 + 5) % pages, (i * 31 + 7) % pages, (i // 2)})
        links = "".join(f'<a href="/p{t}.html">page {t}</a> ' for t in targets)
        blob = blobs[i % len(blobs)]
        inject = f'<div class="bench-links">{links}</div>'.encode()
        at = blob.lower().rfind(b"</body>")
        page = blob[:at] + inject + blob[at:] if at >= 0 else blob + inject
        (folder / f"p{i}.html").write_bytes(page)
    (folder / "index.html").write_text('<!doctype html><title>bench</title><a href="/p0.html">start</a>')
    (folder / "robots.txt").write_text("User-agent: *\nAllow: /\n")
    marker.write_text("ok")
    return pages


def serve(folder: pathlib.Path, port: int) -> subprocess.Popen:
    server = subprocess.Popen([str(BIN), "serve", str(folder), "--port", str(port)], stdout=subprocess.DEVNULL)
    for _ in range(100):
        try:
            import urllib.request
            urllib.request.urlopen(f"http://127.0.0.1:{port}/robots.txt", timeout=1).read()
            return server
        except Exception:
            time.sleep(0.1)
    server.kill()
    sys.exit("the benchmark server did not start")


def run_measured(argv, **kw):
    """Runs a command; returns (seconds, peak RSS in MiB, stdout, CPU seconds)."""
    start = time.monotonic()
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, **kw)
    output = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.monotonic() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.stdout.write(output.decode(errors="replace"))
        sys.exit(f"{argv[0]} failed")
    run_measured.cpu = usage.ru_utime + usage.ru_stime
    return seconds, usage.ru_maxrss / 1024, output.decode(errors="replace")


def crawl_spotcheck(port, concurrency, pages, out: pathlib.Path, extra=()):
    if out.exists():
        shutil.rmtree(out)
    seconds, rss, output = run_measured(
        [str(BIN), "crawl", f"http://127.0.0.1:{port}/p0.html", "--concurrency", str(concurrency),
         "--include", f"http://127.0.0.1:{port}/p*.html", "--exclude", f"http://127.0.0.1:{port}/*/*", "--max-pages", str(pages + 10), "--depth", "100000",
         "--no-sitemaps", "--output", str(out), *extra])
    crawled = int(re.search(r"crawled (\d+) pages", output).group(1))
    return crawled, seconds, rss


def extraction_ceiling(site: pathlib.Path, jobs: int = 2):
    """`spotcheck extract --jobs N` over the site's pages as one process: (pages, seconds)."""
    files = sorted(str(p) for p in site.glob("p*.html"))
    start = time.monotonic()
    result = subprocess.run([str(BIN), "extract", "--jobs", str(jobs), *files], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    seconds = time.monotonic() - start
    if result.returncode != 0:
        sys.exit(f"extract failed ({result.returncode}): {result.stderr[-2000:]!r}")
    return len(files), seconds


def crawl_scrapy(port, concurrency, out: pathlib.Path):
    python = VENV / "bin/python"
    if not (VENV / "bin/scrapy").exists():
        if not (VENV / "bin/pip").exists():
            subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
        subprocess.run([str(VENV / "bin/pip"), "install", "-q", "scrapy", "extruct"], check=True)
    spider = out / "spider.py"
    out.mkdir(parents=True, exist_ok=True)
    spider.write_text(SPIDER)
    items = out / "items.jsonl"
    if items.exists():
        items.unlink()
    seconds, rss, _ = run_measured(
        [str(VENV / "bin/scrapy"), "runspider", str(spider), "-a", f"start=http://127.0.0.1:{port}/p0.html",
         "-O", str(items), "-s", f"CONCURRENT_REQUESTS={concurrency}",
         "-s", f"CONCURRENT_REQUESTS_PER_DOMAIN={concurrency}", "-s", "DOWNLOAD_DELAY=0",
         "-s", "AUTOTHROTTLE_ENABLED=False", "-s", "ROBOTSTXT_OBEY=True", "-s", "LOG_LEVEL=WARNING",
         "-s", "DEPTH_LIMIT=0", "-s", "TELNETCONSOLE_ENABLED=False"], cwd=out)
    crawled = sum(1 for _ in items.open())
    return crawled, seconds, rss


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pages", type=int, default=5000)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--port", type=int, default=8731)
    parser.add_argument("--skip-scrapy", action="store_true")
    parser.add_argument("--rss-pages", type=int, nargs="*", default=[], help="also crawl sites of these sizes for peak RSS")
    parser.add_argument("--corpus", default=str(ROOT.parent / "shared/corpora/realpages"))
    args = parser.parse_args()
    if not BIN.exists():
        subprocess.run(["swift", "build", "-c", "release"], cwd=ROOT, check=True)
    work = ROOT / "bench/out"
    sizes = [args.pages] + [n for n in args.rss_pages if n != args.pages]
    for n in sizes:
        site = work / f"site-{n}"
        build_site(site, n, pathlib.Path(args.corpus))
        mb = sum(f.stat().st_size for f in site.glob("p*.html")) / 1e6
        server = serve(site, args.port)
        try:
            crawled, seconds, rss = crawl_spotcheck(args.port, args.concurrency, n, work / f"spotcheck-{n}")
            report = work / f"spotcheck-{n}" / "report.json"
            per_page = report.stat().st_size / max(crawled, 1) / 1000
            print(f"spotcheck site={n} pages, {mb:.0f} MB: crawled={crawled} seconds={seconds:.2f} "
                  f"pages/s={crawled / seconds:.1f} cpu_seconds={run_measured.cpu:.1f} peak_rss_MiB={rss:.0f} "
                  f"report_json_KB_per_page={per_page:.1f}", flush=True)
            if n == args.pages:
                e_pages, e_seconds = extraction_ceiling(site)
                print(f"extract --jobs 2 (the ceiling) site={n} pages: seconds={e_seconds:.2f} "
                      f"pages/s={e_pages / e_seconds:.1f}; crawl/ceiling={(crawled / seconds) / (e_pages / e_seconds):.0%}",
                      flush=True)
            if n == args.pages and not args.skip_scrapy:
                s_crawled, s_seconds, s_rss = crawl_scrapy(args.port, args.concurrency, work / f"scrapy-{n}")
                print(f"scrapy+extruct site={n} pages: crawled={s_crawled} seconds={s_seconds:.2f} "
                      f"pages/s={s_crawled / s_seconds:.1f} cpu_seconds={run_measured.cpu:.1f} peak_rss_MiB={s_rss:.0f}", flush=True)
                print(f"ratio spotcheck/scrapy pages/s: {(crawled / seconds) / (s_crawled / s_seconds):.1f}x")
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=10)


if __name__ == "__main__":
    main()
