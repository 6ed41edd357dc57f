#!/bin/bash
# A throw-away single-node Slurm cluster in a folder, for trying `qoslab sweep --slurm` and
# for the test engine/cli/tests/slurm.rs. Needs root and Debian's `slurm-wlm` and `munge`
# (`node scripts/setup.mjs --test` installs them).
#
#   scripts/slurm-local.sh start DIR   # munged, slurmctld and slurmd, all files in DIR
#   export SLURM_CONF=DIR/slurm.conf   # then sbatch, squeue, ... talk to this cluster
#   scripts/slurm-local.sh stop DIR    # stops the three daemons by their pid files
#
# Everything lives in DIR (which must not exist yet, or be empty): its own munge key and
# socket, slurm.conf with free ports, state, spool, logs and pid files; the system's munge
# and Slurm configuration are neither read nor touched. One node (this host's short name
# and CPU count), one partition `debug`; ProctrackType=proctrack/linuxproc and
# TaskPlugin=task/none, so no cgroups are needed. `start` waits until the node is idle
# (at most 60 s) and, when anything fails, prints the daemons' logs and stops what it started.
set -euo pipefail

usage() { echo "usage: $0 start|stop DIR" >&2; exit 2; }
[ $# -eq 2 ] || usage
action=$1
dir=$2

stop() {
  local name pid
  for name in slurmd slurmctld munged; do
    [ -f "$dir/$name.pid" ] || continue
    pid=$(cat "$dir/$name.pid")
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
      kill "$pid" 2>/dev/null || true
      for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null || true
    fi
    rm -f "$dir/$name.pid"
  done
}

# A TCP port nobody listens on (from /proc/net/tcp*), starting at $1.
free_port() {
  local port=$1
  while grep -qi ":$(printf '%04X' "$port") " /proc/net/tcp /proc/net/tcp6 2>/dev/null; do
    port=$((port + 1))
  done
  echo "$port"
}

fail_start() {
  echo "slurm-local: $1" >&2
  for log in munged.log slurmctld.log slurmd.log; do
    [ -f "$dir/$log" ] && { echo "--- $dir/$log (last lines)" >&2; tail -n 20 "$dir/$log" >&2; }
  done
  stop
  exit 1
}

case "$action" in
  stop) stop; exit 0 ;;
  start) ;;
  *) usage ;;
esac

[ "$(id -u)" -eq 0 ] || { echo "slurm-local: must run as root (slurmd runs jobs as their users)" >&2; exit 1; }
for tool in mungekey munged slurmctld slurmd sinfo; do
  command -v "$tool" >/dev/null || PATH=$PATH:/usr/sbin:/sbin
  command -v "$tool" >/dev/null || { echo "slurm-local: $tool not found (apt-get install slurm-wlm munge)" >&2; exit 1; }
done
id munge >/dev/null 2>&1 || { echo "slurm-local: no user munge (apt-get install munge)" >&2; exit 1; }
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
[ -z "$(ls -A "$dir")" ] || { echo "slurm-local: $dir is not empty" >&2; exit 1; }
chmod 755 "$dir"

# munge: its own key and socket, the daemon running as the munge user.
mkdir -p "$dir/munge"
chown munge:munge "$dir/munge"
chmod 711 "$dir/munge"
runuser -u munge -- mungekey --create --keyfile="$dir/munge/munge.key"
runuser -u munge -- munged --socket="$dir/munge/socket" --key-file="$dir/munge/munge.key" \
  --pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" \
  --seed-file="$dir/munge/munged.seed" || fail_start "munged did not start"
ln -sf "$dir/munge/munged.pid" "$dir/munged.pid"
ln -sf "$dir/munge/munged.log" "$dir/munged.log"

host=$(hostname -s)
cpus=$(nproc --all)
ctld_port=$(free_port $((6817 + $$ % 2000 * 2)))
slurmd_port=$(free_port $((ctld_port + 1)))
mkdir -p "$dir/state" "$dir/spool"
cat > "$dir/slurm.conf" <<EOF
# Single-node test cluster written by scripts/slurm-local.sh.
ClusterName=qoslab-local
SlurmctldHost=$host
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
SlurmctldTimeout=30
SlurmdTimeout=30
NodeName=$host CPUs=$cpus State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$dir/slurm.conf
slurmctld -f "$SLURM_CONF" || fail_start "slurmctld did not start"
slurmd -f "$SLURM_CONF" || fail_start "slurmd did not start"

for _ in $(seq 120); do
  state=$(sinfo -h -N -o '%T' 2>/dev/null | head -n 1 || true)
  case "$state" in idle*) echo "slurm-local: node $host ($cpus CPUs) idle; SLURM_CONF=$SLURM_CONF"; exit 0 ;; esac
  sleep 0.5
done
fail_start "the node did not become idle within 60 s (state: ${state:-unknown})"
