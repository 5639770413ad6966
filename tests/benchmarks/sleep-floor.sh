#!/usr/bin/env bash
# Benchmark: the floor under the timed levels' wall time per message. Each
# rank of gups-sleep-floor sleeps on the simulator's clock as a core does at
# queue and latency (suspended, resumed by the clock), for a random time under
# a microsecond, and does nothing else but touch TOUCH bytes of its own memory
# after each wake. For each rank count: wall nanoseconds per sleep and peak
# memory. A simulated message of the multicore run costs about 2.8 sleeps
# (416,289 sleeps for 148,277 messages at 512 nodes, docs/simulator.md), so
# the last column is the most messages per wall second the sleeps alone
# allow. SMPI options as gups-sim's at a machine's costs. Run it alone.
# Usage: sleep-floor.sh ["2048 16384 131072"] [SLEEPS_PER_RANK=40] [TOUCH_BYTES="0 2048"]
set -euo pipefail
cd "$(dirname "$0")/../.."
source tests/benchmarks/record.sh
record sleep-floor "bash tests/benchmarks/sleep-floor.sh $(printf '%q ' "$@")" markdown
counts="${1:-2048 16384 131072}"
sleeps="${2:-40}"
touches="${3:-0 2048}"
program=build/sim/smpi/gups-sleep-floor
[ -x "$program" ] || { echo "sleep-floor: $program is missing (cmake --build build)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"; record_end' EXIT
options=$(python3 -c 'import sys; sys.path[:0] = ["sim", "analysis/run"]; import gups_sim; print(" ".join("--cfg=" + o for o in gups_sim.SMPI_OPTIONS + ["smpi/simulate-computation:no"]))')
echo "| ranks | touched after a wake | sleeps | wall s | ns per sleep | peak MiB | KiB per rank | messages per wall s the sleeps allow (2.8 a message) |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|"
for n in $counts; do
  cat >"$work/platform.xml" <<EOF
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="machine" routing="Full">
    <host id="node" speed="1Gf" core="$n"/>
  </zone>
</platform>
EOF
  echo "node:$n" >"$work/hostfile"
  for touch in $touches; do
    echo "bench: $n ranks, $sleeps sleeps each, $touch bytes touched after each" >&2
    # shellcheck disable=SC2086
    GLIBC_TUNABLES=glibc.malloc.hugetlb=1 /usr/bin/time -f "%M" -o "$work/peak" \
      smpirun -np "$n" -platform "$work/platform.xml" -hostfile "$work/hostfile" $options \
      --log=root.thres:warning "$program" --sleeps "$sleeps" --touch-bytes "$touch" --json "$work/floor.json" \
      >/dev/null 2>"$work/stderr" || { cat "$work/stderr" >&2; exit 1; }
    python3 - "$work/floor.json" "$(cat "$work/peak")" <<'PY'
import json, sys
f, peak_kib = json.load(open(sys.argv[1])), int(sys.argv[2])
sleeps = f["ranks"] * f["sleeps_per_rank"]
print(f"| {f['ranks']:,} | {f['touch_bytes']:,} B | {sleeps:,} | {f['wall_seconds']:.2f} | {f['ns_per_sleep']:,.0f} "
      f"| {peak_kib / 1024:,.0f} | {peak_kib / f['ranks']:.0f} | {1e9 / (2.8 * f['ns_per_sleep']):,.0f} |")
PY
  done
done
echo
echo "Wall time between two s4u barriers around the sleeps. Repeat: bash tests/benchmarks/sleep-floor.sh \"$counts\" $sleeps \"$touches\""
