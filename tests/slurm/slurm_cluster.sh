# shellcheck shell=bash
# A real single-node Slurm cluster for tests, brought up and torn down by the test itself
# (issue 21). Source this file, then:
#
#   slurm_cluster_up DIR     writes DIR/slurm.conf, DIR/cgroup.conf and a munge key, starts
#                            munged, slurmctld and slurmd on them, waits until the node is idle,
#                            and exports SLURM_CONF so that sbatch, squeue, scontrol and sinfo
#                            talk to this cluster (and only to it).
#   slurm_cluster_down       cancels what is still queued, stops the daemons by their pid files
#                            and ends any process they left (found by a marker in its
#                            environment, never by name); safe to call twice, and on failure.
#   slurm_cluster_logs       prints the daemons' logs (for a failure message).
#   slurm_wait_jobs S JOB... polls squeue until every one of the jobs (every array task too) has
#                            ended COMPLETED; fails as soon as one fails, and after S seconds at
#                            most (only a real hang runs into that).
#
# Nothing here reads or writes /etc/slurm, /etc/munge or /run/munge: every path is under DIR and
# the ports are free ones picked at start, so a system Slurm on the same machine is not touched
# and two runs never share anything. The daemons run as root (SlurmUser=root), as CI's user is.
#
# Settings chosen for containers (CI runs in one, and so does development):
# - ProctrackType=proctrack/linuxproc, TaskPlugin=task/none, JobAcctGatherType=jobacct_gather/none:
#   no cgroup plugin at all. proctrack/cgroup and task/cgroup need a cgroup hierarchy slurmd can
#   create folders in; a container usually has none (no delegated cgroup v2 subtree, v1 read-only),
#   and whether it has one is the CI machine's business, not the test's. (The development VM
#   happens to have a writable v1 hierarchy, and both cgroup plugins ran jobs there too.)
#   linuxproc tracks a job's processes through their parent pids, which is enough for batch jobs
#   that do not daemonize. cgroup.conf is still written (next to slurm.conf, where Slurm looks for
#   it) so that no /etc/slurm/cgroup.conf can leak in.
# - AccountingStorageType=accounting_storage/none: no slurmdbd/MySQL. Job states are read from
#   `squeue --states=all` instead of sacct (MinJobAge=600 keeps finished jobs there 10 minutes).
# - SchedulerParameters=batch_sched_delay=0: Slurm may put off scheduling batch jobs by up to
#   3 s by default (for high-throughput sites), which here meant a 3 s pause before each round of
#   array tasks and before the merge job (9 s for a 4-task array and its merge on 2 CPUs; 5 s
#   with this). It changes when jobs start, never what they do.
# - A failed shard leaves the merge job pending on its afterok dependency; slurm_wait_jobs fails
#   as soon as it sees the failed task, without waiting for Slurm to find the dependency can
#   never be met.
# - NodeAddr/SlurmctldHost address 127.0.0.1: the node name is `hostname -s` (slurmd finds its
#   node by it), but the address does not depend on how the container resolves its hostname.
# - RealMemory is left at its default (1 MB) so that the node never fails its registration for
#   reporting less memory than configured; CPUs is nproc.
# - munged runs as root with its key, socket, pid, log and seed files under DIR, and --force:
#   munged refuses a socket whose folders are not searchable by every user ("Socket is
#   inaccessible: execute permissions for all required"), and DIR is private (mktemp -d, 0700,
#   perhaps under a private TMPDIR). Only root uses this socket (daemons and jobs all run as root),
#   so --force, which turns those checks into warnings, gives nothing away. Slurm reaches munged
#   through AuthInfo=socket=... (auth/munge and cred/munge alike); clients (sbatch, squeue) read
#   the same AuthInfo through SLURM_CONF.

SLURM_TEST_DIR=""

_slurm_free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

slurm_cluster_logs() {
  [ -n "$SLURM_TEST_DIR" ] || return 0
  local f
  for f in "$SLURM_TEST_DIR"/log/*.log; do
    [ -f "$f" ] || continue
    echo "----- $(basename "$f") (last 60 lines) -----"
    tail -n 60 "$f"
  done
  echo "----- end of Slurm logs -----"
}

# This cluster's processes, found by their environment: the daemons and slurmstepd carry the
# marker SPILLWAY_SLURM_TEST_DIR (set when the daemons start, inherited from slurmd); a job's own
# processes carry SLURM_CONF=DIR/slurm.conf (from sbatch) together with a SLURM_JOB_ID, which the
# test's shell never has (slurm_cluster_up unsets every SLURM_* variable it inherited).
_slurm_marked_pids() {
  local marker="SPILLWAY_SLURM_TEST_DIR=$SLURM_TEST_DIR" conf="SLURM_CONF=$SLURM_TEST_DIR/slurm.conf" p
  for p in /proc/[0-9]*; do
    p=${p#/proc/}
    [ "$p" = "$$" ] && continue
    if grep -qzxF "$marker" "/proc/$p/environ" 2>/dev/null ||
       { grep -qzxF "$conf" "/proc/$p/environ" 2>/dev/null &&
         grep -qz '^SLURM_JOB_ID=' "/proc/$p/environ" 2>/dev/null; }; then
      echo "$p"
    fi
  done
}

# Sends SIGTERM to the daemons of the given pid files at once (each takes about 2 s to exit on
# its own), waits up to 10 s for them all, then SIGKILLs what is left.
_slurm_stop_pidfiles() {
  local f pid pids=()
  for f in "$@"; do
    [ -f "$f" ] || continue
    pid=$(cat "$f" 2>/dev/null || true)
    [[ "$pid" =~ ^[0-9]+$ ]] || continue
    # Only a process of this cluster (a daemon that died leaves its pid file, and the pid may
    # have been reused since).
    grep -qzxF "SPILLWAY_SLURM_TEST_DIR=$SLURM_TEST_DIR" "/proc/$pid/environ" 2>/dev/null || continue
    kill -TERM "$pid" 2>/dev/null && pids+=("$pid")
  done
  for _ in $(seq 1 100); do
    local alive=()
    for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive+=("$pid"); done
    pids=("${alive[@]}")
    [ ${#pids[@]} -eq 0 ] && return 0
    sleep 0.1
  done
  kill -KILL "${pids[@]}" 2>/dev/null || true
}

slurm_cluster_down() {
  [ -n "$SLURM_TEST_DIR" ] || return 0
  local d=$SLURM_TEST_DIR pids
  # Jobs still queued or running (a failed or interrupted test) are cancelled first, while slurmd
  # is there to end their processes; up to 30 s for them to go.
  local ctld
  ctld=$(cat "$d/run/slurmctld.pid" 2>/dev/null || true)
  if [[ "$ctld" =~ ^[0-9]+$ ]] && kill -0 "$ctld" 2>/dev/null; then
    if [ -n "$(squeue -h -o %i 2>/dev/null)" ]; then
      scancel --quiet --user=root 2>/dev/null || true
      for _ in $(seq 1 60); do
        [ -z "$(squeue -h -o %i 2>/dev/null)" ] && break
        sleep 0.5
      done
    fi
  fi
  _slurm_stop_pidfiles "$d/run/slurmd.pid" "$d/run/slurmctld.pid" "$d/run/munged.pid"
  # Whatever is left (a slurmstepd or job process of a cancelled job): end it by pid.
  for _ in 1 2 3; do
    pids=$(_slurm_marked_pids)
    [ -n "$pids" ] || break
    # shellcheck disable=SC2086
    kill -KILL $pids 2>/dev/null || true
    sleep 0.2
  done
  pids=$(_slurm_marked_pids)
  if [ -n "$pids" ]; then
    echo "slurm_cluster_down: processes still running after SIGKILL: $pids" >&2
    return 1
  fi
  rm -f "$d"/run/*.pid
  SLURM_TEST_DIR=""  # a second call has nothing to do
  return 0
}

_slurm_start() {  # name command... : starts a daemon with the marker in its environment
  local name=$1; shift
  if ! env "SPILLWAY_SLURM_TEST_DIR=$SLURM_TEST_DIR" "$@" >"$SLURM_TEST_DIR/log/$name.out" 2>&1; then
    echo "FAIL: $name did not start: $*" >&2
    cat "$SLURM_TEST_DIR/log/$name.out" >&2
    return 1
  fi
}

# Polls CMD (a shell command) every 0.2 s until it succeeds, at most S seconds.
_slurm_wait_for() {
  local seconds=$1 what=$2; shift 2
  local deadline=$((SECONDS + seconds))
  until "$@" >/dev/null 2>&1; do
    if [ "$SECONDS" -ge "$deadline" ]; then
      echo "FAIL: $what (waited ${seconds} s)" >&2
      return 1
    fi
    sleep 0.2
  done
}

_slurm_node_idle() {
  [ "$(sinfo -h -N -n "$SLURM_TEST_NODE" -o '%t' 2>/dev/null)" = "idle" ]
}

slurm_cluster_up() {
  local d=$1
  local missing=() t
  # munged, slurmctld and slurmd are in /usr/sbin, which a non-login PATH may lack.
  case ":$PATH:" in *:/usr/sbin:*) ;; *) PATH=$PATH:/usr/sbin ;; esac
  for t in munged slurmctld slurmd sbatch squeue sinfo scontrol scancel python3; do
    command -v "$t" >/dev/null 2>&1 || missing+=("$t")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "FAIL: not installed: ${missing[*]} (scripts/install-deps installs slurm-wlm and munge)" >&2
    return 1
  fi
  if [ "$(id -u)" -ne 0 ]; then
    echo "FAIL: the Slurm test starts munged, slurmctld and slurmd itself and needs root" >&2
    return 1
  fi

  SLURM_TEST_DIR=$d
  # Nothing inherited may point the clients elsewhere or change what sbatch submits (SLURM_CONF,
  # SBATCH_PARTITION, a SLURM_JOB_ID when the test itself runs inside a job, ...).
  local v
  for v in $(compgen -e | grep -E '^(SLURM|SBATCH|SQUEUE|SINFO|SCONTROL|SALLOC|SRUN)_' || true); do
    unset "$v"
  done
  mkdir -p "$d/munge" "$d/log" "$d/run" "$d/state" "$d/spool"
  chmod 700 "$d" "$d/munge"
  SLURM_TEST_NODE=$(hostname -s)
  local cpus ctld_port slurmd_port
  cpus=$(nproc)
  ctld_port=$(_slurm_free_port)
  slurmd_port=$(_slurm_free_port)
  while [ "$slurmd_port" = "$ctld_port" ]; do slurmd_port=$(_slurm_free_port); done

  # munge: a fresh key (1 KiB of random bytes, as mungekey makes), everything under DIR.
  dd if=/dev/urandom of="$d/munge/munge.key" bs=1024 count=1 status=none
  chmod 400 "$d/munge/munge.key"
  _slurm_start munged munged --force \
    --key-file="$d/munge/munge.key" --socket="$d/munge/munge.socket" \
    --pid-file="$d/run/munged.pid" --log-file="$d/log/munged.log" \
    --seed-file="$d/munge/munged.seed" || return 1
  _slurm_wait_for 10 "munged did not create its socket" test -S "$d/munge/munge.socket" || return 1

  : >"$d/plugstack.conf"
  cat >"$d/cgroup.conf" <<'EOF'
# Written by tests/slurm/slurm_cluster.sh. No cgroup plugin is configured in slurm.conf (see
# there); this file only keeps a system /etc/slurm/cgroup.conf from being read.
CgroupAutomount=no
EOF
  cat >"$d/slurm.conf" <<EOF
# Written by tests/slurm/slurm_cluster.sh for one test run; see the comments there.
ClusterName=spillwaytest
SlurmctldHost=$SLURM_TEST_NODE(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$d/munge/munge.socket
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool
SlurmctldPidFile=$d/run/slurmctld.pid
SlurmdPidFile=$d/run/slurmd.pid
SlurmctldLogFile=$d/log/slurmctld.log
SlurmdLogFile=$d/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
PlugStackConfig=$d/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
MpiDefault=none
SwitchType=switch/none
ReturnToService=2
MailProg=/bin/true
MinJobAge=600
SchedulerParameters=batch_sched_delay=0
NodeName=$SLURM_TEST_NODE NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=test Nodes=$SLURM_TEST_NODE Default=YES MaxTime=INFINITE State=UP
EOF
  export SLURM_CONF="$d/slurm.conf"

  _slurm_start slurmctld slurmctld -f "$d/slurm.conf" || return 1
  _slurm_wait_for 30 "slurmctld did not answer (scontrol ping)" \
    sh -c 'scontrol ping | grep -q "is UP"' || return 1
  _slurm_start slurmd slurmd -f "$d/slurm.conf" -N "$SLURM_TEST_NODE" || return 1
  _slurm_wait_for 60 "node $SLURM_TEST_NODE did not become idle (sinfo)" _slurm_node_idle || return 1
}

# slurm_wait_jobs SECONDS JOBID...
# Polls squeue (every 0.5 s; --states=all also lists jobs that ended, for MinJobAge) until every
# job and every array task has ended. Fails as soon as one ends otherwise than COMPLETED, or waits
# on a dependency that can never be met (the merge job after a failed shard), and after SECONDS
# at most (only a real hang gets there).
slurm_wait_jobs() {
  local seconds=$1; shift
  local ids deadline=$((SECONDS + seconds)) table active bad
  ids=$(IFS=,; echo "$*")
  while :; do
    table=$(squeue -h -r --states=all -j "$ids" -o '%i %T %r' 2>&1) || {
      echo "FAIL: squeue failed: $table" >&2
      return 1
    }
    bad=$(echo "$table" | awk '$2 ~ /^(FAILED|CANCELLED|TIMEOUT|NODE_FAIL|PREEMPTED|BOOT_FAIL|DEADLINE|OUT_OF_MEMORY)$/ || $3 == "DependencyNeverSatisfied"')
    if [ -n "$bad" ]; then
      echo "FAIL: a job failed or can never run (job state reason):" >&2
      echo "$table" >&2
      return 1
    fi
    active=$(echo "$table" | awk '$2 != "COMPLETED"')
    if [ -n "$table" ] && [ -z "$active" ]; then
      return 0
    fi
    if [ "$SECONDS" -ge "$deadline" ]; then
      echo "FAIL: jobs $ids not done after ${seconds} s (job state reason):" >&2
      echo "$table" >&2
      return 1
    fi
    sleep 0.5
  done
}
