#!/usr/bin/env bash
# `make package-check` (issue 34 §3): the two packages `make package` made, each installed in a
# clean Debian 12 root that has no Swift toolchain and none of SpotCheck's libraries:
#   1. the .deb, installed by apt (which must resolve every dependency from the package's Depends
#      alone: --no-install-recommends);
#   2. the tarball, unpacked as its own README says, after apt installed only the libraries its
#      README names (the same dpkg-shlibdeps list as the .deb's Depends).
# In each: `ldd` must resolve every library, each from a Debian package and none from a Swift
# toolchain; `spotcheck --version` must print the built version; the fixture crawl (make demo's)
# must succeed and its report.json must equal the one .build/release/spotcheck writes, timestamps,
# timings and absolute paths aside; `man spotcheck` must render (man-db installed afterwards) and
# the bash completion must load. Then Scripts/check-install-recipes.sh runs docs/install.md's CI
# recipes against the same files.
# Skipped (exit 0, loudly) only when Debian's package registry cannot be reached.
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$(pwd)
source Scripts/clean-root.sh

BIN=.build/release/spotcheck
WORK=$CLEAN_ROOT_DIR
started=$SECONDS

fail() {
    echo "PACKAGE CHECK FAILED: $*" >&2
    exit 1
}

[ -x "$BIN" ] || fail "$BIN is missing: run \`make package\` first"
VERSION=$("$BIN" --version)
DEB=dist/spotcheck_${VERSION}_$(dpkg --print-architecture).deb
TAR_DIR=spotcheck-${VERSION}-linux-$(uname -m)
TAR=dist/$TAR_DIR.tar.gz
[ -f "$DEB" ] || fail "$DEB is missing: run \`make package\` first"
[ -f "$TAR" ] || fail "$TAR is missing: run \`make package\` first"

trap clean_root_cleanup EXIT
clean_root_prepare

# The reference: the fixture crawl by the release build, in a folder laid out as the roots' are:
# the same relative paths, no .spotcheck.json above it, and outside any git repository (a page's
# file is named relative to the repository's root when there is one).
CRAWL=(crawl Fixtures/html --items Fixtures/items.json --app-id 1234567890
    --app ABCDE12345.com.example.familycinema --format json,sarif,junit,html --output reports/fixture --quiet)
reference=$(mktemp -d /tmp/spotcheck-reference.XXXXXX)
cp -R Fixtures "$reference/Fixtures"
(cd "$reference" && "$REPO/$BIN" "${CRAWL[@]}") || fail "the reference crawl by $BIN failed"
python3 Scripts/normalise-report.py "$reference/reports/fixture/report.json" "$reference" >"$WORK/reference.json"
rm -rf "$reference"

# The checks made inside a root once spotcheck is installed; $1: where its man page must be found.
inside_checks() {
    cat <<EOF
echo "--- ldd /usr/bin/spotcheck or /usr/local/bin/spotcheck"
binary=\$(command -v spotcheck)
ldd "\$binary" | tee /tmp/ldd.txt
if grep -q "not found" /tmp/ldd.txt; then echo "a library is missing (not found above)"; exit 1; fi
if grep -E -q "/opt/swift|libswift|libFoundation|libdispatch|libBlocksRuntime|_FoundationICU" /tmp/ldd.txt; then
    echo "the binary reaches for the Swift toolchain's libraries"; exit 1
fi
# Every library it loads is a file of an installed Debian package (the merged /usr: ldd may name
# /lib/... for a file the package lists as /usr/lib/..., or the other way round).
for library in \$(awk '\$2 == "=>" { print \$3 } \$1 ~ /^\// { print \$1 }' /tmp/ldd.txt); do
    other=\${library#/usr}
    [ "\$other" = "\$library" ] && other=/usr\$library
    owner=\$(dpkg -S "\$library" 2>/dev/null || dpkg -S "\$other" 2>/dev/null || true)
    if [ -z "\$owner" ]; then echo "\$library belongs to no installed package"; exit 1; fi
    echo "  \$library: \${owner%%:*}"
done
if [ -e /opt/swift ] || command -v swift swiftc; then echo "a Swift toolchain is in the root"; exit 1; fi
echo "--- spotcheck --version"
test "\$(spotcheck --version)" = "$VERSION"
echo "--- the fixture crawl"
cd /tmp/work
spotcheck ${CRAWL[*]}
test -s reports/fixture/report.json -a -s reports/fixture/index.html -a -s reports/fixture/findings.sarif -a -s reports/fixture/junit.xml
echo "--- man spotcheck (man-db installed now)"
apt-get install -y -qq --no-install-recommends man-db >/dev/null
# (Debian's /usr/local/man is a link to share/man, which man -w may name.)
test "\$(readlink -f "\$(man -w spotcheck)")" = "$1"
MANWIDTH=80 man spotcheck >/tmp/man.txt 2>/tmp/man-errors.txt
head -12 /tmp/man.txt
test ! -s /tmp/man-errors.txt
grep -q "^SYNOPSIS" /tmp/man.txt
grep -q "spotcheck crawl" /tmp/man.txt
echo "--- the bash completion loads"
bash -c 'source /usr/share/bash-completion/completions/spotcheck 2>/dev/null || source /usr/local/share/bash-completion/completions/spotcheck; complete -p spotcheck'
EOF
}

# Copies the fixtures into a root, runs the checks, compares its report.json with the reference.
check_root() {
    local root=$1 label=$2 man_path=$3
    mkdir -p "$root/tmp/work"
    cp -R Fixtures "$root/tmp/work/Fixtures"
    clean_root_run "$root" "$(inside_checks "$man_path")" || fail "$label: a check inside the clean root failed (above)"
    python3 Scripts/normalise-report.py "$root/tmp/work/reports/fixture/report.json" /tmp/work >"$WORK/$label.json"
    if ! diff -u "$WORK/reference.json" "$WORK/$label.json" >"$WORK/$label.diff"; then
        head -60 "$WORK/$label.diff" >&2
        fail "$label: report.json differs from $BIN's (normalised; the whole diff: $WORK/$label.diff)"
    fi
    echo "$label: report.json equals $BIN's (timestamps, timings and paths aside)"
}

# 1. The .deb.
deb_root=$WORK/root-deb
step=$SECONDS
clean_root_new "$deb_root"
cp "$DEB" "$deb_root/tmp/"
echo "=== $DEB in a clean root: apt-get install --no-install-recommends"
clean_root_run "$deb_root" "apt-get install -y -qq --no-install-recommends /tmp/$(basename "$DEB") && dpkg -L spotcheck" ||
    fail "apt could not install $DEB in a clean Debian 12 root"
check_root "$deb_root" deb /usr/share/man/man1/spotcheck.1.gz
echo "=== the .deb: passed in $((SECONDS - step)) s"

# 2. The tarball, installed by the commands of its own README (run as root, so without sudo).
tar_root=$WORK/root-tar
step=$SECONDS
clean_root_new "$tar_root"
tar -xzf "$TAR" -C "$tar_root/tmp" "$TAR_DIR/README.md"
readme=$tar_root/tmp/$TAR_DIR/README.md
apt_line=$(grep -E '^ +sudo apt-get install ' "$readme" | sed -E 's/^ +sudo //') || fail "no apt-get line in the tarball's README"
tar_line=$(grep -E '^ +sudo tar -xzf ' "$readme" | sed -E 's/^ +sudo //') || fail "no tar line in the tarball's README"
rm -rf "${tar_root:?}/tmp/$TAR_DIR"
cp "$TAR" "$tar_root/tmp/"
echo "=== $TAR in a clean root: $apt_line; $tar_line"
clean_root_run "$tar_root" "$apt_line -y -qq && cd /tmp && $tar_line && test -x /usr/local/bin/spotcheck" ||
    fail "the tarball's README commands failed in a clean Debian 12 root"
check_root "$tar_root" tarball /usr/local/share/man/man1/spotcheck.1
echo "=== the tarball: passed in $((SECONDS - step)) s"

# 3. docs/install.md's CI recipes, run against the same files.
step=$SECONDS
Scripts/check-install-recipes.sh "$deb_root"
echo "=== the install recipes: passed in $((SECONDS - step)) s"

clean_root_remove "$deb_root"
clean_root_remove "$tar_root"
echo "package-check passed in $((SECONDS - started)) s: $DEB and $TAR install and run in clean Debian 12 roots"
