#!/usr/bin/env python3
"""Findings of two `validate` (or `crawl`) report.json files side by side: the histogram by rule and
severity, and every finding only one of them has (keyed by page, rule and line), grouped by rule.

    spotcheck-old validate ../shared/corpora/realpages --output /tmp/before --quiet
    spotcheck     validate ../shared/corpora/realpages --output /tmp/after --quiet
    Scripts/findings-histogram.py /tmp/before/report.json /tmp/after/report.json
"""
import collections
import json
import sys


def findings(path):
    report = json.load(open(path))
    out = []
    for page in report.get("pages", []):
        name = page.get("file") or page.get("url")
        for finding in page.get("findings") or []:
            out.append((name.split("/")[-1], finding["rule"], finding["severity"], finding.get("line"), finding["message"]))
    for finding in report.get("siteFindings", []):
        out.append(((finding.get("url") or "").split("/")[-1] or "(site)", finding["rule"], finding["severity"],
                    finding.get("line"), finding["message"]))
    return out


def main():
    before, after = findings(sys.argv[1]), findings(sys.argv[2])
    count = lambda items: collections.Counter((f[1], f[2]) for f in items)
    old, new = count(before), count(after)
    print("| rule | severity | before | after | change |\n|---|---|---|---|---|")
    for key in sorted(set(old) | set(new)):
        if old[key] != new[key] or "--all" in sys.argv:
            print(f"| {key[0]} | {key[1]} | {old[key]} | {new[key]} | {new[key] - old[key]:+d} |")
    totals = lambda c, s: sum(v for (r, sev), v in c.items() if sev == s)
    for severity in ("error", "warning", "info"):
        print(f"| all | {severity} | {totals(old, severity)} | {totals(new, severity)} | "
              f"{totals(new, severity) - totals(old, severity):+d} |")
    keyed = lambda items: collections.Counter((f[0], f[1], f[3]) for f in items)
    gone, added = keyed(before) - keyed(after), keyed(after) - keyed(before)
    messages = {(f[0], f[1], f[3]): f[4] for f in before + after}
    for title, changed in (("gone", gone), ("new", added)):
        print(f"\n## {title}: {sum(changed.values())}")
        for key in sorted(changed):
            print(f"- {key[1]} {key[0]}:{key[2]} — {messages[key][:160]}")


if __name__ == "__main__":
    main()
