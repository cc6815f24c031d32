#!/usr/bin/env bash
# Checks the machine formats of report folders with independent validators (Scripts/check_formats.py):
# findings.sarif against the official SARIF 2.1.0 JSON Schema with format checks (jsonschema's
# FormatChecker with rfc3986-validator, from PyPI, installed into .venv-formats), report.json against
# docs/report.schema.json, and junit.xml's tests/failures counts.
# Usage: Scripts/check-formats.sh FOLDER...   (each holds report.json and, when written, findings.sarif and junit.xml)
# Exit 0 when every file passes, 1 when one does not, 3 when the validators cannot be installed.
set -euo pipefail
cd "$(dirname "$0")/.."
sarif_schema=${SARIF_SCHEMA:-../shared/corpora/sarif/sarif-schema-2.1.0.json}
if [ ! -f "$sarif_schema" ]; then
    echo "check-formats: $sarif_schema not found (set SARIF_SCHEMA)" >&2
    exit 1
fi
venv=.venv-formats
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import jsonschema, rfc3986_validator" 2>/dev/null; then
    python3 -m venv "$venv" >/dev/null
    if ! "$venv/bin/pip" install --quiet "jsonschema==4.26.0" "rfc3986-validator==0.1.1" >/dev/null 2>&1; then
        echo "check-formats: cannot install jsonschema and rfc3986-validator from PyPI; formats not checked" >&2
        exit 3
    fi
fi
sarif=() reports=() junit=()
for folder in "$@"; do
    [ -f "$folder/findings.sarif" ] && sarif+=("$folder/findings.sarif")
    [ -f "$folder/report.json" ] && reports+=("$folder/report.json")
    [ -f "$folder/junit.xml" ] && junit+=("$folder/junit.xml")
done
if [ ${#sarif[@]} -eq 0 ] || [ ${#junit[@]} -eq 0 ]; then
    echo "check-formats: no findings.sarif or no junit.xml in $*" >&2
    exit 1
fi
exec "$venv/bin/python" Scripts/check_formats.py --sarif-schema "$sarif_schema" --sarif "${sarif[@]}" \
    --report-schema docs/report.schema.json --report "${reports[@]}" --junit "${junit[@]}"
