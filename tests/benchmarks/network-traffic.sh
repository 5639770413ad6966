#!/usr/bin/env bash
# Benchmark: a network alone under all-to-all and uniform traffic (gups-network), cube against elongated
# partitions, queue against packet level, beside the published Blue Gene/L all-to-all efficiencies. Writes
# results/bench-network-traffic/network-traffic.md, .csv, .json.
# Usage: network-traffic.sh [--machine bgl] [--shapes 8x8x8,...] [--levels queue,packet] [--messages N]
#        [--offered-load 1.5] [--resume]   (python3 tests/benchmarks/network_traffic.py --help)
set -euo pipefail
cd "$(dirname "$0")/../.."
exec python3 tests/benchmarks/network_traffic.py "$@"
