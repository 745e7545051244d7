#!/usr/bin/env bash
# clean_root_install_test.sh DEBS: installs DEBS/spillway_*.deb into a clean Debian 12 root and
# runs the programs there, as a user's machine would: mmdebstrap makes the root (variant apt:
# Essential packages and apt, nothing else), apt installs the .deb with what its Depends pulls
# from the Debian mirror, and the root's own spillway-cli and spillway start. A library missing
# from Depends fails here; the test prints `ldd` of the program inside the root then.
#
# Speed (CI has ~3 minutes for it): the host's /var/cache/apt/archives (the packages
# scripts/install-deps just installed, Qt among them) is hard-linked into the root's cache, so
# apt downloads only what the host lacks; with no cache it downloads everything (~150 MB).
#
# mmdebstrap mounts /proc, /sys and /dev in the root for the hooks and unmounts them; its
# temporary root is under our own folder (TMPDIR), which the exit trap unmounts anything left
# in (a killed run) and removes, so a second run starts clean. Needs root: skips (77) without.
set -euo pipefail
debs=$1
if [ "$(id -u)" -ne 0 ]; then
  echo "SKIP: installing into a clean root needs root (chroot, mounts)"
  exit 77
fi
command -v mmdebstrap >/dev/null || { echo "FAIL: mmdebstrap missing (scripts/install-deps installs it)"; exit 1; }
deb=$(ls "$debs"/spillway_*.deb 2>/dev/null | head -1)
[ -n "$deb" ] || { echo "FAIL: no spillway_*.deb in $debs (the packaging_debs fixture makes it)"; exit 1; }
deb=$(readlink -f "$deb")
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# remove_root DIR: unmount what is mounted below DIR (innermost first; lazily, so a busy mount
# cannot keep it), then remove DIR without crossing into another file system.
remove_root() {
  awk -v w="$1/" 'index($2, w) == 1 {print $2}' /proc/mounts | sort -r | while read -r m; do
    umount -l "$m" || true
  done
  rm -rf --one-file-system "$1"
}
# A run killed by CTest's timeout (SIGKILL: no trap) leaves its folder; remove those whose run
# is gone.
for old in /var/tmp/spillway-clean-root.*; do
  [ -d "$old" ] || continue
  pid=$(cat "$old/pid" 2>/dev/null || true)
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && continue
  echo "removing $old, left by a run that was killed"
  remove_root "$old"
done
work=$(mktemp -d /var/tmp/spillway-clean-root.XXXXXX)
echo $$ >"$work/pid"
trap 'remove_root "$work"' EXIT

# Hard links need the cache on the same file system as the root; otherwise apt downloads.
cache_hook='mkdir -p "$1/var/cache/apt/archives" && { cp -l /var/cache/apt/archives/*.deb "$1/var/cache/apt/archives/" 2>/dev/null || true; }'

start=$(date +%s)
status=0
TMPDIR=$work mmdebstrap --variant=apt --mode=root --quiet \
  --skip=download/empty \
  --setup-hook="$cache_hook" \
  --hook-dir=/usr/share/mmdebstrap/hooks/file-mirror-automount \
  --include="$deb" \
  --customize-hook="copy-in $here/in_root_checks.sh /tmp" \
  --customize-hook='chroot "$1" sh /tmp/in_root_checks.sh' \
  bookworm /dev/null || status=$?
echo "clean root: $(($(date +%s) - start)) s"
left=$(awk -v w="$work/" 'index($2, w) == 1' /proc/mounts)
[ -z "$left" ] || echo "note: mmdebstrap left mounts, unmounted now: $left"
if [ "$status" -ne 0 ]; then
  echo "FAIL: mmdebstrap or the checks inside the root failed (exit $status; output above)"
  exit 1
fi
echo "spillway installs into a clean Debian 12 root and both programs start there"
