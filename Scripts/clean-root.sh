# Clean Debian 12 roots for the package checks (issue 34), sourced by Scripts/check-package.sh and
# Scripts/check-install-recipes.sh (not run by itself).
#
# A root is the minimal bookworm that mmdebstrap makes with --variant=apt (the Essential packages
# and apt: no Swift, no compiler, none of SpotCheck's libraries), unpacked from one tarball that is
# made once and kept in .build/package-check (a clean clone, as CI's, makes it anew; set
# PACKAGE_CHECK_FRESH=1 to remake it). Each check unpacks its own copy, so every root starts clean.
# Roots are entered with chroot as root; /proc is mounted in each (the crawl's runtime reads it)
# and unmounted by clean_root_cleanup, which the caller sets as its EXIT trap. /dev is never
# bind-mounted: the tarball carries its own device nodes, so removing a root cannot touch the host's.

CLEAN_ROOT_SUITE=bookworm
CLEAN_ROOT_MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
CLEAN_ROOT_SECURITY_MIRROR=${DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security}
CLEAN_ROOT_DIR=${CLEAN_ROOT_DIR:-.build/package-check}
CLEAN_ROOT_BASE=$CLEAN_ROOT_DIR/bookworm-apt.tar
CLEAN_ROOTS=()

# Exit 0 with a loud line when Debian's package registry cannot be reached: the one reason these
# checks may be skipped (no other failure is a skip).
clean_root_require_registry() {
    local release=$CLEAN_ROOT_MIRROR/dists/$CLEAN_ROOT_SUITE/Release
    if ! curl -fsS --max-time 30 -o /dev/null "$release" 2>/dev/null; then
        echo "======================================================================"
        echo "PACKAGE CHECK SKIPPED: Debian's package registry cannot be reached"
        echo "($release), so no clean Debian 12 root can be made."
        echo "======================================================================"
        exit 0
    fi
}

# chroot and mount need root; mmdebstrap (Debian's package) makes the base.
clean_root_prepare() {
    [ "$(id -u)" -eq 0 ] || { echo "the clean-root checks need root (chroot, mount): run as root" >&2; exit 1; }
    command -v curl >/dev/null || Scripts/install-deps.sh curl
    clean_root_require_registry
    Scripts/install-deps.sh mmdebstrap
    mkdir -p "$CLEAN_ROOT_DIR"
    if [ -s "$CLEAN_ROOT_BASE" ] && [ "${PACKAGE_CHECK_FRESH:-0}" != 1 ]; then
        echo "clean root: reusing $CLEAN_ROOT_BASE (PACKAGE_CHECK_FRESH=1 makes it anew)"
        return
    fi
    echo "clean root: mmdebstrap --variant=apt $CLEAN_ROOT_SUITE (a few minutes)"
    local started=$SECONDS
    rm -f "$CLEAN_ROOT_BASE.partial"
    mmdebstrap --quiet --variant=apt --mode=root --format=tar "$CLEAN_ROOT_SUITE" "$CLEAN_ROOT_BASE.partial" \
        "deb $CLEAN_ROOT_MIRROR $CLEAN_ROOT_SUITE main" \
        "deb $CLEAN_ROOT_MIRROR $CLEAN_ROOT_SUITE-updates main" \
        "deb $CLEAN_ROOT_SECURITY_MIRROR $CLEAN_ROOT_SUITE-security main"
    mv "$CLEAN_ROOT_BASE.partial" "$CLEAN_ROOT_BASE"
    echo "clean root: made in $((SECONDS - started)) s"
}

# Unmounts whatever is mounted under a root (deepest first).
clean_root_unmount() {
    local root
    root=$(readlink -f "$1")
    awk -v root="$root" '$2 == root || index($2, root "/") == 1 { print $2 }' /proc/mounts | sort -r |
        while read -r mounted; do umount "$mounted" || umount -l "$mounted"; done
}

# Removes a root, refusing while anything is still mounted in it.
clean_root_remove() {
    local root=$1
    [ -e "$root" ] || return 0
    clean_root_unmount "$root"
    if awk -v root="$(readlink -f "$root")" 'index($2, root "/") == 1 { found = 1 } END { exit !found }' /proc/mounts; then
        echo "clean root: $root still has mounts; not removing it" >&2
        return 1
    fi
    rm -rf "$root"
}

# clean_root_new PATH: a fresh root at PATH, from the base, with /proc mounted and apt's lists
# fetched (mmdebstrap leaves none).
clean_root_new() {
    local root=$1
    clean_root_remove "$root"
    mkdir -p "$root"
    tar -xf "$CLEAN_ROOT_BASE" -C "$root"
    cp /etc/resolv.conf "$root/etc/resolv.conf"
    # dpkg's log through a pseudo-terminal needs /dev/pts, which is not mounted (apt says "E: Can
    # not write log" and goes on); without the terminal nothing is lost.
    echo 'Dpkg::Use-Pty "0";' >"$root/etc/apt/apt.conf.d/90spotcheck-no-pty"
    mount -t proc proc "$root/proc"
    CLEAN_ROOTS+=("$root")
    if [ -e "$root/opt/swift" ] || clean_root_run "$root" 'command -v swift swiftc' >/dev/null; then
        echo "clean root: $root has a Swift toolchain; it is not clean" >&2
        return 1
    fi
    clean_root_run "$root" 'apt-get update -qq'
}

# clean_root_run ROOT SCRIPT: SCRIPT in bash inside ROOT, with the environment of a fresh login
# (nothing of this shell's PATH, which names the toolchain, leaks in).
clean_root_run() {
    local root=$1
    shift
    chroot "$root" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        HOME=/root LANG=C.UTF-8 TERM=dumb DEBIAN_FRONTEND=noninteractive \
        bash -euo pipefail -c "$1"
}

# The EXIT trap: every root's mounts undone (the roots stay, for a look after a failure).
clean_root_cleanup() {
    local root
    for root in "${CLEAN_ROOTS[@]}"; do clean_root_unmount "$root" || true; done
}
