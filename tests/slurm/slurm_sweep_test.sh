#!/usr/bin/env bash
# Issue 21's real-Slurm test (CTest `slurm_sweep`, label slurm): brings up a real single-node
# Slurm on this machine (munged, slurmctld and slurmd from Debian's slurm-wlm and munge, on a
# configuration written to a temporary folder: tests/slurm/slurm_cluster.sh), submits a 4-shard
# sweep with `spillway-cli sweep SPEC --slurm DIR --shards 4 --submit`, waits for the shards and
# the dependent merge job, and checks the merged table equals the same sweep run locally. Every
# daemon it started is stopped on exit, on failure too.
#
# usage: slurm_sweep_test.sh SPILLWAY_CLI SOURCE_DIR
#
# Needs root and the packages scripts/install-deps installs; without them it fails, saying so.
# SPILLWAY_SKIP_SLURM=1 skips it instead (exit 77, CTest's SKIP_RETURN_CODE), for a developer
# machine that cannot run daemons as root; SPILLWAY_SLURM_KEEP=1 keeps its temporary folder
# (configuration, logs, shard files) for a look afterwards. No step depends on timing: the waits
# poll sinfo and squeue, and every step has a generous limit that only a real hang reaches (well
# inside CTest's, which kills without a trap running).
set -uo pipefail

if [ "${SPILLWAY_SKIP_SLURM:-0}" = "1" ]; then
  echo "SKIP: SPILLWAY_SKIP_SLURM=1"
  exit 77
fi
if [ $# -ne 2 ]; then
  echo "usage: $0 SPILLWAY_CLI SOURCE_DIR" >&2
  exit 2
fi
CLI=$(realpath "$1")
SRC=$(realpath "$2")
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/slurm/slurm_cluster.sh
source "$HERE/slurm_cluster.sh"

T=$(mktemp -d "${TMPDIR:-/tmp}/spillway-slurm.XXXXXX")
on_exit() {
  local rc=$?
  if [ $rc -ne 0 ]; then
    echo "== the test failed (exit $rc); the Slurm daemons' logs follow =="
    slurm_cluster_logs
  fi
  slurm_cluster_down || rc=1
  if [ "${SPILLWAY_SLURM_KEEP:-0}" = "1" ]; then
    echo "kept $T (SPILLWAY_SLURM_KEEP=1)"
  else
    rm -rf "$T"
  fi
  exit $rc
}
trap on_exit EXIT
trap 'exit 130' INT TERM

fail() { echo "FAIL: $*" >&2; exit 1; }
started=$SECONDS

slurm_cluster_up "$T/cluster" || exit 1
echo "Slurm is up after $((SECONDS - started)) s: node $SLURM_TEST_NODE, $(nproc) CPUs, SLURM_CONF=$SLURM_CONF"
mkdir -p "$T/work"

# ---------------------------------------------------------------------------------------------
# The sweep, locally and on Slurm with 4 shards.
"$CLI" sweep --help 2>/dev/null | grep -q -- '--slurm' || fail "$CLI sweep has no --slurm"

# 24 cells: the lesson's small GPT, 2 policies x 3 GPU memories x 2 PCIe bandwidths (a log range)
# x 2 Latin-hypercube samples of the fault latency (seeded: every shard must draw the same ones).
CELLS=24
W=$T/work/sweep
mkdir -p "$W/local" "$W/slurm"
cat >"$W/spec.sweep.json" <<EOF
{
 "format": "spillway.sweep/1",
 "name": "issue 21's Slurm test",
 "profiles": ["$SRC/samples/lessons/small-gpt.profile.json"],
 "policies": ["uvm", "g10"],
 "hardware": {"preset": "g10-a100", "set": {"iterations": 2}},
 "axes": [
  {"key": "gpu_capacity", "values": ["128MiB", "256MiB", "512MiB"]},
  {"key": "pcie.bandwidth", "log_range": {"from": "4GB/s", "to": "16GB/s", "count": 2}}
 ],
 "samples": {
  "method": "latin-hypercube", "count": 2, "seed": 21,
  "axes": [{"key": "fault_latency", "from": "10us", "to": "100us", "log": true}]
 }
}
EOF

# Locally, in one process, then merged the same way the merge job merges.
timeout 120 "$CLI" sweep "$W/spec.sweep.json" --threads "$(nproc)" --out "$W/local/all.jsonl" >"$W/local/run.log" 2>&1 ||
  { cat "$W/local/run.log"; fail "the local sweep failed"; }
timeout 60 "$CLI" sweep merge "$W/local/all.jsonl" --csv "$W/local/merged.csv" >"$W/local/merge.log" 2>&1 ||
  { cat "$W/local/merge.log"; fail "merging the local sweep failed"; }
echo "local sweep done after $((SECONDS - started)) s"

# On Slurm: the CLI writes both batch scripts and submits them (merge after the shards, afterok).
timeout 60 "$CLI" sweep "$W/spec.sweep.json" --slurm "$W/slurm" --shards 4 --partition test --time 10 \
  --cpus-per-task 1 --submit >"$W/submit.log" 2>&1 ||
  { cat "$W/submit.log"; fail "sweep --slurm --submit failed"; }
shards_job=$(awk '$1 == "shards" {print $2}' "$W/submit.log")
merge_job=$(awk '$1 == "merge" {print $2}' "$W/submit.log")
[[ "$shards_job" =~ ^[0-9]+$ && "$merge_job" =~ ^[0-9]+$ ]] ||
  { cat "$W/submit.log"; fail "sweep --submit did not print 'shards <jobid>' and 'merge <jobid>'"; }
[[ -f "$W/slurm/shards.sbatch" && -f "$W/slurm/merge.sbatch" ]] || fail "no shards.sbatch/merge.sbatch in $W/slurm"
grep -q -- '--array=0-3' "$W/slurm/shards.sbatch" || { cat "$W/slurm/shards.sbatch"; fail "shards.sbatch is not an array 0-3"; }
# Generous: the 24 cells take about a second locally and the jobs about 5 s; only a hang gets
# near 180 s. (All the limits here add up to less than CTest's 600 s, which kills without a trap.)
if ! slurm_wait_jobs 180 "$shards_job" "$merge_job"; then
  for f in "$W"/slurm/*.log "$W"/slurm/*.out; do [ -f "$f" ] && { echo "----- $f -----"; tail -n 30 "$f"; }; done
  fail "the Slurm jobs did not all complete"
fi
echo "Slurm jobs $shards_job (4 shards) and $merge_job (merge) done after $((SECONDS - started)) s"

for k in 0 1 2 3; do
  [ -s "$W/slurm/shard-$k-of-4.jsonl" ] || fail "shard $k wrote no $W/slurm/shard-$k-of-4.jsonl"
done
[ -s "$W/slurm/merged.sqlite" ] || fail "the merge job wrote no merged.sqlite"
[ -s "$W/slurm/merged.csv" ] || fail "the merge job wrote no merged.csv"
rows=$(($(wc -l <"$W/local/merged.csv") - 1))
[ "$rows" -eq "$CELLS" ] || fail "the local sweep has $rows cells, not $CELLS"
python3 "$HERE/compare_merged.py" "$W/local/merged.csv" "$W/slurm/merged.csv" ||
  fail "the table merged on Slurm differs from the local sweep's"

echo "PASS in $((SECONDS - started)) s"
