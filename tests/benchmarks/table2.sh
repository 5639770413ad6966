#!/usr/bin/env bash
# Benchmark: the paper's Table 2 on this host (python3 -m analysis table2):
# (a) updates lost by unprotected shared updates, 32M to 512M updates on a
# 16M-word table, 10 runs each; (b) the rate of one core alone against k
# cores sharing the table unprotected, with 1, 16 or 32 locks, and atomic.
# k = the cores this process may use. About 10 minutes on a 2-core host.
# Usage: table2.sh [OUT=results/table2] [more options of `analysis table2`]
set -euo pipefail
cd "$(dirname "$0")/../.."
out="${1:-results/table2}"
shift || true
exec /usr/bin/python3 -m analysis table2 --out "$out" "$@"
