#!/usr/bin/env bash
# Benchmark: explain's blind tests (tests/benchmarks/explain_blind.py): seeded perturbations of one bgp input,
# each column simulated with the machine it changed and explained with the original; prints the table, the
# summary line and the wall time. Raw results in results/bench-explain-blind/ (blind.json, each case's files).
# Usage: explain-blind.sh [CASES=20] [SEED=1] [NODES=64,128,256,512,1024] [SIM_MAX_NODES=256] [JOBS=2]
set -euo pipefail
cd "$(dirname "$0")/../.."
source tests/benchmarks/record.sh
record explain-blind "bash tests/benchmarks/explain-blind.sh $(printf '%q ' "$@")" markdown
start=$(date +%s)
/usr/bin/python3 tests/benchmarks/explain_blind.py --build build --out results/bench-explain-blind \
  --cases "${1:-20}" --seed "${2:-1}" --nodes "${3:-64,128,256,512,1024}" --sim-max-nodes "${4:-256}" \
  --jobs "${5:-2}"
echo
echo "Wall time: $(( $(date +%s) - start )) s, ${5:-2} cases at once."
