#!/usr/bin/env bash
# Benchmark: HPCC's MPIRandomAccess (Debian's hpcc, installed when missing)
# and HPCC's own hypercube algorithm (Debian's hpcc source package built with
# -DRA_SANDIA_OPT2, against OpenBLAS: libopenblas-dev installed when missing)
# beside every gups update algorithm on the same ranks and the same table,
# interleaved, medians, ratios to HPCC's; HPCC's verification checked. Writes results/bench-hpcc-peer/hpcc-peer.md (docs/update.sh copies
# it into docs/benchmarks.md).
# Usage: hpcc-peer.sh [RANKS=2] [LOG2_TABLE=22] [REPEATS=3]
set -euo pipefail
cd "$(dirname "$0")/../.."
if ! command -v hpcc >/dev/null; then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  echo "bench: installing Debian's hpcc" >&2
  $sudo apt-get install -y -qq hpcc >/dev/null
fi
if ! dpkg -s libopenblas-dev >/dev/null 2>&1; then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  echo "bench: installing libopenblas-dev (HPL's BLAS for HPCC's hypercube build)" >&2
  $sudo apt-get install -y -qq libopenblas-dev >/dev/null || echo "bench: libopenblas-dev not installed" >&2
fi
source tests/benchmarks/record.sh
record hpcc-peer "bash tests/benchmarks/hpcc-peer.sh $(printf '%q ' "$@")" markdown
/usr/bin/python3 tests/benchmarks/hpcc_peer.py --build build --ranks "${1:-2}" --log2-table "${2:-22}" \
  --repeats "${3:-3}"
