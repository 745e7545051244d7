#!/usr/bin/env bash
# deb_depends_test.sh DEBS BUILD: every library each ELF file in each .deb of DEBS loads (its
# NEEDED entries) belongs to a package its Depends names: the host's copy of the library, found
# with ldconfig, is looked up with `dpkg -S` (BUILD/packaging/deb-external-libraries.txt names
# those no Debian package holds, e.g. NVIDIA's CUPTI). And every name in Depends is loaded by
# something or listed in BUILD/packaging/deb-runtime-only.txt (dlopen'd: Qt's platform plugins;
# `import spillway`'s python3). So a library added to the build cannot be forgotten again, as
# libtbb12 was (both programs failed to start on a clean Debian 12).
set -euo pipefail
debs=$1 build=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

read -r -a runtime_only <<<"$(tr ';' ' ' <"$build/packaging/deb-runtime-only.txt")"

# The Debian package of a soname, as the host has it (usr-merged: try /lib and /usr/lib forms).
package_of() {
  local soname=$1 path pkg
  pkg=$(awk -v s="$soname" '$1 == s {print $2}' "$build/packaging/deb-external-libraries.txt")
  [ -n "$pkg" ] && { echo "$pkg"; return; }
  path=$(ldconfig -p | awk -v s="$soname" '$1 == s && /x86-64/ {print $NF; exit}')
  [ -n "$path" ] || return 0
  for candidate in "$path" "$(readlink -f "$path")" "/usr${path#/usr}" "${path#/usr}"; do
    pkg=$(dpkg -S "$candidate" 2>/dev/null | head -1 | cut -d: -f1) && [ -n "$pkg" ] && break
  done
  echo "$pkg"
}

shopt -s nullglob
declare -A pkg_of=()  # soname -> package, looked up once
deb_files=("$debs"/*.deb)
[ ${#deb_files[@]} -gt 0 ] || { echo "FAIL: no .deb in $debs"; exit 1; }
for deb in "${deb_files[@]}"; do
  name=$(dpkg-deb -f "$deb" Package)
  # Package names in Depends, without versions; each alternative of an "a | b" counts.
  depends=$(dpkg-deb -f "$deb" Depends | tr ',|' '\n\n' | sed 's/(.*)//; s/ //g' | sort -u)
  root="$work/$name"
  dpkg-deb -x "$deb" "$root"
  declare -A used=()
  while IFS= read -r -d '' f; do
    [ "$(head -c 4 "$f" | od -An -c | tr -d ' ')" = '177ELF' ] || continue
    while read -r soname; do
      # A library the package itself ships needs no dependency.
      [ -n "$(find "$root" -name "$soname" -print -quit)" ] && continue
      [ -n "${pkg_of[$soname]+x}" ] || pkg_of[$soname]=$(package_of "$soname")
      pkg=${pkg_of[$soname]}
      if [ -z "$pkg" ]; then
        fail "$name: ${f#"$root"} loads $soname, which no installed Debian package holds"
      elif ! grep -qx "$pkg" <<<"$depends"; then
        fail "$name: ${f#"$root"} loads $soname ($pkg), but Depends does not name $pkg"
      fi
      used[$pkg]=1
    done < <(readelf -d "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
  done < <(find "$root" -type f -print0)
  for pkg in $depends; do
    [ -n "${used[$pkg]:-}" ] && continue
    [ "$name" = spillway ] && printf '%s\n' "${runtime_only[@]}" | grep -qx "$pkg" && continue
    fail "$name: Depends names $pkg, but no ELF file in the package loads it (remove it, or list it as loaded at run time in packaging/Packaging.cmake)"
  done
  unset used
  echo "$name: $(dpkg-deb -f "$deb" Depends)"
done
[ "$failures" -eq 0 ] || { echo "$failures problem(s)"; exit 1; }
echo "every NEEDED library is in Depends"
