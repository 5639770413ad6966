#!/usr/bin/env bash
# Benchmark: calibrate this host RUNS times (stability of every figure), then
# compare gups-model's prediction from the median run with what gups
# measures at the main job's sizes: direct and routed on 1 rank (direct-1,
# routed-1) and on 2 (direct, routed 2x1x1), and multicore (1 node x 2
# cores), medians of RUNS runs each, interleaved. The model places the
# torus nodes as mpirun does (--nodes-per-host fill), so it knows how many
# of the host's cores update at once. Each run's measurements are also set
# against its own calibration (minutes apart at most), since the host's
# load drifts between runs; the load average is kept beside each run.
# Summary for scripts: results/bench-host-model/summary.json.
# Usage: host-model.sh [RUNS=3] [LOG2_TABLE=22]
set -euo pipefail
cd "$(dirname "$0")/../.."
source tests/benchmarks/record.sh
record host-model "bash tests/benchmarks/host-model.sh $(printf '%q ' "$@")"
runs="${1:-3}"
log2_table="${2:-22}"
out="results/bench-host-model"
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
gups=(build/kernel/gups --log2-table "$log2_table")
for ((i = 1; i <= runs; i++)); do
  echo "bench: run $i of $runs" >&2
  cut -d' ' -f1 /proc/loadavg > "$out/load-$i.before"
  /usr/bin/time -f "%e" -o "$out/calibrate-$i.seconds" \
    build/kernel/gups-mpirun -np 2 build/models/gups-calibrate --log2-table "$log2_table" --output "$out/host-$i.json" >/dev/null
  build/kernel/gups-mpirun -np 1 "${gups[@]}" --algo direct --json "$out/direct-1-$i.json" >/dev/null
  build/kernel/gups-mpirun -np 1 "${gups[@]}" --algo routed --shape 1x1x1 --json "$out/routed-1-$i.json" >/dev/null
  build/kernel/gups-mpirun -np 2 "${gups[@]}" --algo direct --json "$out/direct-$i.json" >/dev/null
  build/kernel/gups-mpirun -np 2 "${gups[@]}" --algo routed --shape 2x1x1 --json "$out/routed-$i.json" >/dev/null
  build/kernel/gups-mpirun -np 2 "${gups[@]}" --algo multicore --cores-per-node 2 --shape 1x1x1 --json "$out/multicore-$i.json" >/dev/null
  cut -d' ' -f1 /proc/loadavg > "$out/load-$i.after"
done
python3 - "$out" "$runs" "$log2_table" <<'PY'
import json, statistics, subprocess, sys
out, runs, log2_table = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
tolerance = 0.25  # within 0.8x to 1.25x: 25% either way, as a factor
hosts = [json.load(open(f"{out}/host-{i}.json")) for i in range(1, runs + 1)]
seconds = [float(open(f"{out}/calibrate-{i}.seconds").read()) for i in range(1, runs + 1)]
print(f"gups-calibrate, {runs} runs, {min(seconds):.1f}..{max(seconds):.1f} s each")
print(f"  {'cost (cycles)':24s} {'median':>9s} {'min':>9s} {'max':>9s} {'spread':>7s}")
fields = [k for k, v in hosts[0]["costs_cycles"].items() if isinstance(v, (int, float))]
for field in fields:
    values = [h["costs_cycles"][field] for h in hosts]
    spread = (max(values) / min(values) - 1) * 100 if min(values) > 0 else 0
    print(f"  {field:24s} {statistics.median(values):9.1f} {min(values):9.1f} {max(values):9.1f} {spread:6.1f}%")
for c in range(len(hosts[0]["costs_cycles"]["core_overhead"])):
    values = [h["costs_cycles"]["core_overhead"][c] for h in hosts]
    print(f"  {'core_overhead[%d]' % c:24s} {statistics.median(values):9.1f} {min(values):9.1f} {max(values):9.1f} "
          f"{(max(values) / min(values) - 1) * 100:6.1f}%")
# Predict from each calibration; compare the median prediction with the median measurement.
cases = [("direct-1", ["--algorithm", "direct", "--shape", "1x1x1"]),
         ("routed-1", ["--algorithm", "routed", "--shape", "1x1x1"]),
         ("direct", ["--algorithm", "direct", "--shape", "2x1x1"]),
         ("routed", ["--algorithm", "routed", "--shape", "2x1x1"]),
         ("multicore", ["--algorithm", "multicore", "--shape", "1x1x1"])]
loads = [(float(open(f"{out}/load-{i}.before").read()), float(open(f"{out}/load-{i}.after").read()))
         for i in range(1, runs + 1)]
print("  load average (1 min) before..after each run: " +
      ", ".join(f"{before:.1f}..{after:.1f}" for before, after in loads))
print(f"\n  {'algorithm':10s} {'predicted GUP/s':>16s} {'spread':>7s} {'measured GUP/s':>15s} {'spread':>7s} "
      f"{'measured/predicted':>19s} {'per run (median)':>17s}  0.8x-1.25x")
summary = {"log2_table": log2_table, "runs": runs, "tolerance": tolerance,
           "load_average": [list(pair) for pair in loads], "algorithms": {}}
for name, args in cases:
    predicted = []
    for i in range(1, runs + 1):
        subprocess.run(["build/models/gups-model", "--machine", f"{out}/host-{i}.json", *args, "--nodes-per-host", "fill",
                        "--json", f"{out}/model-{name}-{i}.json"], check=True, stdout=subprocess.DEVNULL)
        predicted.append(json.load(open(f"{out}/model-{name}-{i}.json"))["results"][0]["rows"][0]["gups"])
    measured = [json.load(open(f"{out}/{name}-{i}.json"))["gups"] for i in range(1, runs + 1)]
    p, m = statistics.median(predicted), statistics.median(measured)
    per_run = [mi / pi for mi, pi in zip(measured, predicted)]
    paired = statistics.median(per_run)
    within = all(1 / (1 + tolerance) <= r <= 1 + tolerance for r in (m / p, paired))
    print(f"  {name:10s} {p:16.4f} {(max(predicted) / min(predicted) - 1) * 100:6.1f}% {m:15.4f} "
          f"{(max(measured) / min(measured) - 1) * 100:6.1f}% {m / p:19.2f} {paired:17.2f}  {'yes' if within else 'no'}")
    summary["algorithms"][name] = {"predicted_gups": predicted, "measured_gups": measured,
                                   "median_predicted_gups": p, "median_measured_gups": m,
                                   "measured_over_predicted": m / p, "median_per_run_ratio": paired,
                                   "within_tolerance": within}
json.dump(summary, open(f"{out}/summary.json", "w"), indent=2)
print(f"\n  per run: each run's measurement over the prediction from that run's calibration; "
      f"summary for scripts: {out}/summary.json")
PY
echo "repeat: bash tests/benchmarks/host-model.sh $runs $log2_table"
