#!/usr/bin/env python3
"""The crawl's CPU per page against extraction alone, on a copy of a real site served by nginx
(issue 30, DESIGN.md's crawl target: at most 1.5x the CPU per fetched page of `extract --jobs 1`).

Builds an N-page site from ../shared/corpora/realpages (page i is realpage i % 130 with links to
five other pages injected before </body>; the pages keep their own relative links, which end in
404s as in any copy of a real site), serves it with nginx (Debian's package, installed by
Scripts/install-deps.sh when missing; a server that is not SpotCheck's, so its CPU is not counted),
then in one run:
  - `spotcheck crawl http://127.0.0.1:PORT/` (every link followed, no page budget in the way);
  - `spotcheck extract --jobs 1` over the same N files.
Prints each one's CPU (user + sys of the whole process, from wait4), the crawl's CPU ms per fetched
HTML page (HTTP 200 text/html) against extract's per page, their ratio, the cores the crawl kept
busy (CPU / wall), its peak RSS and report.json's bytes per page. Then, to show what the 404s
cost, the crawl again with `--include http://127.0.0.1:PORT/p*` (the site's own pages and the few
404s named like them) and a crawl of a page that links N URLs nginx does not have (`--missing N`,
CPU per URL).

  Scripts/bench_crawl_cpu.py [--pages 2000] [--concurrency 16] [--port 8741] [--missing 6000]
"""
import argparse, json, os, pathlib, shutil, subprocess, sys, tempfile, time

ROOT = pathlib.Path(__file__).resolve().parent.parent
BIN = ROOT / ".build/release/spotcheck"
NGINX_CONF = """
worker_processes 1;
daemon off;
master_process off;
error_log {dir}/error.log warn;
pid {dir}/nginx.pid;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    types {{ text/html html; text/plain txt; }}
    default_type application/octet-stream;
    client_body_temp_path {dir}/body;
    proxy_temp_path {dir}/proxy;
    fastcgi_temp_path {dir}/fastcgi;
    uwsgi_temp_path {dir}/uwsgi;
    scgi_temp_path {dir}/scgi;
    server {{
        listen 127.0.0.1:{port};
        root {site};
        index index.html;
    }}
}}
"""


def build_site(folder: pathlib.Path, pages: int, corpus: pathlib.Path):
    folder.mkdir(parents=True)
    blobs = [p.read_bytes() for p in sorted(corpus.glob("*.html"))]
    for i in range(pages):
        targets = sorted({(i + 1) % pages, (i * 7 + 3) % pages, (i * 13 + 5) % pages, (i * 31 + 7) % pages, i // 2})
        links = "".join(f'<a href="/p{t}.html">page {t}</a> ' for t in targets).encode()
        blob = blobs[i % len(blobs)]
        at = blob.lower().rfind(b"</body>")
        page = blob[:at] + links + blob[at:] if at >= 0 else blob + links
        (folder / f"p{i}.html").write_bytes(page)
    (folder / "index.html").write_text('<!doctype html><title>bench</title><a href="/p0.html">start</a>')
    (folder / "robots.txt").write_text("User-agent: *\nAllow: /\n")


def start_nginx(work: pathlib.Path, site: pathlib.Path, port: int) -> subprocess.Popen:
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    if not os.path.exists(nginx):
        subprocess.run([str(ROOT / "Scripts/install-deps.sh"), "nginx"], check=True)
    conf = work / "nginx.conf"
    conf.write_text(NGINX_CONF.format(dir=work, port=port, site=site))
    # One process (master_process off), so stopping it stops the server whole.
    server = subprocess.Popen(
        [nginx, "-c", str(conf), "-p", str(work)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    import urllib.request
    for _ in range(100):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/robots.txt", timeout=1).read()
            return server
        except Exception:
            time.sleep(0.1)
    server.kill()
    sys.exit("nginx did not start")


def measured(argv):
    """Runs a command to its end: (wall seconds, CPU seconds, peak RSS MiB)."""
    start = time.monotonic()
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.monotonic() - start
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):  # 1: findings at --fail-on, not a failure here
        sys.exit(f"{argv[1]} exited {code}: {process.stderr.read()[-2000:]!r}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pages", type=int, default=2000)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--port", type=int, default=8741)
    parser.add_argument("--corpus", default=str(ROOT.parent / "shared/corpora/realpages"))
    parser.add_argument("--missing", type=int, default=6000, help="URLs of the all-404 site (0: not crawled)")
    arguments = parser.parse_args()
    if not BIN.exists():
        sys.exit(f"{BIN} is missing: make release")
    work = pathlib.Path(tempfile.mkdtemp(prefix="bench-crawl-cpu-"))
    work.chmod(0o755)  # nginx reads the site as its own user when started by root
    try:
        site = work / "site"
        build_site(site, arguments.pages, pathlib.Path(arguments.corpus))
        server = start_nginx(work, site, arguments.port)
        try:
            out = work / "crawl"
            wall, cpu, rss = measured(
                [str(BIN), "crawl", f"http://127.0.0.1:{arguments.port}/", "--concurrency",
                 str(arguments.concurrency), "--max-pages", str(arguments.pages * 20), "--depth", "100000",
                 "--output", str(out), "--quiet", "--no-progress"])
            # The same site with the crawl kept to its own pages: what is left is the 404s' share.
            own = work / "crawl-own"
            own_wall, own_cpu, _ = measured(
                [str(BIN), "crawl", f"http://127.0.0.1:{arguments.port}/", "--concurrency",
                 str(arguments.concurrency), "--max-pages", str(arguments.pages * 20), "--depth", "100000",
                 "--include", f"http://127.0.0.1:{arguments.port}/p*", "--output", str(own), "--quiet",
                 "--no-progress"])
        finally:
            server.terminate()
            server.wait()
        missing_line = None
        if arguments.missing > 0:
            missing = work / "missing"
            missing.mkdir()
            links = "".join(f'<a href="/missing/{i}.html">m{i}</a>\n' for i in range(arguments.missing))
            (missing / "index.html").write_text(f"<!doctype html><title>missing</title><body>{links}</body>")
            (missing / "robots.txt").write_text("User-agent: *\nAllow: /\n")
            (work / "w-missing").mkdir()
            server = start_nginx(work / "w-missing", missing, arguments.port)
            try:
                _, missing_cpu, _ = measured(
                    [str(BIN), "crawl", f"http://127.0.0.1:{arguments.port}/", "--concurrency",
                     str(arguments.concurrency), "--max-pages", str(arguments.missing * 2), "--output",
                     str(work / "crawl-missing"), "--quiet", "--no-progress"])
            finally:
                server.terminate()
                server.wait()
            missing_line = (f"a page linking {arguments.missing} URLs nginx does not have: CPU {missing_cpu:.2f} s = "
                            f"{1000 * missing_cpu / (arguments.missing + 1):.3f} ms per URL")
        report = json.loads((out / "report.json").read_text())
        by_status = report["summary"]["byStatus"]
        html = sum(1 for page in report["pages"]
                   if page.get("status") == 200 and "html" in (page.get("contentType") or ""))
        files = sorted(str(p) for p in site.glob("p*.html"))
        extract_wall, extract_cpu, _ = measured([str(BIN), "extract", "--jobs", "1", *files])
        crawl_ms = 1000 * cpu / max(html, 1)
        extract_ms = 1000 * extract_cpu / len(files)
        print(f"site: {arguments.pages} real pages served by nginx; fetched {sum(by_status.values())} URLs "
              f"({', '.join(f'HTTP {k} x{v}' for k, v in sorted(by_status.items()))}), {html} HTML pages")
        print(f"crawl:   CPU {cpu:.2f} s in {wall:.2f} s wall = {cpu / wall:.2f} cores busy; "
              f"{crawl_ms:.2f} CPU ms per fetched HTML page; peak RSS {rss:.0f} MiB; "
              f"report.json {(out / 'report.json').stat().st_size / max(len(report['pages']), 1) / 1024:.1f} KB per page")
        print(f"extract --jobs 1: CPU {extract_cpu:.2f} s for {len(files)} files = {extract_ms:.2f} CPU ms per page")
        print(f"ratio: crawl / extract CPU per page = {crawl_ms / extract_ms:.2f} (target <= 1.5)")
        own_report = json.loads((own / "report.json").read_text())
        own_urls = sum(own_report["summary"]["byStatus"].values())
        own_html = sum(1 for page in own_report["pages"]
                       if page.get("status") == 200 and "html" in (page.get("contentType") or ""))
        left_out = sum(by_status.values()) - own_urls
        print(f"without the 404s (--include .../p*): {own_urls} URLs, CPU {own_cpu:.2f} s = "
              f"{1000 * own_cpu / max(own_html, 1):.2f} ms per HTML page, ratio {1000 * own_cpu / max(own_html, 1) / extract_ms:.2f}; "
              f"the {left_out} URLs left out cost {1000 * (cpu - own_cpu) / max(left_out, 1):.3f} ms each")
        if missing_line:
            print(missing_line)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
