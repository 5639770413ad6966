#!/usr/bin/env bash
# Benchmark: explain against columns the simulator made with a known perturbation, at larger sizes than the
# ctest cases (analysis.explain.*): top3 + 40 cycles above the second size (multi-core), links at half their
# bandwidth on a Blue Gene/P whose network binds (single-core), the longest side of each partition a mesh on that
# machine (single-core, queue level), and a zigzag column nobody explains. Prints,
# for each, explain's verdict, the values it recovered beside the ones made, and the wall time.
# Usage: explain-synthetic.sh [NODES=512,1024,2048,4096] [WALL_BUDGET=900 (explain's, each case)] [CASES=all four]
set -euo pipefail
cd "$(dirname "$0")/../.."
source tests/benchmarks/record.sh
# A subset of the cases records under its own name, so that it does not replace the whole run's table.
name=explain-synthetic${3:+-${3// /-}}
record "$name" "bash tests/benchmarks/explain-synthetic.sh $(printf '%q ' "$@")"
nodes="${1:-512,1024,2048,4096}"
budget="${2:-900}"
cases="${3:-top3-step bandwidth-half meshed-long-side unexplained}"
for case in $cases; do
  echo "== $case, $nodes nodes"
  start=$(date +%s)
  /usr/bin/python3 tests/integration/explain_synthetic.py "$case" --build build --nodes "$nodes" --wall-budget "$budget" \
    --out "results/bench-$name/$case" || echo "(not recovered)"
  echo "wall: $(( $(date +%s) - start )) s"
done
