#!/usr/bin/env bash
# Benchmark: determinism at scale. Runs the same gups-sim simulation twice
# (default: multicore on bgp, 4,096 nodes = 16,384 ranks, verified by
# checksum against a serial pass) and compares the two results bit for bit:
# every field of the JSON except the host's own measurements (wall seconds,
# peak memory, the wall time of each phase, the command's work folder).
# Prints the verdict, what differs if anything, and the wall time of each run.
# Usage: sim-determinism.sh [NODES=4096] [MECHANISMS=none] [UPDATES_PER_NODE=default] [LEVEL=flow]
set -euo pipefail
cd "$(dirname "$0")/../.."
source tests/benchmarks/record.sh
record sim-determinism "bash tests/benchmarks/sim-determinism.sh $(printf '%q ' "$@")"
nodes="${1:-4096}"
mechanisms="${2:-none}"
updates="${3:-default}"
level="${4:-flow}"
per_node=()
[ "$updates" = default ] || per_node=(--updates-per-node "$updates")
out="results/bench-sim-determinism"
mkdir -p "$out"
for run in 1 2; do
  echo "bench: run $run of 2: $nodes nodes, mechanisms $mechanisms" >&2
  build/sim/gups-sim --quiet --nodes "$nodes" --mechanisms "$mechanisms" "${per_node[@]}" --verify checksum --network "$level" \
    --workdir "$out/work-$run" --json "$out/run-$run.json" >/dev/null
done
/usr/bin/python3 - "$out" "$nodes" "$mechanisms" <<'PY'
import json, sys
out, nodes, mechanisms = sys.argv[1], sys.argv[2], sys.argv[3]
HOST_MEASURED = {"wall_seconds", "peak_memory_bytes", "phase_end_wall_seconds", "command"}


def leaves(value, path=""):
    """Every leaf of a JSON document with its path; the host's own measurements left out."""
    if isinstance(value, dict):
        for key, item in value.items():
            if not (path.startswith("simulation") and key in HOST_MEASURED):
                yield from leaves(item, f"{path}.{key}" if path else key)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from leaves(item, f"{path}[{i}]")
    else:
        yield path, value


runs = [json.load(open(f"{out}/run-{i}.json")) for i in (1, 2)]
first, second = (dict(leaves(r)) for r in runs)
differ = sorted(k for k in first.keys() | second.keys() if repr(first.get(k)) != repr(second.get(k)))
walls = [r["simulation"]["wall_seconds"] for r in runs]
summary = {"nodes": int(nodes), "ranks": runs[0]["ranks"], "mechanisms": mechanisms,
           "updates_per_node": runs[0]["simulation"]["updates_per_node"], "fields_compared": len(first),
           "fields_differing": differ, "identical": not differ, "verification": runs[0]["verification"],
           "passed": [r["passed"] for r in runs], "steady_gups": runs[0]["steady_gups"], "gups": runs[0]["gups"],
           "checksums": runs[0]["checksums"], "wall_seconds": walls,
           "peak_memory_bytes": [r["simulation"]["peak_memory_bytes"] for r in runs],
           "command": f"bash tests/benchmarks/sim-determinism.sh {nodes} {mechanisms}"}
json.dump(summary, open(f"{out}/summary.json", "w"), indent=1)
print(f"gups-sim multicore on bgp, {nodes} nodes ({summary['ranks']} ranks), mechanisms {mechanisms}, "
      f"{summary['updates_per_node']} updates per node, run twice")
print(f"  {len(first)} fields compared: {'identical, bit for bit' if not differ else f'{len(differ)} differ'}")
for key in differ[:20]:
    print(f"    {key}: {first.get(key)!r} / {second.get(key)!r}")
print(f"  verified by {summary['verification']}: {summary['passed']}; steady {summary['steady_gups']:.6f} GUP/s, "
      f"whole run {summary['gups']:.6f}, checksums {summary['checksums']}")
print(f"  wall {walls[0]:.1f} s and {walls[1]:.1f} s; peak {summary['peak_memory_bytes'][0] / 2**20:.0f} MiB")
print(f"  results: {out}/run-1.json, run-2.json, summary.json")
sys.exit(0 if not differ else 1)
PY
