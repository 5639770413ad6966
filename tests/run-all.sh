#!/usr/bin/env bash
# The whole test suite: installs what is missing, builds, runs every test,
# then the cluster job (tests/run-cluster.sh: MPICH, no SimGrid, under the
# sanitizers). Arguments go to the first ctest (for instance -R sim to run
# only the simulator's tests).
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/setup
(cd build && ctest --output-on-failure -j "$(nproc)" "$@")
bash tests/run-cluster.sh
