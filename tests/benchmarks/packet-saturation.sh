#!/usr/bin/env bash
# Benchmark: the packet level under a saturated cut. Blue Gene/P's bisection
# probe (the lower half of the nodes streams to the upper half, two 256 KiB
# messages in flight each, REPEATS each) at the packet level, for each node
# count: the wall time, the peak memory and the bisection it measured. Every
# packet of the messages in flight is booked across the torus ahead of time,
# so this is where the level's bookings are longest. Beside it, the peak
# memory of the same probe at the queue level: what the level adds to the
# processes' own (their messages' payloads). Run it alone.
# Usage: packet-saturation.sh ["512 1024 2048"] [REPEATS=4]
set -euo pipefail
cd "$(dirname "$0")/../.."
source tests/benchmarks/record.sh
record packet-saturation "bash tests/benchmarks/packet-saturation.sh $(printf '%q ' "$@")" markdown
counts="${1:-512 1024 2048}"
repeats="${2:-4}"
work=$(mktemp -d)
trap 'rm -rf "$work"; record_end' EXIT
echo "| nodes | senders x messages x size | wall s | peak MiB | peak MiB at queue | bisection GB/s | of the cut's links |"
echo "|---:|---|---:|---:|---:|---:|---:|"
for n in $counts; do
  echo "bench: bisection at the packet level, $n nodes" >&2
  for level in packet queue; do
    build/sim/gups-sim --algo bisection --nodes "$n" --network "$level" --sizes 256K --repeats "$repeats" \
      --json "$work/$n-$level.json" >/dev/null
  done
  python3 - "$work/$n-packet.json" "$repeats" "$work/$n-queue.json" <<'PY'
import json, sys
with open(sys.argv[1]) as f:
    run = json.load(f)
with open(sys.argv[3]) as f:
    queue = json.load(f)["simulation"]
sim = run["simulation"]
print(f"| {run['processes']:,} | {run['pairs']:,} x {sys.argv[2]} x {run['bisection_message_bytes'] // 1024} KiB "
      f"| {sim['wall_seconds']:.1f} | {sim['peak_memory_bytes'] / 2**20:,.0f} | {queue['peak_memory_bytes'] / 2**20:,.0f} "
      f"| {run['bisection_bytes_per_s'] / 1e9:.2f} | {run['against_links']['of_probe_cut']:.3f} |")
PY
done
