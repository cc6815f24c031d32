#!/usr/bin/env bash
# Opens a SpotCheck HTML report in headless Chromium and checks it (issue 6 §4, issue 15 §6): no
# console errors, no script but the report's own (the hostile fixture page runs nothing), no
# network request while the overview loads, every in-report link resolves, the page list is most
# severe first, filter and sort work. Installs Debian's chromium when missing.
#
#   Scripts/check-html-report.sh REPORT_DIR [--hostile URL-PART] [--detail URL-PART]
#       [--screenshots DIR] [--images-from FOLDER] [--simulate deuteranopia]
# Options go to Scripts/html_report_browser.py (see there). Exit 0 when the report passes, 1 when
# it does not, 3 when Chromium cannot be installed or started.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 1 ] || [ ! -f "$1/index.html" ]; then
    echo "usage: Scripts/check-html-report.sh REPORT_DIR [options]  (REPORT_DIR/index.html must exist)" >&2
    exit 64
fi
report="$1/index.html"
shift
if ! command -v chromium >/dev/null 2>&1; then
    if ! Scripts/install-deps.sh chromium; then
        echo "check-html-report: cannot install Debian's chromium (apt-get); the report was not checked" >&2
        exit 3
    fi
fi
if ! chromium --headless --no-sandbox --disable-gpu --dump-dom about:blank >/dev/null 2>&1; then
    echo "check-html-report: chromium does not start headless here; the report was not checked" >&2
    exit 3
fi
exec python3 Scripts/html_report_browser.py "$report" "$@"
