#!/usr/bin/env bash
# Validates SARIF files with an independent SARIF 2.1.0 object model: sarif-pydantic (PyPI),
# installed into .venv-sarif. Usage: Scripts/check-sarif.sh FILE.sarif...
# Exit 0 when every file validates, 1 when one does not, 3 when the validator cannot be installed.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.venv-sarif
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import sarif_pydantic" 2>/dev/null; then
    python3 -m venv "$venv" >/dev/null
    if ! "$venv/bin/pip" install --quiet "sarif-pydantic==0.6.2" >/dev/null 2>&1; then
        echo "check-sarif: cannot install sarif-pydantic from PyPI; SARIF not validated" >&2
        exit 3
    fi
fi
"$venv/bin/python" - "$@" <<'PY'
import json, sys
import sarif_pydantic
failed = 0
for path in sys.argv[1:]:
    try:
        log = sarif_pydantic.Sarif.model_validate(json.load(open(path, encoding="utf-8")))
        results = sum(len(run.results or []) for run in log.runs)
        print(f"{path}: valid SARIF {log.version} (sarif-pydantic 0.6.2), {results} results")
    except Exception as error:  # pydantic.ValidationError and JSON errors
        failed = 1
        print(f"{path}: INVALID: {error}", file=sys.stderr)
sys.exit(failed)
PY
