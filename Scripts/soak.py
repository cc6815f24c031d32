#!/usr/bin/env python3
"""Crash safety under repeated faults (issue 17 §3), measured: `make soak`.

1. Kills: a generated site of PAGES pages (each linking to five others) is crawled from a folder
   (SpotCheck's embedded loopback server, each page answered at once); the crawl is killed with
   SIGKILL at KILLS random moments (random page counts, so that each lands mid-crawl), each
   followed by `crawl --resume`, and the last resume runs to the end. Checked: every page is in the store exactly once (the same set as an uninterrupted
   crawl of the same site), `PRAGMA integrity_check` is ok after every kill, the run is finished.
2. A full disk: the crawl writes into a small tmpfs that fills mid-crawl; it must stop with
   exit 5, 6 or 10 (nothing corrupted), then, the tmpfs enlarged, `--resume` must finish it.
3. A read-only output folder: the crawl must fail before any fetch (exit 5) with a message that
   says so; `--resume` on a read-only copy of a crawl must name the read-only file system.

4. What was skipped, at scale (issue 35 §2): a page of SKIPPED_LINKS links and SKIPPED_SITEMAPS
   sitemaps of SITEMAP_URLS URLs each, crawled with --max-pages 100; the peak RSS of each crawl
   (GNU time) must stay under 300 MB however much was skipped. `--only-skipped` runs this part alone.

Parts 2 and 3 mount tmpfs file systems, which needs root (CAP_SYS_ADMIN); without it they are
reported as skipped. Prints one line per kill and a summary; exits 1 when a check fails.

    Scripts/soak.py [--pages 3000] [--kills 10] [--seed 1] [--binary .build/release/spotcheck]
                    [--skipped-links 620000] [--skipped-sitemaps 10] [--sitemap-urls 50000] [--only-skipped]
"""
import argparse
import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time


def generate_site(folder, pages):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "index.html"), "w") as out:
        out.write('<!doctype html><html><head><title>Soak</title></head><body><a href="p0.html">start</a></body></html>')
    for n in range(pages):
        links = "".join(f'<a href="p{(7 * n + k) % pages}.html">{k}</a>' for k in range(1, 6))
        with open(os.path.join(folder, f"p{n}.html"), "w") as out:
            out.write(
                f"<!doctype html><html><head><title>Page {n}</title>"
                f'<meta name="description" content="Soak page {n} of {pages}.">'
                f'<meta property="og:title" content="Page {n}"></head><body>{links}</body></html>'
            )


def store_facts(store):
    """(pages, duplicate keys, integrity problems, finished) of a crawl store."""
    db = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    try:
        pages = db.execute("SELECT COUNT(*) FROM page").fetchone()[0]
        duplicates = db.execute("SELECT COUNT(*) FROM (SELECT final_key FROM page GROUP BY final_key HAVING COUNT(*) > 1)").fetchone()[0]
        problems = [row[0] for row in db.execute("PRAGMA integrity_check") if row[0] != "ok"]
        finished = db.execute("SELECT finished_at IS NOT NULL FROM run ORDER BY generation DESC LIMIT 1").fetchone()
        return pages, duplicates, problems, bool(finished and finished[0])
    finally:
        db.close()


def crawl_command(binary, site, output, resume):
    if resume:
        return [binary, "crawl", "--resume", "--output", output, site, "--quiet", "--no-progress"]
    return [binary, "crawl", site, "--output", output, "--no-sitemaps", "--quiet", "--no-progress", "--max-pages", "100000"]


def mount_tmpfs(folder, size):
    os.makedirs(folder, exist_ok=True)
    return subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", folder], capture_output=True).returncode == 0


def skipped_at_scale(binary, work, links, sitemaps, per_sitemap):
    """Part 4: the peak RSS (MiB) of a crawl past --max-pages of a page of `links` links, and of one
    of `sitemaps` sitemaps of `per_sitemap` URLs; failure lines for what is over 300 MiB."""
    site = os.path.join(work, "skipped-site")
    os.makedirs(site, exist_ok=True)
    anchors = "".join(f'<a href="l{n}.html">{n}</a>' for n in range(links))
    with open(os.path.join(site, "index.html"), "w") as out:
        out.write(f"<!doctype html><html><head><title>Links</title></head><body>{anchors}</body></html>")
    with open(os.path.join(site, "spotcheck-site.json"), "w") as out:
        out.write('{"publicOrigin": "https://soak.example"}')
    with open(os.path.join(site, "sitemap.xml"), "w") as out:
        out.write('<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">')
        out.write("".join(f"<sitemap><loc>https://soak.example/s{n}.xml</loc></sitemap>" for n in range(sitemaps)))
        out.write("</sitemapindex>")
    for n in range(sitemaps):
        with open(os.path.join(site, f"s{n}.xml"), "w") as out:
            out.write('<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">')
            out.write("".join(f"<url><loc>https://soak.example/s{n}-{k}.html</loc></url>" for k in range(per_sitemap)))
            out.write("</urlset>")
    failures = []
    for name, extra in (("a page of links", ["--no-sitemaps"]), ("sitemaps", [])):
        output = os.path.join(work, "skipped-links" if extra else "skipped-sitemaps")
        command = [binary, "crawl", site, "--output", output, "--quiet", "--no-progress", "--max-pages", "100",
                   "--max-body", str(64 << 20)] + extra
        started = time.time()
        run = subprocess.run(["/usr/bin/time", "-f", "RSS %M"] + command, capture_output=True, text=True)
        rss = next((int(line.split()[1]) for line in reversed(run.stderr.splitlines()) if line.startswith("RSS ")), 0) / 1024
        db = sqlite3.connect(f"file:{output}/crawl.sqlite?mode=ro", uri=True)
        rows = db.execute("SELECT COUNT(*) FROM skipped").fetchone()[0]
        db.close()
        report = os.path.getsize(f"{output}/report.json") >> 20 if os.path.exists(f"{output}/report.json") else 0
        print(f"skipped at scale, {name}: exit {run.returncode}, {time.time() - started:.1f} s, peak RSS {rss:.0f} MiB, "
              f"{rows} skipped rows, report.json {report} MiB")
        if run.returncode not in (0, 1) or rss >= 300:
            failures.append(f"skipped at scale, {name}: exit {run.returncode}, peak RSS {rss:.0f} MiB (300 allowed)")
    return failures


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--pages", type=int, default=3000)
    parser.add_argument("--kills", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--binary", default=".build/release/spotcheck")
    parser.add_argument("--skipped-links", type=int, default=620_000)
    parser.add_argument("--skipped-sitemaps", type=int, default=10)
    parser.add_argument("--sitemap-urls", type=int, default=50_000)
    parser.add_argument("--only-skipped", action="store_true")
    arguments = parser.parse_args()
    binary = os.path.abspath(arguments.binary)
    random.seed(arguments.seed)
    work = tempfile.mkdtemp(prefix="spotcheck-soak-")
    if arguments.only_skipped:
        failures = skipped_at_scale(
            binary, work, arguments.skipped_links, arguments.skipped_sitemaps, arguments.sitemap_urls)
        shutil.rmtree(work, ignore_errors=True)
        print("SOAK FAILED:\n  " + "\n  ".join(failures) if failures else "SOAK PASSED")
        return 1 if failures else 0
    site = os.path.join(work, "site")
    generate_site(site, arguments.pages)
    expected = arguments.pages + 1
    failures = []

    # The uninterrupted crawl: how long it takes, and that it finds every page.
    reference = os.path.join(work, "reference")
    started = time.time()
    subprocess.run(crawl_command(binary, site, reference, False), check=False, capture_output=True)
    reference_seconds = time.time() - started
    pages, duplicates, problems, finished = store_facts(os.path.join(reference, "crawl.sqlite"))
    print(f"uninterrupted: {pages} pages in {reference_seconds:.1f} s (expected {expected})")
    if pages != expected:
        failures.append(f"the uninterrupted crawl found {pages} pages, not {expected}")

    # 1. Kills at random moments, each followed by --resume. A moment is a point of progress (a
    # random number of pages stored, the kills spread over the crawl), so every kill lands while
    # the crawl runs however fast the machine is.
    output = os.path.join(work, "killed")
    store = os.path.join(output, "crawl.sqlite")
    resume = False
    started = time.time()
    targets = sorted(random.sample(range(1, expected - 1), arguments.kills))
    for kill, target in enumerate(targets, start=1):
        child = subprocess.Popen(crawl_command(binary, site, output, resume), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        stored = 0
        while child.poll() is None:
            if os.path.exists(store):
                try:
                    stored = store_facts(store)[0]
                except sqlite3.Error:
                    pass
            if stored >= target:
                break
            time.sleep(0.005)
        if child.poll() is not None:
            failures.append(f"kill {kill}: the crawl ended (exit {child.returncode}) before {target} pages")
        child.kill()
        child.wait()
        resume = True
        pages, duplicates, problems, finished = store_facts(store)
        print(f"kill {kill}: at {target} pages or more: {pages} pages stored, integrity {'ok' if not problems else problems[:3]}")
        if problems:
            failures.append(f"kill {kill}: integrity_check: {problems[:3]}")
        if duplicates:
            failures.append(f"kill {kill}: {duplicates} duplicate keys")
    # A small site can finish between the last poll and the kill: then there is nothing to resume
    # (`--resume` would rightly exit 6), and the checks below read the finished store.
    if store_facts(store)[3]:
        print(f"kill {arguments.kills} landed after the crawl had finished: no --resume needed")
        status, last = 0, "not needed"
    else:
        status = subprocess.run(crawl_command(binary, site, output, resume), capture_output=True, text=True).returncode
        last = f"exit {status}"
    pages, duplicates, problems, finished = store_facts(store)
    print(
        f"after {arguments.kills} kills and the last --resume ({last}): {pages} pages, "
        f"{duplicates} duplicate keys, integrity {'ok' if not problems else problems[:3]}, "
        f"run finished: {finished}; {time.time() - started:.1f} s in all"
    )
    if status != 0 or pages != expected or duplicates or problems or not finished:
        failures.append(f"kills: exit {status}, {pages} of {expected} pages, {duplicates} duplicates, {problems[:3]}")

    # 2. A full disk mid-crawl, then room again and --resume.
    disk = os.path.join(work, "disk")
    if mount_tmpfs(disk, "3m"):
        try:
            output = os.path.join(disk, "out")
            full = subprocess.run(crawl_command(binary, site, output, False), capture_output=True, text=True)
            message = (full.stderr.strip().splitlines() or [""])[-1]
            stored = store_facts(os.path.join(output, "crawl.sqlite"))[0] if os.path.exists(os.path.join(output, "crawl.sqlite")) else 0
            print(f"full disk (3 MiB tmpfs): exit {full.returncode} with {stored} pages stored: {message[:200]}")
            if full.returncode not in (5, 6, 10):
                failures.append(f"full disk: exit {full.returncode}, not 5, 6 or 10")
            subprocess.run(["mount", "-o", "remount,size=512m", disk], check=True)
            again = subprocess.run(crawl_command(binary, site, output, True), capture_output=True, text=True)
            pages, duplicates, problems, finished = store_facts(os.path.join(output, "crawl.sqlite"))
            print(f"  room again, --resume: exit {again.returncode}, {pages} pages, integrity {'ok' if not problems else problems[:3]}")
            if again.returncode != 0 or pages != expected or problems:
                failures.append(f"full disk resume: exit {again.returncode}, {pages} of {expected} pages, {problems[:3]}")
        finally:
            subprocess.run(["umount", disk], capture_output=True)
    else:
        print("full disk: skipped (mounting a tmpfs needs root)")

    # 3. A read-only output folder: refused before any fetch, with the reason.
    readonly = os.path.join(work, "readonly")
    if mount_tmpfs(readonly, "64m"):
        try:
            shutil.copytree(reference, os.path.join(readonly, "done"))
            db = sqlite3.connect(os.path.join(readonly, "done", "crawl.sqlite"))
            db.execute("UPDATE run SET finished_at = NULL")
            db.commit()
            db.close()
            os.makedirs(os.path.join(readonly, "new"))
            subprocess.run(["mount", "-o", "remount,ro", readonly], check=True)
            fresh = subprocess.run(crawl_command(binary, site, os.path.join(readonly, "new"), False), capture_output=True, text=True)
            resumed = subprocess.run(crawl_command(binary, site, os.path.join(readonly, "done"), True), capture_output=True, text=True)
            for name, run in (("new crawl", fresh), ("--resume", resumed)):
                message = (run.stderr.strip().splitlines() or [""])[-1]
                print(f"read-only folder, {name}: exit {run.returncode}: {message[:220]}")
                if run.returncode == 0 or "read-only" not in message.lower():
                    failures.append(f"read-only folder, {name}: exit {run.returncode}: {message}")
        finally:
            subprocess.run(["umount", readonly], capture_output=True)
    else:
        print("read-only folder: skipped (mounting a tmpfs needs root)")

    # 4. What was skipped, at scale: memory stays flat.
    failures += skipped_at_scale(
        binary, work, arguments.skipped_links, arguments.skipped_sitemaps, arguments.sitemap_urls)

    shutil.rmtree(work, ignore_errors=True)
    if failures:
        print("SOAK FAILED:\n  " + "\n  ".join(failures))
        return 1
    print("SOAK PASSED")
    return 0


if __name__ == "__main__":
    sys.exit(main())
