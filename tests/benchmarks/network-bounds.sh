#!/usr/bin/env bash
# Benchmark: the model's network bound of each physical network (torus, 5D torus, fat-tree, dragonfly) against
# simulations where the network binds. Writes results/bench-network-bounds/network-bounds.md.
# Usage: network-bounds.sh [--nodes 64,512,4096] [--machines bgp,bgq,fattree,dragonfly] [--network queue]
set -euo pipefail
cd "$(dirname "$0")/../.."
exec python3 tests/benchmarks/network_bounds.py "$@"
