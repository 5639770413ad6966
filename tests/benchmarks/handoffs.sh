#!/usr/bin/env bash
# Benchmark: hand-offs between the cores of a node. multicore on 1 node x 2
# cores with shared-memory hand-offs and with MPI messages, against routed on
# 1 node (one core does everything), interleaved so that machine noise hits
# all three alike. Never more ranks than this machine's 2 cores.
# Usage: handoffs.sh [LOG2_TABLE=22] [REPEATS=5]
set -euo pipefail
cd "$(dirname "$0")/../.."
source tests/benchmarks/record.sh
record handoffs "bash tests/benchmarks/handoffs.sh $(printf '%q ' "$@")"
log2_table="${1:-22}"
repeats="${2:-5}"
out="results/bench-handoffs"
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
gups=(build/kernel/gups --log2-table "$log2_table")
for ((i = 1; i <= repeats; i++)); do
  echo "bench: repeat $i of $repeats (2^$log2_table words)" >&2
  build/kernel/gups-mpirun -np 1 "${gups[@]}" --algo routed --json "$out/routed-$i.json" >/dev/null
  for handoffs in shared-memory mpi; do
    build/kernel/gups-mpirun -np 2 "${gups[@]}" --algo multicore --shape 1x1x1 --cores-per-node 2 --handoffs "$handoffs" \
      --json "$out/multicore-$handoffs-$i.json" >/dev/null
  done
done
python3 - "$out" "$repeats" "$log2_table" <<'PY'
import json, statistics, sys
out, repeats, log2 = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def runs(name):
    return [json.load(open(f"{out}/{name}-{i}.json")) for i in range(1, repeats + 1)]
rows = [("routed, 1 node x 1 core", "routed"),
        ("multicore 1x2, shared memory", "multicore-shared-memory"),
        ("multicore 1x2, MPI messages", "multicore-mpi")]
base = statistics.median(r["gups"] for r in runs("routed"))
print(f"table 2^{log2} words, {repeats} repeats, median GUP/s (min..max), ratio to routed;"
      " per core: busy share of the median run")
for label, name in rows:
    rs = runs(name)
    rates = [r["gups"] for r in rs]
    m = statistics.median(rates)
    median_run = sorted(rs, key=lambda r: r["gups"])[len(rs) // 2]
    cores = ", ".join(f"core {c['core']} {100 * c['busy_share']:.0f}%" for c in median_run["cores"])
    print(f"  {label:30s} {m:.5f} ({min(rates):.5f}..{max(rates):.5f})  x{m / base:.2f}   {cores}"
          f"   errors {max(r['errors'] for r in rs)}")
PY
