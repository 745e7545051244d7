#!/usr/bin/env bash
# make_debs.sh BUILD OUT: the .deb packages of BUILD, made by its real CPack configuration into OUT
# (emptied first, so a second run packages afresh). CTest fixture `packaging_debs`: the packaging
# tests check what this makes. cpack builds the `preinstall` target first: a no-op after the build.
set -euo pipefail
build=$1 out=$2
rm -rf "$out"
mkdir -p "$out"
if ! cpack -G DEB --config "$build/CPackConfig.cmake" -B "$out" >"$out/cpack.log" 2>&1; then
  cat "$out/cpack.log"
  echo "make_debs: cpack -G DEB failed (log above)" >&2
  exit 1
fi
rm -rf "$out/_CPack_Packages"
ls -l "$out"/*.deb
