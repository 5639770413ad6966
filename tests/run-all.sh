#!/usr/bin/env bash
# The whole test suite: installs what is missing, builds, runs every test,
# then the cluster job (tests/run-cluster.sh: MPICH, no SimGrid, under the
# sanitizers). Arguments go to the first ctest (for instance -R sim to run
# only the simulator's tests).
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/setup
# One test more than cores: many wait (on Slurm's daemons, on launchers), and
# the tests that time something run alone (RUN_SERIAL) whatever the count.
(cd build && ctest --output-on-failure -j "$(($(nproc) + 1))" "$@")
bash tests/run-cluster.sh
