#!/usr/bin/env bash
# scripts/gpu/late-discards on the recorded H200 replays (issue 16, docs/validation.md "A discard
# that lands late"): with no latency no kernel can be hit (the runtime orders each prefetch after
# the drops of its bytes); at 100 us a larger share of g10's run 1's slow kernels is hit than of
# its fast ones (15 of 23 against 22 of 142 when recorded); kernel 88 is among the slow; bad input
# is refused with the file named.
# usage: late_discards_test.sh SOURCE_DIR SHARED_DATA
set -euo pipefail
src=$1 shared=$2
plan=$shared/h200/replays/gpt-g10.plan.json
fixtures=$src/tests/fixtures/replays/h200-fixed-runtime
profile=$src/samples/lessons/small-gpt.profile.json
[[ -f $plan ]] || { echo "SKIP: $plan is not beside the checkout"; exit 0; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

"$src/scripts/gpu/late-discards" "$plan" "$profile" "$fixtures/g10-managed-1.measured.json.gz" \
  "$fixtures/g10-nodiscard-1.measured.json.gz" --latencies-us 0,100 >"$work/out.txt"
cat "$work/out.txt"
read -r cases slow < <(awk 'NR==1 {print $1, $(NF-3)}' "$work/out.txt")
(( cases > 100 && slow > 15 )) || fail "expected over 100 refilled first writes and over 15 slow, got $cases and $slow"
read -r l sh sm fh fm < <(awk '$1=="0"' "$work/out.txt")
(( sh == 0 && fh == 0 && sm == slow && sm + fm == cases )) || fail "latency 0 hits kernels: $sh $sm $fh $fm"
read -r l sh sm fh fm < <(awk '$1=="100"' "$work/out.txt")
(( sh * (fh + fm) > 2 * fh * slow )) || fail "at 100 us: $sh of $slow slow hit, not twice the fast kernels' share ($fh of $((fh + fm)))"
grep -Eq "^ +88 mb0.h0.attn.c_proj.backward_input +slow " "$work/out.txt" || fail "kernel 88 not listed as slow"

"$src/scripts/gpu/late-discards" "$plan" "$profile" "$work/missing.json" \
  "$fixtures/g10-nodiscard-1.measured.json.gz" 2>"$work/err" && fail "a missing timeline accepted"
grep -q "missing.json" "$work/err" || fail "the missing file is not named: $(cat "$work/err")"
"$src/scripts/gpu/late-discards" "$plan" "$profile" --latencies-us x 2>"$work/err" && fail "a bad latency accepted"
grep -q "take numbers" "$work/err" || fail "no reason for a bad latency: $(cat "$work/err")"
echo "late-discards: ok"
