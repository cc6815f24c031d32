#!/usr/bin/env bash
# Runs a command with a throwaway PostgreSQL cluster (Scripts/postgres-cluster.sh): its URL in
# SPOTCHECK_TEST_POSTGRES and its folder in SPOTCHECK_TEST_POSTGRES_DIR (the restart tests stop and
# start it), stopped and removed afterwards whatever the command's outcome. `make test` runs the
# tests this way, so the PostgreSQL tests never skip there.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d /tmp/spotcheck-postgres.XXXXXX)
trap '"$here/postgres-cluster.sh" stop "$dir"' EXIT
url=$("$here/postgres-cluster.sh" start "$dir")
export SPOTCHECK_TEST_POSTGRES="$url"
export SPOTCHECK_TEST_POSTGRES_DIR="$dir"
"$@"
