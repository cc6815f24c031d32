#!/usr/bin/env bash
# libFuzzer harnesses (Fuzz/*, issue 17 §1): build each with -sanitize=fuzzer,address (the C scanner
# with libFuzzer's coverage and ASan too) in .build-fuzz, then run it for SECONDS (default 60) on a
# working corpus seeded from the project's fixtures and ../shared/corpora (copied into
# .build-fuzz/corpus/NAME, never committed), after replaying every saved input in
# Fuzz/Regressions/NAME. A crash is saved under .build-fuzz/crashes/NAME and fails the run.
#
#   Scripts/fuzz.sh [SECONDS] [HARNESS ...]     e.g. Scripts/fuzz.sh 1800 FuzzHTML
#   Scripts/fuzz.sh ci                            CI: a fixed seed and a fixed number of inputs per
#                                                 harness (about 20 s each here), so a run is the same
#                                                 on every machine; saved inputs first
# FUZZ_TIMEOUT: seconds one input may take before libFuzzer calls it a hang (default 20; raise it
# when the machine is busy: a starved run reports timeouts that are not the code's).
# Exit status: 1 when a saved input fails (a regression), 2 when the run found a new failure.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
ci_runs() { # harness → inputs for the CI run
    case "$1" in
    FuzzHTML) echo 400 ;; FuzzSitemap) echo 2000 ;; FuzzURL) echo 20000 ;; FuzzRobots) echo 10000 ;;
    FuzzJSON) echo 25000 ;; FuzzAASA) echo 60000 ;; FuzzImage) echo 60000 ;; FuzzNumbers) echo 100000 ;;
    esac
}
harnesses=("$@")
if [ ${#harnesses[@]} -eq 0 ]; then
    harnesses=(FuzzHTML FuzzJSON FuzzURL FuzzRobots FuzzSitemap FuzzAASA FuzzImage FuzzNumbers)
fi
shared=${SHARED:-../shared}
scratch=.build-fuzz
flags=(-Xswiftc -sanitize=fuzzer,address -Xcc -fsanitize=fuzzer-no-link,address)

# The URL and robots.txt corpora are JSON case files: their inputs are split into one seed each
# (a robots seed is the URL path, a newline, then the file, as FuzzRobots reads it).
split_cases() { # harness, folder
    python3 - "$1" "$2" "$shared" <<'PYTHON'
import json, os, sys
harness, folder, shared = sys.argv[1:4]
seeds = []
try:
    if harness == "FuzzURL":
        for case in json.load(open(f"{shared}/corpora/urls/wpt_urltestdata_http.json")):
            if isinstance(case, dict) and "input" in case:
                seeds.append(case["input"])
    else:
        for case in json.load(open(f"{shared}/corpora/robots/cases.json")):
            url, body = case.get("url") or "", case.get("robots_txt") or ""
            path = "/" + url.split("/", 3)[-1] if url.count("/") >= 3 else "/"
            seeds.append(path + "\n" + body)
except OSError:
    pass
os.makedirs(folder, exist_ok=True)
for index, seed in enumerate(seeds[:2000]):
    with open(os.path.join(folder, f"case-{index}"), "w", encoding="utf-8") as out:
        out.write(seed)
PYTHON
}

seed() { # harness → its seed files (copied, so the fuzzer may add to the working corpus)
    case "$1" in
    FuzzHTML) find Fixtures/html Tests/MarkupExtractionTests/Pages "$shared/corpora/realpages" -name '*.html' 2>/dev/null ;;
    FuzzJSON) find Fixtures "$shared/corpora/extruct-samples" "$shared/corpora/jsonld-html" -name '*.json' -size -64k 2>/dev/null ;;
    FuzzURL | FuzzRobots) ;;
    FuzzSitemap) find Fixtures "$shared/corpora/sitemaps" \( -name '*.xml' -o -name '*.xml.gz' -o -name '*.txt' \) -size -256k 2>/dev/null ;;
    FuzzAASA) find Fixtures -name 'apple-app-site-association*' 2>/dev/null ;;
    FuzzImage) find Fixtures -name '*.png' -o -name '*.jpg' -o -name '*.gif' -o -name '*.webp' 2>/dev/null ;;
    FuzzNumbers) find Fuzz/Seeds/FuzzNumbers -type f 2>/dev/null ;;
    esac
}

status=0
for harness in "${harnesses[@]}"; do
    echo "== $harness: build"
    SPOTCHECK_FUZZ=1 swift build --scratch-path "$scratch" --product "$harness" "${flags[@]}" 2>&1 \
        | grep -E 'error|Compiling|Build' | grep -v 'Cannot export' | tail -3
    binary="$scratch/debug/$harness"
    corpus="$scratch/corpus/$harness"
    crashes="$scratch/crashes/$harness"
    mkdir -p "$corpus" "$crashes"
    case "$harness" in FuzzURL | FuzzRobots) split_cases "$harness" "$corpus" ;; esac
    seed "$harness" | head -2000 | while read -r file; do cp -n "$file" "$corpus/" 2>/dev/null || true; done
    if [ -d "Fuzz/Regressions/$harness" ]; then
        echo "== $harness: saved inputs"
        "$binary" -runs=0 "Fuzz/Regressions/$harness" > "$scratch/$harness-regressions.log" 2>&1 || {
            echo "$harness FAILS A SAVED INPUT: see $scratch/$harness-regressions.log"
            status=1
        }
    fi
    if [ "$seconds" = ci ]; then
        budget=(-seed=1 -runs="$(ci_runs "$harness")")
    else
        budget=(-max_total_time="$seconds")
    fi
    echo "== $harness: ${budget[*]}"
    if ! "$binary" "$corpus" "${budget[@]}" -timeout="${FUZZ_TIMEOUT:-20}" -rss_limit_mb=4096 \
        -artifact_prefix="$crashes/" -print_final_stats=1 > "$scratch/$harness.log" 2>&1; then
        echo "$harness FOUND A FAILURE: see $scratch/$harness.log and $crashes/ (add the input to Fuzz/Regressions/$harness with a unit test once fixed)"
        [ "$status" -eq 1 ] || status=2
    fi
    grep -E '^stat::(number_of_executed_units|new_units_added|peak_rss_mb)|cov: .*ft:' "$scratch/$harness.log" | tail -4
done
exit $status
