#!/usr/bin/env bash
# Benchmark: wall time and peak memory of gups-sim (multicore, bgp machine)
# as the torus grows, on this machine. Each size runs under a wall budget;
# a size that exceeds it is reported as stopped with its partial progress.
# Usage: sim-scale.sh ["64 512 4096 32768"] [UPDATES_PER_NODE=4096] [MAX_WALL=900]
set -euo pipefail
cd "$(dirname "$0")/../.."
counts="${1:-64 512 4096 32768}"
updates="${2:-4096}"
max_wall="${3:-900}"
out="results/bench-sim-scale"
mkdir -p "$out"
for n in $counts; do
  echo "bench: $n nodes ($((n * 4)) ranks), $updates updates per node, budget ${max_wall} s" >&2
  build/sim/gups-sim --quiet --nodes "$n" --updates-per-node "$updates" --verify no --max-wall "$max_wall" \
    --json "$out/multicore-$n.json" >/dev/null || true
done
python3 - "$out" "$counts" "$updates" <<'PY'
import json, sys
out, counts, updates = sys.argv[1], [int(c) for c in sys.argv[2].split()], int(sys.argv[3])
print(f"gups-sim multicore on bgp, {updates} updates per node, this 2-core machine")
print(f"  {'nodes':>6} {'ranks':>7} {'wall s':>8} {'peak MiB':>9} {'sim GUP/s':>10} {'steady':>8}  status")
for n in counts:
    r = json.load(open(f"{out}/multicore-{n}.json"))
    s = r["simulation"]
    if r.get("partial"):
        print(f"  {n:>6} {4 * n:>7} {s['wall_seconds']:8.1f} {s['peak_memory_bytes'] / 2**20:9.0f} {'-':>10} {'-':>8}  stopped: {r.get('progress')}")
    else:
        print(f"  {n:>6} {4 * n:>7} {s['wall_seconds']:8.1f} {s['peak_memory_bytes'] / 2**20:9.0f} {r['gups']:10.3f} {r['window_gups']:8.3f}  done")
PY
echo "repeat: bash tests/benchmarks/sim-scale.sh \"$counts\" $updates $max_wall"
