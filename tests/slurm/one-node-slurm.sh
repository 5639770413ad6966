#!/usr/bin/env bash
# A one-node Slurm cluster from Debian's packages (munge, slurmctld, slurmd),
# all its state in one folder, for the tests of the Slurm launcher.
#
#   one-node-slurm.sh start DIR [MB]  writes DIR/slurm.conf, starts the daemons
#                                 and waits until the node takes jobs; prints
#                                 the line to source (export SLURM_CONF=...).
#                                 MB: the node's memory (default: the host's
#                                 less 1 GiB)
#   one-node-slurm.sh stop DIR    stops them
#
# Its own munge socket and key, its own ports: nothing of the host's Slurm or
# munge is used or changed. The daemons run as the calling user (root or not:
# SlurmUser is that user, so an unprivileged user can run it where nothing
# else stops it).
set -euo pipefail

usage() { echo "usage: $0 start|stop DIR [MB]" >&2; exit 2; }
[ $# -eq 2 ] || [ $# -eq 3 ] || usage
action=$1
dir=$(mkdir -p "$2" && cd "$2" && pwd)
node_memory_mb=${3:-}
# Unix sockets (munge's, slurmd's for its job steps) have 108 bytes for their
# path: they live in a short folder named after DIR, whatever DIR's depth.
sockets=/tmp/tg-slurm-$(printf '%s' "$dir" | md5sum | cut -c1-12)

fail() { echo "one-node-slurm: $*" >&2; exit 1; }

stop() {
  local pids=()
  for name in slurmd slurmctld munged; do
    [ -f "$dir/$name.pid" ] && pids+=("$(cat "$dir/$name.pid")")
  done
  ((${#pids[@]})) || return 0
  kill "${pids[@]}" 2>/dev/null || true
  # A daemon removes its pid file before it has quite gone: wait for the processes.
  for _ in $(seq 100); do
    local alive=0
    for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
    ((alive)) || break
    sleep 0.1
  done
  kill -9 "${pids[@]}" 2>/dev/null || true
  rm -f "$dir"/{slurmd,slurmctld,munged}.pid
  rm -rf "$sockets"
}

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

start() {
  for program in munged mungekey slurmctld slurmd sbatch; do
    command -v "$program" >/dev/null || [ -x "/usr/sbin/$program" ] ||
      fail "$program is missing: it comes with Debian's munge, slurmctld, slurmd and slurm-client (bash .ci/setup installs them)"
  done
  export PATH="$PATH:/usr/sbin"
  local user host cpus memory_mb
  user=$(id -un)
  host=$(hostname -s)
  cpus=$(nproc)
  # What Slurm may give jobs: the host's memory less 1 GiB for everything else.
  memory_mb=${node_memory_mb:-$(($(awk '/MemTotal/ {print int($2 / 1024)}' /proc/meminfo) - 1024))}
  mkdir -p "$dir/state" "$dir/munge" "$dir/logs" "$sockets/spool"
  chmod 700 "$dir/munge"
  chmod 755 "$sockets"
  [ -f "$dir/munge/munge.key" ] || mungekey --create --keyfile="$dir/munge/munge.key" 2>/dev/null ||
    dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
  chmod 600 "$dir/munge/munge.key"
  munged --socket="$sockets/munge.socket" --key-file="$dir/munge/munge.key" \
    --pid-file="$dir/munged.pid" --log-file="$dir/logs/munged.log" --seed-file="$dir/munge/munge.seed" \
    --force >/dev/null 2>&1 || fail "munged did not start: $(tail -3 "$dir/logs/munged.log" 2>/dev/null)"
  cat >"$dir/slurm.conf" <<EOF
# Written by tests/slurm/one-node-slurm.sh: a one-node cluster for tests.
ClusterName=torusgups
SlurmctldHost=$host(127.0.0.1)
SlurmUser=$user
SlurmdUser=$user
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$sockets/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$sockets/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/logs/slurmctld.log
SlurmdLogFile=$dir/logs/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU_Memory
SchedulerType=sched/backfill
SchedulerParameters=sched_interval=2
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
MinJobAge=600
InactiveLimit=0
KillWait=5
SlurmctldTimeout=30
SlurmdTimeout=30
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$memory_mb State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
  export SLURM_CONF="$dir/slurm.conf"
  slurmctld -f "$SLURM_CONF" -i || fail "slurmctld did not start: $(tail -3 "$dir/logs/slurmctld.log" 2>/dev/null)"
  slurmd -f "$SLURM_CONF" || fail "slurmd did not start: $(tail -3 "$dir/logs/slurmd.log" 2>/dev/null)"
  for _ in $(seq 150); do
    state=$(sinfo -h -N -o %t 2>/dev/null | head -1)
    case "$state" in idle*) echo "export SLURM_CONF=$SLURM_CONF"; return 0 ;; esac
    sleep 0.2
  done
  fail "the node never took jobs (state '${state:-none}'); $dir/logs holds the daemons' logs: $(tail -2 "$dir/logs/slurmd.log" 2>/dev/null)"
}

case "$action" in
  start) start ;;
  stop) stop ;;
  *) usage ;;
esac
