#!/usr/bin/env python3
"""Times extruct on a folder of pages (the peer in Scripts/bench-extract.sh).

    bench_extruct.py FOLDER --syntaxes json-ld,microdata,opengraph [--processes N] [--repeat 3]

Prints one line: `extruct syntaxes=… processes=N pages=P bytes=B seconds=S MB/s=X` (best of the
repeats). Pages are read into memory first; only extraction is timed. Base URL as Readability's
tests use it: http://fakehost/test/page.html.
"""
import argparse
import multiprocessing
import os
import sys
import time

import extruct

BASE_URL = "http://fakehost/test/page.html"


def load(folder):
    pages = []
    for name in sorted(os.listdir(folder)):
        if name.endswith(".html"):
            with open(os.path.join(folder, name), "rb") as f:
                pages.append(f.read())
    return pages


PAGES = []
SYNTAXES = []


def setup(folder, syntaxes):
    global PAGES, SYNTAXES
    PAGES = load(folder)
    SYNTAXES = syntaxes


def work(index):
    try:
        extruct.extract(PAGES[index], base_url=BASE_URL, syntaxes=SYNTAXES, errors="ignore")
    except Exception:
        pass
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("folder")
    ap.add_argument("--syntaxes", default="json-ld,microdata,opengraph")
    ap.add_argument("--processes", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    syntaxes = args.syntaxes.split(",")
    setup(args.folder, syntaxes)
    pages = PAGES
    total = sum(len(p) for p in pages)
    best = None
    # Each worker loads the pages once; only indices cross the process boundary.
    pool = (multiprocessing.Pool(args.processes, initializer=setup, initargs=(args.folder, syntaxes))
            if args.processes > 1 else None)
    for _ in range(args.repeat):
        start = time.perf_counter()
        if pool:
            pool.map(work, range(len(pages)), chunksize=4)
        else:
            for index in range(len(pages)):
                work(index)
        elapsed = time.perf_counter() - start
        best = elapsed if best is None else min(best, elapsed)
    print("extruct syntaxes=%s processes=%d pages=%d bytes=%d seconds=%.3f MB/s=%.1f"
          % (args.syntaxes, args.processes, len(pages), total, best, total / best / 1e6))


if __name__ == "__main__":
    sys.exit(main())
