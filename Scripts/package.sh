#!/usr/bin/env bash
# `make package` (issue 34): the Debian package and the release tarball, made from the one release
# build (`make release`, linked with --static-swift-stdlib) so that neither needs a Swift toolchain:
#   dist/spotcheck_<version>_<deb arch>.deb            /usr/bin/spotcheck, man page, completions
#   dist/spotcheck-<version>-linux-<machine>.tar.gz    the same under bin/ and share/, README, notices
#   dist/SHA256SUMS
# Nothing here is hand-written about the binary: the version is what `spotcheck --version` prints
# (CrawlSettings.toolVersion), the man page comes from the command definitions (the generate-manual
# tool of swift-argument-parser's plugin, which reads `--experimental-dump-help`), the completions from
# `--generate-completion-script`, and `Depends:` from dpkg-shlibdeps on the binary's ELF NEEDED
# entries (each library mapped to its Debian package with `dpkg -S`, versions from its symbols file).
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$(pwd)

BIN=.build/release/spotcheck
DIST=dist
WORK=.build/package
# Debian needs a Maintainer; the project's own commit identity unless DEB_MAINTAINER says otherwise.
MAINTAINER=${DEB_MAINTAINER:-$(git log -1 --format='%an <%ae>' 2>/dev/null || true)}
# Reproducible timestamps (dpkg-deb, tar, the man page's date): the last commit's, unless set.
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}

fail() {
    echo "package: $*" >&2
    exit 1
}

[ -x "$BIN" ] || fail "$BIN is missing: run \`make release\` first (make package does)"
[ -n "$MAINTAINER" ] || fail "no Maintainer for the .deb: set DEB_MAINTAINER=\"Name <email>\""
# dpkg-shlibdeps (dpkg-dev), strip (binutils), jq (the dependency versions) and man-db (to check
# that the man page renders); install-deps.sh installs what is missing.
Scripts/install-deps.sh dpkg-dev binutils jq man-db

# The one version: the binary's own answer.
VERSION=$("$BIN" --version)
[[ "$VERSION" =~ ^[0-9]+\.[0-9]+\.[0-9]+([~+.-][0-9A-Za-z.~+-]+)?$ ]] || fail "unexpected --version output: '$VERSION'"
DEB_ARCH=$(dpkg --print-architecture) # amd64, arm64: Debian's names, for the .deb
MACHINE=$(uname -m)                   # x86_64, aarch64: the names release tarballs use
DEB_NAME=spotcheck_${VERSION}_${DEB_ARCH}.deb
TAR_DIR=spotcheck-${VERSION}-linux-${MACHINE}
TAR_NAME=${TAR_DIR}.tar.gz

# The Swift runtime must be inside the binary (--static-swift-stdlib): a library from the toolchain
# in ldd's list would be missing on every machine without Swift.
TOOLCHAIN=$(dirname "$(dirname "$(readlink -f "$(command -v swiftc)")")")
LDD=$(ldd "$BIN")
if grep -E "not found|${TOOLCHAIN}|/opt/swift|libswift|libFoundation|libdispatch|libBlocksRuntime" <<<"$LDD"; then
    fail "$BIN needs the Swift toolchain's libraries (above): build it with \`swift build -c release --static-swift-stdlib\` (make release)"
fi

rm -rf "$WORK"
mkdir -p "$WORK" "$DIST"
rm -f "$DIST/$DEB_NAME" "$DIST/$TAR_NAME" "$DIST/SHA256SUMS"

# The shipped binary: stripped, as Debian ships binaries (the symbol table and debug info are a
# large part of a Swift release binary and no part of what it does).
strip --strip-all -o "$WORK/spotcheck" "$BIN"
chmod 0755 "$WORK/spotcheck"

# The man page, from the command definitions: swift-argument-parser's generate-manual, the tool its
# `generate-manual` command plugin runs, reading `spotcheck --experimental-dump-help`. The tool is
# built here as a product of the package graph and run on the release binary, because the plugin
# itself first builds the whole package again with its own parameters (release without
# --static-swift-stdlib), which recompiles every Swift module: a second release build (seen here:
# it recompiled swift-nio, Hummingbird, PostgresNIO … until stopped). Built with make release's
# parameters, only the tool's own modules and link are new. The date is the last commit's, so the
# same commit gives the same page.
MAN_DATE=$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%d)
swift build -c release --static-swift-stdlib --product generate-manual >"$WORK/generate-manual.log" 2>&1 ||
    { cat "$WORK/generate-manual.log" >&2; fail "could not build swift-argument-parser's generate-manual"; }
mkdir -p "$WORK/man"
.build/release/generate-manual "$BIN" --date "$MAN_DATE" --section 1 --output-directory "$WORK/man" ||
    fail "generate-manual failed on $BIN"
[ -s "$WORK/man/spotcheck.1" ] || fail "generate-manual wrote no spotcheck.1"
# generate-manual copies a discussion's blank lines (between its paragraphs) into the page, where
# mdoc wants its paragraph macro: groff warns "Empty input line" for each. `.Pp` is the macro the
# tool itself puts between an abstract and its discussion.
sed 's/^$/.Pp/' "$WORK/man/spotcheck.1" >"$WORK/spotcheck.1"
# groff must render it without a warning (a malformed page would show as raw requests).
if ! MANWIDTH=80 man --warnings -l "$WORK/spotcheck.1" 2>"$WORK/man-warnings.txt" >/dev/null ||
    [ -s "$WORK/man-warnings.txt" ]; then
    cat "$WORK/man-warnings.txt" >&2
    fail "the generated man page does not render cleanly"
fi

# The completion scripts, from the same command definitions.
for shell in bash zsh fish; do
    "$WORK/spotcheck" --generate-completion-script "$shell" >"$WORK/completion.$shell"
    [ -s "$WORK/completion.$shell" ] || fail "--generate-completion-script $shell printed nothing"
done
bash -n "$WORK/completion.bash" || fail "the bash completion script does not parse"

# Third-party notices: every Swift package the build resolved (what the binary uses of them is
# linked into it), with its version, then the Swift runtime's licence (linked statically too).
notices=$WORK/THIRD-PARTY-NOTICES
{
    echo "SpotCheck $VERSION is linked statically with the Swift runtime and with the Swift packages its"
    echo "build resolved (the code of theirs it uses). Each section below is one of them, with its"
    echo "version, and its licence and notice files as it ships them."
    echo
    jq -r '.object.dependencies[] | "\(.packageRef.identity) \(.state.checkoutState.version // .state.checkoutState.revision // "unknown")"' \
        .build/workspace-state.json | sort | while read -r identity version; do
        folder=$(jq -r --arg id "$identity" '.object.dependencies[] | select(.packageRef.identity == $id) | .subpath' \
            .build/workspace-state.json)
        for file in .build/checkouts/"$folder"/{LICENSE,LICENSE.txt,LICENSE.md,COPYING,NOTICE,NOTICE.txt}; do
            [ -f "$file" ] || continue
            printf '==== %s %s: %s ====\n\n' "$identity" "$version" "$(basename "$file")"
            cat "$file"
            echo
        done
    done
    runtime_licence=$TOOLCHAIN/share/swift/LICENSE.txt
    [ -f "$runtime_licence" ] || fail "the Swift runtime's licence is not at $runtime_licence"
    printf '==== the Swift runtime and Foundation (%s): LICENSE.txt ====\n\n' "$(swiftc --version 2>/dev/null | head -1)"
    cat "$runtime_licence"
} >"$notices"

# SpotCheck's own licence, when the repository has one.
LICENSE_FILE=""
if [ -f LICENSE ]; then
    LICENSE_FILE=LICENSE
else
    echo "package: WARNING: the repository has no LICENSE file, so neither package carries SpotCheck's own licence" >&2
fi

INSTALLED_DOC=/usr/share/doc/spotcheck

# ---- the Debian package ----
root=$WORK/deb
install -D -m 0755 "$WORK/spotcheck" "$root/usr/bin/spotcheck"
install -d "$root/usr/share/man/man1"
gzip -9n <"$WORK/spotcheck.1" >"$root/usr/share/man/man1/spotcheck.1.gz"
install -D -m 0644 "$WORK/completion.bash" "$root/usr/share/bash-completion/completions/spotcheck"
install -D -m 0644 "$WORK/completion.zsh" "$root/usr/share/zsh/vendor-completions/_spotcheck"
install -D -m 0644 "$WORK/completion.fish" "$root/usr/share/fish/vendor_completions.d/spotcheck.fish"
install -D -m 0644 "$notices" "$root$INSTALLED_DOC/copyright"
if [ -n "$LICENSE_FILE" ]; then install -m 0644 "$LICENSE_FILE" "$root$INSTALLED_DOC/LICENSE"; fi
install -d "$root/DEBIAN"
# Depends: dpkg-shlibdeps reads the binary's NEEDED entries (the libraries it links directly; each
# brings its own dependencies through its package). It runs as debhelper runs it: on the binary in
# the staged package tree (beside its DEBIAN folder), from a folder with a debian/control.
mkdir -p "$WORK/shlibdeps/debian"
printf 'Source: spotcheck\n\nPackage: spotcheck\nArchitecture: any\n' >"$WORK/shlibdeps/debian/control"
DEPENDS=$(cd "$WORK/shlibdeps" && dpkg-shlibdeps -O -e"$REPO/$root/usr/bin/spotcheck" 2>"$REPO/$WORK/shlibdeps.log" |
    sed -n 's/^shlibs:Depends=//p') || { cat "$WORK/shlibdeps.log" >&2; fail "dpkg-shlibdeps failed"; }
[ -n "$DEPENDS" ] || fail "dpkg-shlibdeps found no dependency"
# The bare package names (the first of any alternatives), for the tarball's README.
DEPENDS_NAMES=$(tr ',' '\n' <<<"$DEPENDS" | sed -E 's/\|.*//; s/\(.*\)//; s/[[:space:]]//g' | grep -v '^$' | tr '\n' ' ')
DEPENDS_NAMES=${DEPENDS_NAMES% }

cat >"$root/DEBIAN/control" <<EOF
Package: spotcheck
Version: $VERSION
Architecture: $DEB_ARCH
Maintainer: $MAINTAINER
Installed-Size: $(du -sk --exclude=DEBIAN "$root" | cut -f1)
Depends: $DEPENDS
Recommends: chromium
Suggests: postgresql-client
Section: web
Priority: optional
Description: checks the web markup Apple's app search reads
 SpotCheck checks the Smart App Banner, Open Graph, Twitter card and App Links
 tags and schema.org data (JSON-LD, Microdata, RDFa) of a site's pages against
 a cited catalogue of rules, crawls a site as Applebot would, and writes
 reports for people (terminal, HTML) and for CI (report.json, SARIF, JUnit,
 GitHub annotations, GitLab Code Quality).
 .
 chromium serves \`spotcheck crawl --render\`; the PostgreSQL client is only a
 convenience for \`--store postgres://…\` (spotcheck speaks the protocol itself).
EOF
dpkg-deb --root-owner-group -Zxz --build "$root" "$DIST/$DEB_NAME" >/dev/null

# ---- the tarball: a /usr/local-style tree, so `tar -x --strip-components=1 -C /usr/local` installs it ----
tree=$WORK/tar/$TAR_DIR
install -D -m 0755 "$WORK/spotcheck" "$tree/bin/spotcheck"
install -D -m 0644 "$WORK/spotcheck.1" "$tree/share/man/man1/spotcheck.1"
install -D -m 0644 "$WORK/completion.bash" "$tree/share/bash-completion/completions/spotcheck"
install -D -m 0644 "$WORK/completion.zsh" "$tree/share/zsh/site-functions/_spotcheck"
install -D -m 0644 "$WORK/completion.fish" "$tree/share/fish/vendor_completions.d/spotcheck.fish"
install -m 0644 "$notices" "$tree/THIRD-PARTY-NOTICES"
if [ -n "$LICENSE_FILE" ]; then install -m 0644 "$LICENSE_FILE" "$tree/LICENSE"; fi
cat >"$tree/README.md" <<EOF
# SpotCheck $VERSION for Linux ($MACHINE)

SpotCheck checks the web markup Apple's app search reads (Smart App Banner, Open Graph, Twitter
card and App Links tags, schema.org data) and crawls a site as Applebot would. This archive holds
the command, built with the Swift runtime inside it: no Swift toolchain is needed.

    bin/spotcheck                                        the command
    share/man/man1/spotcheck.1                           its manual
    share/bash-completion/completions/spotcheck          bash completion
    share/zsh/site-functions/_spotcheck                  zsh completion
    share/fish/vendor_completions.d/spotcheck.fish       fish completion
    THIRD-PARTY-NOTICES                                  the licences of what is linked into it

## Install

It was built on Debian 12 (bookworm). It needs these shared libraries, from Debian's packages
(what \`dpkg-shlibdeps\` found in the binary):

    sudo apt-get install --no-install-recommends $DEPENDS_NAMES

then, from the folder that holds this archive:

    sudo tar -xzf $TAR_NAME --strip-components=1 -C /usr/local $TAR_DIR/bin $TAR_DIR/share
    spotcheck --version          # $VERSION
    man spotcheck

\`crawl --render\` also needs Chromium (\`apt-get install chromium\`). To remove it:
\`sudo rm /usr/local/bin/spotcheck /usr/local/share/man/man1/spotcheck.1
/usr/local/share/bash-completion/completions/spotcheck /usr/local/share/zsh/site-functions/_spotcheck
/usr/local/share/fish/vendor_completions.d/spotcheck.fish\`.

On Debian and Ubuntu the .deb of the same release (\`${DEB_NAME}\`) does all this with
\`sudo apt-get install ./${DEB_NAME}\`. Every command: \`spotcheck --help\`, \`spotcheck help COMMAND\`,
\`man spotcheck\`; the project's docs/install.md and docs/cli.md say more.
EOF
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$SOURCE_DATE_EPOCH" \
    -C "$WORK/tar" -cf - "$TAR_DIR" | gzip -9n >"$DIST/$TAR_NAME"

(cd "$DIST" && sha256sum "$DEB_NAME" "$TAR_NAME" >SHA256SUMS)

echo "version:  $VERSION"
echo "Depends:  $DEPENDS"
echo "ldd of $BIN:"
sed 's/^/  /' <<<"$LDD"
for file in "$DIST/$DEB_NAME" "$DIST/$TAR_NAME"; do printf '%s  %s bytes\n' "$file" "$(stat -c %s "$file")"; done
