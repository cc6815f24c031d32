#!/usr/bin/env python3
"""The hostile-server cases of docs/reliability.md (issue 17 §2), measured: each runs the release
binary against generated input or a local hostile server (Python's http.server on 127.0.0.1) and
prints the case, the exit status, the wall time and the peak RSS (GNU time's %M).

    Scripts/hostile-cases.py [--binary .build/release/spotcheck] [--only NAME ...]
"""
import argparse
import http.server
import json
import os
import shutil
import socketserver
import subprocess
import tempfile
import threading
import time

WORK = tempfile.mkdtemp(prefix="spotcheck-hostile-")


def measured(command, timeout=900):
    """(exit status, seconds, peak RSS in MiB, stderr's last line) of `command`."""
    started = time.time()
    run = subprocess.run(
        ["/usr/bin/time", "-f", "RSS %M"] + command, capture_output=True, text=True, timeout=timeout
    )
    seconds = time.time() - started
    lines = run.stderr.strip().splitlines()
    rss = next((int(line.split()[1]) for line in reversed(lines) if line.startswith("RSS ")), 0)
    message = next((line for line in reversed(lines) if not line.startswith("RSS ")), "")
    return run.returncode, seconds, rss / 1024, message


class Server:
    """A threaded HTTP server on 127.0.0.1 answering with `handler(path) -> (status, headers, body,
    delay)`; a delay holds the answer that many seconds (a hanging server)."""

    def __init__(self, handler):
        outer = handler

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                status, headers, body, delay = outer(self.path)
                if delay:
                    time.sleep(delay)
                try:
                    self.send_response(status)
                    for name, value in headers.items():
                        self.send_header(name, value)
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                except (BrokenPipeError, ConnectionResetError):
                    pass

            def log_message(self, *arguments):
                pass

        class Threaded(socketserver.ThreadingMixIn, http.server.HTTPServer):
            daemon_threads = True

        self.server = Threaded(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        self.server.shutdown()


def html(body, head=""):
    return f"<!doctype html><html><head><title>Hostile</title>{head}</head><body>{body}</body></html>".encode()


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as out:
        out.write(data if isinstance(data, bytes) else data.encode())
    return path


def case_itemref(binary):
    ids = " ".join(f"i{n}" for n in range(10))
    page = f'<!doctype html><html><body><div itemscope itemref="{ids}"></div>' + "".join(
        f'<div id="i{n}" itemprop="p" itemscope itemref="{ids}"></div>' for n in range(10)
    ) + "</body></html>"
    path = write(f"{WORK}/itemref.html", page)
    return f"§2.1 Microdata itemref cycles ({os.path.getsize(path)} bytes), `extract`", measured([binary, "extract", path])


def case_attributes(binary):
    flood = "".join(f' a{n}="{n}"' for n in range(300_000))
    path = write(f"{WORK}/attributes.html", f'<html><head><meta property="og:title" content="x"{flood}><title>t</title></head></html>')
    return "§2.2 300,000 attributes on one `<meta>` (4.9 MB), `extract`", measured([binary, "extract", path])


def case_aasa(binary):
    components = [{"/": f"/section{n}/item/*"} for n in range(6_000)]
    aasa = {"applinks": {"details": [{"appIDs": ["ABCDE12345.com.example.app"], "components": components}]}}
    path = write(f"{WORK}/apple-app-site-association", json.dumps(aasa))
    size = os.path.getsize(path) // 1024
    return f"§2.3 AASA with 6,000 components ({size} KiB), `aasa check`", measured([binary, "aasa", "check", path])


def case_images(binary):
    tags = "".join(f'<meta property="og:image" content="/img/{n}.png">' for n in range(50_000))
    site = f"{WORK}/images-site"
    write(f"{site}/index.html", html("<p>many images</p>", tags))
    output = f"{WORK}/images-out"
    result = measured([binary, "crawl", site, "--output", output, "--quiet", "--no-progress", "--format", "json"])
    size = os.path.getsize(f"{output}/report.json") // 1024 if os.path.exists(f"{output}/report.json") else 0
    return f"§2.4 50,000 `og:image` on one page (report.json {size} KiB), `crawl FOLDER`", result


def case_hanging_images(binary):
    tags = "".join(f'<meta property="og:image" content="/img/{n}.png">' for n in range(30))
    server = Server(lambda path: (200, {"Content-Type": "text/html"}, html("<p>x</p>", tags), 0)
                    if path == "/" else (404, {}, b"", 0) if path == "/robots.txt" else (200, {"Content-Type": "image/png"}, b"x", 30))
    try:
        return "§2.4 30 images that hang, `--timeout 3`", measured(
            [binary, "crawl", server.url + "/", "--output", f"{WORK}/hanging-images", "--timeout", "3", "--quiet",
             "--no-progress", "--no-sitemaps", "--format", "json", "--max-pages", "1"])
    finally:
        server.stop()


def case_hanging_sitemaps(binary):
    def answer(path):
        if path == "/robots.txt":
            return 200, {"Content-Type": "text/plain"}, f"User-agent: *\nAllow: /\nSitemap: {server.url}/index.xml\n".encode(), 0
        if path == "/index.xml":
            children = "".join(f"<sitemap><loc>{server.url}/sitemap-{n}.xml</loc></sitemap>" for n in range(49))
            return 200, {"Content-Type": "application/xml"}, (
                '<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
                + children + "</sitemapindex>").encode(), 0
        if path.startswith("/sitemap-"):
            return 200, {"Content-Type": "application/xml"}, b"", 30
        if path in ("/", "/b.html"):
            return 200, {"Content-Type": "text/html"}, html('<a href="/b.html">b</a>'), 0
        return 404, {}, b"", 0

    server = Server(answer)
    try:
        return "§2.7 an index of 49 hanging sitemaps, a 2-page site, `--timeout 3`", measured(
            [binary, "crawl", server.url + "/", "--output", f"{WORK}/hanging-sitemaps", "--timeout", "3", "--quiet",
             "--no-progress", "--format", "json", "--delay", "0"])
    finally:
        server.stop()


def case_rejected_sitemap_urls(binary):
    big = b"x" * (40 << 20)

    def answer(path):
        if path == "/robots.txt":
            lines = "".join(f"Sitemap: {server.url}/s{n}.xml\n" for n in range(20))
            return 200, {"Content-Type": "text/plain"}, ("User-agent: *\nAllow: /\n" + lines).encode(), 0
        if path.startswith("/s") and path.endswith(".xml"):
            body = (b'<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>'
                    + server.url.encode() + b"/" + big + b"</loc></url></urlset>")
            return 200, {"Content-Type": "application/xml"}, body, 0
        if path == "/":
            return 200, {"Content-Type": "text/html"}, html("<p>home</p>"), 0
        return 404, {}, b"", 0

    server = Server(answer)
    try:
        return "§2.10 20 sitemaps, each one 40 MB `<loc>`", measured(
            [binary, "crawl", server.url + "/", "--output", f"{WORK}/rejected", "--quiet", "--no-progress",
             "--format", "json", "--delay", "0"])
    finally:
        server.stop()


def case_big_jsonld(binary):
    site = f"{WORK}/jsonld-site"
    big = "x" * 9_000_000
    links = "".join(f'<a href="p{n}.html">{n}</a>' for n in range(16))
    write(f"{site}/index.html", html(links))
    for n in range(16):
        write(f"{site}/p{n}.html", html("<p>big</p>", '<script type="application/ld+json">{"@context":"https://schema.org",'
                                         f'"@type":"Article","headline":"H{n}","description":"{big}"}}</script>'))
    output = f"{WORK}/jsonld-out"
    result = measured([binary, "crawl", site, "--output", output, "--quiet", "--no-progress", "--format", "json"])
    store = os.path.getsize(f"{output}/crawl.sqlite") >> 20 if os.path.exists(f"{output}/crawl.sqlite") else 0
    report = os.path.getsize(f"{output}/report.json") >> 20 if os.path.exists(f"{output}/report.json") else 0
    return f"§2.10 16 pages with a 9 MB JSON-LD string (store {store} MiB, report.json {report} MiB)", result


def case_robots_rules(binary):
    # Issue 35 §3: 480 rules `/*aaa…b` against a 10 KB URL (6.4 s per decision with the
    # backtracking matcher; the linear one reads the path once per rule).
    rules = "".join("disallow: /*" + "a" * (999 - k) + "b\n" for k in range(480))
    write(f"{WORK}/robots-rules.txt", "user-agent: *\nallow: /ok\n" + rules)
    url = "https://example.com/" + "a" * 10_000
    result = measured([binary, "robots", "check", "--robots-file", f"{WORK}/robots-rules.txt", "--user-agent", "bot", url])
    return "issue 35 §3 robots check: 480 rules /*aaa…b, a 10 KB URL", result


CASES = {
    "itemref": case_itemref, "attributes": case_attributes, "aasa": case_aasa, "images": case_images,
    "hanging-images": case_hanging_images, "hanging-sitemaps": case_hanging_sitemaps,
    "rejected-sitemap-urls": case_rejected_sitemap_urls, "big-jsonld": case_big_jsonld,
    "robots-rules": case_robots_rules,
}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=".build/release/spotcheck")
    parser.add_argument("--only", nargs="*")
    arguments = parser.parse_args()
    binary = os.path.abspath(arguments.binary)
    print("| case | exit | time | peak RSS |\n|---|---|---|---|")
    for name, case in CASES.items():
        if arguments.only and name not in arguments.only:
            continue
        title, (status, seconds, rss, message) = case(binary)
        print(f"| {title} | {status} | {seconds:.2f} s | {rss:.0f} MiB |", flush=True)
    shutil.rmtree(WORK, ignore_errors=True)


if __name__ == "__main__":
    main()
