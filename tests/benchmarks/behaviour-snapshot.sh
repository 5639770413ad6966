#!/usr/bin/env bash
# Benchmark: what the programs say, written to a folder so that two builds
# can be compared file by file (a change meant to leave behaviour alone).
# For bgp, bgl, bgq, fattree and dragonfly, direct/routed/multicore at 64,
# 512 and 4,096 nodes: gups-model's text, --explain and JSON; gups-topology's
# plan, platform, hostfile and charges at flow, queue and latency; gups-sim's
# JSON at flow, queue and latency for the 64-node runs (and queue, latency
# at 512), the host's own measurements (wall time, memory, work folder)
# left out.
# Usage: behaviour-snapshot.sh OUT_DIR [BUILD_DIR=build]
#        diff -r OUT_A OUT_B   (nothing printed: nothing moved)
set -euo pipefail
out="$(realpath -m "${1:?usage: behaviour-snapshot.sh OUT_DIR [BUILD_DIR]}")"
cd "$(dirname "$0")/../.."
build="${2:-build}"
mkdir -p "$out"
# gups-topology is built in sim/ (before the layers' issue, in topologies/).
topology="$build/sim/gups-topology"
[ -x "$topology" ] || topology="$build/topologies/gups-topology"
strip_host='import json,sys
d=json.load(open(sys.argv[1]))
s=d.get("simulation",{})
for k in ("wall_seconds","peak_memory_bytes","phase_end_wall_seconds","command","workdir"): s.pop(k,None)
for k in ("phases", "build"): d.pop(k,None)
print(json.dumps(d,indent=1,sort_keys=True))'
sizes=(64 512 4096)
for machine in bgp bgl bgq fattree dragonfly; do
  for algo in direct routed multicore; do
    for nodes in "${sizes[@]}"; do
      tag="$machine-$algo-$nodes"
      "$build/models/gups-model" --machine "$machine" --algorithm "$algo" --nodes "$nodes" >"$out/model-$tag.txt" 2>&1 || true
      "$build/models/gups-model" --machine "$machine" --algorithm "$algo" --nodes "$nodes" --explain \
        >"$out/explain-$tag.txt" 2>&1 || true
      "$build/models/gups-model" --machine "$machine" --algorithm "$algo" --nodes "$nodes" --json "$out/model-$tag.json" \
        >/dev/null 2>&1 || true
      for level in flow queue latency; do
        "$topology" --machine "$machine" --algo "$algo" --nodes "$nodes" --network "$level" \
          --platform "$out/platform-$tag-$level.xml" --hostfile "$out/hostfile-$tag-$level.txt" \
          --charges "$out/charges-$tag-$level.json" >"$out/plan-$tag-$level.json" 2>&1 || true
      done
    done
  done
done
echo "snapshot: models and plans written" >&2
if [ -x "$build/sim/gups-sim" ]; then
  for machine in bgp bgl bgq fattree dragonfly; do
    for algo in direct routed multicore; do
      for run in "64 flow" "64 queue" "64 latency" "512 queue" "512 latency"; do
        set -- $run
        tag="$machine-$algo-$1-$2"
        if "$build/sim/gups-sim" --quiet --machine "$machine" --algo "$algo" --nodes "$1" --network "$2" \
          --link-load --workdir "$out/work" --json "$out/sim-$tag.raw.json" >/dev/null 2>"$out/sim-$tag.err"; then
          /usr/bin/python3 -c "$strip_host" "$out/sim-$tag.raw.json" >"$out/sim-$tag.json"
        fi
        rm -f "$out/sim-$tag.raw.json"
        echo "snapshot: sim $tag" >&2
      done
    done
  done
  rm -rf "$out/work"
fi
echo "snapshot: $(ls "$out" | wc -l) files in $out"
