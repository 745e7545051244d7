#!/usr/bin/env bash
# scripts/gpu/{drop-groups,replay-selections,attribute-drops} without a GPU (issue 16): the
# groups cover every drop of the shared g10 plan once and read back as --discards values (a dry
# run through the model backend), and the attribution finds the kernels that H200 replays with
# the plan's drops ran slower than without them (tests/fixtures/replays/h200-fixed-runtime).
# usage: discard_attribution_test.sh SOURCE_DIR SHARED_DATA SPILLWAY_REPLAY
set -euo pipefail
src=$1 shared=$2 replay=$3
plan=$shared/h200/replays/gpt-g10.plan.json
fixtures=$src/tests/fixtures/replays/h200-fixed-runtime
[[ -f $plan ]] || { echo "SKIP: $plan is not beside the checkout"; exit 0; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# 1. The groups: every drop in exactly one only- line, 4 baselines, pairs only/without.
"$src/scripts/gpu/drop-groups" "$plan" 40 >"$work/sel.txt"
drops=$(python3 -c "import json,sys; d=json.load(open(sys.argv[1]))['directives']; print(sum(x['kind'] in ('discard','discard-lazy','free','recompute') for x in d))" "$plan")
listed=$(python3 - "$work/sel.txt" <<'PY'
import sys
seen = []
for line in open(sys.argv[1]):
    name, sel = line.split()
    if name.startswith("only-"):
        for part in sel.split(","):
            a, _, b = part.partition("-")
            seen += range(int(a), int(b or a) + 1)
assert len(seen) == len(set(seen)), "a drop in two groups"
print(len(seen))
PY
)
[[ $listed == "$drops" ]] || fail "the groups list $listed drops, the plan has $drops"
[[ $(grep -c '^only-' "$work/sel.txt") == $(grep -c '^without-' "$work/sel.txt") ]] || fail "only/without unpaired"
"$src/scripts/gpu/drop-groups" "$plan" 40 --only 0 2>"$work/err" && fail "a prefetch accepted as a drop"
grep -q "are not drops" "$work/err" || fail "no reason given: $(cat "$work/err")"

# --fence adds two fenced replays of all drops, after the baselines.
"$src/scripts/gpu/drop-groups" "$plan" 40 --fence >"$work/fenced.txt"
[[ $(grep -c '^fenced-[12] all --fence-discards$' "$work/fenced.txt") == 2 ]] || fail "--fence: no two fenced lines"
[[ $(grep -vc '^fenced-' "$work/fenced.txt") == $(wc -l <"$work/sel.txt") ]] || fail "--fence changed the other lines"

# 2. Every line replays (model backend): the selections are values spillway-replay reads; a
# fenced line's drops are fenced in its timeline.
{ head -6 "$work/sel.txt"; grep '^fenced-1 ' "$work/fenced.txt"; } >"$work/few.txt"
SPILLWAY_REPLAY=$replay BACKEND=model MACHINE=h200 ITERATIONS=1 \
  "$src/scripts/gpu/replay-selections" "$plan" "$src/samples/lessons/small-gpt.profile.json" "$work/few.txt" "$work/dry" >/dev/null
[[ $(ls "$work/dry"/*.measured.json | wc -l) == 7 ]] || fail "not every selection replayed"
grep -q '"cudaMemDiscardBatchAsync, then a fence prefetch"' "$work/dry/fenced-1.measured.json" || fail "fenced-1 not fenced"
grep -q '"cudaMemDiscardBatchAsync, then a fence prefetch"' "$work/dry/all-1.measured.json" && fail "all-1 fenced"
printf 'x all --no-such-flag\n' >"$work/flag.txt"
SPILLWAY_REPLAY=$replay BACKEND=model MACHINE=h200 \
  "$src/scripts/gpu/replay-selections" "$plan" "$src/samples/lessons/small-gpt.profile.json" "$work/flag.txt" "$work/flag" \
  2>"$work/err" && fail "an unknown flag on a selections line accepted"
grep -q "flag.txt:1: expected" "$work/err" || fail "the line with the unknown flag is not named: $(cat "$work/err")"
printf '# a comment\njustaname\n' >"$work/bad.txt"
SPILLWAY_REPLAY=$replay BACKEND=model MACHINE=h200 \
  "$src/scripts/gpu/replay-selections" "$plan" "$src/samples/lessons/small-gpt.profile.json" "$work/bad.txt" "$work/bad" \
  2>"$work/err" && fail "a malformed selections line accepted"
grep -q "bad.txt:2: expected" "$work/err" || fail "the bad line is not named: $(cat "$work/err")"

# 3. Attribution on real H200 replays: with drops (managed-1) against without (nodiscard-1, -2);
# an only-A run as slow as all and a without-A run as fast as none make A enough and needed.
mkdir "$work/real"
cp "$fixtures/g10-nodiscard-1.measured.json.gz" "$work/real/none-1.measured.json.gz"
cp "$fixtures/g10-nodiscard-2.measured.json.gz" "$work/real/none-2.measured.json.gz"
cp "$fixtures/g10-managed-1.measured.json.gz" "$work/real/all-1.measured.json.gz"
cp "$fixtures/g10-managed-1.measured.json.gz" "$work/real/only-A.measured.json.gz"
cp "$fixtures/g10-nodiscard-1.measured.json.gz" "$work/real/without-A.measured.json.gz"
"$src/scripts/gpu/attribute-drops" "$work/real" >"$work/table.txt"
cat "$work/table.txt"
grep -Eq "^ +88 mb0.h0.attn.c_proj.backward_input +[0-9]{4} +A \| A$" "$work/table.txt" \
  || fail "kernel 88 (7 ms slower with drops on the H200) not attributed"
grep -Eq "^ +70 " "$work/table.txt" && fail "kernel 70 (as fast with drops) reported"
# the summary: the replay with drops has its 7 ms kernels slow, the ones without none
read -r _ slow_all _ < <(grep -E "^all-1 " "$work/table.txt")
(( slow_all > 15 )) || fail "all-1: only $slow_all slow kernels in the summary"
grep -Eq "^none-1 +0 +0.00$" "$work/table.txt" || fail "none-1 has slow kernels in the summary"
rm "$work/real"/none-*
"$src/scripts/gpu/attribute-drops" "$work/real" 2>"$work/err" && fail "no baseline accepted"
grep -q "no none-\* timeline" "$work/err" || fail "no reason given: $(cat "$work/err")"
echo "PASS"
