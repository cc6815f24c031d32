#!/usr/bin/env bash
# Runs a command with a throwaway PostgreSQL cluster (Scripts/postgres-cluster.sh): its URL in
# SPOTCHECK_TEST_POSTGRES and its folder in SPOTCHECK_TEST_POSTGRES_DIR (the restart tests stop and
# start it), stopped and removed afterwards whatever the command's outcome. `make test` runs the
# tests this way, so the PostgreSQL tests never skip there.
#
# The command also gets a temporary folder of its own (TMPDIR, which NSTemporaryDirectory() and
# Foundation's atomic writes use), removed afterwards: the tests' crawl folders, stores and child
# logs do not pile up in /tmp run after run.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d /tmp/spotcheck-postgres.XXXXXX)
scratch=$(mktemp -d /tmp/spotcheck-tests.XXXXXX)
trap '"$here/postgres-cluster.sh" stop "$dir"; rm -rf "$scratch"' EXIT
export TMPDIR="$scratch"
url=$("$here/postgres-cluster.sh" start "$dir")
export SPOTCHECK_TEST_POSTGRES="$url"
export SPOTCHECK_TEST_POSTGRES_DIR="$dir"
"$@"
