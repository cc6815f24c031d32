#!/usr/bin/env bash
# The install recipes of docs/install.md, run against the packages in dist/ (issue 34 §4), so the
# commands a reader copies are the ones that were tested. Each marked block (`<!-- recipe: NAME -->`
# before a fenced block; Scripts/install_recipes.py turns it into the shell its CI service runs):
#   baseline        run where the .deb is installed (ROOT, the argument; else a clean root with the
#                   .deb installed), in a copy of the fixture site named `site`, as a project does
#                   once: it writes spotcheck-baseline.json;
#   github-actions, gitlab-ci
#                   each in a clean Debian 12 root (the debian:12 image the recipes name), in a
#                   "repository" holding `site` and that baseline: the recipe installs curl, fetches
#                   the .deb by its release URL (SPOTCHECK_URL pointed at dist/, served on 127.0.0.1,
#                   laid out as a GitHub release: v<version>/<file>), installs it with apt and
#                   crawls. It must pass (exit 0, no new finding); then, with a new error put into
#                   one page, it must fail (exit 1) and name it (a GitHub ::error annotation; the
#                   GitLab Code Quality artifact).
# Recipes other than these three make the check fail: each must be tested here.
# Skipped (exit 0, loudly) only when Debian's package registry cannot be reached.
set -euo pipefail
cd "$(dirname "$0")/.."
source Scripts/clean-root.sh

DOC=docs/install.md
BIN=.build/release/spotcheck
WORK=$CLEAN_ROOT_DIR/recipes
PYTHON=/usr/bin/python3 # Debian's, with python3-yaml

fail() {
    echo "INSTALL RECIPE CHECK FAILED: $*" >&2
    exit 1
}

[ -x "$BIN" ] || fail "$BIN is missing: run \`make package\` first"
VERSION=$("$BIN" --version)
DEB_FILE=spotcheck_${VERSION}_$(dpkg --print-architecture).deb
[ -f "dist/$DEB_FILE" ] || fail "dist/$DEB_FILE is missing: run \`make package\` first"
Scripts/install-deps.sh python3-yaml jq

server_pid=""
cleanup() {
    if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; fi
    clean_root_cleanup
}
trap cleanup EXIT
clean_root_prepare

recipe() { "$PYTHON" Scripts/install_recipes.py "$DOC" "$@"; }

listed=$(recipe --list)
echo "$listed" | sed 's/^/recipe: /'
unknown=$(awk '$1 != "baseline" && $1 != "github-actions" && $1 != "gitlab-ci"' <<<"$listed")
[ -z "$unknown" ] || fail "$DOC has recipes this check does not run: $unknown"
for name in baseline github-actions gitlab-ci; do
    grep -q "^$name " <<<"$listed" || fail "$DOC has no recipe named $name"
done

rm -rf "$WORK"
mkdir -p "$WORK/releases/v$VERSION"
cp "dist/$DEB_FILE" "$WORK/releases/v$VERSION/"

# dist/ as a GitHub release on loopback (the roots share this network namespace).
"$PYTHON" -c '
import functools, http.server, sys
class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *arguments):
        pass
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=sys.argv[1]))
with open(sys.argv[2], "w") as port:
    port.write(str(server.server_port))
server.serve_forever()
' "$WORK/releases" "$WORK/port" &
server_pid=$!
for _ in $(seq 50); do [ -s "$WORK/port" ] && break; sleep 0.1; done
[ -s "$WORK/port" ] || fail "the loopback release server did not start"
overrides="SPOTCHECK_URL=http://127.0.0.1:$(cat "$WORK/port")
SPOTCHECK_VERSION=$VERSION"
for name in github-actions gitlab-ci; do
    pinned=$(recipe "$name" --env | sed -n 's/^SPOTCHECK_VERSION=//p')
    if [ "$pinned" != "$VERSION" ]; then
        echo "note: $DOC's $name recipe pins SPOTCHECK_VERSION=$pinned; checked with the built $VERSION"
    fi
done

# The project's repository: its site's pages and, once the baseline recipe ran, its baseline.
make_repository() {
    local root=$1
    rm -rf "$root/tmp/repository"
    mkdir -p "$root/tmp/repository"
    cp -R Fixtures/html "$root/tmp/repository/site"
}

# 1. The baseline, written by the installed spotcheck.
baseline_root=${1:-}
if [ -z "$baseline_root" ]; then
    baseline_root=$WORK/root-baseline
    clean_root_new "$baseline_root"
    cp "dist/$DEB_FILE" "$baseline_root/tmp/"
    clean_root_run "$baseline_root" "apt-get install -y -qq --no-install-recommends /tmp/$DEB_FILE" ||
        fail "apt could not install dist/$DEB_FILE"
fi
make_repository "$baseline_root"
recipe baseline >"$baseline_root/tmp/recipe-baseline.sh"
echo "=== recipe baseline"
cat "$baseline_root/tmp/recipe-baseline.sh"
clean_root_run "$baseline_root" 'cd /tmp/repository && bash /tmp/recipe-baseline.sh >/tmp/recipe-baseline.log 2>&1' ||
    { tail -20 "$baseline_root/tmp/recipe-baseline.log"; fail "the baseline recipe failed"; }
baseline=$baseline_root/tmp/repository/spotcheck-baseline.json
[ -s "$baseline" ] || fail "the baseline recipe wrote no spotcheck-baseline.json"
cp "$baseline" "$WORK/spotcheck-baseline.json"
echo "baseline: $(jq '.findings | length' "$WORK/spotcheck-baseline.json") findings accepted"

# A new error on a page the crawl reaches: a JSON-LD block that is not JSON (SD001, an error).
break_a_page() {
    local page=$1/tmp/repository/site/index.html
    sed -i 's|</head>|<script type="application/ld+json">{"@context": "https://schema.org", "@type": "Movie",}</script>\n</head>|' "$page"
    grep -q '"Movie",}' "$page" || fail "could not add the new error to $page"
}

# run_recipe ROOT NAME LABEL: the recipe in the repository; prints its exit status.
run_recipe() {
    local root=$1 name=$2 label=$3 status=0
    recipe "$name" >"$root/tmp/recipe-$name.sh"
    printf '%s\n' "$overrides" >"$root/tmp/recipe-overrides"
    clean_root_run "$root" "cd /tmp/repository && RECIPE_OVERRIDES=\$(cat /tmp/recipe-overrides) bash /tmp/recipe-$name.sh" \
        >"$WORK/$name-$label.log" 2>&1 || status=$?
    echo "$status"
}

for name in github-actions gitlab-ci; do
    step=$SECONDS
    root=$WORK/root-$name
    clean_root_new "$root"
    echo "=== recipe $name, as run in a clean debian:12"
    recipe "$name"

    make_repository "$root"
    cp "$WORK/spotcheck-baseline.json" "$root/tmp/repository/"
    status=$(run_recipe "$root" "$name" known)
    if [ "$status" -ne 0 ]; then
        tail -30 "$WORK/$name-known.log" >&2
        fail "$name: the recipe failed (exit $status) on the site its baseline accepts"
    fi
    clean_root_run "$root" 'dpkg -s spotcheck | grep -q "^Status: install ok installed"' ||
        fail "$name: the recipe did not install the package"
    if [ "$name" = github-actions ] && grep -q '^::error' "$WORK/$name-known.log"; then
        fail "$name: error annotations although the baseline accepts every finding"
    fi
    if [ "$name" = gitlab-ci ]; then
        artifact=$(recipe "$name" --artifact codequality)
        report=$root/tmp/repository/$artifact
        [ -f "$report" ] || fail "$name: no Code Quality report at $artifact"
        [ "$(jq length "$report")" -eq 0 ] || fail "$name: $artifact lists findings the baseline accepts"
    fi
    echo "$name: exit 0 on the accepted site"

    make_repository "$root"
    cp "$WORK/spotcheck-baseline.json" "$root/tmp/repository/"
    break_a_page "$root"
    status=$(run_recipe "$root" "$name" new-error)
    [ "$status" -eq 1 ] || { tail -30 "$WORK/$name-new-error.log" >&2; fail "$name: exit $status, not 1, with a new error"; }
    if [ "$name" = github-actions ]; then
        grep '^::error' "$WORK/$name-new-error.log" | grep -q 'SpotCheck SD' ||
            fail "$name: no ::error annotation for the new JSON-LD error"
        grep '^::error' "$WORK/$name-new-error.log" | head -3
    else
        jq -e 'map(select(.check_name | startswith("SD"))) | length > 0' "$report" >/dev/null ||
            fail "$name: $artifact does not name the new JSON-LD error"
        jq -c '.[] | {check_name, severity, location}' "$report" | head -3
    fi
    echo "$name: exit 1 with a new error, which it names; passed in $((SECONDS - step)) s"
    clean_root_remove "$root"
done
echo "install recipes passed: baseline, github-actions, gitlab-ci"
