#!/usr/bin/env bash
# Benchmark and ablation: what each mechanism the simulation models beyond
# Eq. 7 changes (gups-sim --mechanisms), one at a time and all together, at
# each size. For each run: the steady-state GUPS, its change against the run
# without mechanisms, Eq. 7 (with the sizing rule's buckets, or the paper's
# when the run uses them) and the ratio, the bytes per update on the wire,
# the receive calls' packets, the busiest core role, and the wall time.
# Run it alone: at 4,096 nodes each run takes one to two minutes (MIN=8192:
# four times that). With dma the pipeline fills for longer than gups-sim's
# default runs at 512 nodes and more: give MIN, and read the quarters column.
# Usage: sim-mechanisms.sh ["64 512 4096"] ["none wire receive-batches paper-buckets dma mesh all"]
#        [ALGO=multicore] [MIN=0: at least this many updates per node]
set -euo pipefail
cd "$(dirname "$0")/../.."
source tests/benchmarks/record.sh
record sim-mechanisms "bash tests/benchmarks/sim-mechanisms.sh $(printf '%q ' "$@")" markdown
counts="${1:-64 512 4096}"
sets="${2:-none wire receive-batches paper-buckets dma mesh all}"
algo="${3:-multicore}"
min="${4:-0}"
out="results/bench-sim-mechanisms${4:+-min$min}"
mkdir -p "$out"
start=$(date +%s)
for n in $counts; do
  for set in $sets; do
    echo "bench: $algo, $n nodes, mechanisms $set" >&2
    build/sim/gups-sim --quiet --algo "$algo" --nodes "$n" --verify none --mechanisms "$set" \
      --min-updates-per-node "$min" --json "$out/$algo-$n-$set.json" >/dev/null
  done
done
list=$(echo $counts | tr ' ' ',')
build/models/gups-model --machine bgp --algorithm "$algo" --nodes "$list" --json "$out/model-rule.json" >/dev/null
build/models/gups-model --machine bgp --algorithm "$algo" --nodes "$list" --buckets reference \
  --json "$out/model-paper.json" >/dev/null
python3 - "$out" "$algo" "$counts" "$sets" "$(( $(date +%s) - start ))" <<'PY'
import csv, json, sys
out, algo, counts, sets, wall = sys.argv[1], sys.argv[2], [int(c) for c in sys.argv[3].split()], sys.argv[4].split(), sys.argv[5]
model = {name: {row["nodes"]: row for row in json.load(open(f"{out}/model-{name}.json"))["results"][0]["rows"]}
         for name in ("rule", "paper")}
rows = []
for n in counts:
    base = None
    for mechanisms in sets:
        r = json.load(open(f"{out}/{algo}-{n}-{mechanisms}.json"))
        used = r["simulation"]["mechanisms"]
        eq7 = model["paper" if "paper-buckets" in used else "rule"][n]
        steady = r["steady_gups"]
        base = steady if mechanisms == "none" else base
        receiving = [c for c in r["cores"] if c["receive_calls"]]
        busiest = max(r["cores"], key=lambda c: c["busy_share"])
        rows.append({"nodes": n, "mechanisms": mechanisms, "bucket": r["bucket_capacity"], "steady_gups": steady,
                     "vs_none": steady / base - 1 if base else None, "eq7_gups": eq7["gups"],
                     "steady_over_eq7": steady / eq7["gups"], "bytes_per_update": r["network_bytes_per_update"],
                     "model_bytes_per_update": eq7["bytes_per_update"],
                     "packets_per_receive_call": (sum(c["packets_received"] for c in receiving) /
                                                  sum(c["receive_calls"] for c in receiving)) if receiving else None,
                     "busiest_core": busiest["core"], "busiest_share": busiest["busy_share"],
                     "busy_shares": [round(c["busy_share"], 3) for c in r["cores"]],
                     "quarters_apart": r["steady_spread"], "updates_per_node": r["simulation"]["updates_per_node"],
                     "wall_seconds": r["simulation"]["wall_seconds"]})
with open(f"{out}/{algo}.csv", "w", newline="") as f:
    writer = csv.DictWriter(f, fieldnames=list(rows[0]))
    writer.writeheader()
    writer.writerows(rows)
print(f"gups-sim {algo} on bgp, mechanisms beyond Eq. 7 (this 2-core machine, {wall} s in all)")
print("| nodes | mechanisms | bucket | steady GUP/s | vs none | Eq. 7 | steady/Eq. 7 | bytes/update (model b) "
      "| packets/receive call | busy shares by core | quarters apart | updates/node | wall s |")
print("|---:|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|")
for r in rows:
    vs = "" if r["mechanisms"] == "none" else f"{100 * r['vs_none']:+.1f}%"
    ppc = f"{r['packets_per_receive_call']:.2f}" if r["packets_per_receive_call"] else "-"
    print(f"| {r['nodes']:,} | {r['mechanisms']} | {r['bucket']} | {r['steady_gups']:.4g} | {vs} | {r['eq7_gups']:.4g} "
          f"| {r['steady_over_eq7']:.3f} | {r['bytes_per_update']:.2f} ({r['model_bytes_per_update']:.2f}) | {ppc} "
          f"| {' '.join(f'{s:.2f}' for s in r['busy_shares'])} | {100 * r['quarters_apart']:.1f}% "
          f"| {r['updates_per_node']} | {r['wall_seconds']:.0f} |")
print(f"CSV: {out}/{algo}.csv")
PY
echo "repeat: bash tests/benchmarks/sim-mechanisms.sh \"$counts\" \"$sets\" $algo $min"
