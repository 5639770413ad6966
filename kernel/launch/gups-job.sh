#!/bin/bash
# gups across the nodes of a Slurm allocation, its table sized as HPCC sizes
# RandomAccess's: the largest power of two words that is at most half the
# memory of all the allocation's nodes (HPCC's rules: "a power of two,
# approximately half the global memory"). Submit it with the resources you
# want; every argument goes to gups:
#
#   sbatch --nodes 4 --ntasks-per-node 2 kernel/launch/gups-job.sh --algo direct
#   sbatch --nodes 8 --ntasks-per-node 1 kernel/launch/gups-job.sh --algo routed --shape 2x2x2
#
# A node's memory is what the job was given (--mem: SLURM_MEM_PER_NODE),
# else the MemTotal of the node the script runs on (a cluster's nodes alike).
# --log2-table among the arguments wins over the rule. Environment:
#   TORUS_GUPS_BUILD  the build folder (default: the one beside this script's
#                     source tree, else ./build)
#   GUPS_TABLE_SHARE  the share of memory for the table (default 0.5, HPCC's)
#   GUPS_SRUN_MPI     srun's MPI plugin (default pmix; `srun --mpi=list`)
#   GUPS_JSON         the result's JSON (default gups-JOBID.json here)
#SBATCH --job-name=torus-gups
#SBATCH --time=00:30:00
set -euo pipefail

fail() {
  echo "gups-job: error: $*" >&2
  exit 2
}

[ -n "${SLURM_JOB_ID:-}" ] || fail "not inside a Slurm job: submit it with sbatch (sbatch --nodes N $0 --algo direct)"
source_tree=$(cd "$(dirname "$(readlink -f "$0")")/../.." && pwd)
build=${TORUS_GUPS_BUILD:-}
if [ -z "$build" ]; then
  # sbatch copies the script to the node's spool: $0 is then no path into the tree.
  for candidate in "$source_tree/build" "${SLURM_SUBMIT_DIR:-.}/build"; do
    if [ -x "$candidate/kernel/gups" ]; then build=$candidate; break; fi
  done
fi
gups=${build:-build}/kernel/gups
[ -x "$gups" ] || fail "no gups at $gups: set TORUS_GUPS_BUILD to the build folder"

share=${GUPS_TABLE_SHARE:-0.5}
nodes=${SLURM_JOB_NUM_NODES:-${SLURM_NNODES:-1}}
tasks=${SLURM_NTASKS:-$nodes}
if [ -n "${SLURM_MEM_PER_NODE:-}" ]; then
  node_bytes=$((SLURM_MEM_PER_NODE * 1024 * 1024))
  memory_from="--mem ${SLURM_MEM_PER_NODE} MiB a node"
else
  node_bytes=$(($(awk '/^MemTotal:/ {print $2}' /proc/meminfo) * 1024))
  memory_from="MemTotal $((node_bytes / 1024 / 1024)) MiB of $(hostname)"
fi

log2_table=""
for argument in "$@"; do
  case "$argument" in --log2-table|--log2-table=*) log2_table=given ;; esac
done
table=()
if [ -z "$log2_table" ]; then
  log2_table=$(python3 -c '
import math, sys
share, node_bytes, nodes = float(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
if not 0 < share <= 1:
    sys.exit("GUPS_TABLE_SHARE must be above 0 and at most 1")
words = share * node_bytes * nodes / 8
print(max(1, math.floor(math.log2(words))))' "$share" "$node_bytes" "$nodes") || fail "cannot size the table"
  table=(--log2-table "$log2_table")
  echo "gups-job: $nodes node(s), $tasks rank(s); table 2^$log2_table words ($(( (1 << log2_table) / 131072 )) MiB): the largest power of two within $share of $nodes x $memory_from" >&2
fi

json=${GUPS_JSON:-gups-$SLURM_JOB_ID.json}
exec srun --mpi="${GUPS_SRUN_MPI:-pmix}" --ntasks "$tasks" --nodes "$nodes" --distribution=block \
  "$gups" "${table[@]}" --json "$json" "$@"
