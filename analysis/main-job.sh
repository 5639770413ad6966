#!/usr/bin/env bash
# The main job: installs what is missing, builds, and validates on this host:
# calibrates the `host` machine file, then models, simulates (with the
# calibrated costs) and measures direct, routed and multicore on 1 and 2
# nodes, 3 repeats each, compares owner by division and by prediction on 3
# ranks, and writes the report with its plots.
# Usage: analysis/main-job.sh [RESULTS_FOLDER=results/main]
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/setup
out="${1:-results/main}"
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
echo "main job: calibrating this host" >&2
mpirun -np 2 build/models/gups-calibrate --output "$out/host.json"
echo "main job: model, simulation and measurement" >&2
/usr/bin/python3 -m analysis sweep --machine "$out/host.json" --algorithms direct,routed,multicore \
  --nodes 1,2 --sources model,sim,measured --repeat 3 --updates-per-node 65536 --log2-table 22 --out "$out"
echo "main job: owner by division against prediction (3 ranks, not a power of two)" >&2
/usr/bin/python3 -m analysis sweep --machine "$out/host.json" --algorithms direct --nodes 3 --sources measured \
  --owners division,predict --repeat 3 --log2-table 22 --out "$out"
/usr/bin/python3 -m analysis report --machine "$out/host.json" --out "$out"
echo "main job: report in $out/report.md and $out/report.html"
