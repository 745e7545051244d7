#!/usr/bin/env bash
# deb_files_test.sh DEBS: what the packages hold besides the programs. A man page for every
# program in usr/bin, the Debian copyright file, the .desktop file (valid, claiming only MIME
# types the package's shared-mime-info XML defines, none of them plain JSON), the AppStream file
# (valid offline), and the CUPTI library only in spillway-capture. desktop-file-validate and
# appstreamcli run where installed (scripts/install-deps installs both).
set -euo pipefail
debs=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

main=$(ls "$debs"/spillway_*.deb 2>/dev/null | head -1)
[ -n "$main" ] || { echo "FAIL: no spillway_*.deb in $debs"; exit 1; }
for deb in "$debs"/*.deb; do dpkg-deb -x "$deb" "$work/$(dpkg-deb -f "$deb" Package)"; done
root="$work/spillway"

for deb_root in "$work"/*; do
  for program in "$deb_root"/usr/bin/*; do
    page="$deb_root/usr/share/man/man1/$(basename "$program").1.gz"
    [ -f "$page" ] || fail "$(basename "$deb_root"): no man page for $(basename "$program") (${page#"$deb_root"})"
    [ -f "$page" ] && ! zcat "$page" | grep -q '^\.SH' && fail "${page#"$deb_root"} has no sections"
  done
done

copyright="$root/usr/share/doc/spillway/copyright"
if [ -f "$copyright" ]; then
  grep -q '^Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/' "$copyright" ||
    fail "copyright is not in the machine-readable format 1.0"
  grep -q '^License: GPL-3.0-or-later' "$copyright" || fail "copyright names no GPL-3.0-or-later"
else
  fail "no /usr/share/doc/spillway/copyright"
fi

desktop="$root/usr/share/applications/spillway.desktop"
mime="$root/usr/share/mime/packages/spillway.xml"
[ -f "$mime" ] || fail "no shared-mime-info file /usr/share/mime/packages/spillway.xml"
if [ -f "$desktop" ]; then
  types=$(sed -n 's/^MimeType=//p' "$desktop" | tr ';' '\n' | sed '/^$/d')
  [ -n "$types" ] || fail "spillway.desktop claims no MIME type"
  for t in $types; do
    case "$t" in application/json | text/* | application/gzip) fail "spillway.desktop claims $t: every such file, not only Spillway's" ;; esac
    [ -f "$mime" ] && ! grep -q "mime-type type=\"$t\"" "$mime" && fail "spillway.desktop claims $t, which spillway.xml does not define"
  done
  if command -v desktop-file-validate >/dev/null; then
    desktop-file-validate --no-hints "$desktop" || fail "desktop-file-validate refuses spillway.desktop"
  fi
else
  fail "no /usr/share/applications/spillway.desktop"
fi

metainfo="$root/usr/share/metainfo/invalid.example.spillway.metainfo.xml"
if [ -f "$metainfo" ]; then
  grep -q '<screenshot' "$metainfo" || fail "the AppStream file has no screenshots"
  if command -v appstreamcli >/dev/null; then
    appstreamcli validate --no-net "$metainfo" || fail "appstreamcli validate refuses the AppStream file"
  fi
else
  fail "no AppStream file /usr/share/metainfo/invalid.example.spillway.metainfo.xml"
fi

# The CUPTI library needs CUDA: never in spillway, only in spillway-capture (where it was built).
[ -z "$(find "$root" -name 'libspillway_capture*' -o -name spillway-capture)" ] ||
  fail "spillway holds the CUPTI capture library or its launcher"
if [ -d "$work/spillway-capture" ]; then
  [ -f "$work/spillway-capture/usr/lib/spillway/libspillway_capture.so" ] ||
    fail "spillway-capture lacks /usr/lib/spillway/libspillway_capture.so"
  dpkg-deb -f "$debs"/spillway-capture_*.deb Depends | grep -q 'cuda-cupti-' ||
    fail "spillway-capture does not depend on NVIDIA's cuda-cupti package"
fi

[ "$failures" -eq 0 ] || { echo "$failures problem(s)"; exit 1; }
echo "packages: $(cd "$work" && echo *); man pages, copyright, .desktop, MIME types, AppStream: ok"
