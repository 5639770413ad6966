#!/usr/bin/env bash
# Benchmark: direct, routed and multicore at equal total ranks on this
# machine (8 ranks: direct 8, routed 2x2x2, multicore 2x1x1 x 4 cores),
# interleaved so that machine noise hits all three alike.
# Usage: algorithms.sh [LOG2_TABLE=24] [REPEATS=3]
set -euo pipefail
cd "$(dirname "$0")/../.."
source tests/benchmarks/record.sh
record algorithms "bash tests/benchmarks/algorithms.sh $(printf '%q ' "$@")"
log2_table="${1:-24}"
repeats="${2:-3}"
out="results/bench-algorithms"
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
gups=(build/kernel/gups-mpirun -np 8 build/kernel/gups --log2-table "$log2_table")
for ((i = 1; i <= repeats; i++)); do
  echo "bench: repeat $i of $repeats (2^$log2_table words, 8 ranks)" >&2
  "${gups[@]}" --algo direct --json "$out/direct-$i.json" >/dev/null
  "${gups[@]}" --algo routed --shape 2x2x2 --json "$out/routed-$i.json" >/dev/null
  "${gups[@]}" --algo multicore --shape 2x1x1 --json "$out/multicore-$i.json" >/dev/null
done
python3 - "$out" "$repeats" "$log2_table" <<'PY'
import json, statistics, sys
out, repeats, log2 = sys.argv[1], int(sys.argv[2]), sys.argv[3]
print(f"table 2^{log2} words, 8 ranks on this machine, {repeats} repeats: median GUP/s (min..max)")
for algo in ("direct", "routed", "multicore"):
    runs = [json.load(open(f"{out}/{algo}-{i}.json")) for i in range(1, repeats + 1)]
    rates = [r["gups"] for r in runs]
    median_run = sorted(runs, key=lambda r: r["gups"])[len(runs) // 2]
    print(f"  {algo:10s} {statistics.median(rates):.5f} ({min(rates):.5f}..{max(rates):.5f})"
          f"  errors {max(r['errors'] for r in runs)}, most pending {median_run['counters']['max_pending']}")
    for core in median_run["cores"]:
        busy = f"{100 * core['busy_share']:.0f}%" if core["busy_share"] > 0 else "not measured"
        print(f"      core {core['core']} ({core['role']}): busy {busy},"
              f" bucket fill {100 * core['mean_bucket_fill']:.0f}%")
PY
