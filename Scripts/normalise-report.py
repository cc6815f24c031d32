#!/usr/bin/env python3
"""A crawl's report.json without what differs between two runs of the same binary on the same site,
so that the reports of two builds, or of two installs, can be compared with diff (issue 34: the
installed package's fixture crawl against .build/release/spotcheck's).

  normalise-report.py REPORT FOLDER    prints the normalised report (sorted keys, indented)

FOLDER is the working folder the crawl ran in (its absolute path is replaced). Taken out:
  - timestamps (any ISO 8601 UTC string: crawl.startedAt, finishedAt, generatedAt; any HTTP date:
    the Date and Last-Modified response headers, the files' mtimes being the copy's) -> <time>;
  - the ETag response header (the embedded server makes it from the file's mtime) -> <etag>;
  - each page's timings (dns, connect, tls, firstByte, total: seconds measured) -> <seconds>;
  - the embedded server's port, chosen by the kernel (http://127.0.0.1:PORT) -> <port>;
  - the absolute path of FOLDER -> <folder>;
  - the order of coverage.skipped and each entry's foundOn: a link the crawl does not follow is
    recorded once, from the first page the crawl happened to read it on, and pages are read
    concurrently (two runs of one binary differ there). The entries are sorted, foundOn left out.
Everything else (every page, finding, attribute set, candidate, the linking, the summary) must be
equal.
"""

import json
import re
import sys

TIMESTAMP = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$")
HTTP_DATE = re.compile(r"^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d\d [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d GMT$")
LOOPBACK = re.compile(r"(https?://127\.0\.0\.1):\d+")


def normalise(value, folder):
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            if key == "timings" and isinstance(item, dict):
                out[key] = {name: "<seconds>" for name in item}
            elif key == "headers" and isinstance(item, list):
                out[key] = [header(pair, folder) for pair in item]
            else:
                out[key] = normalise(item, folder)
        return out
    if isinstance(value, list):
        return [normalise(item, folder) for item in value]
    if isinstance(value, str):
        if TIMESTAMP.match(value) or HTTP_DATE.match(value):
            return "<time>"
        text = LOOPBACK.sub(r"\1:<port>", value)
        return text.replace(folder, "<folder>") if folder else text
    return value


def header(pair, folder):
    """A response header [name, value]: the embedded server's ETag is made of the file's mtime."""
    if isinstance(pair, list) and len(pair) == 2 and str(pair[0]).lower() == "etag":
        return [pair[0], "<etag>"]
    return normalise(pair, folder)


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__)
    with open(argv[1], encoding="utf-8") as file:
        report = json.load(file)
    if not argv[2].startswith("/"):
        sys.exit(f"FOLDER must be absolute, as the report writes it: {argv[2]}")
    report = normalise(report, argv[2].rstrip("/"))
    skipped = report.get("coverage", {}).get("skipped")
    if isinstance(skipped, list):
        for entry in skipped:
            entry.pop("foundOn", None)
        skipped.sort(key=lambda entry: json.dumps(entry, sort_keys=True))
    json.dump(report, sys.stdout, indent=1, sort_keys=True, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
