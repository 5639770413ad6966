#!/usr/bin/env bash
# Benchmark: every network level of gups-sim against flow (steady GUPS ratio, link load, wall time, memory),
# with every mechanism of the machine and in network-bound settings. Writes results/bench-sim-levels/sim-levels.md.
# Usage: sim-levels.sh [--nodes 64,512,4096] [--cases ...] [--levels flow,queue,latency] [--min-updates 8192]
#        [--max-wall S] [--resume]   (python3 tests/benchmarks/sim_levels.py --help)
set -euo pipefail
cd "$(dirname "$0")/../.."
exec python3 tests/benchmarks/sim_levels.py "$@"
