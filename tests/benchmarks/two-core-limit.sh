#!/usr/bin/env bash
# Benchmark: each algorithm on 2 ranks (routed also with standard sends;
# multicore with the paper's plan and with 2xXYZ+0, both cores updating)
# against what two cores of this host
# can do, plain serial loops run two at a time, interleaved round by round so
# that the host's noise hits all alike. The limit is two loops at once each
# on the half of the table a rank holds (the same memory per core as the
# ranks); beside it, two loops each on the whole table, as the limit was
# first measured. Reports medians over the rounds and each algorithm's share
# of both limits, taken within each round.
# Usage: two-core-limit.sh [LOG2_TABLE=26] [ROUNDS=3] [BUILD=build]
set -euo pipefail
cd "$(dirname "$0")/../.."
source tests/benchmarks/record.sh
log2_table="${1:-26}"
rounds="${2:-3}"
build="${3:-build}"
record two-core-limit "bash tests/benchmarks/two-core-limit.sh $log2_table $rounds $build" markdown
out="results/bench-two-core-limit"
mkdir -p "$out/runs"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpirun=("$build/kernel/gups-mpirun" -np 2)
gups="$build/kernel/gups"
half=$((log2_table - 1))
for ((i = 1; i <= rounds; i++)); do
  echo "bench: round $i of $rounds (2^$log2_table words)" >&2
  "$build/kernel/gups-serial" --log2-table "$log2_table" --json "$out/runs/serial-$i.json" >/dev/null
  "$build/kernel/gups-serial" --log2-table "$half" --json "$out/runs/pair-a-$i.json" >/dev/null &
  pair=$!
  "$build/kernel/gups-serial" --log2-table "$half" --json "$out/runs/pair-b-$i.json" >/dev/null
  wait "$pair"  # (a bare wait would wait for record's tee too)
  "$build/kernel/gups-serial" --log2-table "$log2_table" --json "$out/runs/whole-a-$i.json" >/dev/null &
  pair=$!
  "$build/kernel/gups-serial" --log2-table "$log2_table" --json "$out/runs/whole-b-$i.json" >/dev/null
  wait "$pair"
  "${mpirun[@]}" "$gups" --algo direct --log2-table "$log2_table" --json "$out/runs/direct-$i.json" >/dev/null
  "${mpirun[@]}" "$gups" --algo routed --shape 2x1x1 --log2-table "$log2_table" \
    --json "$out/runs/routed-$i.json" >/dev/null
  "${mpirun[@]}" "$gups" --algo routed --shape 2x1x1 --sends standard --log2-table "$log2_table" \
    --json "$out/runs/routed-standard-$i.json" >/dev/null
  "${mpirun[@]}" "$gups" --algo multicore --shape 1x1x1 --cores-per-node 2 --log2-table "$log2_table" \
    --json "$out/runs/multicore-$i.json" >/dev/null
  "${mpirun[@]}" "$gups" --algo multicore --shape 1x1x1 --cores-per-node 2 --role-plan 2xXYZ+0 \
    --log2-table "$log2_table" --json "$out/runs/multicore-2xXYZ+0-$i.json" >/dev/null
done
python3 - "$out/runs" "$rounds" "$log2_table" "$build" <<'PY'
import json, statistics, sys
runs, rounds, log2, build = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
def load(name, i):
    with open(f"{runs}/{name}-{i}.json") as f:
        return json.load(f)
def gups(name, i):
    document = load(name, i)
    if document.get("passed") is False:
        sys.exit(f"{name} round {i}: verification failed")
    return document["gups"]
# Two loops at once: each loop's updates over its own time; both ran the whole time, so the sum is the pair's rate.
rounds_ = range(1, rounds + 1)
pair = [gups("pair-a", i) + gups("pair-b", i) for i in rounds_]
whole = [gups("whole-a", i) + gups("whole-b", i) for i in rounds_]
def shares(values, limit):
    s = [v / p for v, p in zip(values, limit)]
    return f"{statistics.median(s):.2f} ({min(s):.2f}-{max(s):.2f})"
rows = [("one serial loop alone (whole table)", [gups("serial", i) for i in rounds_], "-", "-"),
        ("two serial loops at once, each half the table (sum)", pair, "1.00 (the limit)", shares(pair, whole)),
        ("two serial loops at once, each the whole table (sum)", whole, shares(whole, pair), "1.00")]
for algo, name in (("direct", "`direct`, 2 ranks"), ("routed", "`routed`, 2 ranks"),
                   ("routed-standard", "`routed --sends standard`, 2 ranks (HPCC's accounting: MPI may hold sent buckets)"),
                   ("multicore", "`multicore`, 2 ranks (one node), the paper's plan"),
                   ("multicore-2xXYZ+0", "`multicore --role-plan 2xXYZ+0`, 2 ranks (one node)")):
    values = [gups(algo, i) for i in rounds_]
    rows.append((name, values, shares(values, pair), shares(values, whole)))
mpi = load("direct", 1)["build"]["mpi_library"]
print(f"Table 2^{log2} words, {rounds} interleaved rounds, median GUP/s (min-max); shares of the two loops' sums in "
      f"the same round, median (min-max over rounds). gups built with {mpi}; every run verified.")
print()
print("| run | GUP/s (median) | min-max | share of two loops at once, half the table each | share of two loops at once, whole table each |")
print("| --- | ---: | ---: | ---: | ---: |")
for name, values, share, share_whole in rows:
    print(f"| {name} | {statistics.median(values):.4f} | {min(values):.4f}-{max(values):.4f} | {share} | {share_whole} |")
PY
