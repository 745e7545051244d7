#!/bin/sh
# The spillway-capture launcher without a GPU: with `env` as the program it must hand the
# injection variables to the program, and it must refuse what would lose a file or cannot work.
# Usage: launcher_test.sh PATH/TO/spillway-capture
set -u
launcher="$1"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

out=$("$launcher" -o "$dir/p.profile.json" --model bert --no-um --buffer-mb 16 --records "$dir/r.csv" -- env) || fail "launcher exited $?"
echo "$out" | grep -qx "SPILLWAY_CAPTURE_OUTPUT=$dir/p.profile.json" || fail "output not passed: $out"
echo "$out" | grep -qx "SPILLWAY_CAPTURE_MODEL=bert" || fail "model not passed"
echo "$out" | grep -qx "SPILLWAY_CAPTURE_UM=0" || fail "--no-um not passed"
echo "$out" | grep -qx "SPILLWAY_CAPTURE_BUFFER_MB=16" || fail "buffer size not passed"
echo "$out" | grep -qx "SPILLWAY_CAPTURE_RECORDS=$dir/r.csv" || fail "--records not passed"
echo "$out" | grep -q "^SPILLWAY_CAPTURE_RECORDS=" && [ -z "$("$launcher" -o "$dir/q.profile.json" -- env | grep ^SPILLWAY_CAPTURE_RECORDS=)" ] || fail "records asked for without --records"
lib=$(echo "$out" | sed -n 's/^CUDA_INJECTION64_PATH=//p')
[ -f "$lib" ] || fail "CUDA_INJECTION64_PATH is not a file: '$lib'"

echo "kept" > "$dir/old.json"
if "$launcher" -o "$dir/old.json" -- true 2>/dev/null; then fail "overwrote an existing file"; fi
[ "$(cat "$dir/old.json")" = "kept" ] || fail "existing file changed"
"$launcher" -o "$dir/old.json" --force -- true || fail "--force refused"
[ ! -e "$dir/old.json" ] || fail "--force kept the stale file (the capture would be mistaken for it)"
if "$launcher" -o "$dir/none/p.json" -- true 2>/dev/null; then fail "accepted a missing folder"; fi
if "$launcher" -o "$dir/p.json" 2>/dev/null; then fail "accepted no program"; fi
if "$launcher" -o "$dir/p.json" --buffer-mb lots -- true 2>/dev/null; then fail "accepted a bad buffer size"; fi
if "$launcher" -o "$dir/p.json" --records "$dir/none/r.csv" -- true 2>/dev/null; then fail "accepted records in a missing folder"; fi
echo "PASS"
