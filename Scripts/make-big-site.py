#!/usr/bin/env python3
"""Writes a copy of the fixture site with N more pages under /bulk/ for the HTML report's
5,000-page check (docs/html-report.md): page i is fixture page i % k (movies, family, colleagues
and broken pages, hostile.html included) with links to five other bulk pages before </body>;
the home page links to /bulk/p0.html.

  Scripts/make-big-site.py OUT_FOLDER [--pages 4960]
"""
import argparse, pathlib, re, shutil

ROOT = pathlib.Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "Fixtures/html"

parser = argparse.ArgumentParser()
parser.add_argument("out")
parser.add_argument("--pages", type=int, default=4960)
arguments = parser.parse_args()
out = pathlib.Path(arguments.out)
if out.exists():
    shutil.rmtree(out)
shutil.copytree(FIXTURE, out)
sources = sorted(p for folder in ("movies", "family", "colleagues", "broken") for p in (FIXTURE / folder).glob("*.html"))
blobs = [p.read_text(encoding="utf-8") for p in sources]
(out / "bulk").mkdir()
count = arguments.pages
for i in range(count):
    targets = sorted({(i + 1) % count, (i * 7 + 3) % count, (i * 13 + 5) % count, (i * 31 + 7) % count, i // 2})
    links = "".join(f'<a href="/bulk/p{t}.html">page {t}</a> ' for t in targets)
    page = blobs[i % len(blobs)]
    # Each copy is its own page: canonical and og:url point at the copy.
    page = re.sub(r'(rel="canonical" href=")[^"]*', rf'\g<1>https://www.example.com/bulk/p{i}.html', page)
    page = page.replace("</body>", f'<div class="bulk-links">{links}</div></body>')
    (out / "bulk" / f"p{i}.html").write_text(page, encoding="utf-8")
home = out / "index.html"
home.write_text(home.read_text(encoding="utf-8").replace("</body>", '<a href="/bulk/p0.html">bulk</a></body>'), encoding="utf-8")
print(f"{out}: fixture site + {count} pages under /bulk/")
