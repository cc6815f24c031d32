#!/usr/bin/env bash
# Extraction benchmark: spotcheck vs extruct on ../shared/corpora/realpages, with libxml2's bare
# parse of the same bytes as the floor. Installs extruct into .venv-bench (PyPI) on first use.
#   Scripts/bench-extract.sh [PAGES_FOLDER]
# Prints one line per measurement (best of 3 runs) and the ratios.
set -euo pipefail
cd "$(dirname "$0")/.."
pages=${1:-../shared/corpora/realpages}
bin=.build/release/spotcheck
[ -x "$bin" ] || swift build -c release --static-swift-stdlib # as make release builds it
out=.build/bench
mkdir -p "$out"

if [ ! -x .venv-bench/bin/python ]; then
    python3 -m venv .venv-bench
    .venv-bench/bin/pip install -q extruct
fi
gcc -O2 -o "$out/libxml2_floor" Scripts/libxml2_floor.c $(pkg-config --cflags --libs libxml-2.0)

# The corpus four times over, so a run lasts long enough to time (process start-up is included).
corpus=("$pages"/*.html)
files=("${corpus[@]}" "${corpus[@]}" "${corpus[@]}" "${corpus[@]}")
bytes=$(cat "${files[@]}" | wc -c)

time_spotcheck() {   # label, extra args...
    local label=$1; shift
    local best=""
    for _ in 1 2 3; do
        local start end
        start=$(date +%s.%N)
        "$bin" extract --format json --base-url http://fakehost/test/page.html "$@" "${files[@]}" > /dev/null
        end=$(date +%s.%N)
        best=$(python3 -c "a=$end-$start; b='$best'; print(min(a, float(b)) if b else a)")
    done
    python3 -c "print('spotcheck %s pages=%d bytes=%d seconds=%.3f MB/s=%.1f' % ('$label', ${#files[@]}, $bytes, $best, $bytes/$best/1e6))"
}

{
    "$out/libxml2_floor" dom "${corpus[@]}" 2>/dev/null
    "$out/libxml2_floor" sax "${corpus[@]}" 2>/dev/null
    time_spotcheck "jobs=1 rdfa=off" --jobs 1 --no-rdfa
    time_spotcheck "jobs=2 rdfa=off" --jobs 2 --no-rdfa
    time_spotcheck "jobs=1 rdfa=on" --jobs 1
    time_spotcheck "jobs=2 rdfa=on" --jobs 2
    # The one-job target in rounds, back to back: one bare SAX pass over the same 520 files, then
    # one spotcheck run over them. This VM's speed drifts by 10-40 % within a minute, which the
    # best-of-3 lines above (each side timed on its own, up to a minute apart) do not cancel; a
    # round's two sides see the same drift, and the median round is the target's figure.
    for round in $(seq 1 "${BENCH_ROUNDS:-7}"); do
        floor=$(FLOOR_PASSES=1 "$out/libxml2_floor" sax "${files[@]}" 2>/dev/null | sed -E 's/.*seconds=([0-9.]+).*/\1/')
        start=$(date +%s.%N)
        "$bin" extract --format json --base-url http://fakehost/test/page.html --jobs 1 --no-rdfa "${files[@]}" > /dev/null
        end=$(date +%s.%N)
        python3 -c "s=$end-$start; print('round %d floor_seconds=%s spotcheck_seconds=%.3f one-job/floor=%.2f' % ($round, '$floor', s, $floor/s))"
    done
    .venv-bench/bin/python Scripts/bench_extruct.py "$pages" --syntaxes json-ld,microdata,opengraph --processes 1
    .venv-bench/bin/python Scripts/bench_extruct.py "$pages" --syntaxes json-ld,microdata,opengraph --processes 2
    .venv-bench/bin/python Scripts/bench_extruct.py "$pages" --syntaxes json-ld,microdata,opengraph,rdfa --processes 1 --repeat 1
} | tee "$out/results.txt"

python3 - "$out/results.txt" <<'PY'
import re, sys
rate = {}
rounds = []
for line in open(sys.argv[1]):
    m = re.search(r"MB/s=([\d.]+)", line)
    if m:
        rate[line.split(" pages=")[0]] = float(m.group(1))
    m = re.search(r"one-job/floor=([\d.]+)", line)
    if m:
        rounds.append(float(m.group(1)))
rounds.sort()
median_round = rounds[len(rounds) // 2] if rounds else None
def r(a, b):
    return "%.2fx" % (rate[a] / rate[b]) if a in rate and b in rate else "n/a"
print()
print("ratios (MB/s over MB/s):")
print("  spotcheck 1 core  / extruct 1 process (JSON-LD+Microdata+OG): " + r("spotcheck jobs=1 rdfa=off", "extruct syntaxes=json-ld,microdata,opengraph processes=1"))
print("  spotcheck 2 cores / extruct 1 process (JSON-LD+Microdata+OG): " + r("spotcheck jobs=2 rdfa=off", "extruct syntaxes=json-ld,microdata,opengraph processes=1"))
print("  spotcheck 2 cores / extruct 2 processes:                      " + r("spotcheck jobs=2 rdfa=off", "extruct syntaxes=json-ld,microdata,opengraph processes=2"))
print("  spotcheck 2 cores RDFa on / extruct 1 process with RDFa:      " + r("spotcheck jobs=2 rdfa=on", "extruct syntaxes=json-ld,microdata,opengraph,rdfa processes=1"))
print("  spotcheck 1 core / libxml2 DOM parse (overhead vs floor):     " + r("spotcheck jobs=1 rdfa=off", "libxml2-dom"))
print("  spotcheck 1 core / libxml2 SAX pass:                          " + r("spotcheck jobs=1 rdfa=off", "libxml2-sax"))

# Issue 16's targets, one PASS/FAIL line each, then overall.
def ratio(a, b):
    return rate[a] / rate[b] if a in rate and b in rate else None
print("  spotcheck 1 core / libxml2 SAX pass, median of %d back-to-back rounds: %s" % (
    len(rounds), "%.2fx" % median_round if median_round is not None else "n/a"))
checks = [
    ("one job / bare libxml2 SAX pass (median round)", median_round, 0.90),
    ("--jobs 2 / one job", ratio("spotcheck jobs=2 rdfa=off", "spotcheck jobs=1 rdfa=off"), 1.80),
    ("RDFa on, --jobs 2 / extruct with RDFa", ratio("spotcheck jobs=2 rdfa=on",
        "extruct syntaxes=json-ld,microdata,opengraph,rdfa processes=1"), 30.0),
]
print()
print("targets (issue 16):")
for name, value, target in checks:
    shown = "n/a" if value is None else "%.2fx" % value
    print("  %s  %s %s >= %.2fx" % ("PASS" if value is not None and value >= target else "FAIL", name, shown, target))
met = sum(1 for _, value, target in checks if value is not None and value >= target)
print("%s: %d of %d targets met" % ("PASS" if met == len(checks) else "FAIL", met, len(checks)))
PY
