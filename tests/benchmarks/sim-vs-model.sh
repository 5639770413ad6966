#!/usr/bin/env bash
# Benchmark: gups-sim against gups-model on the bgp machine file.
#  1. agreement where the model's assumptions hold: multicore with a network
#     1000x faster and no latency, against the Eq. 7 CPU bound;
#  2. CPU costs zero: multicore against the network bound 4B/b;
#  3. prediction: the full bgp machine, multicore and routed, beside Eq. 7 and Eq. 1.
# Every run's JSON is kept in results/bench-sim-vs-model/.
# Usage: sim-vs-model.sh [NODE COUNTS="64 128 256 512"] [UPDATES_PER_NODE=65536]
set -euo pipefail
cd "$(dirname "$0")/../.."
source tests/benchmarks/record.sh
record sim-vs-model "bash tests/benchmarks/sim-vs-model.sh $(printf '%q ' "$@")"
counts="${1:-64 128 256 512}"
updates="${2:-65536}"
out="results/bench-sim-vs-model"
mkdir -p "$out"
sim=build/sim/gups-sim
model=build/models/gups-model
for n in $counts; do
  echo "bench: $n nodes" >&2
  $sim --quiet --nodes "$n" --algo multicore --updates-per-node "$updates" --bandwidth-scale 1000 --zero-latency \
    --verify none --json "$out/fast-network-$n.json" >/dev/null
  $sim --quiet --nodes "$n" --algo multicore --updates-per-node "$updates" --costs zero \
    --verify none --json "$out/zero-cpu-$n.json" >/dev/null
  $sim --quiet --nodes "$n" --algo multicore --updates-per-node "$updates" --verify none --json "$out/bgp-multicore-$n.json" >/dev/null
  $sim --quiet --nodes "$n" --algo routed --updates-per-node "$updates" --verify none --json "$out/bgp-routed-$n.json" >/dev/null
  $model --algorithm multicore,routed --nodes "$n" --json "$out/model-$n.json" >/dev/null
done
python3 - "$out" "$counts" <<'PY'
import json, sys
out, counts = sys.argv[1], [int(c) for c in sys.argv[2].split()]
load = lambda name: json.load(open(f"{out}/{name}.json"))
print("1. multicore, network x1000 and no latency, against the Eq. 7 CPU bound (bucket sizes of the rule)")
print(f"  {'N':>6} {'Eq.7':>8} {'sim':>8} {'ratio':>6} {'steady':>8} {'ratio':>6} {'wall s':>7}")
for n in counts:
    m = load(f"model-{n}")["results"][0]["rows"][0]
    s = load(f"fast-network-{n}")
    print(f"  {n:>6} {m['cpu_gups']:8.3f} {s['gups']:8.3f} {s['gups'] / m['cpu_gups']:6.3f} "
          f"{s['steady_gups']:8.3f} {s['steady_gups'] / m['cpu_gups']:6.3f} {s['simulation']['wall_seconds']:7.1f}")
print("2. multicore, no CPU cost, against the network bound 4B/b")
print(f"  {'N':>6} {'4B/b':>8} {'sim':>8} {'ratio':>6} {'steady':>8} {'ratio':>6}")
for n in counts:
    m = load(f"model-{n}")["results"][0]["rows"][0]
    s = load(f"zero-cpu-{n}")
    print(f"  {n:>6} {m['network_gups']:8.3f} {s['gups']:8.3f} {s['gups'] / m['network_gups']:6.3f} "
          f"{s['steady_gups']:8.3f} {s['steady_gups'] / m['network_gups']:6.3f}")
print("3. prediction on the full bgp machine (GUP/s)")
print(f"  {'N':>6} {'Eq.7':>8} {'multicore':>10} {'steady':>8} {'Eq.1':>8} {'routed':>8} {'steady':>8} {'wall s':>7} {'peak MiB':>9}")
for n in counts:
    mm, mr = (r["rows"][0] for r in load(f"model-{n}")["results"])
    sm, sr = load(f"bgp-multicore-{n}"), load(f"bgp-routed-{n}")
    print(f"  {n:>6} {mm['gups']:8.3f} {sm['gups']:10.3f} {sm['steady_gups']:8.3f} {mr['gups']:8.3f} {sr['gups']:8.3f} "
          f"{sr['steady_gups']:8.3f} {sm['simulation']['wall_seconds']:7.1f} {sm['simulation']['peak_memory_bytes'] / 2**20:9.0f}")
PY
echo "repeat: bash tests/benchmarks/sim-vs-model.sh \"$counts\" $updates"
