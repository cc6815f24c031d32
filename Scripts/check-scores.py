#!/usr/bin/env python3
"""Runs ../shared/tools/score_extraction.py on the visible corpora and prints the scores.

    check-scores.py --binary .build/release/spotcheck [--shared ../shared]
                    [--check Scripts/score-baseline.json] [--write-baseline FILE]

With --check, exits 1 when a normative (case, syntax) pair listed in the baseline as passing no
longer passes. New passes are reported so the baseline can be raised with --write-baseline.
"""
import argparse
import json
import os
import shlex
import subprocess
import sys

MANIFESTS = ["extruct-samples", "jsonld-html", "rdfa-lite"]


def run(shared, binary, manifest):
    scorer = os.path.join(shared, "tools", "score_extraction.py")
    path = os.path.join(shared, "corpora", manifest, "manifest.json")
    command = "%s extract --format json --base-url {base_url} {html}" % shlex.quote(os.path.abspath(binary))
    out = subprocess.run([sys.executable, scorer, path, "--cmd", command, "--json", "--jobs", "2"],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


ROBOTS = ["cases.json", "stress_cases.json"]


def run_robots(shared, binary, cases):
    """RFC 9309 mode on the cases that are not Google-only: returns (pass, total)."""
    scorer = os.path.join(shared, "tools", "score_robots.py")
    path = os.path.join(shared, "corpora", "robots", cases)
    command = "%s robots check --robots-file {robots_file} --user-agent {user_agent} {url}" % shlex.quote(
        os.path.abspath(binary))
    out = subprocess.run([sys.executable, scorer, path, "--cmd", command, "--skip-google-only", "--jobs", "2"],
                         check=True, capture_output=True, text=True).stdout
    last = [line for line in out.splitlines() if line.startswith("SCORE ")][-1]
    fields = dict(part.split("=") for part in last.split()[1:])
    return int(fields["pass"]), int(fields["total"])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--binary", required=True)
    ap.add_argument("--shared", default="../shared")
    ap.add_argument("--check")
    ap.add_argument("--write-baseline")
    args = ap.parse_args()

    passing = {}
    for manifest in MANIFESTS:
        result = run(args.shared, args.binary, manifest)
        passes = sorted("%s [%s]" % (case["id"], r["syntax"])
                        for case in result["per_case"] for r in case["results"]
                        if r.get("normative") and r.get("exact"))
        passing[manifest] = passes
        score = result["score"]
        print("%-16s normative exact %d/%d (%.4f)  f1=%.4f  runs=%s" % (
            manifest, len(passes), score["units"], score["exact"], score["f1"], result["status"]))

    robots_failures = []
    for cases in ROBOTS:
        passed, total = run_robots(args.shared, args.binary, cases)
        print("robots %-18s RFC 9309 mode %d/%d" % (cases, passed, total))
        if passed != total:
            robots_failures.append("robots %s: %d/%d (every non-Google-only case must pass)" % (cases, passed, total))

    if args.write_baseline:
        with open(args.write_baseline, "w") as f:
            json.dump(passing, f, indent=1, sort_keys=True)
            f.write("\n")
        print("baseline written to %s" % args.write_baseline)

    if args.check:
        with open(args.check) as f:
            baseline = json.load(f)
        regressions = []
        for manifest, cases in baseline.items():
            now = set(passing.get(manifest, []))
            regressions += ["%s: %s" % (manifest, c) for c in cases if c not in now]
            gained = now - set(cases)
            if gained:
                print("%s: %d new normative pass(es): %s (raise the baseline with --write-baseline)"
                      % (manifest, len(gained), ", ".join(sorted(gained))))
        regressions += robots_failures
        if regressions:
            print("REGRESSION: normative cases that passed before now fail:")
            for r in regressions:
                print("  " + r)
            return 1
        print("no regression against %s" % args.check)
    return 0


if __name__ == "__main__":
    sys.exit(main())
