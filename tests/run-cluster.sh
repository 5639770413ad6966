#!/usr/bin/env bash
# The cluster job: torus-gups built as most sites that run RandomAccess have
# it, with an MPICH-derived MPI and no SimGrid, in ./build-cluster. SimGrid
# is hidden from cmake (TORUS_GUPS_SIMULATOR=OFF) whether or not it is
# installed. Checks that cmake says in one line what it left out, then runs
# the MPI transcripts under MPICH, the install route and the analysis asked
# to simulate without a simulator. Run by tests/run-all.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
configure_log=$(mktemp)
trap 'rm -f "$configure_log"' EXIT
# The unit tests, free of MPI, ran in the main build: left out here.
cmake -S . -B build-cluster -DTORUS_GUPS_MPI=mpich -DTORUS_GUPS_SIMULATOR=OFF -DTORUS_GUPS_UNIT_TESTS=OFF \
  -DTORUS_GUPS_WERROR=ON -DPython3_EXECUTABLE=/usr/bin/python3 >"$configure_log"
grep -E "^-- (MPI|Left out):" "$configure_log"
if ! grep -q "^-- MPI: MPICH" "$configure_log" || [ "$(grep -c "^-- Left out: the simulator" "$configure_log")" != 1 ]; then
  echo "cluster job: cmake did not say MPICH and, in one line, that it left the simulator out" >&2
  exit 1
fi
cmake --build build-cluster -j "$(nproc)"
cd build-cluster
ctest --output-on-failure -j "$(nproc)" -L 'mpi|install|nosim'
