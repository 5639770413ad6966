#!/usr/bin/env bash
# Benchmark: how gups-sim (multicore on the bgp machine) scales on this
# machine. For each node count: wall seconds (and the wall time rank 0 saw
# at the end of set-up and of the update phase), peak memory (total and per
# simulated rank), simulated messages per wall second, wake-ups per message
# (a simulated core blocked and resumed: the simulation's cost per event), the whole-run and
# steady-state GUPS with the spread of the steady state's two quarters, and
# Eq. 7 beside them. Each size runs under a wall budget; a size that exceeds
# it is reported as stopped with its partial progress. Run it alone.
# Usage: sim-scale.sh ["64 512 4096 32768"] [UPDATES_PER_NODE=default] [MAX_WALL=1800] [LEVEL=auto] [MECHANISMS=none]
# (UPDATES_PER_NODE default: gups-sim's own for each size; LEVEL: gups-sim --network; MECHANISMS: gups-sim
# --mechanisms, recorded as sim-scale-MECHANISMS when not none, and Eq. 7 then with the paper's buckets where
# paper-buckets is among them)
set -euo pipefail
cd "$(dirname "$0")/../.."
source tests/benchmarks/record.sh
mechanisms="${5:-none}"
tag="${mechanisms//,/+}"
name=sim-scale
[ "$mechanisms" = none ] || name="sim-scale-$tag"
record "$name" "bash tests/benchmarks/sim-scale.sh $(printf '%q ' "$@")" markdown
counts="${1:-64 512 4096 32768}"
updates="${2:-default}"
max_wall="${3:-1800}"
level="${4:-auto}"
per_node=()
[ "$updates" = default ] || per_node=(--updates-per-node "$updates")
out="results/bench-sim-scale/$level-$tag"
mkdir -p "$out"
for n in $counts; do
  echo "bench: $n nodes ($((n * 4)) ranks), $updates updates per node, budget ${max_wall} s" >&2
  build/sim/gups-sim --quiet --nodes "$n" "${per_node[@]}" --verify none --max-wall "$max_wall" --network "$level" \
    --mechanisms "$mechanisms" \
    --json "$out/multicore-$n.json" >/dev/null || true
done
buckets=sizing
case ",$mechanisms," in *,all,* | *,paper-buckets,*) buckets=reference ;; esac
build/models/gups-model --machine bgp --algorithm multicore --nodes "$(echo $counts | tr ' ' ',')" \
  --buckets "$buckets" --json "$out/model.json" >/dev/null
python3 - "$out" "$counts" "$updates" "$mechanisms" <<'PY'
import json, sys
out, counts, updates, mechanisms = sys.argv[1], [int(c) for c in sys.argv[2].split()], sys.argv[3], sys.argv[4]
model = {row["nodes"]: row["gups"] for row in json.load(open(f"{out}/model.json"))["results"][0]["rows"]}
print(f"gups-sim multicore on bgp, updates per node: {updates}, mechanisms: {mechanisms}")
print()
print("| nodes | ranks | level | updates/node | wall s | set-up s | update phase s | peak MiB | KiB/rank | messages per "
      "wall s | wake-ups per message | GUP/s | steady | spread | Eq. 7 | steady/Eq. 7 | status |")
print("|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
for n in counts:
    r = json.load(open(f"{out}/multicore-{n}.json"))
    s = r["simulation"]
    ranks = 4 * n
    peak = s["peak_memory_bytes"]
    phases = s.get("phase_end_wall_seconds", {})
    setup, updated = phases.get("set-up"), phases.get("update phase")
    span = lambda x: f"{x:,.0f}" if x is not None else "-"
    phase = updated - setup if updated is not None and setup is not None else None
    head = (f"| {n:,} | {ranks:,} | {s.get('network_level', '-')} | {s['updates_per_node']:,} | {s['wall_seconds']:,.1f} "
            f"| {span(setup)} | {span(phase)} | {peak / 2**20:,.0f} | {peak / 1024 / ranks:.0f}")
    if r.get("partial"):
        print(f"{head} | - | - | - | - | - | {model.get(n, 0):.3f} | - | stopped: {r.get('progress')} |")
        continue
    messages = sum(c["messages_sent"] + c["local_messages_sent"] for c in r["cores"])
    steady = r["steady_gups"]
    woken = r.get("wake_ups") or {}
    per_message = f"{woken['per_message']:.2f}" if woken else "-"
    print(f"{head} | {messages / (phase or s['wall_seconds']):,.0f} | {per_message} | {r['gups']:.3f} | {steady:.3f} "
          f"| {100 * r['steady_spread']:.2f}% | {model[n]:.3f} | {steady / model[n]:.3f} | done |")
PY
echo
echo "Messages per wall second: over the update phase. Repeat: bash tests/benchmarks/sim-scale.sh \"$counts\" $updates $max_wall $level $mechanisms"
