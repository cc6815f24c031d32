#!/usr/bin/env bash
# The tests under AddressSanitizer (Swift and C) and UndefinedBehaviorSanitizer (the C scanner:
# Swift has no -sanitize=undefined on Linux, and its own arithmetic and bounds are checked in every
# build), in their own build folder (.build-sanitize) (issue 17 §1). Any report fails the run:
# ASan aborts on the first error and UBSan is built not to recover.
#
# Which tests: every suite that parses, builds, checks, stores or reports (the C scanner, the
# lenient JSON parser, the binary payload codec and the typed report, robots.txt, sitemaps, AASA,
# URLs, images, the attribute set, the rules, the stores, the reports), the crawls over an
# in-memory fetcher, and the suites on real loopback
# sockets where C meets the network: libcurl's multi loop (PageFetchingTests: timeouts, TLS,
# HTTP/2 and raw-reply torture), the loopback servers, and the crawls of the torture site
# (CrawlTests). Left out for CI's time: the suites that run the spotcheck executable as a child
# (they cover the same code in-process elsewhere). SPOTCHECK_SANITIZED disables the one test whose
# 2 s deadline ASan's slowdown alone exceeds (FolderServerTests' keep-alive close).
#
#   Scripts/sanitize.sh [swift test arguments, e.g. --filter MarkupExtractionTests]
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=.build-sanitize
flags=(--sanitize=address -Xcc -fsanitize=undefined -Xcc -fno-sanitize-recover=undefined)
swift build --build-tests --scratch-path "$scratch" "${flags[@]}" 2>&1 | grep -E 'error|warning: .*sanitiz|Compiling|Build' \
    | grep -v 'Cannot export' | tail -3
# LeakSanitizer is off: the Swift runtime keeps metadata and caches for the process's life, which it
# reports as leaks; what ASan checks here is memory safety (overflows, use after free).
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:handle_abort=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# Swift's crash backtracer reads other threads' memory, which ASan reports as an overflow.
export SWIFT_BACKTRACE=enable=no
# A temporary folder of the run's own, removed afterwards (as Scripts/with-postgres.sh does).
scratch_tmp=$(mktemp -d /tmp/spotcheck-sanitize.XXXXXX)
trap 'rm -rf "$scratch_tmp"' EXIT
export TMPDIR="$scratch_tmp"
if [ $# -eq 0 ]; then
    set -- --filter '^(MarkupExtractionTests|LenientJSONTests|RobotsExclusionTests|SitemapsTests|UniversalLinksTests|ImageSniffingTests|URLNormalizationTests|SpotlightModelTests|VerificationTests|PageAnalysisTests|CrawlStoreTests|CrawlSchedulingTests|RedirectFollowingTests|ProjectConfigurationTests|ReportsTests|SpotlightIndexTests|CompactBinaryTests|ReportModelTests)\.' \
        --filter '^CrawlingTests\.(InMemoryCrawlTests|ImageBoundsTests|SitemapConcurrencyTests|HostGateTests|CrawlTests|ReportPassTests|BigValueTests)' \
        --filter '^(PageFetchingTests|LoopbackServerTests)\.'
fi
export SPOTCHECK_SANITIZED=1
swift test --skip-build --scratch-path "$scratch" "${flags[@]}" "$@"
