#!/usr/bin/env python3
"""Head/body placement cases from html5lib-tests' tree-construction data.

Usage: extract-html5lib-placement.py FILE.dat ... > tree-construction-placement.jsonl

Reads html5lib-tests tree-construction `.dat` files (format: tree-construction/README.md) and
writes, one JSON object a line, the cases that say where a browser puts the elements SpotCheck
reports:

    {"source": "tests1.dat#27", "data": "...", "elements": [["script", "head"], ["title", "head"]]}

`source` is the file's name and the case's 1-based index in it; `data` the document as the case
gives it; `elements` each HTML `meta`, `link`, `title`, `base` and `script` element of the expected
`#document` tree, in tree order, with "head" or "body" for the first of those its parent chain
goes through ("none" when neither).

Kept: cases without `#document-fragment` whose `#data` contains `<meta`, `<link`, `<title`,
`<base` or `<script` (any case). Left out:
- cases marked `#script-off`: the README says a case without a marker holds in both scripting
  modes and one with `#script-on`/`#script-off` in that mode only; Safari parses with scripting
  enabled, so the script-on expectation is kept;
- frameset documents (the tree has a `<frameset>` under `<html>`): no head/body question;
- cases with one of the five elements in foreign content (an `svg`/`math` element, or an HTML
  element below one): a browser's tree and SpotCheck's libxml2 differ there on purpose (the
  extractor ignores SVG `<title>`), which is not a placement question.
Elements inside a `<template>`'s content are not listed (the extractor ignores template content).
Counts of what was kept and left out go to standard error. Python 3 standard library only.
"""

import json
import os
import re
import sys

KINDS = ("meta", "link", "title", "base", "script")
TAG_IN_DATA = re.compile(r"<(meta|link|title|base|script)", re.IGNORECASE)
HEADERS = {"#errors", "#new-errors", "#document-fragment", "#script-on", "#script-off", "#document"}


def read_cases(path):
    """Yields (index, sections) for each case: sections maps a header to its lines."""
    with open(path, encoding="utf-8", newline="\n") as handle:
        lines = handle.read().split("\n")
    cases = []
    current = None
    section = None
    for number, line in enumerate(lines):
        # A case starts at `#data` at the file's start or after an empty line.
        if line == "#data" and (number == 0 or lines[number - 1] == ""):
            current = {"#data": []}
            cases.append(current)
            section = "#data"
            continue
        if current is None:
            continue
        if section == "#data":
            # `#errors` ends the data; noscript01.dat writes `#script-off` before it, and
            # raw-text.dat has no `#errors`.
            if line in HEADERS:
                section = line
                current[section] = []
            else:
                current["#data"].append(line)
            continue
        if line in HEADERS:
            section = line
            current[section] = []
            continue
        current[section].append(line)
    for index, case in enumerate(cases, start=1):
        # The empty line that separates cases is not part of the last section.
        for header, lines_of_section in case.items():
            while header != "#data" and lines_of_section and lines_of_section[-1] == "":
                lines_of_section.pop()
        yield index, case


def parse_tree(lines):
    """The `#document` dump as (depth, text) pairs, one per node line; text continues over lines."""
    nodes = []
    for line in lines:
        if line.startswith("| "):
            body = line[2:]
            stripped = body.lstrip(" ")
            nodes.append([(len(body) - len(stripped)) // 2, stripped])
        elif nodes:
            # A text node with a line break (not escaped in the dump).
            nodes[-1][1] += "\n" + line
    return nodes


def placement(case):
    """The list of [kind, section] for the case, or a reason it is left out."""
    tree = parse_tree(case.get("#document", []))
    elements = []
    # The open ancestors: (depth, tag name string, or "content" for a template's content).
    ancestors = []
    for depth, text in tree:
        while ancestors and ancestors[-1][0] >= depth:
            ancestors.pop()
        if text == "content":
            ancestors.append((depth, "content"))
            continue
        if not (text.startswith("<") and text.endswith(">")) or text.startswith("<!"):
            continue  # text, comment, DOCTYPE (attributes do not start with "<")
        name = text[1:-1]
        if name == "frameset" and [a[1] for a in ancestors] == ["html"]:
            return "frameset"
        foreign = name.startswith("svg ") or name.startswith("math ") or any(
            a[1].startswith("svg ") or a[1].startswith("math ") for a in ancestors
        )
        in_template = any(a[1] == "content" for a in ancestors)
        base = name.split(" ", 1)[-1]
        if base in KINDS and not in_template:
            if foreign:
                return "foreign"
            chain = [a[1] for a in ancestors]
            section = "none"
            for ancestor in chain:
                if ancestor in ("head", "body"):
                    section = ancestor
                    break
            elements.append([name, section])
        ancestors.append((depth, name))
    return elements


def main(paths):
    counts = {"kept": 0, "fragment": 0, "script-off": 0, "frameset": 0, "foreign": 0, "no tag": 0}
    for path in paths:
        name = os.path.basename(path)
        for index, case in read_cases(path):
            data = "\n".join(case["#data"])
            if not TAG_IN_DATA.search(data):
                counts["no tag"] += 1
                continue
            if "#document-fragment" in case:
                counts["fragment"] += 1
                continue
            if "#script-off" in case:
                counts["script-off"] += 1
                continue
            result = placement(case)
            if isinstance(result, str):
                counts[result] += 1
                continue
            counts["kept"] += 1
            record = {"source": f"{name}#{index}", "data": data, "elements": result}
            sys.stdout.write(json.dumps(record, ensure_ascii=False) + "\n")
    print(", ".join(f"{key}: {value}" for key, value in counts.items()), file=sys.stderr)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
